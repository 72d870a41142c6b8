#!/bin/sh
# run_libfuzzer.sh TARGET WORK SEEDS [--expect=ERE...] [libFuzzer flags...]
#
# One libFuzzer run in a fresh WORK folder (new inputs in WORK/corpus, crash
# files in WORK/), starting from the SEEDS folder, its output in WORK/log.
# Without --expect it passes when libFuzzer does (no finding). With --expect
# it passes when libFuzzer stopped on a finding and every ERE matches a line
# of the output (the oracle's report), which it then prints.
set -u
target=$1 work=$2 seeds=$3
shift 3
expects=""
while [ $# -gt 0 ]; do
  case $1 in
    --expect=*) expects="$expects
${1#--expect=}" ;;
    *) break ;;
  esac
  shift
done
rm -rf "$work"
mkdir -p "$work/corpus"
"$target" -artifact_prefix="$work/" "$@" "$work/corpus" "$seeds" > "$work/log" 2>&1
status=$?
if [ -z "$expects" ]; then
  grep -E "^(Done|#[0-9]+ +DONE)|stat::number_of_executed_units|ERROR|====" "$work/log" | tail -20
  exit $status
fi
if [ "$status" -eq 0 ]; then
  echo "expected a finding; libFuzzer ran clean:"
  tail -5 "$work/log"
  exit 1
fi
echo "$expects" | while IFS= read -r pattern; do
  [ -z "$pattern" ] && continue
  if ! grep -Eq -- "$pattern" "$work/log"; then
    echo "the report does not match: $pattern"
    exit 1
  fi
done || { grep -A12 "^====" "$work/log"; exit 1; }
grep -B1 -A12 "^==== utf8guard fuzz oracle" "$work/log"
ls "$work"/crash-* 2>/dev/null
exit 0
