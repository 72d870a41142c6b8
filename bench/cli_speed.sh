#!/usr/bin/env bash
# bench/cli_speed.sh [SET...] [-- UTF8GUARD] - time `utf8guard check` with
# hyperfine, side by side in one run, against `cat` (the floor: one read of
# the bytes) and isutf8 (moreutils), on inputs in the page cache. `check` runs
# as it does by default (a thread per usable CPU) and with -j1 (one thread).
# The SETs (all three when none is named):
#   large  one file of 1 GiB, twice: mostly-ascii (the Latin text repeated)
#          and multilingual (the nine texts one after another);
#          `iconv -f UTF-8 -t UTF-8` runs too. By default check cuts the file
#          into sections, one per thread.
#   files  20,000 files of 0.2-20 KB cut from the nine texts, in
#          folders of 200, as a repository's sources; check reads their names
#          with --files0-from, isutf8 and cat get them from xargs -0, and
#          `xargs -0 utf8guard check` runs too.
#   mix    the first 2,000 of those files and four multilingual files of 64
#          MiB among them (first, and after every 500 small ones), by name.
# The texts are those bench/texts.sh lists: the lipsum texts of
# $UTF8GUARD_BENCH_DATA/lipsum, or generated stand-ins (then it says so), so
# that the benchmark needs no file outside the repository.
# Inputs stay in $UTF8GUARD_CLI_SPEED_DIR (default build-bench/cli-speed),
# hyperfine's markdown and JSON beside them; RUNS (default 10) runs each.
# hyperfine sends every command's output to /dev/null. The summary gives each
# command's median and how much faster the default check ran;
# bench/make_readme.py --cli DIR turns the JSON into bench/README.md's table.
# Needs hyperfine and moreutils (scripts/install-deps.sh), python3 and ~3 GiB
# of disk.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sets=()
while [ $# -gt 0 ]; do
  case $1 in
    large | files | mix) sets+=("$1") ;;
    --) shift; break ;;
    *) break ;;
  esac
  shift
done
[ ${#sets[@]} -eq 0 ] && sets=(large files mix)
cli=$(realpath -m "${1:-$root/build/utf8guard}")
out=$(realpath -m "${UTF8GUARD_CLI_SPEED_DIR:-$root/build-bench/cli-speed}")
inputs=$root/bench/cli_inputs.py
[ -x "$cli" ] || { echo "cli_speed.sh: no CLI at $cli (build first, or name it)" >&2; exit 2; }
for tool in hyperfine isutf8 iconv python3; do
  command -v "$tool" >/dev/null ||
    { echo "cli_speed.sh: $tool not found (scripts/install-deps.sh installs it)" >&2; exit 2; }
done
mkdir -p "$out"
mapfile -t texts < <("$root/bench/texts.sh")
mapfile -t latin < <("$root/bench/texts.sh" Latin 2>/dev/null)
[ ${#texts[@]} -gt 0 ] && [ ${#latin[@]} -gt 0 ] || exit 2
# The inputs are made once per set of texts; other texts remake them.
[ "$(cat "$out/texts" 2>/dev/null)" = "${texts[*]}" ] || rm -rf "${out:?}"/{*.txt,tree,mix,texts}
echo "${texts[*]}" > "$out/texts"
# The command make_readme.py prints, with the data folder as its variable.
echo "${UTF8GUARD_BENCH_DATA:+UTF8GUARD_BENCH_DATA=DIR }RUNS=${RUNS:-10} bench/cli_speed.sh ${sets[*]}" \
  > "$out/command"

# bench NAME DIR CMD... : hyperfine over "-n LABEL COMMAND" pairs, run in DIR.
bench() {
  local name=$1 dir=$2
  shift 2
  (cd "$dir" && hyperfine --warmup 2 --runs "${RUNS:-10}" -N \
    --export-markdown "$out/$name.md" --export-json "$out/$name.json" "$@")
}

# warm LISTFILE: every file the NUL-separated list names, into the page cache.
warm() { xargs -0 -a "$1" cat > /dev/null; }

echo "cli_speed.sh: $("$cli" --version | tr '\n' ' '); texts: ${texts[*]##*/}"
echo "cli_speed.sh: load: $(uptime)"
names=()
for set in "${sets[@]}"; do
  case $set in
    large)
      for name in mostly-ascii multilingual; do
        f=$out/$name.txt
        unit=("${texts[@]}")
        [ "$name" = mostly-ascii ] && unit=("${latin[@]}")
        [ -s "$f" ] || python3 "$inputs" big "$f" 1024 "${unit[@]}"
        "$cli" check --quiet "$f" ||
          { echo "cli_speed.sh: $f is not valid UTF-8" >&2; exit 1; }
        cat "$f" > /dev/null
        bench "$name" "$out" \
          -n cat "cat $f" \
          -n "check" "$cli check $f" \
          -n "check -j1" "$cli check -j1 $f" \
          -n isutf8 "isutf8 $f" \
          -n iconv "iconv -f UTF-8 -t UTF-8 $f"
        names+=("$name")
      done
      ;;
    files | mix)
      tree=$out/tree
      [ -s "$tree/files0" ] || python3 "$inputs" tree "$tree" 20000 200 20000 "${texts[@]}"
      list=$tree/files0
      if [ "$set" = mix ]; then
        mkdir -p "$out/mix"
        for i in 0 1 2 3; do
          [ -s "$out/mix/big$i.txt" ] ||
            python3 "$inputs" big "$out/mix/big$i.txt" 64 "${texts[@]}"
        done
        # Relative to the tree: ../mix/bigN.txt, first and after every 500.
        python3 - "$tree/files0" "$out/mix/files0" <<'EOF'
import sys
names = open(sys.argv[1], "rb").read().split(b"\0")[:2000]
out = []
for i, n in enumerate(names):
    if i % 500 == 0:
        out.append(b"../mix/big%d.txt" % (i // 500))
    out.append(n)
open(sys.argv[2], "wb").write(b"".join(n + b"\0" for n in out))
EOF
        list=$out/mix/files0
      fi
      (cd "$tree" && "$cli" check --quiet --files0-from "$list") ||
        { echo "cli_speed.sh: the $set inputs are not all valid UTF-8" >&2; exit 1; }
      (cd "$tree" && warm "$list")
      extra=()
      [ "$set" = files ] && extra=(-n "xargs check" "xargs -0 -a $list $cli check")
      bench "$set" "$tree" \
        -n "xargs cat" "xargs -0 -a $list cat" \
        -n "check" "$cli check --files0-from $list" \
        -n "check -j1" "$cli check -j1 --files0-from $list" \
        -n "xargs isutf8" "xargs -0 -a $list isutf8" \
        "${extra[@]}"
      names+=("$set")
      ;;
  esac
done

# One line per command: median, and the default check's speed over it.
python3 - "$out" "${names[@]}" <<'EOF'
import json, statistics, sys
out, names = sys.argv[1], sys.argv[2:]
for name in names:
    runs = json.load(open(f"{out}/{name}.json"))["results"]
    med = {r["command"]: statistics.median(r["times"]) for r in runs}
    for cmd, t in med.items():
        print(f"{name:13} {cmd:14} {t * 1000:9.1f} ms   check is {t / med['check']:5.2f}x as fast")
EOF
