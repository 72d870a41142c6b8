#!/usr/bin/env bash
# oss_fuzz_check.sh - an OSS-Fuzz build without docker (ctest: fuzz.oss_fuzz_build).
#
# Sets the variables the OSS-Fuzz builder sets, by hand, for clang + libFuzzer
# + ASan, and runs the build as OSS-Fuzz's compile step does: the checkout at
# $SRC/utf8guard, .clusterfuzzlite/build.sh copied to $SRC/build.sh, and
# `bash -eux $SRC/build.sh` from the checkout (the Dockerfile's WORKDIR), so
# a failing command fails the check as it fails OSS-Fuzz's build. Then it
# checks that every target
# binary, seed zip, dictionary and options file is there and that no compile
# command carries -march=native, and runs each binary over its unzipped seed
# corpus (with its dictionary), which must pass cleanly.
#
# Without clang and its libFuzzer runtime (Debian: clang, libclang-rt-14-dev)
# or zip, it says so and exits 77, which ctest reports as skipped.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
# The targets fuzz/build.sh builds: fuzz/targets.txt less those needing SIMDe.
TARGETS=$(awk '!/^#/ && NF && $2 != "simde" { print $1 }' "$REPO/fuzz/targets.txt")
SKIP=77

tmp=$(mktemp -d "${TMPDIR:-/tmp}/utf8guard-oss-fuzz.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

for tool in clang clang++ zip unzip cmake readelf; do
  if ! command -v "$tool" > /dev/null; then
    echo "SKIPPED: $tool not found; the OSS-Fuzz emulation needs clang with libFuzzer, zip, unzip"
    exit $SKIP
  fi
done
probe='extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }'
if ! echo "$probe" | clang++ -x c++ - -fsanitize=fuzzer,address -o "$tmp/probe" 2> "$tmp/probe.log"; then
  echo "SKIPPED: clang++ cannot link -fsanitize=fuzzer,address (libFuzzer runtime missing?):"
  cat "$tmp/probe.log"
  exit $SKIP
fi

# What OSS-Fuzz's base-builder exports for FUZZING_ENGINE=libfuzzer
# SANITIZER=address (less -stdlib=libc++, which Debian's clang lacks here).
export SRC=$tmp/src OUT=$tmp/out WORK=$tmp/work
mkdir -p "$SRC" "$OUT" "$WORK"
ln -s "$REPO" "$SRC/utf8guard"
export CC=clang CXX=clang++
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS"
export LIB_FUZZING_ENGINE=-fsanitize=fuzzer
export FUZZING_ENGINE=libfuzzer SANITIZER=address ARCHITECTURE=x86_64
export FUZZ_BUILD_JOBS=2

cp "$REPO/.clusterfuzzlite/build.sh" "$SRC/build.sh"
echo "oss_fuzz_check: running bash -eux \$SRC/build.sh (.clusterfuzzlite/build.sh, then fuzz/build.sh)"
if ! (cd "$SRC/utf8guard" && nice -n 10 bash -eux "$SRC/build.sh") > "$tmp/build.log" 2>&1; then
  tail -40 "$tmp/build.log"
  echo "FAILED: bash -eux \$SRC/build.sh"
  exit 1
fi

status=0
fail() {
  echo "FAILED: $*"
  status=1
}
if grep -q -- '-march=native' "$WORK/utf8guard-build/compile_commands.json"; then
  fail "a compile command uses -march=native"
fi
ls "$OUT"/lib/libicuuc.so.* > /dev/null 2>&1 || fail "ICU is not shipped in \$OUT/lib"
ls "$OUT"/lib/liburiparser.so.* > /dev/null 2>&1 || fail "liburiparser is not shipped in \$OUT/lib"
for t in $TARGETS; do
  [ -x "$OUT/$t" ] || fail "$OUT/$t missing"
  # shellcheck disable=SC2016  # a literal $ORIGIN
  readelf -d "$OUT/$t" | grep -q 'R.*PATH.*\$ORIGIN/lib' || fail "$OUT/$t lacks the \$ORIGIN/lib run path"
  [ -s "$OUT/$t.dict" ] || fail "$OUT/$t.dict missing"
  grep -q "^dict = $t.dict" "$OUT/$t.options" 2> /dev/null || fail "$OUT/$t.options missing or without dict"
  mkdir -p "$tmp/seeds/$t"
  unzip -q "$OUT/${t}_seed_corpus.zip" -d "$tmp/seeds/$t" || fail "$OUT/${t}_seed_corpus.zip unreadable"
  seeds=$(find "$tmp/seeds/$t" -type f | wc -l)
  [ "$seeds" -gt 0 ] || fail "$OUT/${t}_seed_corpus.zip is empty"
  # As the runner does: from another directory, with the dictionary.
  if (cd "$tmp" && "$OUT/$t" -runs=0 -dict="$OUT/$t.dict" "$tmp/seeds/$t") > "$tmp/$t.log" 2>&1 &&
    grep -q '^Done' "$tmp/$t.log" && grep -q '^Dictionary: [1-9]' "$tmp/$t.log"; then
    echo "ok: $t ($seeds seeds, $(grep -c . "$OUT/$t.dict") dictionary lines)"
  else
    tail -40 "$tmp/$t.log"
    fail "$t over its seed corpus"
  fi
done
[ $status -eq 0 ] && echo "oss_fuzz_check: every target, seed zip, dictionary and options file is in \$OUT"
exit $status
