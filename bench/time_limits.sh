#!/usr/bin/env bash
# How closely each exact search keeps `exact --time-limit T` (issue 40 item 6): wall clock of the
# whole command against T and against the elapsed_s it reports, on cases that each search cannot
# finish within T. Usage: bash bench/time_limits.sh [BUILD_DIR] [LIMITS...]  (default build, 5 20)
set -u
B=${1:-build}/warpspan
shift || true
LIMITS=${*:-5 20}
V="--kernel 5L9C2L9C --sigma L=1,C=4"
cases=(
  "dense sweep (12 warps)|exact $V --warps 12"
  "dense sweep (13 warps)|exact $V --warps 13"
  "level sweep (16 warps)|exact $V --warps 16"
  "level sweep, hash (state limit)|exact $V --warps 16 --max-states 1000000000000"
  "at most 170|exact $V --warps 16 --at-most 170"
  "no pruning|exact $V --warps 16 --no-prune --warm-start 0"
  "depth-first (20 warps)|exact $V --warps 20"
  "depth-first (per-warp kernels)|exact --warp-kernels 5L9C2L9C:8,9C2L9C5L:8 --sigma L=1,C=4"
  "ILP (CBC)|exact $V --warps 16 --method ilp"
)
printf '| search | T (s) | wall (s) | elapsed_s | over T | stop |\n|---|---|---|---|---|---|\n'
for T in $LIMITS; do
  for c in "${cases[@]}"; do
    name=${c%%|*}; cmd=${c#*|}
    start=$(date +%s.%N)
    out=$($B $cmd --time-limit "$T" --json --no-table 2>/tmp/time_limits.err)
    rc=$?
    end=$(date +%s.%N)
    python3 - "$name" "$T" "$start" "$end" "$rc" "$out" <<'PY'
import json, sys
name, T, start, end, rc, out = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5], sys.argv[6]
wall = end - start
try:
    d = json.loads(out)
    el, stop = d.get('elapsed_s'), d.get('stop_reason') or ('complete' if d.get('complete') else '')
    alg = d.get('algorithm', d.get('method', ''))
except Exception:
    el, stop, alg = None, f'exit {rc}: ' + open('/tmp/time_limits.err').read().strip()[:80], ''
print(f"| {name} ({alg}) | {T:g} | {wall:.2f} | {el if el is None else f'{el:.2f}'} | {100 * (wall - T) / T:+.1f} % | {stop} |")
PY
  done
done
