#!/usr/bin/env bash
# bench/callgrind.sh [--committed] [FILE...] - instructions per byte of
# utf8guard::is_valid for the scalar, sse42 and avx2 kernels, counted by
# valgrind --tool=callgrind (hardware counters are not available on these
# machines; valgrind cannot run AVX-512, so that kernel is left out).
#
# For each kernel (forced with UTF8GUARD_KERNEL) and file (default: the
# Arabic and Chinese texts of bench/texts.sh) it runs utf8guard_validate_n FILE N under
# callgrind for N = 0 and N = RUNS (default 20): the difference divided by
# RUNS x size is the cost of validation alone, without loading the file and
# starting the process. A kernel that is not compiled in, or that the
# (emulated) CPU cannot run, is reported as "n/a".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-20}
build_args=(gcc)
files=()
for arg in "$@"; do
  case $arg in
    --committed) build_args+=(--committed) ;;
    -*) echo "callgrind.sh: unknown option $arg" >&2; exit 2 ;;
    *) files+=("$arg") ;;
  esac
done
if [ ${#files[@]} -eq 0 ]; then
  mapfile -t files < <("$root/bench/texts.sh" Arabic Chinese)
  [ ${#files[@]} -gt 0 ] || exit 2
fi
command -v valgrind >/dev/null || { echo "callgrind.sh: install valgrind" >&2; exit 2; }
"$root/bench/build.sh" "${build_args[@]}" >/dev/null
driver=$root/build-bench/bench/utf8guard_validate_n

# instructions KERNEL FILE N: the instructions callgrind collected, or
# nothing when the driver ran another kernel than the one asked for.
instructions() {
  local log out
  log=$(mktemp)
  out=$(UTF8GUARD_KERNEL=$1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$driver" "$2" "$3" 2>"$log")
  case $out in
    "kernel=$1 "*) sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$log" ;;
  esac
  rm -f "$log"
}

echo "callgrind: instructions per byte of is_valid ($runs runs minus 0; $(valgrind --version))"
printf '%-28s %10s' file bytes
for k in scalar sse42 avx2; do printf ' %10s' "$k"; done
echo
for f in "${files[@]}"; do
  size=$(stat -c %s "$f")
  printf '%-28s %10d' "$(basename "$f")" "$size"
  for k in scalar sse42 avx2; do
    base=$(instructions "$k" "$f" 0)
    full=$(instructions "$k" "$f" "$runs")
    if [ -n "$base" ] && [ -n "$full" ]; then
      printf ' %10s' "$(python3 -c "print(f'{($full - $base) / ($runs * $size):.3f}')")"
    else
      printf ' %10s' n/a
    fi
  done
  echo
done
