#!/usr/bin/env bash
# Sets up, builds and runs every test: the default build with GCC (CUDA when nvcc is present; GPU
# tests skip without a device; with MPI, so the mpirun tests run), then the CPU-only build with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer (preset clang-asan: the whole suite under the sanitizers, the CUDA
# sources run on the CPU by the emulation build, where every GPU test must run: WARPSPAN_REQUIRE_GPU=1
# fails a GPU test that would skip; and the libFuzzer targets), and scripts/fuzz.sh running each fuzz
# target for FUZZ_SECONDS (60 by default).
# WARPSPAN_SKIP_SANITIZERS=1 stops after the default build; WARPSPAN_SKIP_FUZZ=1 skips the fuzzing.
# Last, scripts/format.sh --check: every C++ and CUDA source in the house style (.clang-format).
# Both builds are unity builds of the library and the tests (WARPSPAN_UNITY: eight sources a
# translation unit), a quarter faster from a clean tree; their sources compile one by one without it.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's wall time after it, so that where CI's half hour goes can be read off its log.
timed() {
  local start=$SECONDS
  "$@"
  echo "-- $((SECONDS - start)) s: $*"
}
timed bash scripts/setup.sh
jobs=$(nproc)

echo "== default build (with MPI) =="
# Without a GPU the device code is only compiled (its tests run in the emulation build below): for
# sm_90 alone, whose resource report the emulation's occupancy uses, not sm_80 as well.
archs=()
if ! nvidia-smi -L >/dev/null 2>&1; then archs=(-DCMAKE_CUDA_ARCHITECTURES=90); fi
cmake --preset default -DWARPSPAN_MPI=ON -DWARPSPAN_UNITY=ON "${archs[@]}" >/dev/null
timed cmake --build --preset default -j "$jobs"
timed ctest --preset default -j "$jobs"

if [ "${WARPSPAN_SKIP_SANITIZERS:-0}" != 1 ]; then
  echo "== clang, ASan + UBSan, CUDA emulation (every GPU test runs) and the fuzz targets =="
  cmake --preset clang-asan -DWARPSPAN_UNITY=ON >/dev/null
  timed cmake --build --preset clang-asan -j "$jobs"
  timed ctest --preset clang-asan -j "$jobs"
  if [ "${WARPSPAN_SKIP_FUZZ:-0}" != 1 ]; then
    echo "== fuzzing, ${FUZZ_SECONDS:-60} s per target =="
    timed bash scripts/fuzz.sh
  fi
fi

echo "== the house style (.clang-format) =="
timed bash scripts/format.sh --check
