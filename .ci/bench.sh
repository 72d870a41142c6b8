#!/usr/bin/env bash
# .ci/bench.sh - the benchmarks' CI smoke job: build them with g++ and run
# every benchmark once with a tiny min time, so that none rots. Each benchmark
# checks its answer before timing it (every kernel against the scalar one,
# every competitor against the input's known validity; the percent-encoded
# pairs: curl's and uriparser's decoding against percent_decode, and the
# two-pass pipeline's verdict against validate_percent_encoded on every
# kernel), so a wrong kernel fails this job too. Also runs the report, the Node timer, the callgrind
# driver, utf8guard_short and utf8guard_feed_layers once, make_readme.py on those results
# (bench/README.md's generator, into a copy), compare.py on the run against itself, and
# kernel_ab.sh against HEAD (a build of its own, about a minute).
#
# UTF8GUARD_BENCH_BUILD=DIR takes the benchmarks from an existing g++ Release
# build of the whole project (.ci/run passes scripts/test.sh's build/, which
# has the library as bench/build.sh gcc would build it) instead of building
# build-bench.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS

if [ -n "${UTF8GUARD_BENCH_BUILD:-}" ]; then
  cmake --build "$UTF8GUARD_BENCH_BUILD" -j2 \
    --target utf8guard_bench utf8guard_short utf8guard_validate_n utf8guard_feed_layers
  bin=$UTF8GUARD_BENCH_BUILD/bench
else
  bench/build.sh gcc
  bin=build-bench/bench
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Files from the command line take the same path as the lipsum texts: write
# two synthetic inputs out and name them back (one valid, one with errors).
"$bin/utf8guard_bench" --dump_inputs="$tmp"
if ! "$bin/utf8guard_bench" "$tmp/mixed_256K.bin" "$tmp/err1%_256K.bin" \
  --benchmark_min_time=0.0001 --benchmark_out="$tmp/smoke.json" --benchmark_out_format=json \
  >"$tmp/console.txt" 2>&1; then
  cat "$tmp/console.txt" >&2
  exit 1
fi
count=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["benchmarks"]))' \
  "$tmp/smoke.json")
# The percent-encoded pairs (percent_paired.cpp) on every kernel, over the
# request lines ($UTF8GUARD_BENCH_DATA/urls, else the generated stand-in) and
# the texts without '%'.
read -r percent kernel_count < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print(sum(b["name"].startswith("pair_percent_") for b in d["benchmarks"]),
      len(d["context"]["utf8guard_kernels"].split(",")))' "$tmp/smoke.json")
[ "$percent" -ge $((5 * kernel_count)) ] ||
  { echo "bench: $percent pair_percent_ benchmarks ran, fewer than 5 per kernel" >&2; exit 1; }
# report.py exits 1 when any benchmark failed its check; show why.
if ! python3 bench/report.py "$tmp/smoke.json" >"$tmp/report.txt"; then
  sed -n '/FAILED/,$p' "$tmp/report.txt" >&2
  exit 1
fi

# compare.py on the same run as both sides: every benchmark listed, every ratio 1.00.
mkdir "$tmp/compare"
cp "$tmp/smoke.json" "$tmp/compare/base-gcc-1.json"
cp "$tmp/smoke.json" "$tmp/compare/work-gcc-1.json"
python3 bench/compare.py --compilers gcc "$tmp/compare" >"$tmp/compare.txt"
rows=$(tail -n +2 "$tmp/compare.txt" | grep -c ' 1\.00$' || true)
[ "$rows" -gt 0 ] && [ "$rows" -eq "$(tail -n +2 "$tmp/compare.txt" | wc -l)" ] ||
  { echo "bench: compare.py did not list every benchmark at ratio 1.00" >&2; cat "$tmp/compare.txt" >&2; exit 1; }

# The short-string pools, cut from the texts bench/texts.sh lists (the
# generated stand-ins when the lipsum texts are absent): every pair on every
# pool, each checking its answers first.
mkdir "$tmp/results"
short=$("$bin/utf8guard_short" $(bench/texts.sh 2>/dev/null) --benchmark_min_time=0.0001 \
  --benchmark_format=json 2>"$tmp/short.err" | tee "$tmp/results/short-gcc.json" |
  python3 -c 'import json,sys; b=json.load(sys.stdin)["benchmarks"]
bad=[x["name"] for x in b if x.get("error_occurred")]
print(len(b) if b and not bad else "failed: " + " ".join(bad or ["none ran"]))') ||
  { cat "$tmp/short.err" >&2; exit 1; }
case $short in failed*) echo "bench: utf8guard_short $short" >&2; exit 1 ;; esac

# The feed-layers diagnostic: every layer on every usable body, each checked
# (a layer that finds an error in its valid input fails its benchmark).
layers=$("$bin/utf8guard_feed_layers" --benchmark_min_time=0.0001 --benchmark_format=json 2>"$tmp/layers.err" |
  python3 -c 'import json,sys; b=json.load(sys.stdin)["benchmarks"]
bad=[x["name"] for x in b if x.get("error_occurred")]
print(len(b) if b and not bad else "failed: " + " ".join(bad or ["none ran"]))') ||
  { cat "$tmp/layers.err" >&2; exit 1; }
case $layers in failed*) echo "bench: utf8guard_feed_layers $layers" >&2; exit 1 ;; esac

if command -v node >/dev/null; then
  node bench/node_isutf8.js --reps 1 --min-ms 1 "$tmp/mixed_256K.bin" >/dev/null
fi
# The Node.js package against Node's own calls, once, on the addon of
# scripts/test.sh's build (no wrk run).
if command -v node >/dev/null && [ -f build/node/utf8guard.node ]; then
  UTF8GUARD_NODE_ADDON=$PWD/build/node/utf8guard.node node bench/node_api.js --reps 1 --min-ms 1 --no-wrk >/dev/null
fi

# make_readme.py on this run (run.sh's layout: run.json, gcc.json, short-gcc.json), into a
# copy of bench/README.md: every section it writes must appear, and the file stay within
# 500 lines (a guide to the benchmarks: each suite's prose and one run's tables).
cp "$tmp/smoke.json" "$tmp/results/gcc.json"
python3 -c 'import json,sys; json.dump({"commit": sys.argv[1], "dirty": False, "cpu": "smoke",
  "command": ".ci/bench.sh"}, open(sys.argv[2], "w"))' "$(git rev-parse HEAD)" "$tmp/results/run.json"
cp bench/README.md "$tmp/README.md"
python3 bench/make_readme.py --readme "$tmp/README.md" "$tmp/results"
for section in "## Results" "### Library and competitors" "### Ratios timed side by side" \
  "#### Percent-encoded input" "#### Policies" "### Short strings"; do
  grep -q "^$section" "$tmp/README.md" ||
    { echo "bench: make_readme.py wrote no \"$section\"" >&2; exit 1; }
done
readme_lines=$(wc -l <"$tmp/README.md")
echo "bench: make_readme.py wrote bench/README.md in $readme_lines lines"
[ "$readme_lines" -le 500 ] ||
  { echo "bench: make_readme.py made bench/README.md longer than 500 lines" >&2; exit 1; }
kernels=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["context"]
  ["utf8guard_kernels"].replace(",", " "))' "$tmp/smoke.json")
for k in $kernels; do
  UTF8GUARD_KERNEL=$k "$bin/utf8guard_validate_n" "$tmp/mixed_256K.bin" 2 | grep -q "^kernel=$k .*valid=2$" ||
    { echo "bench: utf8guard_validate_n did not run kernel $k" >&2; exit 1; }
done

# kernel_ab.sh end to end against HEAD (git archive, its own build, the
# split into compare.py's files): every x86 body this CPU runs, both sides,
# each reaching the end of the valid file.
ab=$(COMPILERS=gcc REPS=1 MIN_TIME=0.0001 bench/kernel_ab.sh HEAD "$tmp/mixed_256K.bin" 2>"$tmp/ab.err") ||
  { cat "$tmp/ab.err" >&2; exit 1; }
ab_rows=$(tail -n +2 <<<"$ab" | grep -c 'GB/s' || true)
if [ "$ab_rows" -eq 0 ] || grep -q FAILED <<<"$ab"; then
  echo "bench: kernel_ab.sh listed no body, or a body failed its answer check" >&2
  echo "$ab" >&2
  exit 1
fi
# bench/nginx/speed.py once, briefly: wrk against Debian's nginx with the
# module, without it and with ModSecurity+CRS, where all of them are here.
module=${UTF8GUARD_BENCH_BUILD:-build}/nginx/nginx-build/objs/ngx_http_utf8guard_module.so
nginx_runs="skipped (no module, request lines or wrk)"
if [ -f "$module" ] && [ -f "${UTF8GUARD_BENCH_DATA:-}/urls/requests_1MiB.txt" ] &&
   command -v wrk >/dev/null; then
  python3 bench/nginx/speed.py --module "$module" --rounds 1 --duration 2 --connections 4 >"$tmp/nginx.txt" ||
    { cat "$tmp/nginx.txt" >&2; exit 1; }
  # and its instruction count under callgrind, on a few requests.
  python3 bench/nginx/instructions.py --module "$module" --count 200 >>"$tmp/nginx.txt" ||
    { cat "$tmp/nginx.txt" >&2; exit 1; }
  nginx_runs="ran"
fi
echo "bench: the nginx module's speed scripts $nginx_runs"
echo "bench: $count benchmarks ($percent of percent-encoded input), $short short-string pairs, $layers feed layers and $ab_rows kernel A/B bodies ran and checked their answers in $((SECONDS - start))s"
