#!/usr/bin/env bash
# run.sh - build and run one fuzz target, or merge what campaigns found.
#
#   fuzz/run.sh TARGET SECONDS [--engine libfuzzer|afl] [--jobs N]
#   fuzz/run.sh --merge TARGET
#   fuzz/run.sh --build libfuzzer|afl
#   fuzz/run.sh --list
#
# TARGET SECONDS: builds what the engine needs (incrementally) and fuzzes
#   TARGET for SECONDS with the dictionary fuzz/utf8.dict (and fuzz/TARGET.dict
#   after it, when the target has words of its own), starting from
#   corpus/TARGET/. New inputs go to build-fuzz-work/ENGINE/TARGET/, never
#   straight into corpus/.
#   libfuzzer (default): clang, -fsanitize=fuzzer,address,undefined; --jobs N
#     runs N workers (-jobs=N -workers=N), each for SECONDS.
#   afl: afl-clang-fast++ through AFL++'s libFuzzer-compatible driver
#     (persistent mode), ASan+UBSan, plus a CMPLOG build for -c; one -M
#     instance and N-1 -S instances, all for SECONDS.
# --merge TARGET: minimizes corpus/TARGET/ together with the inputs of the
#   campaigns above (libFuzzer's corpus, every AFL++ queue), with libFuzzer
#   -merge=1; the named (handcrafted and regress_*) seeds are always kept.
#
# Exit status: 0 when the run found nothing; 1 on any crash, hang, leak,
# timeout or disagreement (the reproducers are listed); 2 on a usage error.
#
# Environment: FUZZ_MAX_LEN (default 4096), FUZZ_TIMEOUT (seconds per input,
# default 10), FUZZ_NICE (default 10), CC_CLANG/CXX_CLANG (default clang,
# clang++), FUZZ_BUILD_PREFIX (default <repo>/build-fuzz), FUZZ_NO_BUILD=1
# (use the binaries as they are), FUZZ_AFL_CMPLOG=0 (AFL++ without the CMPLOG
# build and -c: for short smoke runs, where it costs a build and gains little).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# Space-separated, with one at each end, for is_target.
TARGETS=" $(awk '!/^#/ && NF { printf "%s ", $1 }' "$ROOT/fuzz/targets.txt")"
PREFIX=${FUZZ_BUILD_PREFIX:-$ROOT/build-fuzz}
WORK=$PREFIX-work
MAX_LEN=${FUZZ_MAX_LEN:-4096}
TIMEOUT=${FUZZ_TIMEOUT:-10}
NICE=(nice -n "${FUZZ_NICE:-10}")
CC_CLANG=${CC_CLANG:-clang}
CXX_CLANG=${CXX_CLANG:-clang++}
DICT=$ROOT/fuzz/utf8.dict
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

# dict_of TARGET: the dictionary TARGET runs with, fuzz/utf8.dict and then
# fuzz/TARGET.dict if it exists, written to the work folder; prints its path.
dict_of() {
  [ -f "$ROOT/fuzz/$1.dict" ] || { echo "$DICT"; return; }
  mkdir -p "$WORK"
  cat "$DICT" "$ROOT/fuzz/$1.dict" > "$WORK/$1.dict"
  echo "$WORK/$1.dict"
}

usage() {
  sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

die() {
  echo "run.sh: $*" >&2
  exit 2
}

is_target() {
  case "$TARGETS" in *" $1 "*) return 0 ;; esac
  return 1
}

# configure DIR CC CXX FLAGS [cmake args...]: a library-and-fuzz-only build,
# so work in progress elsewhere in the tree (CLI, tests, bench) cannot break it.
configure() {
  local dir=$1 cc=$2 cxx=$3 flags=$4
  shift 4
  if [ ! -f "$dir/build.ninja" ] && [ ! -f "$dir/Makefile" ]; then
    local gen=()
    command -v ninja > /dev/null && gen=(-G Ninja)
    CC=$cc CXX=$cxx "${NICE[@]}" cmake -S "$ROOT" -B "$dir" "${gen[@]}" \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g" \
      -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
      -DUTF8GUARD_BUILD_CLI=OFF -DUTF8GUARD_BUILD_TESTS=OFF -DUTF8GUARD_BUILD_BENCH=OFF \
      -DUTF8GUARD_BUILD_EXAMPLES=OFF -DUTF8GUARD_BUILD_FUZZ=ON -DUTF8GUARD_BUILD_NGINX=OFF "$@" \
      > "$dir.configure.log" 2>&1 ||
      { cat "$dir.configure.log" >&2; die "configuring $dir failed"; }
  fi
  "${NICE[@]}" cmake --build "$dir" -j2 > "$dir.build.log" 2>&1 ||
    { tail -50 "$dir.build.log" >&2; die "building $dir failed"; }
  local t
  for t in $TARGETS; do
    [ -x "$dir/fuzz/$t" ] ||
      die "$dir has no $t (if fuzz/targets.txt says it needs simde: apt-get install libsimde-dev)"
  done
}

build() {
  # Callers that built already (.ci/fuzz.sh runs two campaigns at once) skip
  # it, so two cmake --build never share a build directory.
  [ "${FUZZ_NO_BUILD:-0}" = 1 ] && return 0
  case $1 in
    libfuzzer)
      configure "$PREFIX-libfuzzer" "$CC_CLANG" "$CXX_CLANG" "$SAN -fsanitize=fuzzer-no-link" \
        -DUTF8GUARD_FUZZ_ENGINE=-fsanitize=fuzzer
      ;;
    afl)
      command -v afl-clang-fast++ > /dev/null || die "afl-clang-fast++ not found (apt-get install afl++)"
      # The fuzzing binary: instrumented, ASan+UBSan, persistent through the driver.
      AFL_QUIET=1 configure "$PREFIX-afl" afl-clang-fast afl-clang-fast++ "$SAN" \
        -DUTF8GUARD_FUZZ_ENGINE=-fsanitize=fuzzer
      # The CMPLOG binary afl-fuzz -c runs to learn comparison operands; it
      # needs no sanitizer. AFL_LLVM_CMPLOG must be set while compiling.
      if [ "${FUZZ_AFL_CMPLOG:-1}" != 0 ]; then
        AFL_QUIET=1 AFL_LLVM_CMPLOG=1 configure "$PREFIX-afl-cmplog" afl-clang-fast afl-clang-fast++ \
          "" -DUTF8GUARD_FUZZ_ENGINE=-fsanitize=fuzzer
      fi
      ;;
    *) die "unknown engine '$1' (libfuzzer or afl)" ;;
  esac
}

# report_findings DIR...: lists reproducers (libFuzzer artifacts, AFL++
# crashes and hangs); returns 1 if there is any.
report_findings() {
  local found
  found=$(find "$@" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
    -o -name 'oom-*' -o -name 'slow-unit-*' -o -path '*/crashes/id:*' -o -path '*/hangs/id:*' \) \
    2> /dev/null | sort)
  [ -z "$found" ] && return 0
  echo "run.sh: FAILED: reproducers:" >&2
  while IFS= read -r f; do echo "  $f" >&2; done <<< "$found"
  return 1
}

run_libfuzzer() {
  local target=$1 seconds=$2 jobs=$3
  build libfuzzer
  local bin=$PREFIX-libfuzzer/fuzz/$target
  local dir=$WORK/libfuzzer/$target
  mkdir -p "$dir/corpus" "$dir/artifacts"
  rm -f "$dir"/artifacts/* "$dir"/fuzz-*.log
  local args=(-dict="$(dict_of "$target")" -max_len="$MAX_LEN" -timeout="$TIMEOUT" -max_total_time="$seconds"
    -rss_limit_mb=2048 -use_value_profile=1 -print_final_stats=1
    -artifact_prefix="$dir/artifacts/")
  [ "$jobs" -gt 1 ] && args+=(-jobs="$jobs" -workers="$jobs")
  echo "run.sh: libFuzzer $target for ${seconds}s, $jobs job(s), work in $dir"
  local rc=0
  # -jobs writes fuzz-N.log into the current directory.
  (cd "$dir" && "${NICE[@]}" "$bin" "${args[@]}" "$dir/corpus" "$ROOT/corpus/$target") > "$dir/run.log" 2>&1 || rc=$?
  grep -hE '^(Done|stat::number_of_executed_units|stat::average_exec_per_sec)' "$dir/run.log" \
    "$dir"/fuzz-*.log 2> /dev/null || true
  local clean=1
  report_findings "$dir/artifacts" || clean=0
  if [ $rc -ne 0 ] || [ $clean -eq 0 ]; then
    grep -hE -A40 '^(==== utf8guard|==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$dir/run.log" \
      "$dir"/fuzz-*.log 2> /dev/null | head -80 >&2 || true
    echo "run.sh: libFuzzer $target FAILED (exit $rc); log: $dir/run.log" >&2
    return 1
  fi
  echo "run.sh: libFuzzer $target: no findings"
}

run_afl() {
  local target=$1 seconds=$2 jobs=$3
  build afl
  local bin=$PREFIX-afl/fuzz/$target cmplog=$PREFIX-afl-cmplog/fuzz/$target
  local dir=$WORK/afl/$target
  rm -rf "$dir/out"
  mkdir -p "$dir/out"
  # What containers need: no CPU governor, no core_pattern, no UI, no core
  # binding (the cores are shared). ASan: the driver reports, AFL++ records.
  export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1
  # Short runs: calibrate fast, CMPLOG only on new queue entries.
  export AFL_FAST_CAL=1 AFL_CMPLOG_ONLY_NEW=1
  export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:symbolize=0:detect_leaks=0}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1}
  local common=(-i "$ROOT/corpus/$target" -o "$dir/out" -x "$(dict_of "$target")" -m none -t $((TIMEOUT * 1000))
    -G "$MAX_LEN" -V "$seconds")
  echo "run.sh: AFL++ $target for ${seconds}s, $jobs instance(s), work in $dir"
  # -V counts fuzzing time only; the outer timeout bounds start-up as well.
  local limit=(timeout -k 10 $((seconds + 120)))
  local pids=() k
  for ((k = 1; k < jobs; k++)); do
    "${limit[@]}" "${NICE[@]}" afl-fuzz -S "s$k" "${common[@]}" -- "$bin" > "$dir/s$k.log" 2>&1 &
    pids+=($!)
  done
  local rc=0
  local with_cmplog=(-c "$cmplog")
  [ "${FUZZ_AFL_CMPLOG:-1}" != 0 ] || with_cmplog=()
  "${limit[@]}" "${NICE[@]}" afl-fuzz -M main "${with_cmplog[@]}" "${common[@]}" -- "$bin" > "$dir/main.log" 2>&1 || rc=$?
  for k in "${pids[@]}"; do wait "$k" || rc=$?; done
  reap "$(readlink -f "$bin")" "$(readlink -f "$cmplog")"
  grep -hE '^(execs_done|execs_per_sec|saved_crashes|saved_hangs)' "$dir"/out/*/fuzzer_stats \
    2> /dev/null | sort | uniq -c || true
  local clean=1
  report_findings "$dir/out" || clean=0
  if [ $rc -ne 0 ] || [ $clean -eq 0 ]; then
    [ $rc -ne 0 ] && tail -20 "$dir/main.log" >&2
    for f in "$dir"/out/*/crashes/id:*; do
      [ -f "$f" ] && { "$bin" "$f" 2>&1 | grep -A40 '^==== utf8guard' | head -40 >&2 || true; break; }
    done
    echo "run.sh: AFL++ $target FAILED (exit $rc); logs in $dir" >&2
    return 1
  fi
  echo "run.sh: AFL++ $target: no findings"
}

# merge TARGET minimizes corpus/TARGET together with the campaigns' inputs:
# the named seeds (make_seeds.py, regress_*: every name that is not a
# libFuzzer SHA-1) are all kept, and of the rest - earlier merges and new
# finds - only inputs that add coverage (libFuzzer -merge=1), so the corpus
# does not grow with redundant files from merge to merge.
# reap BIN...: afl-fuzz 4.04c can leave its CMPLOG fork server behind, stopped
# and orphaned, when it exits; kill whatever still runs one of these binaries
# (they are this build's own, one per target, so nothing else runs them).
reap() {
  local exe bin pid
  for exe in /proc/[0-9]*/exe; do
    bin=$(readlink "$exe" 2> /dev/null) || continue
    for b in "$@"; do
      if [ "$bin" = "$b" ]; then
        pid=${exe#/proc/}
        kill -KILL "${pid%/exe}" 2> /dev/null || true
      fi
    done
  done
}

merge() {
  local target=$1 sources=() d
  local corpus=$ROOT/corpus/$target
  for d in "$WORK/libfuzzer/$target/corpus" "$WORK"/afl/"$target"/out/*/queue; do
    [ -d "$d" ] && sources+=("$d")
  done
  if [ ${#sources[@]} -eq 0 ] && [ "${MERGE_CORPUS_ONLY:-0}" != 1 ]; then
    die "nothing to merge for $target: run a campaign first (or MERGE_CORPUS_ONLY=1 to re-minimize)"
  fi
  build libfuzzer
  local bin=$PREFIX-libfuzzer/fuzz/$target
  local fresh=$WORK/merge-$target
  rm -rf "$fresh" "$fresh.found"
  mkdir -p "$fresh" "$fresh.found"
  local f before after
  before=$(find "$corpus" -type f | wc -l)
  for f in "$corpus"/*; do
    if [[ $(basename "$f") =~ ^[0-9a-f]{40}$ ]]; then
      cp "$f" "$fresh.found/"
    else
      cp "$f" "$fresh/"
    fi
  done
  "${NICE[@]}" "$bin" -merge=1 -max_len="$MAX_LEN" -timeout="$TIMEOUT" \
    "$fresh" "$fresh.found" "${sources[@]}" > "$fresh.log" 2>&1 ||
    { tail -20 "$fresh.log" >&2; return 1; }
  find "$corpus" -type f -regextype posix-extended -regex '.*/[0-9a-f]{40}' -delete
  find "$fresh" -type f -regextype posix-extended -regex '.*/[0-9a-f]{40}' -exec cp {} "$corpus/" \;
  after=$(find "$corpus" -type f | wc -l)
  echo "run.sh: corpus/$target: $before -> $after files ($(du -sh --apparent-size "$corpus" |
    cut -f1)); review and commit them with git add corpus/$target"
}

[ $# -ge 1 ] || usage
case $1 in
  --list) for t in $TARGETS; do echo "$t"; done; exit 0 ;;
  --build) [ $# -eq 2 ] || usage; build "$2"; exit 0 ;;
  --merge) [ $# -eq 2 ] || usage; is_target "$2" || die "unknown target '$2'"; mkdir -p "$WORK"; merge "$2"; exit $? ;;
  -h | --help) usage ;;
esac

[ $# -ge 2 ] || usage
target=$1 seconds=$2
shift 2
engine=libfuzzer jobs=1
while [ $# -gt 0 ]; do
  case $1 in
    --engine) [ $# -ge 2 ] || usage; engine=$2; shift 2 ;;
    --jobs) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
    *) usage ;;
  esac
done
is_target "$target" || die "unknown target '$target' (fuzz/run.sh --list)"
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then die "SECONDS must be a positive integer"; fi
if ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; then die "--jobs needs a positive integer"; fi
mkdir -p "$WORK"
case $engine in
  libfuzzer) run_libfuzzer "$target" "$seconds" "$jobs" ;;
  afl) run_afl "$target" "$seconds" "$jobs" ;;
  *) die "unknown engine '$engine' (libfuzzer or afl)" ;;
esac
