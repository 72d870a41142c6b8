#!/usr/bin/env bash
# bench/compare.sh BASE [FILTER [FILE...]] - time the library as committed at
# BASE next to the working tree's, side by side, and print each benchmark's
# GB/s for both and their ratio (working tree / BASE). FILEs are timed next
# to the synthetic inputs, as with run.sh (none by default).
#
# On a shared machine the speed drifts from minute to minute, so the two
# builds take turns: ROUNDS (default 3) rounds, each running every binary
# once (BASE g++, BASE clang, working tree g++, working tree clang) for
# REPS (3) repetitions of MIN_TIME (0.1) seconds per benchmark. A figure is
# the median over rounds of each run's median. FILTER is a
# --benchmark_filter regex (default: everything; a full comparison takes
# about ROUNDS x 20 minutes). COMPILERS ("gcc clang") as for run.sh.
# Builds with bench/build.sh (--rev BASE into build-bench-rev and
# build-bench-clang-rev); results in build-bench/compare/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

[ $# -ge 1 ] || { echo "usage: bench/compare.sh BASE [FILTER [FILE...]]" >&2; exit 2; }
base=$1
filter=${2:-.}
files=()
for f in "${@:3}"; do  # named from the caller's directory
  [ -r "$f" ] || { echo "compare.sh: cannot read $f" >&2; exit 2; }
  files+=("$(realpath "$f")")
done
cd "$root"
rounds=${ROUNDS:-3}
reps=${REPS:-3}
min_time=${MIN_TIME:-0.1}
read -r -a compilers <<<"${COMPILERS:-gcc clang}"

"$root/bench/build.sh" --rev "$base" "${compilers[@]}"
"$root/bench/build.sh" "${compilers[@]}"
out=$root/build-bench/compare
rm -rf "$out"
mkdir -p "$out"

binary() {  # binary SIDE COMPILER
  local suffix=
  [ "$1" = base ] && suffix=-rev
  if [ "$2" = gcc ]; then echo "$root/build-bench$suffix/bench/utf8guard_bench"; fi
  if [ "$2" = clang ]; then echo "$root/build-bench-clang$suffix/bench/utf8guard_bench"; fi
}

for r in $(seq "$rounds"); do
  echo "compare.sh: round $r of $rounds; load: $(uptime)"
  for side in base work; do
    for c in "${compilers[@]}"; do
      "$(binary "$side" "$c")" "${files[@]}" --benchmark_filter="$filter" \
        --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
        --benchmark_min_time="$min_time" \
        --benchmark_out="$out/$side-$c-$r.json" --benchmark_out_format=json \
        >/dev/null 2>>"$out/console.log"
    done
  done
done

python3 "$root/bench/compare.py" --base-name "$(git rev-parse --short "$base")" \
  --compilers "${compilers[*]}" "$out"
