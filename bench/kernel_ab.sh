#!/usr/bin/env bash
# bench/kernel_ab.sh BASE [FILE...] - the x86 SIMD kernel bodies' one-shot
# scan and percent decoder as committed at BASE and as in the working tree,
# side by side in one process (bench/kernel_ab.cpp), built with g++ and with
# clang; prints bench/compare.py's table (work / BASE, above 1 is faster).
# FILEs (valid UTF-8) default to the eight non-ASCII texts of bench/texts.sh
# (the lipsum texts, or their generated stand-ins); the decoder runs on the
# 10 MiB form bodies of the request lines and of each FILE.
#
# Where bench/compare.sh times the whole library in separate processes
# taking turns, this times only the kernels' algorithm (src/generic/ and
# src/simd/ of each side), both sides in one process with the repetitions
# interleaved at random: on a noisy machine, the finer instrument.
#
# Environment: REPS (9) repetitions of MIN_TIME (0.05) seconds, ROUNDS (1)
# processes per compiler, COMPILERS ("gcc clang"), FILTER (.) a regex on
# BODY/FILE, decode/BODY/FORM or decode+check/BODY/FORM (bodies: sse42 avx2
# avx512bw avx512 avx512vbmi2, those this CPU runs; a base without VBMI2
# runs its avx512 body as avx512vbmi2).
# Builds in build-ab-gcc and build-ab-clang; BASE's sources in build-ab-base;
# results in build-ab-results/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

[ $# -ge 1 ] || { echo "usage: bench/kernel_ab.sh BASE [FILE...]" >&2; exit 2; }
commit=$(git -C "$root" rev-parse --verify --quiet "$1^{commit}") ||
  { echo "kernel_ab.sh: no commit $1" >&2; exit 2; }
shift
files=()
for f in "$@"; do  # named from the caller's directory
  [ -r "$f" ] || { echo "kernel_ab.sh: cannot read $f" >&2; exit 2; }
  files+=("$(realpath "$f")")
done
if [ ${#files[@]} -eq 0 ]; then
  mapfile -t files < <("$root/bench/texts.sh" --non-ascii)
  [ ${#files[@]} -gt 0 ] || exit 2
fi
read -r -a compilers <<<"${COMPILERS:-gcc clang}"

base_src=$root/build-ab-base
rm -rf "$base_src"
mkdir -p "$base_src"
# -m: files dated now, so that ninja rebuilds against them.
git -C "$root" archive "$commit" src/simd src/generic | tar -x -m -C "$base_src"

for c in "${compilers[@]}"; do
  case $c in
    gcc) cc=gcc cxx=g++ ;;
    clang) cc=clang cxx=clang++ ;;
    *) echo "kernel_ab.sh: unknown compiler $c (gcc, clang)" >&2; exit 2 ;;
  esac
  nice -n 10 cmake -S "$root" -B "$root/build-ab-$c" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
    -DUTF8GUARD_BUILD_TESTS=OFF -DUTF8GUARD_BUILD_FUZZ=OFF -DUTF8GUARD_BUILD_CLI=OFF \
    -DUTF8GUARD_BUILD_EXAMPLES=OFF -DUTF8GUARD_BUILD_BENCH=ON \
    -DUTF8GUARD_AB_BASE="$base_src/src" >/dev/null
  nice -n 10 cmake --build "$root/build-ab-$c" -j2 --target utf8guard_kernel_ab
done

out=$root/build-ab-results
rm -rf "$out"
mkdir -p "$out"
for r in $(seq "${ROUNDS:-1}"); do
  for c in "${compilers[@]}"; do
    echo "kernel_ab.sh: round $r, $c; load: $(uptime)"
    "$root/build-ab-$c/bench/utf8guard_kernel_ab" "${files[@]}" \
      --benchmark_filter="^(base|work)/(${FILTER:-.})" \
      --benchmark_repetitions="${REPS:-9}" --benchmark_min_time="${MIN_TIME:-0.05}" \
      --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true \
      --benchmark_out="$out/both-$c-$r.json" --benchmark_out_format=json >/dev/null
    # One file per side, named as compare.py reads them.
    python3 - "$out" "$c" "$r" <<'PY'
import json, pathlib, sys
out, compiler, rnd = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3]
both = json.loads((out / f'both-{compiler}-{rnd}.json').read_text())
for side in ('base', 'work'):
    mine = []
    for b in both['benchmarks']:
        if b['run_name'].startswith(side + '/'):
            b = dict(b, run_name=b['run_name'][len(side) + 1:], name=b['name'][len(side) + 1:])
            mine.append(b)
    (out / f'{side}-{compiler}-{rnd}.json').write_text(json.dumps(dict(both, benchmarks=mine)))
PY
    rm "$out/both-$c-$r.json"
  done
done

python3 "$root/bench/compare.py" --base-name "$(git -C "$root" rev-parse --short "$commit")" \
  --compilers "${compilers[*]}" "$out"
