#!/usr/bin/env bash
# bench/run.sh [--quick] [--committed] [FILE...] - build the benchmarks with
# g++ and with clang, run them on FILE... (default: the lipsum texts) and the
# synthetic inputs, time Node's Buffer.isUtf8 on the same bytes, and print the
# tables of bench/README.md.
#
#   --quick       one repetition, short runs: checks the pipeline in a minute or two
#   --committed   build the library as committed at HEAD (git archive), with the
#                 working tree's bench/: measures what is on main, not whatever
#                 another engineer is editing right now
#
# Repetitions are interleaved at random across benchmarks, so that a change
# in the machine's load hits every column alike instead of a few rows.
# Environment: REPS (default 5) repetitions, MIN_TIME (0.05) seconds each,
# FILTER (.) a --benchmark_filter regex, COMPILERS ("gcc clang"),
# UTF8GUARD_BENCH_DATA (a folder whose lipsum/ holds the lipsum texts; without
# it, generated stand-ins: bench/texts.sh).
# Builds with bench/build.sh (build-bench for g++, build-bench-clang); results
# in build-bench/results/ (JSON per compiler, Node's JSON, console logs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

reps=${REPS:-5}
min_time=${MIN_TIME:-0.05}
node_reps=15
committed=
files=()
for arg in "$@"; do
  case $arg in
    --quick) reps=1 min_time=${MIN_TIME:-0.01} node_reps=3 ;;
    --committed) committed=1 ;;
    -*) echo "run.sh: unknown option $arg" >&2; exit 2 ;;
    *) files+=("$arg") ;;
  esac
done
if [ ${#files[@]} -eq 0 ]; then
  mapfile -t files < <("$root/bench/texts.sh")
  [ ${#files[@]} -gt 0 ] || exit 2
fi

results=$root/build-bench/results
read -r -a compilers <<<"${COMPILERS:-gcc clang}"
"$root/bench/build.sh" ${committed:+--committed} "${compilers[@]}"
mkdir -p "$results"

run_suite() {
  local name=$1 dir=$2
  echo "run.sh: $name suite ($reps x ${min_time}s per benchmark); load: $(uptime)"
  "$dir/bench/utf8guard_bench" "${files[@]}" \
    --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
    --benchmark_enable_random_interleaving=true \
    --benchmark_min_time="$min_time" --benchmark_filter="${FILTER:-.}" \
    --benchmark_out="$results/$name.json" --benchmark_out_format=json >"$results/$name.log"
}

# Node first, on the same bytes, so that its figures and the suites share
# the session.
node_json=()
if command -v node >/dev/null; then
  echo "run.sh: Node Buffer.isUtf8; load: $(uptime)"
  "$root/bench/node_isutf8.sh" --json --reps "$node_reps" "${files[@]}" >"$results/node.json"
  node_json=(--node "$results/node.json")
else
  echo "run.sh: node not found; no Node column" >&2
fi

jsons=()
for c in "${compilers[@]}"; do
  if [ "$c" = gcc ]; then run_suite gcc "$root/build-bench"; fi
  if [ "$c" = clang ]; then run_suite clang "$root/build-bench-clang"; fi
  jsons+=("$results/$c.json")
done
echo "run.sh: done; load: $(uptime)"

python3 "$root/bench/report.py" "${node_json[@]}" "${jsons[@]}"
