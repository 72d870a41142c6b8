#!/bin/sh
# test.sh [ctest args...] - build utf8guard and run the whole test suite
# (every label, the 2^32-input exhaustive shards included) in build/.
# Extra arguments go to ctest, e.g. `scripts/test.sh -L unit` or `-LE exhaustive`.
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
# The Node.js package's npm dependencies (node/package-lock.json: the Node-API
# headers the addon builds against, and the test packages), when npm is
# there; CMake builds the addon itself (label node).
if command -v npm >/dev/null &&
  { [ ! -f node/node_modules/.package-lock.json ] ||
    [ node/package-lock.json -nt node/node_modules/.package-lock.json ]; }; then
  npm ci --prefix node --ignore-scripts --no-audit --no-fund
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release ${UTF8GUARD_CMAKE_ARGS:-}
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs" "$@"
