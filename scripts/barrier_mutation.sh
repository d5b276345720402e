#!/usr/bin/env bash
# Every barrier must matter (issue 23): removes each __syncthreads() under cuda/ in turn, rebuilds
# the tests of the emulation build (the clang-asan preset, which traces the kernels for the race
# checker), runs the GPU tests of that file's kernels in the ascending order and, if they pass, in a
# random one, and records whether some test failed (a reported race, barrier divergence or a wrong
# result) or the mutant survived. The file is restored after each mutant, also when interrupted.
#
#   scripts/barrier_mutation.sh                      # every barrier
#   scripts/barrier_mutation.sh cuda/wcet/sdk_kernels.cu:112 ...   # only these
#
# Writes one line per barrier to $OUT (default bench/results/current/barrier_mutation.tsv; appended, with
# the commit) and prints it. Needs a configured build-clang-asan (see scripts/test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build-clang-asan}
out=${OUT:-bench/results/current/barrier_mutation.tsv}
commit=$(git rev-parse --short HEAD)

# The GPU tests that run each barrier's kernel (FILTER overrides; all GPU tests for a file not
# listed). The narrowest set that runs the kernel in every variant: each mutant costs a rebuild and
# a run of these under the race checker, twice when it survives the first order.
filter_for() {
  if [ -n "${FILTER:-}" ]; then echo "$FILTER"; return; fi
  # The kernel the barrier is in: the last __global__ function above it.
  local kernel
  kernel=$(head -n "${1##*:}" "${1%%:*}" | tr '\n' ' ' | grep -o '__global__[^(]*(' | tail -1 | grep -o '[a-z_0-9]*($' | tr -d '(' || true)
  case "$1:$kernel" in
    cuda/wcet/*) echo 'WcetGpu.EveryKernelsTracesParseWithItsCfg' ;;  # every instrumented kernel
    cuda/dbf/*:dbf_level_kernel) echo 'CudaDbf.LevelKernelsMatchesCpu' ;;
    # block_inclusive_scan, a __device__ function after dbf_batch_kernel, runs in the on-chip kernel
    cuda/dbf/*:dbf_batch_kernel) echo 'CudaDbf.BatchKernelMatchesCpu:CudaDbf.OnChipStepsMatchesCpu' ;;
    cuda/dbf/*:dbf_onchip_kernel) echo 'CudaDbf.OnChipStepsMatchesCpu' ;;
    cuda/dbf/*) echo 'CudaDbf.*' ;;
    cuda/makespan/*) echo 'CudaAnneal.VoronoiChainsMatchesCpu:CudaAnneal.OnChipVoronoiFewWarpsMatchesCpu' ;;
    *) echo '*MatchesCpu*:*Gpu*' ;;
  esac
}

if [ $# -gt 0 ]; then
  sites=("$@")
else
  mapfile -t sites < <(grep -rn --include='*.cu' --include='*.cuh' '__syncthreads()' cuda include |
                         grep -v '^cuda/emulation/' | cut -d: -f1,2)
fi

backup=""
restore() { if [ -n "$backup" ]; then mv -f "$backup" "${backup%.mutation-orig}"; touch "${backup%.mutation-orig}"; backup=""; fi; }  # touch: ninja must rebuild the restored file
trap restore EXIT INT TERM

[ -f "$out" ] || printf 'commit\tbarrier\tcode\tverdict\thow\n' > "$out"
for site in "${sites[@]}"; do
  file=${site%%:*} line=${site##*:}
  code=$(sed -n "${line}p" "$file" | sed 's/^ *//')
  backup="$file.mutation-orig"
  cp "$file" "$backup"
  sed -i "${line}s/__syncthreads()/static_cast<void>(0)/" "$file"
  verdict=survived how="every test passed in both orders"
  if ! nice cmake --build "$build" --target warpspan_tests -j 2 >/tmp/barrier_mutation_build.log 2>&1; then
    verdict=error how="build failed (see /tmp/barrier_mutation_build.log)"
  else
    for order in ascending random:2023; do
      log=/tmp/barrier_mutation_test.log
      if ! WARPSPAN_REQUIRE_GPU=1 WARPSPAN_EMU_ORDER=$order "$build/tests/warpspan_tests" \
           --gtest_filter="$(filter_for "$site")" >"$log" 2>&1; then
        verdict=caught
        first=$(grep -m1 'warpspan emulation: race check' "$log" | cut -c21-260 || true)
        # A read of shared memory before it is written may crash first (the emulation fills shared
        # memory with 0xA5, so a staged index points far away), as it would fault on a device.
        [ -n "$first" ] || first=$(grep -m1 -o 'AddressSanitizer: [A-Za-z-]* on [a-z ]*' "$log" | sed 's/^/crash: /' || true)
        [ -n "$first" ] || first="wrong result: $(grep -m1 '^\[  FAILED  \]' "$log" || echo 'test failed')"
        how="$order: $first"
        break
      fi
    done
  fi
  restore
  printf '%s\t%s\t%s\t%s\t%s\n' "$commit" "$site" "$code" "$verdict" "$how" | tee -a "$out"
done
# Leave the build as the sources are.
nice cmake --build "$build" --target warpspan_tests -j 2 >/dev/null 2>&1 || true
