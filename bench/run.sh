#!/usr/bin/env bash
# bench/run.sh [--quick] [--committed] [FILE...] - build the benchmarks with
# g++ and with clang, run them on FILE... (default: the lipsum texts) and the
# synthetic inputs, time Node's Buffer.isUtf8 on the same bytes and the short
# strings (utf8guard_short), and print the tables; bench/make_readme.py then
# writes bench/README.md from the results.
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
# in build-bench/results/: JSON per compiler, short-COMPILER.json (the first
# compiler's build), Node's JSON, console logs, and run.json (commit, CPU and
# the command that reproduces the run).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

reps=${REPS:-5}
min_time=${MIN_TIME:-0.05}
node_reps=15
committed=
quick=
files=()
for arg in "$@"; do
  case $arg in
    --quick) quick=1 reps=1 min_time=${MIN_TIME:-0.01} node_reps=3 ;;
    --committed) committed=1 ;;
    -*) echo "run.sh: unknown option $arg" >&2; exit 2 ;;
    *) files+=("$arg") ;;
  esac
done
given=("${files[@]}")
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
# The short strings, with the first compiler's build: one call per string.
short_dir=$root/build-bench
[ "${compilers[0]}" = clang ] && short_dir=$root/build-bench-clang
echo "run.sh: short strings (${compilers[0]}); load: $(uptime)"
"$short_dir/bench/utf8guard_short" "${files[@]}" --benchmark_min_time="$min_time" \
  --benchmark_filter="${FILTER:-.}" \
  --benchmark_out="$results/short-${compilers[0]}.json" --benchmark_out_format=json \
  >"$results/short.log"
echo "run.sh: done; load: $(uptime)"

# make_readme.py's header: the library's commit, the CPU, and the command,
# with the data folder written as the variable it was read from.
shown=()
for f in "${given[@]}"; do
  if [ -n "${UTF8GUARD_BENCH_DATA:-}" ] && [[ $f == "$UTF8GUARD_BENCH_DATA"/* ]]; then
    shown+=("\$UTF8GUARD_BENCH_DATA/${f#"$UTF8GUARD_BENCH_DATA"/}")
  else
    shown+=("$f")
  fi
done
command="REPS=$reps MIN_TIME=$min_time COMPILERS=\"${compilers[*]}\"${FILTER:+ FILTER='$FILTER'}"
[ -n "${UTF8GUARD_BENCH_DATA:-}" ] && command="UTF8GUARD_BENCH_DATA=DIR $command"
command="$command bench/run.sh${quick:+ --quick}${committed:+ --committed}${shown[*]:+ ${shown[*]}}"
dirty=
[ -n "$committed" ] || git diff --quiet HEAD -- src include CMakeLists.txt cmake || dirty=1
python3 - "$results/run.json" "$(git rev-parse HEAD)" "$dirty" "$command" <<'EOF'
import json, sys
path, commit, dirty, command = sys.argv[1:]
cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
            if line.startswith("model name")), "unknown")
with open(path, "w") as f:
    json.dump({"commit": commit, "dirty": bool(dirty), "cpu": cpu, "command": command}, f, indent=1)
EOF

python3 "$root/bench/report.py" "${node_json[@]}" "${jsons[@]}"
