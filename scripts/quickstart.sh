#!/bin/sh
# quickstart.sh - the README's first command: install what is missing, build,
# and run the CLI on the bundled sample, which holds real findings.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs" >/dev/null
echo "\$ build/utf8guard check --all samples/attacks.txt"
# The sample is ill-formed on purpose: exit status 1 is the expected answer.
status=0
build/utf8guard check --all samples/attacks.txt || status=$?
[ "$status" -eq 1 ] || { echo "quickstart: expected exit status 1, got $status" >&2; exit 1; }
