#!/usr/bin/env python3
"""make_readme.py - write the results section of bench/README.md from one run.

    bench/make_readme.py [--cli DIR] [--readme FILE | --stdout] RESULTS

RESULTS is the folder bench/run.sh fills (build-bench/results): run.json
(commit, CPU, the command), gcc.json and/or clang.json (utf8guard_bench),
short-COMPILER.json (utf8guard_short), node.json (Node's Buffer.isUtf8).
--cli DIR adds the CLI's figures from bench/cli_speed.sh's hyperfine JSON
(build-bench/cli-speed). Everything in bench/README.md after the marker line
is replaced; the text above it is kept as it is. Tables read the medians the
way bench/report.py does (its Run class), so both print the same figures.
"""

import argparse
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402

MARKER = "<!-- Everything below is written by bench/make_readme.py from one run; do not edit it. -->"
COMPILER_ORDER = ["gcc", "clang"]

# The columns of the summary tables: an input, or the geomean of the non-ASCII texts.
TEXTS = "non-ASCII texts (geomean)"
SUMMARY_INPUTS = [TEXTS, "Latin", "ascii_256K", "ascii_64M", "mixed_256K"]
ERROR_INPUTS = ["err1%_256K", "random_256K"]
OP_TITLES = {
    "is_valid": "`is_valid`: yes or no",
    "validate": "`validate`: kind, offset and length of the first error",
    "stream4k": "`validator`, fed 4 KiB chunks",
    "stream64k": "`validator`, fed 64 KiB chunks",
    "sanitize": "`sanitize_to` into a preallocated buffer",
    "errors": "`error_scanner`: every error, as `check --all`",
}
PAIR_GROUPS = [
    ("Validation and streams against `is_valid`", [
        ("validate", "is_valid"), ("stream4k", "validate"), ("stream64k", "validate"),
        ("is_valid", "read")]),
    ("Percent-encoded input (`bench/percent_paired.cpp`)", [
        ("percent", "curl"), ("percent", "uriparser"), ("percent_url_lines", "curl"),
        ("percent_url_lines", "uriparser"), ("percent", "is_valid")]),
    ("Policies (`bench/paired.cpp`): the `field` profile against no policy", [
        ("field", "is_valid"), ("sanitize_field", "sanitize")]),
    ("JSON text (`bench/json_paired.cpp`), under the `json` profile", [
        ("json_plain", "validate"), ("json_escaped", "simdjson"),
        ("json_escaped", "simdjson_parse"), ("json_body", "is_valid")]),
]
SHORT_PAIRS = [("is_valid_icu_u8next", "ICU / is_valid"), ("validate_is_valid", "validate"),
               ("sanitize_is_valid", "sanitize_to"), ("feed_validate", "feed / validate"),
               ("error_valid_is_valid", "is_valid: error / valid"),
               ("error_valid_validate", "validate: error / valid")]
CLI_SETS = [("mostly-ascii", "1 GiB, mostly ASCII"), ("multilingual", "1 GiB, the nine texts"),
            ("files", "20,000 files of 0.2-20 KB"), ("mix", "2,000 files and four of 64 MiB")]


def table(header, rows):
    """A markdown table, every column but the first right-aligned."""
    out = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(header) - 1)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out


def value(run, op, impl, column):
    if column == TEXTS:
        return report.geomean([run.gbps(op, impl, i) for i in run.inputs
                               if report.is_non_ascii_lipsum(i)])
    name = next((i for i in run.inputs if i == column or
                 (report.is_text(i) and i.startswith(column + "-"))), None)
    return run.gbps(op, impl, name) if name else None


def summary(runs, op, node):
    """Rows = implementations, columns = inputs, cells = GB/s per compiler."""
    first = next(iter(runs.values()))
    columns = SUMMARY_INPUTS + (ERROR_INPUTS if op in ("sanitize", "errors") else [])
    columns = [c for c in columns if any(value(r, op, i, c) for r in runs.values()
                                         for i in r.impls(op))]
    impls = first.impls(op) + (["node", "read", "memcpy"] if op == "is_valid" else [])
    rows = []
    for impl in impls:
        cells = []
        for c in columns:
            per = []
            for run in runs.values():
                if impl == "node":
                    v = node_value(node, run, c) if run is first else None
                elif impl in ("read", "memcpy"):
                    v = value(run, "limit", impl, c)
                else:
                    v = value(run, op, impl, c)
                if v is not None:
                    per.append(f"{v:.2f}")
            cells.append(" / ".join(per) or "-")
        if any(c != "-" for c in cells):
            rows.append([impl] + cells)
    return table([f"{OP_TITLES[op]} ({' / '.join(runs)})"] + columns, rows)


def node_value(node, run, column):
    if column == TEXTS:
        return report.geomean([node.get(i) for i in run.inputs if report.is_non_ascii_lipsum(i)])
    name = next((i for i in node if i == column or i.startswith(column + "-")), None)
    return node.get(name)


def pair_cell(run, name, kernel):
    """The median of a pair's ratios over the inputs it ran, and the worst."""
    found = [(i, e["ratio"]) for (op, k, i), e in run.results.items()
             if op == name and k == kernel and "ratio" in e]
    if not found:
        return "-"
    worst = min(found, key=lambda f: f[1])
    if len(found) == 1:
        return f"{worst[1]:.2f}"
    return f"{statistics.median(r for _, r in found):.2f} ({worst[1]:.2f} {worst[0]})"


def pairs(run):
    out = []
    for title, group in PAIR_GROUPS:
        names = [(f"pair_{op}_{base}", op, base) for op, base in group]
        names = [n for n in names if run.impls(n[0])]
        if not names:
            continue
        kernels = [k for k in report.KERNEL_ORDER if any(k in run.impls(n) for n, _, _ in names)]
        rows = [[f"{report.PAIR_WHAT.get(op, op)} / "
                 f"{'the read pass' if base == 'read' else report.PAIR_WHAT.get(base, base)}"]
                + [pair_cell(run, name, k) for k in kernels] for name, op, base in names]
        out += ["", f"#### {title}", ""] + table(["pair"] + kernels, rows)
    return out


def short_strings(path):
    with open(path) as f:
        data = json.load(f)
    ratios, ns = {}, {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" or b.get("error_occurred"):
            continue
        m = re.fullmatch(r"pair_(\w+?)/(\w+)/(.+?)_(\d+-\d+B)(_err)?", b["name"].split("/min_time")[0])
        if not m:
            continue
        pair, kernel, _, size, err = m.groups()
        key = (kernel, size + (" err" if err else ""))
        ratios.setdefault(key, {}).setdefault(pair, []).append(b["ratio"])
        if pair in ("is_valid_icu_u8next", "error_valid_is_valid"):
            ns.setdefault(key, []).append(b["op_ns"])
    header = ["kernel", "class", "is_valid ns"] + [t for _, t in SHORT_PAIRS]
    rows = []
    for (kernel, size), by_pair in ratios.items():
        cells = [f"{statistics.median(by_pair[p]):.2f}" if p in by_pair else "-"
                 for p, _ in SHORT_PAIRS]
        n = ns.get((kernel, size))
        rows.append([kernel, size, f"{statistics.median(n):.1f}" if n else "-"] + cells)
    return table(header, rows)


XARGS = {"xargs cat": "cat", "xargs isutf8": "isutf8"}  # the file sets' spelling


def cli_table(folder):
    """Rows = input sets, columns = commands, cells = median ms; on the
    file sets cat and isutf8 run through xargs."""
    rows, commands = [], []
    for name, what in CLI_SETS:
        path = os.path.join(folder, f"{name}.json")
        if not os.path.exists(path):
            continue
        with open(path) as f:
            results = json.load(f)["results"]
        med = {XARGS.get(r["command"], r["command"]): statistics.median(r["times"])
               for r in results}
        commands += [c for c in med if c not in commands]
        rows.append((f"{what} (`{name}`)", med))
    return table(["input"] + [f"`{c}`" for c in commands],
                 [[what] + [f"{med[c] * 1000:.1f}" if c in med else "-" for c in commands]
                  for what, med in rows])


def cli_command(folder):
    """The command cli_speed.sh recorded for its run."""
    path = os.path.join(folder, "command")
    if not os.path.exists(path):
        return "bench/cli_speed.sh"
    with open(path) as f:
        return f.read().strip()


def generate(folder, cli):
    with open(os.path.join(folder, "run.json")) as f:
        meta = json.load(f)
    runs = {}
    for c in COMPILER_ORDER:
        path = os.path.join(folder, f"{c}.json")
        if os.path.exists(path):
            runs[c] = report.Run(path)
    if not runs:
        sys.exit(f"make_readme: no gcc.json or clang.json in {folder}")
    node = {}
    node_line = "Node: not run."
    if os.path.exists(os.path.join(folder, "node.json")):
        with open(os.path.join(folder, "node.json")) as f:
            nd = json.load(f)
        node = {r["name"]: r["gbps"] for r in nd["results"] if r.get("valid")}
        node_line = (f"Node {nd.get('node')} `Buffer.isUtf8` (simdutf {nd.get('simdutf')}) on the "
                     "same bytes, in its own process (`node` rows).")
    first = next(iter(runs.values()))
    compilers = ", ".join(f"{c}: {r.context.get('compiler', '?').strip()}" for c, r in runs.items())
    generated = any(i.endswith("-Generated") for i in first.inputs)
    reps = next((e.get("repetitions") for e in first.results.values() if e.get("repetitions")), 1)
    out = [MARKER, "", "## Results", "",
           f"- **Commit**: `{meta['commit'][:12]}`"
           f"{' with uncommitted changes' if meta.get('dirty') else ''}; "
           f"kernels {first.context.get('utf8guard_kernels')}.",
           f"- **CPU**: {meta['cpu']}, {first.context.get('num_cpus')} CPUs.",
           f"- **Compilers**: {compilers}; Release builds. {node_line}",
           f"- **Command**: `{meta['command']}`, then `bench/make_readme.py"
           f"{' --cli build-bench/cli-speed' if cli else ''} build-bench/results`"
           + (f"; the CLI: `{cli_command(cli)}`." if cli else "."),
           f"- Median of {reps} repetition(s), CPU time; GB/s is 10^9 bytes per second; cells "
           f"with two figures are {' / '.join(runs)}."]
    if generated:
        out.append("- Texts: generated stand-ins for the lipsum files (`bench/texts.sh`).")
    out += ["", "### Library and competitors", "",
            "GB/s, every kernel of the library and every competitor on the same bytes; "
            "`read` is one pass that loads every byte, `memcpy` a copy of them."]
    for op in report.OPS:
        if report.big_inputs(first, op):
            out += [""] + summary(runs, op, node)
    name, run = next(iter(runs.items()))
    out += ["", f"### Ratios timed side by side ({name})", "",
            "`ratio` is time(BASE) / time(OP): above 1, OP is faster. Each cell: the median over "
            "the inputs the pair ran, then the worst input's ratio and name."]
    out += pairs(run)
    short = [os.path.join(folder, f"short-{c}.json") for c in runs]
    short = [p for p in short if os.path.exists(p)]
    if short:
        out += ["", f"### Short strings (`utf8guard_short`, {os.path.basename(short[0])[6:-5]})",
                "", "Ratios as above, each the median over the texts; `is_valid ns` is its median "
                "time per string."] + [""] + short_strings(short[0])
    if cli:
        out += ["", "### The CLI (`bench/cli_speed.sh`): median ms, inputs in the page cache", "",
                "On the file sets `cat` and `isutf8` run through `xargs -0`.", ""]
        out += cli_table(cli)
    return [re.sub(r"[ \t]+$", "", line) for line in out]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", help="bench/run.sh's results folder (build-bench/results)")
    ap.add_argument("--cli", help="bench/cli_speed.sh's folder (build-bench/cli-speed)")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--readme", default=os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "README.md"))
    where.add_argument("--stdout", action="store_true", help="print the section instead")
    args = ap.parse_args()
    section = generate(args.results, args.cli)
    for line in section:
        if re.search(r"(^|[\s`(])/(home|root|tmp|work|usr|mnt)/", line):
            sys.exit(f"make_readme: a machine path in the output: {line}")
    if args.stdout:
        print("\n".join(section))
        return 0
    with open(args.readme) as f:
        text = f.read()
    if MARKER not in text:
        sys.exit(f"make_readme: {args.readme} has no marker line")
    with open(args.readme, "w") as f:
        f.write(text[:text.index(MARKER)] + "\n".join(section) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
