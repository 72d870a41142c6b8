#!/usr/bin/env python3
"""report.py - print the tables of utf8guard_bench JSON output.

    bench/report.py [--markdown] [--node node.json] RESULT.json [RESULT.json ...]

Each RESULT.json is the --benchmark_out of one utf8guard_bench run (one per
compiler). For each it prints:
  * is_valid: rows = inputs, columns = utf8guard kernels, competitors, Node's
    Buffer.isUtf8 (from --node, timed in the same session), the read pass and
    memcpy; cells = GB/s (10^9 bytes/s, the median over repetitions) and, in
    parentheses, the ratio to the read pass over the same bytes; plus the
    geometric mean of the non-ASCII lipsum files.
  * validate, stream4k, stream64k, sanitize, errors: the same, for the kernels
    (and, for sanitize, the competitors; "*" marks output that differs from
    docs/design.md's replacement rule).
  * small inputs: ns per call.
  * ratios between two calls, timed side by side (pair_OP_BASE benchmarks,
    bench/paired.cpp and bench/percent_paired.cpp): the median over rounds of
    alternating blocks.
bench/make_readme.py writes bench/README.md from the same data (Run).
Rates and times are CPU time (Google Benchmark's default), which a busy
shared machine disturbs less than wall time.
"""

import argparse
import json
import math
import re
import statistics
import sys
from collections import OrderedDict

OPS = ["is_valid", "validate", "stream4k", "stream64k", "sanitize", "errors"]
OP_TITLES = {
    "is_valid": "is_valid (yes/no)",
    "validate": "validate (kind, offset, length)",
    "stream4k": "streaming validator, 4 KiB chunks",
    "stream64k": "streaming validator, 64 KiB chunks",
    "sanitize": "sanitize_to into a preallocated buffer",
    "errors": "error_scanner (every error, as `check --all`)",
}
KERNEL_ORDER = ["scalar", "sse42", "avx2", "avx512bw", "avx512", "avx512vbmi2", "neon"]
SMALL = re.compile(r"_(\d+)B$")


# The texts: the lipsum files (NAME-Lipsum), or the stand-ins bench/texts.sh
# generates without them (NAME-Generated); the summaries read whichever ran.
TEXT_SUFFIXES = ("-Lipsum", "-Generated")


def is_text(name):
    return name.endswith(TEXT_SUFFIXES)


def is_non_ascii_lipsum(name):
    return is_text(name) and not name.startswith("Latin")


def geomean(values):
    values = [v for v in values if v and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


class Run:
    """The medians of one utf8guard_bench JSON file."""

    def __init__(self, path):
        with open(path) as f:
            data = json.load(f)
        self.context = data["context"]
        self.kernels = [k for k in self.context.get("utf8guard_kernels", "").split(",") if k]
        self.errors = []
        self.cvs = []  # coefficient of variation of each benchmark's repetitions
        samples = OrderedDict()  # (op, impl, input) -> list of entries
        medians = {}
        # Registration order (family_index), not run order: random
        # interleaving shuffles the runs, the tables should not move.
        ordered = sorted(data["benchmarks"], key=lambda b: b.get("family_index", 0))
        for b in ordered:
            # Google Benchmark appends "/min_time:0.200" to a benchmark that
            # sets its own (paired.cpp's inputs from memory).
            name = re.sub(r"/min_time:[0-9.]+$", "", b.get("run_name", b["name"]))
            parts = name.split("/", 2)
            if len(parts) != 3:
                continue
            key = tuple(parts)
            if b.get("error_occurred"):
                self.errors.append(f"{name}: {b.get('error_message', 'error')}")
                continue
            if b.get("run_type") == "aggregate":
                if b.get("aggregate_name") == "median":
                    medians[key] = b
                elif b.get("aggregate_name") == "cv":
                    self.cvs.append(b["cpu_time"])
                continue
            samples.setdefault(key, []).append(b)
            medians.setdefault(key, None)
        self.results = OrderedDict()
        for key in list(samples) + [k for k in medians if k not in samples]:
            entry = medians.get(key)
            if entry is None:  # no aggregates (one repetition): take the median ourselves
                runs = samples[key]
                entry = dict(runs[0])
                for field in ("bytes_per_second", "cpu_time", "real_time", "ratio"):
                    values = [r[field] for r in runs if field in r]
                    if values:
                        entry[field] = statistics.median(values)
            self.results[key] = entry
        self.inputs = []
        for _, _, inp in self.results:
            if inp not in self.inputs:
                self.inputs.append(inp)

    def gbps(self, op, impl, inp):
        e = self.results.get((op, impl, inp))
        return e["bytes_per_second"] / 1e9 if e and "bytes_per_second" in e else None

    def ns(self, op, impl, inp):
        e = self.results.get((op, impl, inp))
        if not e:
            return None
        scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[e.get("time_unit", "ns")]
        return e["cpu_time"] * scale

    def ratio(self, op, base, impl, inp):
        """op's speed as a fraction of base's on inp, with kernel impl, and
        whether it was timed side by side (a pair_OP_BASE benchmark, see
        paired.cpp) rather than divided from two medians. base "read" is the
        read pass."""
        e = self.results.get((f"pair_{op}_{base}", impl, inp))
        if e and "ratio" in e:
            return e["ratio"], True
        a = self.gbps(op, impl, inp)
        b = self.gbps("limit", "read", inp) if base == "read" else self.gbps(base, impl, inp)
        return (a / b if a and b else None), False

    def impls(self, op):
        found = []
        for o, impl, _ in self.results:
            if o == op and impl not in found:
                found.append(impl)
        kernels = [k for k in KERNEL_ORDER if k in found]
        return kernels + [i for i in found if i not in kernels]

    def conformant(self, impl, inp):
        e = self.results.get(("sanitize", impl, inp))
        return e is None or e.get("conformant", 1) == 1


def fmt_rate(value, read):
    if value is None:
        return "-"
    if read:
        return f"{value:.2f} ({value / read:.3f})"
    return f"{value:.2f}"


MARKDOWN = False  # set by --markdown: pipe tables for bench/README.md


def print_table(title, header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    print(f"\n{title}\n")

    def line(r):
        cells = [str(c).ljust(widths[i]) if i == 0 else str(c).rjust(widths[i])
                 for i, c in enumerate(r)]
        return "| " + " | ".join(cells) + " |" if MARKDOWN else "  ".join(cells).rstrip()

    print(line(header))
    if MARKDOWN:  # right-align every column but the first
        print("|" + "|".join("-" * (w + 1) + (":" if i else "-") for i, w in enumerate(widths)) + "|")
    else:
        print("  ".join("-" * w for w in widths))
    for r in rows:
        print(line(r))


def big_inputs(run, op):
    return [i for i in run.inputs if not SMALL.search(i) and any(
        (op, impl, i) in run.results for impl in run.impls(op))]


def rate_table(run, op, node):
    impls = run.impls(op)
    extra = []
    if op == "is_valid":
        if node:
            extra.append("node")
        extra += ["read", "memcpy"]
    inputs = big_inputs(run, op)
    rows = []
    columns = OrderedDict((c, []) for c in impls + extra)
    for inp in inputs:
        read = run.gbps("limit", "read", inp)
        row = [inp]
        for c in impls + extra:
            if c == "node":
                v = node.get(inp)
            elif c in ("read", "memcpy"):
                v = run.gbps("limit", c, inp)
            else:
                v = run.gbps(op, c, inp)
            cell = fmt_rate(v, read)
            if op == "sanitize" and v is not None and not run.conformant(c, inp):
                cell += "*"
            row.append(cell)
            if is_non_ascii_lipsum(inp):
                columns[c].append((v, read))
        rows.append(row)
    lipsum = [i for i in inputs if is_non_ascii_lipsum(i)]
    if len(lipsum) >= 2:
        row = [f"geomean {len(lipsum)} non-ASCII lipsum"]
        for c in impls + extra:
            g = geomean([v for v, _ in columns[c]])
            r = geomean([v / rd for v, rd in columns[c] if v and rd])
            row.append("-" if g is None else f"{g:.2f} ({r:.3f})" if r else f"{g:.2f}")
        rows.append(row)
    print_table(f"{OP_TITLES[op]}: GB/s (ratio to the read pass)", ["input"] + impls + extra, rows)
    if op == "sanitize" and any("*" in c for r in rows for c in r):
        print("* output differs from docs/design.md's rule (utfcpp collapses a run of bad bytes)")


def small_table(run):
    inputs = [i for i in run.inputs if SMALL.search(i)]
    if not inputs:
        return
    cols = [("is_valid", k) for k in run.impls("is_valid")] + [
        ("validate", k) for k in run.impls("validate")]
    cols = [c for c in cols if any(c + (i,) in run.results for i in inputs)]
    header = ["input"] + [impl if op == "is_valid" else f"validate/{impl}" for op, impl in cols]
    rows = []
    for inp in inputs:
        row = [inp]
        for op, impl in cols:
            v = run.ns(op, impl, inp)
            row.append("-" if v is None else f"{v:.1f}")
        rows.append(row)
    print_table("small inputs: ns per call (is_valid unless marked)", header, rows)


PAIRS = [("validate", "is_valid"), ("stream4k", "validate"), ("stream64k", "validate"),
         ("is_valid", "read"), ("percent", "curl"), ("percent", "uriparser"),
         ("percent_url_lines", "curl"), ("percent_url_lines", "uriparser"),
         ("percent", "is_valid"), ("field", "is_valid"), ("sanitize_field", "sanitize"),
         ("json_plain", "validate"), ("json_escaped", "simdjson"),
         ("json_escaped", "simdjson_parse"), ("json_body", "is_valid")]
# What the pairs of percent-encoded input (bench/percent_paired.cpp), the
# policies' pairs (bench/paired.cpp) and JSON text's (bench/json_paired.cpp) time.
PAIR_WHAT = {
    "percent": "percent::validate",
    "percent_url_lines": "percent::validate a line per call (url profile)",
    "curl": "curl_easy_unescape, then validate",
    "uriparser": "uriUnescapeInPlaceExA on a copy, then validate",
    "field": "validate under the field profile",
    "sanitize_field": "sanitize_to under the field profile",
    "sanitize": "sanitize_to",
    "json_plain": "json::validate of the text as a JSON array without a backslash (json profile)",
    "json_escaped": "json::validate of the text as a JSON array, non-ASCII escaped (json profile)",
    "simdjson": "simdjson's parse, then a walk of its strings for surrogates and noncharacters",
    "simdjson_parse": "simdjson's parse alone",
    "json_body": "json::is_valid of a 2 KiB JSON body (json profile)",
}


def pair_table(run):
    """One table per pair: rows = inputs, columns = kernels, cells = op's
    speed as a fraction of base's, timed side by side."""
    for op, base in PAIRS:
        name = f"pair_{op}_{base}"
        impls = run.impls(name)
        inputs = big_inputs(run, name)
        if not inputs:
            continue
        rows = [[inp] + [fmt_ratio(run.results.get((name, k, inp))) for k in impls]
                for inp in inputs]
        lipsum = [i for i in inputs if is_non_ascii_lipsum(i)]
        if len(lipsum) >= 2:
            rows.append([f"geomean {len(lipsum)} non-ASCII lipsum"] + [
                f"{geomean([run.ratio(op, base, k, i)[0] for i in lipsum]):.3f}" for k in impls])
        what = "the read pass" if base == "read" else PAIR_WHAT.get(base, base)
        print_table(f"{PAIR_WHAT.get(op, op)} / {what}, timed side by side: speed ratio "
                    f"(median over rounds; "
                    f"the rounds' interquartile range in %)", ["input"] + impls, rows)


def fmt_ratio(e):
    if not e or "ratio" not in e:
        return "-"
    return f"{e['ratio']:.3f} ({100 * e.get('ratio_iqr', 0):.1f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--node", help="JSON from node_isutf8.js --json")
    ap.add_argument("--markdown", action="store_true", help="pipe tables, for bench/README.md")
    ap.add_argument("results", nargs="+")
    args = ap.parse_args()
    global MARKDOWN
    MARKDOWN = args.markdown
    node = {}
    if args.node:
        with open(args.node) as f:
            nd = json.load(f)
        node = {r["name"]: r["gbps"] for r in nd["results"] if r.get("valid")}
        print(f"Node {nd.get('node')} (simdutf {nd.get('simdutf')}): Buffer.isUtf8, median of "
              f"{nd.get('repetitions')} repetitions (process CPU time)")
    status = 0
    for path in args.results:
        run = Run(path)
        c = run.context
        reps = next((e.get("repetitions") for e in run.results.values() if e.get("repetitions")), 1)
        print(f"\n{'###' if MARKDOWN else '==='} {c.get('compiler', '?').strip()}: {path}")
        print(f"date {c.get('date')}, load average at start "
              f"{' '.join(f'{x:.2f}' for x in c.get('load_avg', []))}, {c.get('num_cpus')} CPUs, "
              f"utf8guard {c.get('utf8guard_version')}, kernels {c.get('utf8guard_kernels')}, "
              f"read pass {c.get('read_pass')}, median of {reps} repetitions")
        if any(i.endswith("-Generated") for i in run.inputs):
            print("texts: generated stand-ins for the lipsum files (bench/make_texts.py); "
                  "not comparable with figures measured on the lipsum texts")
        if any(i.startswith("requests-Generated") for i in run.inputs):
            print("request lines: a generated stand-in for requests_1MiB.txt (make_requests "
                  "in bench/inputs.cpp); not comparable with figures measured on the file")
        if run.cvs:
            cvs = sorted(run.cvs)
            print(f"spread of the repetitions (cv of CPU time): median {100 * cvs[len(cvs) // 2]:.1f} %, "
                  f"90th percentile {100 * cvs[int(len(cvs) * 0.9)]:.1f} %, max {100 * cvs[-1]:.1f} %")
        for op in OPS:
            if big_inputs(run, op):
                rate_table(run, op, node if op == "is_valid" else None)
        small_table(run)
        pair_table(run)
        if run.errors:
            status = 1
            print("\nFAILED benchmarks (a wrong answer is never timed):")
            for e in run.errors:
                print(f"  {e}")
    return status


if __name__ == "__main__":
    sys.exit(main())
