#!/usr/bin/env bash
# bench/cli_speed.sh [UTF8GUARD] - time `utf8guard check` on 1 GiB files in the
# page cache against `cat FILE` (the floor: one read of the bytes), isutf8
# (moreutils) and `iconv -f UTF-8 -t UTF-8`, with hyperfine, in one run.
# `check` runs as it does by default (a thread per usable CPU, the file in
# sections) and with -j1 (one thread, one pass).
# hyperfine sends every command's output to /dev/null. Two inputs, built
# from the lipsum texts by repetition:
#   mostly-ascii  Latin lipsum (ASCII but for a few punctuation marks)
#   multilingual  the nine lipsum texts one after another (Arabic ... Russian)
# The files stay in $UTF8GUARD_CLI_SPEED_DIR (default build-bench/cli-speed),
# hyperfine's markdown and JSON beside them. RUNS (default 10) runs each.
# Needs hyperfine and moreutils (scripts/install-deps.sh) and ~2 GiB of disk.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cli=${1:-$root/build/utf8guard}
data=${UTF8GUARD_BENCH_DATA:-$root/../shared/data}
out=${UTF8GUARD_CLI_SPEED_DIR:-$root/build-bench/cli-speed}
[ -x "$cli" ] || { echo "cli_speed.sh: no CLI at $cli (build first, or name it)" >&2; exit 2; }
for tool in hyperfine isutf8 iconv; do
  command -v "$tool" >/dev/null ||
    { echo "cli_speed.sh: $tool not found (scripts/install-deps.sh installs it)" >&2; exit 2; }
done
mkdir -p "$out"

# make_gib DEST SRC... repeats the SRC files, in order, into exactly 1 GiB,
# less a character that the cut would split: the file stays valid UTF-8.
make_gib() {
  local dest=$1
  shift
  [ -s "$dest" ] && return
  python3 - "$dest" "$@" <<'EOF'
import sys
unit = b"".join(open(f, "rb").read() for f in sys.argv[2:])
raw = (unit * ((1 << 30) // len(unit) + 1))[: 1 << 30]
lead = len(raw)
while lead > 0 and raw[lead - 1] & 0xC0 == 0x80:
    lead -= 1
end = len(raw)
if lead > 0 and raw[lead - 1] >= 0xC0:
    need = 2 if raw[lead - 1] < 0xE0 else 3 if raw[lead - 1] < 0xF0 else 4
    if end - (lead - 1) < need:
        end = lead - 1
open(sys.argv[1], "wb").write(raw[:end])
EOF
}

make_gib "$out/mostly-ascii.txt" "$data/lipsum/Latin-Lipsum.utf8.txt"
make_gib "$out/multilingual.txt" "$data"/lipsum/*.txt
"$cli" check --quiet "$out/mostly-ascii.txt" "$out/multilingual.txt" ||
  { echo "cli_speed.sh: the inputs are not valid UTF-8" >&2; exit 1; }

echo "cli_speed.sh: $("$cli" --version | tr '\n' ' '); load: $(uptime)"
for name in mostly-ascii multilingual; do
  f=$out/$name.txt
  cat "$f" > /dev/null  # into the page cache
  hyperfine --warmup 2 --runs "${RUNS:-10}" -N \
    --export-markdown "$out/$name.md" --export-json "$out/$name.json" \
    -n cat "cat $f" \
    -n "utf8guard check" "$cli check $f" \
    -n "utf8guard check -j1" "$cli check -j1 $f" \
    -n isutf8 "isutf8 $f" \
    -n iconv "iconv -f UTF-8 -t UTF-8 $f"
done
# One line per command: median time, GB/s (10^9 bytes), ratio to cat.
python3 - "$out" <<'EOF'
import json, os, statistics, sys
for name in ("mostly-ascii", "multilingual"):
    size = os.path.getsize(f"{sys.argv[1]}/{name}.txt")
    runs = json.load(open(f"{sys.argv[1]}/{name}.json"))["results"]
    med = {r["command"]: statistics.median(r["times"]) for r in runs}
    for cmd, t in med.items():
        print(f"{name:13} {cmd:20} {t * 1000:8.1f} ms {size / t / 1e9:6.2f} GB/s "
              f"{med['cat'] / t:5.2f}x cat")
EOF
