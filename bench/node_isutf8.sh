#!/usr/bin/env bash
# bench/node_isutf8.sh [node_isutf8.js options] [FILE...] - time Node's
# Buffer.isUtf8 on FILE... (default: bench/texts.sh's texts) and on the synthetic
# inputs of utf8guard_bench, written out by the g++ build (bench/build.sh) to
# a temporary folder first, so Node sees the very bytes the suite times.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
opts=()
files=()
while [ $# -gt 0 ]; do
  case $1 in
    --json) opts+=("$1") ;;
    --reps | --min-ms) opts+=("$1" "$2"); shift ;;
    -*) echo "node_isutf8.sh: unknown option $1" >&2; exit 2 ;;
    *) files+=("$1") ;;
  esac
  shift
done
if [ ${#files[@]} -eq 0 ]; then
  mapfile -t files < <("$root/bench/texts.sh")
  [ ${#files[@]} -gt 0 ] || exit 2
fi
bin=$root/build-bench/bench/utf8guard_bench
[ -x "$bin" ] || "$root/bench/build.sh" gcc >&2
dump=$(mktemp -d)
trap 'rm -rf "$dump"' EXIT
"$bin" --dump_inputs="$dump"
node "$root/bench/node_isutf8.js" "${opts[@]}" "${files[@]}" "$dump"/*.bin
