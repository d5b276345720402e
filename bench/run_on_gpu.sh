#!/usr/bin/env bash
# The GPU suite and benchmarks on a GPU machine, in two steps.
#
# Here (a machine with nvcc, no GPU needed):
#   bash bench/run_on_gpu.sh
# builds for Hopper (preset gpu-h100: sm_90, CUDA runtime and GoogleTest static) and stages into
# .device/ what a bare GPU machine needs: the test, benchmark and CLI binaries, the test harness
# modules, and every shared library they use beyond the C and C++ runtimes (Google Benchmark, CBC
# and the rest of COIN-OR, BLAS/LAPACK, OpenMP, ...), with the source and build paths the tests
# were compiled with.
#
# There, from a copy of the repository with .device_pack/ beside it (the device tool's `carry`; it
# is unpacked into .device/ on the first run), or with .device/ itself:
#   bash bench/run_on_gpu.sh --run OUTDIR [PHASES]
# Two runs side by side (tests and sanitize, say) with different OUTDIRs work; benchmarks want the
# machine to themselves.
# PHASES is a comma-separated list (default: tests,sanitize,bench,bench_exact,cli,ncu):
#   calibrate  not in the default: the GPU model's microbenchmarks (BM_Calibrate*: pointer chase in
#             shared memory, L1, L2 and HBM; scattered sectors against warps a SM; coalesced reads
#             of a footprint in L2 or HBM; launch gap; pinned host-device copies)
#   tests     the whole test suite (8 shards side by side), WARPSPAN_REQUIRE_GPU=1 so that a GPU test
#             that would skip fails; failures are rerun alone once to tell load from bugs
#             (WARPSPAN_TEST_FILTER=...: only those tests, in one process)
#   sanitize  compute-sanitizer racecheck, synccheck and memcheck over the kernels' GPU tests, at
#             the emulation's sizes (WARPSPAN_GPU_TEST_SIZE=small), side by side
#             (WARPSPAN_SANITIZE_TOOLS, _FILTER, _SECONDS override the tools, tests and time box)
#   bench     warpspan_bench: CPU, CPU-parallel, GPU and GPU-shared-memory side by side (JSON;
#             WARPSPAN_BENCH_FILTER, _SECONDS override the filter and time box)
#   bench_dbf_home  the dbf kernels with the tuples' home varied (global, staged, the table on chip),
#             predecessors from 2 to 512, and 1,000 task sets end to end on every backend (issue 43)
#   bench_uncached  the same dbf benchmarks built with global loads past L1 (-dlcm=cg, paper 003's
#             condition; staged only with WARPSPAN_STAGE_UNCACHED=1)
#   bench_exact  the exact searches' benchmarks, CPU against CUDA, one iteration each
#   cli       warpspan on the shipped data with --backend cuda: estimate, exact, dbf, wcet-collect
#   dense     not in the default: the dense sweep on the device, Voronoi W = 12 (exact, and asked
#             whether T <= 128), then W = 16 asked whether T <= 170 (exact --at-most 170: the upper
#             end issue 26 wants) within WARPSPAN_DENSE_SECONDS (default 300): its 103 GB table on
#             an H200, its window of sums (6.5 GB) on an H100; about 7 minutes at most in all
#   dense_exact  not in the default: the exact T(13) and T(16) on the device (the latter within
#             WARPSPAN_DENSE_SECONDS, default 300; a T(16) beyond the warm start's string is traced
#             back within the same limit, about two passes more and up to 56 GB of host memory)
#   ncu       Nsight Compute's view of the dbf level kernels (global vs shared-memory tuples)
#   time_to_target  not in the default: the hard makespan corpus (bench/corpus/hard_corpus.json), the
#             wall time from process start to each case's target, cuda then the same machine's
#             all-core cpu, WARPSPAN_TTT_SEEDS seeds (default 3) of WARPSPAN_TTT_BUDGET seconds
#             (default 20) each, constructive starts off (issue 42, items 6 and 7)
# Every step is time-boxed; logs and JSON go to OUTDIR/run/, packed into OUTDIR/gpu_<PHASES>.tar.gz,
# and OUTDIR/summary.txt says what passed, failed, skipped and ran out of time.
# To keep a run: bench/results/current/gpu_<device>_<date>/ with the raw files and a .md beside it
# (machine, commit, commands, what it measured); the run it replaces moves to bench/results/archive/gpu/.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" != "--run" ]; then
  set -e
  cmake --preset gpu-h100 >/dev/null
  cmake --build --preset gpu-h100 -j "$(nproc)"
  rm -rf .device && mkdir -p .device/lib .device/harness_fixtures
  cp build-gpu/tests/warpspan_tests build-gpu/bench/warpspan_bench build-gpu/warpspan .device/
  cp build-gpu/tests/harness_fixtures/*.so .device/harness_fixtures/
  strip --strip-unneeded .device/warpspan_tests .device/warpspan_bench .device/warpspan
  for f in .device/warpspan_tests .device/warpspan_bench .device/warpspan .device/harness_fixtures/*.so; do
    ldd "$f" | awk '/=> \// {print $3}'
  done | sort -u | grep -v -E '/(libc|libm|libpthread|libdl|librt|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' \
    | xargs -r -I{} cp -L {} .device/lib/
  {
    echo "source_dir=$PWD"
    echo "build_dir=$PWD/build-gpu"
    echo "commit=$(git rev-parse HEAD)$(git diff --quiet HEAD || echo ' (with uncommitted changes)')"
    echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname) with $(nvcc --version | tail -1)"
  } > .device/paths.txt
  if [ -n "${WARPSPAN_STAGE_UNCACHED:-}" ]; then  # phase bench_uncached: the dbf kernels' loads past L1
    cmake -S . -B build-gpu-uncached -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DWARPSPAN_CUDA_UNCACHED_LOADS=ON -DWARPSPAN_PYTHON=OFF >/dev/null
    cmake --build build-gpu-uncached --target warpspan_bench -j "$(nproc)"
    cp build-gpu-uncached/bench/warpspan_bench .device/warpspan_bench_uncached
    strip --strip-unneeded .device/warpspan_bench_uncached
  fi
  du -sh .device
  # .device/ (about 60 MiB) beside the tree would pass the 64 MiB a device call carries: packed.
  mkdir -p .device_pack && tar -cJf .device_pack/device.tar.xz .device
  grep -qx '/.device_pack/' .git/info/exclude 2>/dev/null || echo '/.device_pack/' >> .git/info/exclude
  du -sh .device_pack/device.tar.xz
  echo "staged in .device/, packed in .device_pack/; on the GPU machine (carry .device_pack):"
  echo "  bash bench/run_on_gpu.sh --run OUT [PHASES]"
  exit 0
fi

out=${2:?usage: bench/run_on_gpu.sh --run OUTDIR [PHASES]}
if [ ! -f .device/paths.txt ] && [ -f .device_pack/device.tar.xz ]; then tar -xJf .device_pack/device.tar.xz; fi
phases=",${3:-tests,sanitize,bench,bench_exact,cli,ncu},"
run="$out/run"
mkdir -p "$run"
summary="$out/summary.txt"
note() { echo "$*" | tee -a "$summary"; }
# step NAME SECONDS CMD...: runs CMD with a time limit, logs to run/NAME.log, notes how it ended.
step() {
  local name=$1 limit=$2 t0 rc
  shift 2
  t0=$(date +%s)
  timeout --kill-after=10 "$limit" "$@" > "$run/$name.log" 2>&1
  rc=$?
  note "$(printf '%-28s rc=%-3s %4ss%s' "$name" "$rc" "$(($(date +%s) - t0))" \
    "$([ $rc = 124 ] || [ $rc = 137 ] && echo '  (ran out of time)')")"
  return $rc
}

# The paths the tests were compiled with (the source tree, the CLI binary, the harness modules).
source_dir=$(sed -n 's/^source_dir=//p' .device/paths.txt)
build_dir=$(sed -n 's/^build_dir=//p' .device/paths.txt)
# Where this tree is elsewhere, a link from the compiled-in path to it; never anything removed.
if [ "$(readlink -f "$source_dir" 2>/dev/null)" != "$(readlink -f "$PWD")" ]; then
  # -T: where a run started beside this one made the link first, it is not followed into.
  if [ ! -e "$source_dir" ] && [ ! -L "$source_dir" ]; then
    mkdir -p "$(dirname "$source_dir")" && ln -sT "$PWD" "$source_dir" 2>/dev/null
  fi
  if [ "$(readlink -f "$source_dir" 2>/dev/null)" != "$(readlink -f "$PWD")" ]; then
    echo "bench/run_on_gpu.sh: the tests were built for $source_dir, which is another tree here; run from it" >&2
    exit 2
  fi
fi
mkdir -p "$build_dir/tests/harness_fixtures"
cp .device/warpspan "$build_dir/warpspan"
cp .device/harness_fixtures/*.so "$build_dir/tests/harness_fixtures/"
export LD_LIBRARY_PATH="$PWD/.device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export WARPSPAN_REQUIRE_GPU=1
W=.device/warpspan

{
  date -u +%Y-%m-%dT%H:%M:%SZ
  cat .device/paths.txt
  nvidia-smi -L
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
  nproc
} > "$run/device.txt" 2>&1
note "== $(nvidia-smi -L 2>&1 | head -1); $(sed -n 's/^commit=//p' .device/paths.txt)"
step smoke 30 $W exact --kernel 5L9C2L9C --warps 4 --sigma L=1,C=4 --backend cuda --json || true

if [[ $phases == *,tests,* ]] && [ -n "${WARPSPAN_TEST_FILTER:-}" ]; then
  step tests_filtered 300 .device/warpspan_tests --gtest_filter="$WARPSPAN_TEST_FILTER" || true
  grep -E '^\[  (FAILED|PASSED|SKIPPED) ' "$run/tests_filtered.log" | sed 's/^/  /' >> "$summary"
elif [[ $phases == *,tests,* ]]; then
  t0=$(date +%s)
  for i in 0 1 2 3 4 5 6 7; do
    GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i timeout --kill-after=10 240 .device/warpspan_tests \
      --gtest_output=xml:"$run/tests_shard$i.xml" > "$run/tests_shard$i.log" 2>&1 &
  done
  wait
  names() { cat "$run"/tests_shard*.log | grep "^\[ *$1 *\] [A-Za-z]" | sed 's/^\[[A-Z ]*\] //; s/, where .*//; s/ (.*//' | sort -u; }
  passed=$(names OK | grep -c .)
  skipped=$(names SKIPPED)
  failed=$(names FAILED)
  note "tests (8 shards)              ${passed} passed, $(echo -n "$skipped" | grep -c .) skipped, $(echo -n "$failed" | grep -c .) failed, $(($(date +%s) - t0))s"
  [ -z "$skipped" ] || echo "$skipped" | sed 's/^/  skipped: /' >> "$summary"
  if [ -n "$failed" ]; then
    note "  failed under load: $(echo $failed | tr ' ' ':')"
    step tests_failed_rerun 120 .device/warpspan_tests --gtest_filter="$(echo $failed | tr ' ' ':')" || true
    grep -E '^\[  (FAILED|PASSED) ' "$run/tests_failed_rerun.log" | sed 's/^/  rerun alone: /' >> "$summary"
  fi
fi

if [[ $phases == *,sanitize,* ]]; then
  # Kernels new or changed since the last GPU run (H200, 2026-11-27, commit 973dad3): the annealing
  # kernel's narrow and compact chains and its warp-a-chain design (issue 42: every packing on both paths, on chip interleaved
  # by word, W = 16 compact on chip) and the dbf launches from a run's workspace (issue 43), the
  # single table as one CUDA graph with its steps built across the device (issue 43, item 3). racecheck
  # runs them in one process and, beside it, the kernels whose racecheck or memcheck that run's
  # time box cut off (the annealing kernel wide, the sweeps, inputs, WCET).
  changed='CudaAnneal.WarpDesignMatchesCpu:CudaAnneal.EveryPackingMatchesCpu:CudaAnneal.VoronoiChainsMatchesCpu'
  changed+=':CudaAnneal.OnChipVoronoiFewWarpsMatchesCpu:CudaDbf.KernelTimeIsCountedGpu'
  changed+=':CudaDbf.BatchesOfARunShareOneWorkspaceMatchesCpu:CudaDbf.SingleTableStepsMatchesCpu'
  changed+=':CudaDbf.LevelKernelsMatchesCpu'
  earlier='Barriers.AnnealChainsMatchesCpu:DenseSweep.CudaAtMostMatchesCpu:CudaAnneal.LargeStateInGlobalMemoryMatchesCpu'
  earlier+=':CudaAnneal.SchedulerLimitAndAllUnitsMatchesCpu:ExactSweep.CudaSweepMatchesCpu'
  earlier+=':ExactSweep.CompactedPendingBuffersMatchCpuGpu:ExactFrontier.CudaSearchMatchesCpu'
  earlier+=':CudaInputs.ArtificialMatchesCpu:CudaInputs.BfsMatchesCpu:CudaInputs.LbmMatchesCpu'
  earlier+=':WcetGpu.VectorAddRecordsEveryWarpOnce:WcetGpu.SequentialReductionRecordsTheStepsEachWarpTakes'
  kernels=${WARPSPAN_SANITIZE_FILTER:-$changed:$earlier}
  tools=${WARPSPAN_SANITIZE_TOOLS:-racecheck synccheck memcheck}
  if command -v compute-sanitizer >/dev/null; then
    runs=()
    for tool in $tools; do
      if [ $tool = racecheck ] && [ -z "${WARPSPAN_SANITIZE_FILTER:-}" ]; then
        runs+=("racecheck:racecheck:$changed" "racecheck_earlier:racecheck:$earlier")
      else
        runs+=("$tool:$tool:$kernels")
      fi
    done
    for r in "${runs[@]}"; do
      IFS=: read -r name tool filter <<<"$r"
      filter=${r#*:*:}
      extra=()
      [ $tool = racecheck ] && extra=(--racecheck-report all)
      WARPSPAN_GPU_TEST_SIZE=small step "sanitize_$name" "${WARPSPAN_SANITIZE_SECONDS:-200}" compute-sanitizer --tool $tool "${extra[@]}" \
        --error-exitcode 3 --print-limit 20 .device/warpspan_tests --gtest_filter="$filter" &
    done
    wait
    for r in "${runs[@]}"; do
      name=${r%%:*}
      grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED) ' "$run/sanitize_$name.log" | sed "s/^/  $name: /" >> "$summary"
    done
  else
    note "sanitize: compute-sanitizer not found"
  fi
fi

if [[ $phases == *,calibrate,* ]]; then  # the GPU model's microbenchmarks (issue 42, item 5)
  step calibrate 120 .device/warpspan_bench --benchmark_filter='BM_Calibrate' \
    --benchmark_format=json --benchmark_out="$run/calibrate.json" || true
fi

if [[ $phases == *,bench,* ]]; then
  step bench "${WARPSPAN_BENCH_SECONDS:-150}" .device/warpspan_bench \
    --benchmark_filter="${WARPSPAN_BENCH_FILTER:-BM_DbfTable|BM_DbfBatch|BM_Chains|model_all_cores|gpu_backend}" \
    --benchmark_min_time=0.1 --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
    --benchmark_format=json --benchmark_out="$run/bench.json" || true
  (unset LD_LIBRARY_PATH; python3 bench/compare_model.py "$run/bench.json" --device-file "$run/device.txt" \
    > "$run/model_vs_measured.md" 2>&1) || true
fi

if [[ $phases == *,bench_dbf_home,* ]]; then  # GPU vs GPU-SM, the tuples' home varied (issue 43, item 4)
  # The one-core reference is left out at 50 vertices (about 40 s a run; BM_DbfTable has it per table).
  # BM_DbfFromFile: 1,000 and 100,000 sets from a .jsonl file to the verdicts (issue 43, item 5);
  # BM_DbfHostShare: this machine's host share of a set (reading, parsing, unrolling, test), which
  # the GPU model's end-to-end rows read (`warpspan_gpu_model --host-share`). BM_DbfOnChipPlan: the
  # on-chip kernel as planned on 2026-11-27 and as now, the latency model's prediction to check.
  step bench_dbf_home "${WARPSPAN_DBF_HOME_SECONDS:-180}" .device/warpspan_bench \
    --benchmark_filter='BM_DbfPredecessors|BM_DbfEndToEnd/backend:[123]/|BM_DbfFromFile/backend:[123]/|BM_DbfBatch/backend:[1-4]/|BM_DbfOnChipPlan|BM_DbfHostShare|/backend:0/sets:1000/vertices:10/' \
    --benchmark_format=json --benchmark_out="$run/bench_dbf_home.json" || true
fi
if [[ $phases == *,bench_uncached,* ]] && [ -x .device/warpspan_bench_uncached ]; then
  step bench_uncached 60 .device/warpspan_bench_uncached --benchmark_filter='BM_DbfPredecessors|BM_DbfTable/backend:[23]/vertices:50' \
    --benchmark_format=json --benchmark_out="$run/bench_uncached.json" || true
fi

if [[ $phases == *,bench_exact,* ]]; then
  step bench_exact 90 .device/warpspan_bench \
    --benchmark_filter='BM_ExactSweep/[4-7]/|BM_ExactSweep/8/0|BM_ExactFrontier|BM_ExactDense|BM_TimeTo160Cuda' \
    --benchmark_format=json --benchmark_out="$run/bench_exact.json" || true
fi

if [[ $phases == *,cli,* ]]; then
  step estimate_voronoi_cuda 40 $W estimate --kernel 5L9C2L9C --warps 16 --sigma L=1,C=4 --backend cuda \
    --seconds 10 --validate 16 --exact-seconds 0 --json --quiet || true
  for w in 9 10 11; do  # the dense sweep where the device holds its table, else the progress sweep
    step "exact_cuda_w$w" 45 $W exact --kernel 5L9C2L9C --warps $w --sigma L=1,C=4 --backend cuda \
      --time-limit 30 --json --no-table || true
  done
  for b in cpu cuda cuda-sm; do
    step "dbf_fig2_$b" 30 $W dbf data/tasks/fig2_example.json --at 10,50,100,1000 --backend $b --json || true
    step "dbf_batch_$b" 60 $W dbf --batch data/tasks/variants.jsonl --backend $b --json || true
  done
  # Hybrid WCET from traces (002): every instrumented kernel collected on the device, then analysed
  # (--probe-cost auto subtracts the measured cost of an empty probe).
  mkdir -p "$run/wcet"
  for k in vector_add reduce_interleaved reduce_sequential transpose_naive transpose_shared scan histogram bitonic_sort; do
    step "wcet_collect_$k" 30 $W wcet-collect $k --runs 64 --seed 1 --out "$run/wcet/$k.bin" \
      --cfg-out "$run/wcet/$k.cfg.json" || continue
    step "wcet_$k" 30 $W wcet --cfg "$run/wcet/$k.cfg.json" --trace "$run/wcet/$k.bin" --probe-cost auto --json || true
    rm -f "$run/wcet/$k.bin"
  done
fi

if [[ $phases == *,dense,* ]]; then
  step exact_dense_cuda_w12 75 $W exact --kernel 5L9C2L9C --warps 12 --sigma L=1,C=4 --backend cuda \
    --time-limit 60 --json --no-table || true
  step exact_dense_cuda_w12_at_most_128 45 $W exact --kernel 5L9C2L9C --warps 12 --sigma L=1,C=4 --backend cuda \
    --at-most 128 --time-limit 30 --json --no-table || true
  s=${WARPSPAN_DENSE_SECONDS:-300}
  step exact_dense_cuda_w16_at_most_170 $((s + 60)) $W exact --kernel 5L9C2L9C --warps 16 --sigma L=1,C=4 \
    --backend cuda --at-most 170 --time-limit "$s" --json --no-table || true
fi

if [[ $phases == *,dense_exact,* ]]; then
  step exact_dense_cuda_w13 130 $W exact --kernel 5L9C2L9C --warps 13 --sigma L=1,C=4 --backend cuda \
    --time-limit 100 --json --no-table || true
  s=${WARPSPAN_DENSE_SECONDS:-300}
  step exact_dense_cuda_w16 $((s + 60)) $W exact --kernel 5L9C2L9C --warps 16 --sigma L=1,C=4 --backend cuda \
    --time-limit "$s" --json --no-table || true
fi

if [[ $phases == *,time_to_target,* ]] && [ -f bench/corpus/hard_corpus.json ]; then
  ttt_seeds=${WARPSPAN_TTT_SEEDS:-3}
  ttt_budget=${WARPSPAN_TTT_BUDGET:-20}
  ttt_cases=$(python3 -c 'import json; print(len(json.load(open("bench/corpus/hard_corpus.json"))["cases"]))')
  for b in cuda cpu; do  # the same cases and seeds on both, one after the other
    step "time_to_target_$b" $((ttt_cases * ttt_seeds * (ttt_budget + 15) + 30)) python3 bench/corpus/time_to_target.py \
      $W measure --backend $b --budget "$ttt_budget" --seeds "$ttt_seeds" --out "$run/time_to_target_$b.json" || true
  done
fi

if [[ $phases == *,ncu,* ]] && command -v ncu >/dev/null; then
  for b in 2 3; do  # 2: cuda (tuples from global memory), 3: cuda-sm (staged in shared memory)
    step "ncu_dbf_backend$b" 40 ncu --clock-control none --kernel-name regex:dbf_level_kernel --launch-skip 20 \
      --launch-count 2 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
      .device/warpspan_bench --benchmark_filter="BM_DbfTable/backend:$b/vertices:50/block:256" \
      --benchmark_min_time=0.01 || true
  done
fi

tar -C "$out" -czf "$out/gpu_$(echo "${3:-all}" | tr ',' '_').tar.gz" run && rm -rf "$run"
exit 0
