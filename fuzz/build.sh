#!/bin/bash -eu
# build.sh - the OSS-Fuzz / ClusterFuzzLite build of utf8guard's fuzz targets.
#
# Honours the variables the OSS-Fuzz builder sets: $CC $CXX $CFLAGS $CXXFLAGS
# (sanitizer and coverage flags, reaching the library too), $LIB_FUZZING_ENGINE
# (the engine to link: libFuzzer, AFL++, honggfuzz...), $OUT (where binaries
# and their files go), $SRC (the checkout lives in $SRC/utf8guard; this
# script also finds it from its own path) and $WORK (scratch). For each target
# it writes to $OUT:
#   TARGET                   the fuzzer
#   TARGET_seed_corpus.zip   corpus/TARGET/
#   TARGET.dict              fuzz/utf8.dict, then fuzz/TARGET.dict if any
#   TARGET.options           libFuzzer options (the dictionary, max_len)
#   lib/                     the ICU and liburiparser shared libraries the
#                            fuzzers load (the runner image has neither;
#                            rpath $ORIGIN/lib)
# No -march=native or other host-specific flag: the SIMD kernels select
# themselves at run time. fuzz/oss_fuzz_check.sh runs this script the way
# OSS-Fuzz does, through .clusterfuzzlite/build.sh under `bash -eux` (ctest
# test fuzz.oss_fuzz_build).
# The options are set here too: `bash build.sh` ignores the shebang's.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
: "${SRC:=$(dirname "$REPO")}" "${WORK:=/tmp/utf8guard-oss-fuzz}"
: "${OUT:?OUT must name the output folder}" "${LIB_FUZZING_ENGINE:?LIB_FUZZING_ENGINE must be set}"
: "${CC:=clang}" "${CXX:=clang++}" "${CFLAGS:=}" "${CXXFLAGS:=}"
# fuzz/targets.txt less the targets that need SIMDe (avx512_emulated): the
# OSS-Fuzz image lacks it, and OSS-Fuzz's machines run the real AVX-512 bodies
# in validate_differential.
TARGETS=$(awk '!/^#/ && NF && $2 != "simde" { print $1 }' "$REPO/fuzz/targets.txt")
MAX_LEN=4096
BUILD=$WORK/utf8guard-build

generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
# CMake takes CFLAGS/CXXFLAGS from the environment on the first configure; the
# build type adds nothing of its own (OSS-Fuzz's flags carry -O and -g).
rm -rf "$BUILD"
# shellcheck disable=SC2016  # $ORIGIN is for the dynamic loader, not the shell
CC=$CC CXX=$CXX CFLAGS=$CFLAGS CXXFLAGS=$CXXFLAGS cmake -S "$REPO" -B "$BUILD" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE=OssFuzz \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  -DCMAKE_BUILD_RPATH='$ORIGIN/lib' \
  -DUTF8GUARD_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" \
  -DUTF8GUARD_BUILD_FUZZ=ON -DUTF8GUARD_BUILD_CLI=OFF -DUTF8GUARD_BUILD_TESTS=OFF \
  -DUTF8GUARD_BUILD_BENCH=OFF -DUTF8GUARD_BUILD_EXAMPLES=OFF -DBUILD_SHARED_LIBS=OFF
targets=()
for t in $TARGETS; do targets+=(--target "fuzz_$t"); done
cmake --build "$BUILD" -j"${FUZZ_BUILD_JOBS:-$(nproc)}" "${targets[@]}"

mkdir -p "$OUT/lib"
for t in $TARGETS; do
  cp "$BUILD/fuzz/$t" "$OUT/$t"
  rm -f "$OUT/${t}_seed_corpus.zip"
  (cd "$REPO/corpus/$t" && zip -q -r "$OUT/${t}_seed_corpus.zip" .)
  # fuzz/utf8.dict, and the target's own words (fuzz/TARGET.dict) if any.
  cat "$REPO/fuzz/utf8.dict" > "$OUT/$t.dict"
  if [ -f "$REPO/fuzz/$t.dict" ]; then cat "$REPO/fuzz/$t.dict" >> "$OUT/$t.dict"; fi
  printf '[libfuzzer]\ndict = %s.dict\nmax_len = %d\n' "$t" "$MAX_LEN" > "$OUT/$t.options"
done
# Ship the ICU and uriparser libraries beside the fuzzers: the runner image
# lacks them. ldd reads the build tree's binaries, whose $ORIGIN/lib does not
# exist, so it names the system's copies; on $OUT's it would name the copies
# made for an earlier target, and cp would refuse to copy a file onto itself.
for t in $TARGETS; do ldd "$BUILD/fuzz/$t"; done | awk '/libicu|liburiparser/ { print $3 }' | sort -u |
  while read -r lib; do cp -L "$lib" "$OUT/lib/"; done
# The policy and hint oracles read the Unicode data files (unicode-data in the
# image); the runners find them in $OUT/ucd.
mkdir -p "$OUT/ucd"
cp /usr/share/unicode/{UnicodeData,PropList,LineBreak}.txt "$OUT/ucd/"
echo "build.sh: $(echo "$TARGETS" | wc -w) fuzz targets in $OUT"
