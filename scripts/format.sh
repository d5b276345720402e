#!/usr/bin/env bash
# The house style (.clang-format) on every C++ and CUDA source git tracks or would track (new files
# not yet added included, ignored ones not): `bash scripts/format.sh` rewrites them in place; `--check` changes nothing and fails, naming the files, where one is not in
# the style (scripts/test.sh runs it last).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "format: clang-format is missing (bash scripts/setup.sh installs it)" >&2; exit 2; }
mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h')
if [ "${1:-}" = --check ]; then
  bad=()
  for f in "${files[@]}"; do
    clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
  done
  if ((${#bad[@]})); then
    echo "format: not in the house style (bash scripts/format.sh rewrites them): ${bad[*]}" >&2
    exit 1
  fi
  echo "format: ${#files[@]} files in the house style"
else
  clang-format -i "${files[@]}"
fi
