#!/usr/bin/env bash
# bench/build.sh [--committed | --rev REV] COMPILER... - configure and build
# the benchmark binaries (utf8guard_bench, utf8guard_short, utf8guard_validate_n
# and, but for --rev, utf8guard_feed_layers) in Release, with only the library
# and bench/ enabled, so the rest of the tree cannot break them.
#
#   COMPILER      gcc (into build-bench) or clang (into build-bench-clang)
#   --committed   build the library as committed at HEAD (a git archive in
#                 build-bench-committed-src) with the working tree's bench/
#                 and tests/support/:
#                 measures what is on main, not what someone is editing now
#   --rev REV     the same for commit REV, into build-bench-rev and
#                 build-bench-clang-rev (so that bench/compare.sh can run it
#                 next to the working tree's build)
#
# Builds run under nice with at most 2 jobs (the machine is shared).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

source_dir=$root
rev=
suffix=
compilers=()
while [ $# -gt 0 ]; do
  case $1 in
    --committed) source_dir=$root/build-bench-committed-src rev=HEAD ;;
    --rev)
      [ $# -ge 2 ] || { echo "build.sh: --rev needs a commit" >&2; exit 2; }
      source_dir=$root/build-bench-rev-src rev=$2 suffix=-rev
      shift ;;
    gcc | clang) compilers+=("$1") ;;
    *) echo "build.sh: unknown argument $1 (gcc, clang, --committed, --rev REV)" >&2; exit 2 ;;
  esac
  shift
done
[ ${#compilers[@]} -gt 0 ] || compilers=(gcc)

if [ -n "$rev" ]; then
  commit=$(git rev-parse --verify --quiet "$rev^{commit}") ||
    { echo "build.sh: no commit $rev" >&2; exit 2; }
  rm -rf "$source_dir"
  mkdir -p "$source_dir"
  # -m: files dated now, not at the commit's time, so that ninja rebuilds
  # what an older build of another commit left in the build directory.
  git archive "$commit" | tar -x -m -C "$source_dir"
  # bench/ and the test helpers it includes (tests/support/) as they are now.
  for d in bench tests/support; do
    rm -rf "${source_dir:?}/$d"
    cp -r "$root/$d" "$source_dir/$d"
  done
  echo "build.sh: library as committed at $(git rev-parse --short "$commit"), bench/ and tests/support/ from the working tree"
fi

for c in "${compilers[@]}"; do
  if [ "$c" = gcc ]; then dir=$root/build-bench$suffix cc=gcc cxx=g++; fi
  if [ "$c" = clang ]; then dir=$root/build-bench-clang$suffix cc=clang cxx=clang++; fi
  # A build dir configured from the other source tree is started afresh
  # (CMake refuses to switch); its results/ folder is kept.
  if [ -f "$dir/CMakeCache.txt" ] &&
     ! grep -qx "CMAKE_HOME_DIRECTORY:INTERNAL=$source_dir" "$dir/CMakeCache.txt"; then
    find "$dir" -mindepth 1 -maxdepth 1 ! -name results -exec rm -rf {} +
  fi
  nice -n 10 cmake -S "$source_dir" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
    -DUTF8GUARD_BUILD_TESTS=OFF -DUTF8GUARD_BUILD_FUZZ=OFF -DUTF8GUARD_BUILD_CLI=OFF \
    -DUTF8GUARD_BUILD_EXAMPLES=OFF -DUTF8GUARD_BUILD_BENCH=ON >/dev/null
  # utf8guard_feed_layers uses the library's internals, which an older
  # commit's may not match: not for --rev builds.
  targets=(utf8guard_bench utf8guard_short utf8guard_validate_n)
  [ -n "$suffix" ] || targets+=(utf8guard_feed_layers)
  nice -n 10 cmake --build "$dir" -j2 --target "${targets[@]}"
done
