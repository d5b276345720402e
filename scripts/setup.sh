#!/usr/bin/env bash
# Installs what warpspan needs to build and test on a Debian machine, only what is missing.
# CUDA is optional: with nvcc at /usr/local/cuda/bin (or on PATH) the CUDA backend is built too.
set -euo pipefail
# clang (the clang-asan build and libFuzzer: clang-14 with its sanitizer and fuzzer runtimes in
# libclang-rt-14-dev; llvm for llvm-symbolizer, which turns sanitizer reports into file:line;
# clang-format for scripts/format.sh, the house style of .clang-format). The Python
# module (python/): pybind11 and Python's headers to build it, pytest and numpy to test it; matplotlib
# is optional (python/examples plots with it when present). Open MPI for the MPI build
# (-DWARPSPAN_MPI=ON, preset mpi; CI's default build has it): mpicxx's headers and mpirun.
packages=(cmake ninja-build g++ libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev libcli11-dev pkg-config coinor-libcbc-dev
          clang libclang-rt-14-dev llvm clang-format
          python3-dev pybind11-dev python3-pytest python3-numpy
          libopenmpi-dev openmpi-bin)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: nvcc found, the CUDA backend will be built"
else
  echo "setup: no nvcc, building the CPU backend only"
fi
