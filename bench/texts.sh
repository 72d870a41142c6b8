#!/usr/bin/env bash
# bench/texts.sh [--non-ascii] [NAME...] - print the text files the benchmarks
# time, one path a line: the lipsum texts of lemire/unicode_lipsum when
# $UTF8GUARD_BENCH_DATA/lipsum holds them (NAME-Lipsum.utf8.txt), otherwise
# stand-ins generated once by bench/make_texts.py into build-bench/texts
# (NAME-Generated.txt), with a notice on stderr saying so.
#
#   --non-ascii   leave out the Latin text (pure ASCII)
#   NAME...       only these scripts (Arabic, Chinese, Emoji, Hebrew, Hindi,
#                 Japanese, Korean, Latin, Russian)
#
# Every script of bench/ that needs texts and is given no FILE takes them from
# here, so that the benchmarks run on a machine that has only this repository.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

non_ascii=
names=()
for arg in "$@"; do
  case $arg in
    --non-ascii) non_ascii=1 ;;
    -*) echo "texts.sh: unknown option $arg" >&2; exit 2 ;;
    *) names+=("$arg") ;;
  esac
done

dir=
if [ -n "${UTF8GUARD_BENCH_DATA:-}" ] && compgen -G "$UTF8GUARD_BENCH_DATA/lipsum/*.txt" >/dev/null; then
  dir=$UTF8GUARD_BENCH_DATA/lipsum
else
  dir=$root/build-bench/texts
  [ -s "$dir/Russian-Generated.txt" ] || python3 "$root/bench/make_texts.py" "$dir"
  echo "bench: no lipsum texts (\$UTF8GUARD_BENCH_DATA/lipsum); timing the generated" \
    "stand-ins in $dir (bench/make_texts.py) instead" >&2
fi

found=0
for f in "$dir"/*.txt; do
  [ -e "$f" ] || continue
  base=${f##*/}
  script=${base%%-*}
  [ -n "$non_ascii" ] && [ "$script" = Latin ] && continue
  if [ ${#names[@]} -gt 0 ]; then
    keep=
    for n in "${names[@]}"; do [ "$n" = "$script" ] && keep=1; done
    [ -n "$keep" ] || continue
  fi
  echo "$f"
  found=1
done
[ $found = 1 ] || { echo "texts.sh: no texts in $dir${names[*]:+ for ${names[*]}}" >&2; exit 2; }
