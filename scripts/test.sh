#!/usr/bin/env bash
# Sets up, builds and runs every test: the default build (CUDA when nvcc is present; GPU tests skip
# without a device) and the CPU-only build with AddressSanitizer and UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
jobs=$(nproc)

echo "== default build =="
cmake --preset default >/dev/null
cmake --build --preset default -j "$jobs"
ctest --preset default -j "$jobs"

if [ "${WARPSPAN_SKIP_SANITIZERS:-0}" != 1 ]; then
  echo "== CPU-only build with ASan + UBSan =="
  cmake --preset cpu-asan >/dev/null
  cmake --build --preset cpu-asan -j "$jobs"
  ctest --preset cpu-asan -j "$jobs"
fi
