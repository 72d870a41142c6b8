#!/bin/sh
# run_afl.sh AFL_FUZZ TARGET MUTATOR SEEDS WORK SECONDS - afl-fuzz on TARGET
# with MUTATOR (utf8guard's AFL++ module) as its only mutator, until the first
# crash or SECONDS. Passes when afl-fuzz loaded the module and saved a crash;
# exit 77 (ctest: skipped) when AFL++ or the target is missing.
set -u
afl=$1 target=$2 mutator=$3 seeds=$4 work=$5 seconds=$6
if [ -z "$afl" ] || [ -z "$target" ] || [ -z "$mutator" ]; then
  echo "AFL++ is not installed (scripts/install-deps.sh --ci): skipped"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
AFL_CUSTOM_MUTATOR_LIBRARY=$mutator AFL_CUSTOM_MUTATOR_ONLY=1 AFL_BENCH_UNTIL_CRASH=1 \
  AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 \
  AFL_NO_CRASH_README=1 \
  "$afl" -i "$seeds" -o "$work/out" -V "$seconds" -- "$target" > "$work/afl.log" 2>&1
status=$?
crashes=$(ls "$work/out/default/crashes" 2>/dev/null | grep '^id:' || true)
if ! grep -q "utf8guard_afl" "$work/afl.log" || [ -z "$crashes" ]; then
  echo "afl-fuzz (exit $status) did not find the planted bug with utf8guard's mutator:"
  tail -40 "$work/afl.log"
  exit 1
fi
echo "afl-fuzz with $mutator found the planted bug:"
echo "$crashes"
grep -E "custom mutator|execs_done|Custom" "$work/afl.log" | head -5
first=$(echo "$crashes" | head -1)
"$target" "$work/out/default/crashes/$first" 2>&1 | grep -A3 "planted validator disagrees" || true
exit 0
