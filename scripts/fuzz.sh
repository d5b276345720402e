#!/usr/bin/env bash
# Runs the libFuzzer targets of the clang-asan build (cmake --preset clang-asan) for a fixed time
# each, starting from the committed corpus tests/fuzz/corpus/<input>/ and the regressions, copied to
# a scratch folder so the repository does not grow (with the tokens of tests/fuzz/dict/<input>.dict). Fails when any target reports a crash, a leak, a
# timeout or running out of memory, and prints the reproducer and how to replay and minimise it.
#
#   bash scripts/fuzz.sh                          # every target, FUZZ_SECONDS (60) each
#   FUZZ_SECONDS=600 bash scripts/fuzz.sh sm ptx  # longer, some targets
#
# FUZZ_SECONDS   seconds per target (default 60)
# FUZZ_JOBS      targets run side by side (default: the number of cores)
# FUZZ_BUILD     the build folder with the fuzz_* executables (default build-clang-asan)
# FUZZ_RSS_MB    libFuzzer's -rss_limit_mb (default 2048); FUZZ_MALLOC_MB its -malloc_limit_mb (512)
# FUZZ_TIMEOUT   seconds one input may take (default 10)
# FUZZ_WORK      the scratch folder (default: a new one under ${TMPDIR:-/tmp}); it is kept, with the
#                logs, the grown corpus and any reproducers
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-$(nproc)}
build=${FUZZ_BUILD:-build-clang-asan}
rss_mb=${FUZZ_RSS_MB:-2048}
malloc_mb=${FUZZ_MALLOC_MB:-512}
timeout_s=${FUZZ_TIMEOUT:-10}
all_targets=(kernel ptx sm taskset jsonl string input wcet)
# The largest input each target reads (as fuzz_targets() in tests/fuzz/targets.cpp).
declare -A max_len=([kernel]=4096 [ptx]=65536 [sm]=4096 [taskset]=16384 [jsonl]=32768 [string]=4096 [input]=8192 [wcet]=16384)

targets=("$@")
((${#targets[@]})) || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  if [ -z "${max_len[$t]:-}" ]; then
    echo "fuzz: unknown target '$t' (expected one of ${all_targets[*]})" >&2
    exit 2
  fi
  if [ ! -x "$build/fuzz_$t" ]; then
    echo "fuzz: $build/fuzz_$t is missing; build it with: cmake --preset clang-asan && cmake --build --preset clang-asan" >&2
    exit 2
  fi
done

work=${FUZZ_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/warpspan-fuzz.XXXXXX")}
mkdir -p "$work"
echo "fuzz: ${targets[*]} for ${seconds} s each, ${jobs} at a time, in $work"

# Leaks are findings; UBSan stops at the first report (the build has -fno-sanitize-recover=all).
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

run_one() {
  local t=$1 dir="$work/$1"
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp tests/fuzz/corpus/"$t"/* "$dir/corpus/"
  if compgen -G "tests/fuzz/regressions/$t/*" >/dev/null; then cp tests/fuzz/regressions/"$t"/* "$dir/corpus/"; fi
  local dict=()
  if [ -f "tests/fuzz/dict/$t.dict" ]; then dict=(-dict="tests/fuzz/dict/$t.dict"); fi
  local rc=0
  "$build/fuzz_$t" "${dict[@]}" -max_total_time="$seconds" -max_len="${max_len[$t]}" -rss_limit_mb="$rss_mb" \
    -malloc_limit_mb="$malloc_mb" -timeout="$timeout_s" -print_final_stats=1 \
    -artifact_prefix="$dir/artifacts/" "$dir/corpus" >"$dir/log" 2>&1 || rc=$?
  echo "$rc" >"$dir/rc"
}

running=0
for t in "${targets[@]}"; do
  if ((running >= jobs)); then
    wait -n || true
    running=$((running - 1))
  fi
  run_one "$t" &
  running=$((running + 1))
done
wait

failed=()
printf '%-8s %4s %12s %8s %8s %8s  %s\n' target rc execs exec/s cov ft result
for t in "${targets[@]}"; do
  dir="$work/$t"
  rc=$(cat "$dir/rc")
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" | tail -1)
  last=$(grep -E '^#[0-9]+.* cov: ' "$dir/log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  result=ok
  if [ "$rc" != 0 ]; then
    result="FAILED"
    failed+=("$t")
  fi
  printf '%-8s %4s %12s %8s %8s %8s  %s\n' "$t" "$rc" "${execs:--}" "${rate:--}" "${cov:--}" "${ft:--}" "$result"
done

for t in "${failed[@]}"; do
  dir="$work/$t"
  echo
  echo "==== fuzz_$t found a problem (exit $(cat "$dir/rc")); the end of $dir/log:"
  grep -E 'ERROR: |SUMMARY: |runtime error: |terminate called|what\(\): | #[0-9]+ 0x' "$dir/log" | head -40 || true
  tail -5 "$dir/log"
  for a in "$dir"/artifacts/*; do
    [ -e "$a" ] || continue
    echo "reproducer: $a"
    echo "  replay:   $build/fuzz_$t $a"
    echo "  minimise: $build/fuzz_$t -minimize_crash=1 -max_total_time=60 -exact_artifact_path=$a.min $a"
    echo "  keep it:  tests/fuzz/pending/$t/<what-it-does> (tests/fuzz/regressions/$t/ once fixed; see docs/development.md, "Fuzzing")"
  done
done
if ((${#failed[@]})); then
  echo "fuzz: findings in ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: no findings"
