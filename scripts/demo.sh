#!/usr/bin/env bash
# Sets up, builds, and runs the main analysis on the data shipped in data/: the worst-case makespan
# of the paper's Voronoi kernel (000 VIII), imported from PTX, 16 warps, sigma_L = 1, sigma_C = 4.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default --target warpspan
# The paper's string is the first pass of the kernel's loop: the lines up to its branch back.
./build/warpspan estimate --ptx data/kernels/voronoi_fig11.ptx --ptx-lines 1:66 --warps 16 --sigma L=1,C=4 \
  --seconds 5 --svg-dir out/voronoi "$@"
