#!/usr/bin/env bash
# coverage.sh - how much of the library the fuzz corpora reach.
#
#   fuzz/coverage.sh [BUILD_DIR]      (default: build-fuzz-coverage)
#
# Builds the replay targets with clang source-based coverage
# (-fprofile-instr-generate -fcoverage-mapping), replays every target over
# corpus/TARGET/ and the security vectors (security/vectors/vectors.tsv),
# merges the profiles and prints line, region, function and branch coverage
# of the library's sources (src/, less the CLI in src/cli/, which the fuzz
# targets do not link), then every line that no input reached.
# Needs clang and llvm-profdata/llvm-cov (Debian: clang, llvm; the -14
# suffixed names are found too).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build-fuzz-coverage}
TARGETS=$(awk '!/^#/ && NF { print $1 }' "$ROOT/fuzz/targets.txt")
VECTORS=$ROOT/security/vectors/vectors.tsv

tool() {
  local t
  for t in "$1" "$1-14" "$1-15" "$1-16"; do
    command -v "$t" > /dev/null && { echo "$t"; return; }
  done
  echo "coverage.sh: $1 not found (apt-get install llvm)" >&2
  exit 2
}
PROFDATA=$(tool llvm-profdata)
COV=$(tool llvm-cov)

flags="-fprofile-instr-generate -fcoverage-mapping"
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  generator=()
  command -v ninja > /dev/null && generator=(-G Ninja)
  CC=clang CXX=clang++ nice -n 10 cmake -S "$ROOT" -B "$BUILD" "${generator[@]}" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fprofile-instr-generate" \
    -DUTF8GUARD_BUILD_FUZZ=ON -DUTF8GUARD_BUILD_CLI=OFF -DUTF8GUARD_BUILD_TESTS=OFF \
    -DUTF8GUARD_BUILD_BENCH=OFF -DUTF8GUARD_BUILD_EXAMPLES=OFF -DUTF8GUARD_BUILD_NGINX=OFF \
    > "$BUILD.configure.log" 2>&1 ||
    { cat "$BUILD.configure.log" >&2; exit 1; }
fi
nice -n 10 cmake --build "$BUILD" -j2 > "$BUILD.build.log" 2>&1 ||
  { tail -40 "$BUILD.build.log" >&2; exit 1; }

profiles=$BUILD/profiles
rm -rf "$profiles"
mkdir -p "$profiles"
objects=()
for t in $TARGETS; do
  bin=$BUILD/fuzz/$t
  args=("$ROOT/corpus/$t")
  [ -f "$VECTORS" ] && args+=(--vectors "$VECTORS")
  LLVM_PROFILE_FILE="$profiles/$t.profraw" nice -n 10 "$bin" "${args[@]}"
  objects+=(-object "$bin")
done
"$PROFDATA" merge -sparse "$profiles"/*.profraw -o "$profiles/all.profdata"

# The library's own sources: src/ without the CLI.
mapfile -t sources < <(find "$ROOT/src" -path "$ROOT/src/cli" -prune -o \
  -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.inc' -o -name '*.h' \) -print | sort)
echo
echo "== coverage of the library (src/, less src/cli/) by every corpus and the security vectors"
"$COV" report "${objects[@]:1}" -instr-profile="$profiles/all.profdata" \
  -show-branch-summary -show-region-summary "${sources[@]}" | sed "s|$ROOT/||"

echo
echo "== lines no input reached"
"$COV" export -format=lcov "${objects[@]:1}" -instr-profile="$profiles/all.profdata" \
  "${sources[@]}" > "$profiles/all.lcov"
awk -v root="$ROOT/" '
  /^SF:/ { file = substr($0, 4); next }
  /^DA:/ {
    split(substr($0, 4), f, ",")
    if (f[2] == 0) {
      if (!(file in text)) {
        n = 0
        while ((getline line < file) > 0) src[file, ++n] = line
        close(file)
        text[file] = 1
      }
      rel = file; sub(root, "", rel)
      printf "  %s:%d: %s\n", rel, f[1], src[file, f[1]]
      missed++
    }
  }
  END { if (!missed) print "  (none)" }
' "$profiles/all.lcov"
