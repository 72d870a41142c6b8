#!/usr/bin/env python3
"""compare.py [--base-name NAME] [--compilers "gcc clang"] DIR - the table
of bench/compare.sh.

DIR holds SIDE-COMPILER-ROUND.json (SIDE: base or work), Google Benchmark
JSON with the aggregates of repetitions, or without repetitions. For each
benchmark and compiler: the median over rounds of the per-run median, for
both sides, and work / base. A ratio above 1 means the working tree is
faster.
"""
import argparse
import collections
import json
import pathlib
import statistics


UNIT_SECONDS = {'ns': 1e-9, 'us': 1e-6, 'ms': 1e-3, 's': 1.0}


def rate(bench):
    # GB/s where the benchmark counts bytes, a pair benchmark's ratio (its
    # op's speed over its base's, bench/paired.cpp), else billions of calls
    # per second: each way, higher is faster.
    if 'ratio' in bench:
        return bench['ratio'], 'x'
    if 'bytes_per_second' in bench:
        return bench['bytes_per_second'] / 1e9, 'GB/s'
    seconds = bench['real_time'] * UNIT_SECONDS[bench['time_unit']]
    return 1e-9 / seconds, 'G/s'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--base-name', default='base')
    ap.add_argument('--compilers', default='', help='column order, space-separated')
    ap.add_argument('dir')
    args = ap.parse_args()
    runs = collections.defaultdict(list)  # (name, compiler, side) -> medians
    units = {}
    failed = set()
    compilers = args.compilers.split()
    for path in sorted(pathlib.Path(args.dir).glob('*.json')):
        side, compiler, _round = path.stem.split('-')
        if compiler not in compilers:
            compilers.append(compiler)
        benchmarks = json.loads(path.read_text())['benchmarks']
        # A benchmark that failed its answer check has no aggregates, only
        # its erroring run: collect those before keeping the medians.
        for b in benchmarks:
            if b.get('error_occurred'):
                failed.add((b['run_name'], compiler, side))
        benchmarks = [b for b in benchmarks if not b.get('error_occurred')]
        # The median of a run's repetitions; a run without repetitions has
        # only its one result per benchmark.
        if any(b.get('run_type') == 'aggregate' for b in benchmarks):
            benchmarks = [b for b in benchmarks if b.get('aggregate_name') == 'median']
        for b in benchmarks:
            value, unit = rate(b)
            runs[(b['run_name'], compiler, side)].append(value)
            units[b['run_name']] = unit
    names = sorted({key[0] for key in runs} | {key[0] for key in failed})
    width = max([len(n) for n in names] + [9])
    header = f'{"benchmark":{width}s}'
    for c in compilers:
        header += f' | {c + ": " + args.base_name:>16s} {"work":>8s} {"ratio":>6s}'
    print(header)
    for name in names:
        line = f'{name:{width}s}'
        for c in compilers:
            base, work = runs.get((name, c, 'base')), runs.get((name, c, 'work'))
            if (name, c, 'base') in failed or (name, c, 'work') in failed:
                line += f' | {"FAILED":>16s} {"":8s} {"":6s}'
            elif base and work:
                b, w = statistics.median(base), statistics.median(work)
                line += f' | {b:11.3f} {units[name]:4s} {w:8.3f} {w / b:6.2f}'
            else:
                line += f' | {"-":>16s} {"-":>8s} {"-":>6s}'
        print(line)


if __name__ == '__main__':
    main()
