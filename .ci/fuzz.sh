#!/usr/bin/env bash
# fuzz.sh - the CI fuzz smoke: every target under libFuzzer (clang,
# ASan+UBSan) for FUZZ_LIBFUZZER_SECONDS (default 10) and under AFL++
# (persistent driver, ASan+UBSan; no CMPLOG build, which costs a third of the
# job's building and helps little in 5 s) for FUZZ_AFL_SECONDS (default 5),
# two fuzzers at a time (the machine has 2 cores). Fails on any crash, hang,
# leak or disagreement, listing the reproducers (fuzz/README.md says how to
# turn one into a regression test).
#
# Needs (Debian): clang, libclang-rt-14-dev, afl++, cmake, ninja-build,
# libicu-dev, liburiparser-dev, unicode-data - .ci/run installs them through
# scripts/install-deps.sh --ci.
# The regression replay of the corpus is part of ctest (label "fuzz").
set -euo pipefail
cd "$(dirname "$0")/.."

LF_SECONDS=${FUZZ_LIBFUZZER_SECONDS:-10}
export FUZZ_AFL_CMPLOG=${FUZZ_AFL_CMPLOG:-0}
AFL_SECONDS=${FUZZ_AFL_SECONDS:-5}
PARALLEL=${FUZZ_PARALLEL:-2}
start=$SECONDS
logs=build-fuzz-work/ci
rm -rf "$logs"
mkdir -p "$logs"

echo "fuzz.sh: building the libFuzzer and AFL++ targets"
fuzz/run.sh --build libfuzzer
fuzz/run.sh --build afl
echo "fuzz.sh: built in $((SECONDS - start))s"

# Every run is one line: ENGINE TARGET SECONDS. Longest first, so the two
# slots finish together.
runs=()
for t in $(fuzz/run.sh --list); do runs+=("libfuzzer $t $LF_SECONDS"); done
for t in $(fuzz/run.sh --list); do runs+=("afl $t $AFL_SECONDS"); done

failed=()
declare -A pid_run=()
finish_one() {
  local pid
  # wait -n -p needs bash 5.1; Debian 12 has 5.2.
  if wait -n -p pid; then
    echo "fuzz.sh: ok      ${pid_run[$pid]}"
  else
    echo "fuzz.sh: FAILED  ${pid_run[$pid]}"
    failed+=("${pid_run[$pid]}")
  fi
  unset "pid_run[$pid]"
}

for run in "${runs[@]}"; do
  while [ ${#pid_run[@]} -ge "$PARALLEL" ]; do finish_one; done
  read -r engine target seconds <<< "$run"
  FUZZ_NO_BUILD=1 fuzz/run.sh "$target" "$seconds" --engine "$engine" > "$logs/$engine-$target.log" 2>&1 &
  pid_run[$!]="$engine $target ${seconds}s (log $logs/$engine-$target.log)"
done
while [ ${#pid_run[@]} -gt 0 ]; do finish_one; done

echo
echo "fuzz.sh: speed (execs per second, per run)"
for f in "$logs"/*.log; do
  name=$(basename "$f" .log)
  speed=$(grep -hE 'stat::average_exec_per_sec|execs_per_sec' "$f" | awk '{print $NF}' | head -1)
  echo "  $name: ${speed:-?}"
done

# The fuzzing helpers on real decoders (examples/fuzzing): glib and jansson
# must run clean for the issue's 60 s budget (ctest's fuzzing.examples, run
# by scripts/test.sh, gives every harness 10 s and leaves its build here).
# Needs build/ and libglib2.0-dev, libjansson-dev.
examples=build/tests/fuzzing/examples
echo "fuzz.sh: examples/fuzzing, glib and jansson for ${FUZZ_EXAMPLES_SECONDS:-60}s"
if cmake -S examples/fuzzing -B "$examples" -G Ninja -DCMAKE_BUILD_TYPE=Release \
     -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_PREFIX_PATH="$PWD/build" \
     -DFUZZ_DICTIONARY="$PWD/fuzz/utf8.dict" -DFUZZ_SMOKE_SECONDS="${FUZZ_EXAMPLES_SECONDS:-60}" \
     > "$logs/examples-fuzzing.log" 2>&1 &&
   cmake --build "$examples" >> "$logs/examples-fuzzing.log" 2>&1 &&
   ctest --test-dir "$examples" -R '^(glib_validate|jansson_string)$' --no-tests=error \
     --output-on-failure -j"$PARALLEL" >> "$logs/examples-fuzzing.log" 2>&1; then
  echo "fuzz.sh: ok      examples/fuzzing (log $logs/examples-fuzzing.log)"
else
  echo "fuzz.sh: FAILED  examples/fuzzing (log $logs/examples-fuzzing.log)"
  failed+=("examples fuzzing")  # the report below tails $logs/examples-fuzzing.log
fi

if [ ${#failed[@]} -gt 0 ]; then
  for run in "${failed[@]}"; do
    echo
    echo "=== $run"
    read -r engine target _ <<< "$run"
    tail -60 "$logs/$engine-$target.log"
  done
  echo "fuzz.sh: ${#failed[@]} of ${#runs[@]} runs FAILED in $((SECONDS - start))s"
  exit 1
fi
echo "fuzz.sh: ${#runs[@]} runs, no findings, in $((SECONDS - start))s"
