#!/usr/bin/env bash
# measure_mutator.sh [SEEDS] [MAX_RUNS] - how fast utf8guard's mutator finds a
# narrow UTF-8 bug, against libFuzzer's own mutations.
#
# The target is examples/fuzzing/planted_bug.c: a validator that accepts
# exactly the 3-byte overlong forms E0 80..9F xx of an ASCII delimiter, under
# the oracle. It is built twice with clang: (a) libFuzzer's default mutations,
# (b) with utf8guard's LLVMFuzzerCustomMutator. Both run from the same seeds
# (examples/fuzzing/seeds), with fuzz/utf8.dict, one process, -seed=1..SEEDS
# (default 15), at most MAX_RUNS executions each (default 2000000). The target
# counts its executions up to the first crash; the script prints each run and
# the median per mode (a run that finds nothing counts as more than MAX_RUNS).
#
# Needs clang + libFuzzer and a build of utf8guard in build/ (the README's
# build); builds build-fuzz-measure/. Takes a few minutes: by hand, not in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-15}
max_runs=${2:-2000000}
out=build-fuzz-measure

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build --target utf8guard utf8guard_fuzz > /dev/null
cmake -S examples/fuzzing -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_PREFIX_PATH="$PWD/build" \
  -DFUZZ_DICTIONARY="$PWD/fuzz/utf8.dict" > /dev/null
cmake --build "$out" --target planted_bug planted_bug_default > /dev/null

# run MODE BINARY SEED: prints the executions to the first crash, or "-".
run() {
  local work="$out/work/$1-$3"
  rm -rf "$work"
  mkdir -p "$work/corpus"
  "$out/$2" -seed="$3" -runs="$max_runs" -max_len=256 -dict=fuzz/utf8.dict \
    -artifact_prefix="$work/" "$work/corpus" examples/fuzzing/seeds > "$work/log" 2>&1 || true
  local n
  n=$(sed -n 's/^planted_bug: executions to first crash: //p' "$work/log")
  echo "${n:--}"
}

# median of the numbers on stdin ("-", not found, sorts last).
median() {
  sed "s/^-$/999999999999/" | sort -n | awk '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    print (m >= 999999999999 ? "> max_runs" : m) }'
}

declare -A results
for mode in default mutator; do
  binary=planted_bug
  [ "$mode" = default ] && binary=planted_bug_default
  list=""
  for s in $(seq 1 "$seeds"); do
    n=$(run "$mode" "$binary" "$s")
    list="$list $n"
    printf '%-8s seed %2d: %s\n' "$mode" "$s" "$n"
  done
  results[$mode]=$(echo "$list" | tr ' ' '\n' | grep -v '^$' | median)
done
echo
echo "executions to the first crash, median of $seeds seeds (max $max_runs runs each):"
echo "  (a) libFuzzer default mutations + fuzz/utf8.dict: ${results[default]}"
echo "  (b) utf8guard mutator (LLVMFuzzerCustomMutator):  ${results[mutator]}"
if [[ "${results[default]}" =~ ^[0-9.]+$ && "${results[mutator]}" =~ ^[0-9.]+$ ]]; then
  awk -v a="${results[default]}" -v b="${results[mutator]}" \
    'BEGIN { printf "  ratio (a)/(b): %.1fx\n", a / b }'
fi
