#!/usr/bin/env bash
# Builds for an H100 here (sm_90, CUDA runtime and GoogleTest static) and stages into .device/ what a
# bare GPU machine needs: the test and benchmark binaries, warpspan, and the shared libraries it
# lacks (Google Benchmark). Then, on the GPU machine, from the repository root:
#   bash bench/run_on_gpu.sh --run OUTDIR
# runs the whole GPU suite and the benchmarks and writes logs and JSON into OUTDIR, and ends by printing
# the emulated model's predicted rates beside the measured ones (bench/compare_model.py).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--run" ]; then
  out=${2:?usage: bench/run_on_gpu.sh --run OUTDIR}
  mkdir -p "$out"
  export LD_LIBRARY_PATH="$PWD/.device/lib:${LD_LIBRARY_PATH:-}"
  export WARPSPAN_REQUIRE_GPU=1  # a GPU test that skips on the GPU machine is a failure
  { nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; } > "$out/device.txt" 2>&1 || true
  cat .device/commit.txt >> "$out/device.txt" 2>/dev/null || true
  .device/warpspan_tests --gtest_filter='*MatchesCpu*:*Gpu*' > "$out/gpu_tests.log" 2>&1 || echo "GPU TESTS FAILED" >> "$out/gpu_tests.log"
  .device/warpspan_tests > "$out/all_tests.log" 2>&1 || echo "TESTS FAILED" >> "$out/all_tests.log"
  .device/warpspan_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
    --benchmark_format=json --benchmark_out="$out/bench.json" > "$out/bench.log" 2>&1 || true
  .device/warpspan estimate --kernel 5L9C2L9C --warps 16 --sigma L=1,C=4 --backend cuda --seconds 10 \
    --validate 16 --json --quiet > "$out/voronoi_cuda.json" 2> "$out/voronoi_cuda.err" || true
  # The exact progress sweep on the device for growing W (the CPU sweep: W = 9 in 76 s, 10 in 914 s
  # on 2 cores), each stopped after 150 s with its proven interval.
  for w in 8 9 10 11 12; do
    timeout 200 .device/warpspan exact --kernel 5L9C2L9C --warps $w --sigma L=1,C=4 --backend cuda \
      --time-limit 150 --json --no-table > "$out/exact_sweep_cuda_w$w.json" 2>&1 || true
  done
  for b in cpu cuda cuda-sm; do
    .device/warpspan dbf data/tasks/fig2_example.json --at 10,50,100,1000 --backend $b --json \
      > "$out/dbf_fig2_$b.json" 2>&1 || true
    .device/warpspan dbf --batch data/tasks/variants.jsonl --backend $b --json > "$out/dbf_batch_$b.jsonl" 2>&1 || true
  done
  # Hybrid WCET from traces (002): every instrumented kernel collected on the device with the probe,
  # then analysed (the --probe-cost auto run subtracts the measured empty-probe cost).
  mkdir -p "$out/wcet"
  for k in vector_add reduce_interleaved reduce_sequential transpose_naive transpose_shared scan histogram bitonic_sort; do
    .device/warpspan wcet-collect $k --runs 64 --seed 1 --out "$out/wcet/$k.bin" --cfg-out "$out/wcet/$k.cfg.json" \
      > "$out/wcet/$k.collect.txt" 2>&1 || continue
    .device/warpspan wcet --cfg "$out/wcet/$k.cfg.json" --trace "$out/wcet/$k.bin" --json \
      > "$out/wcet/$k.json" 2> "$out/wcet/$k.err" || true
    .device/warpspan wcet --cfg "$out/wcet/$k.cfg.json" --trace "$out/wcet/$k.bin" --probe-cost auto \
      --svg-dir "$out/wcet/${k}_svg" > "$out/wcet/$k.txt" 2>> "$out/wcet/$k.err" || true
  done
  # The profiler's view of the dbf row kernels (global vs shared-memory tuples) on the 50-vertex graph.
  if command -v ncu >/dev/null 2>&1; then
    for b in 2 3; do  # 2: cuda (tuples from global memory), 3: cuda-sm (staged in shared memory)
      ncu --kernel-name regex:dbf_row_kernel --launch-skip 50 --launch-count 2 --section SpeedOfLight \
        --section MemoryWorkloadAnalysis .device/warpspan_bench \
        --benchmark_filter="BM_DbfTable/backend:$b/vertices:50/block:256" --benchmark_min_time=0.01s \
        > "$out/ncu_dbf_backend$b.txt" 2>&1 || true
    done
  fi
  # Predicted beside measured: the emulated bandwidth model (bench/results/gpu_model_emulated.json,
  # from warpspan_gpu_model) against this run's benchmark rates.
  python3 bench/compare_model.py "$out/bench.json" --device-file "$out/device.txt" | tee "$out/model_vs_measured.md" || true
  exit 0
fi

cmake --preset gpu-h100 -DGTEST_ROOT=/usr >/dev/null
cmake --build --preset gpu-h100 -j "$(nproc)"
rm -rf .device && mkdir -p .device/lib
cp build-gpu/tests/warpspan_tests build-gpu/bench/warpspan_bench build-gpu/warpspan .device/
for bin in .device/warpspan_tests .device/warpspan_bench .device/warpspan; do
  ldd "$bin" | awk '/=> \// {print $3}' | grep -E 'benchmark|gtest|gmock|Cbc|Clp|Cgl|Osi|Coin|lapack|blas|gfortran|quadmath' | xargs -r -I{} cp -L {} .device/lib/
done
git rev-parse HEAD > .device/commit.txt
echo "staged in .device/; on the GPU machine run: bash bench/run_on_gpu.sh --run OUT"
