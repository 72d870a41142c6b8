#!/usr/bin/env python3
"""bench/python_bench.py [--build DIR] [--rounds N] [--only NAME] - the Python
package against the standard library, in one process, each pair's two sides
timed alternately, round after round; prints the median time of each side and
the ratio of the medians.

  is_valid      utf8guard.is_valid vs bytes.decode('utf-8') on each non-ASCII
                text, repeated to 1 MiB
  short16       the same calls on 65,536 distinct 16-byte strings (the call's
                overhead decides; per call)
  sanitize      utf8guard.sanitize vs decode('utf-8', 'replace').encode() on the
                texts with one ill-formed byte per KiB
  percent       utf8guard.validate_percent vs urllib.parse.unquote_to_bytes and
                a strict decode, on each line of urls/requests_1MiB.txt
  threads       two threads each validating its own 64 MiB text vs one thread
                (the throughput ratio: the GIL is released), beside the same
                ratio for hashlib.sha256 (the machine's two-core headroom)

The texts come from bench/texts.sh ($UTF8GUARD_BENCH_DATA/lipsum, else
generated stand-ins); the URL lines from $UTF8GUARD_BENCH_DATA/urls or --urls.
The package is imported from DIR/python (a build of this repository, default
build/) when it is there, else from wherever Python finds it. Run it with the
Python the package was built for (Debian: /usr/bin/python3).
"""

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MIB = 1 << 20


def texts():
    out = subprocess.run(["bash", str(ROOT / "bench/texts.sh"), "--non-ascii"], check=True,
                         stdout=subprocess.PIPE, text=True).stdout.split()
    result = {}
    for path in out:
        data = Path(path).read_bytes()
        result[Path(path).name.split("-")[0]] = data
    return result


def repeat_to(data, size):
    """data repeated to |size| bytes, cut back to a character boundary."""
    whole = (data * (size // len(data) + 1))[:size]
    return whole.decode("utf-8", "ignore").encode()


def pair(a, b, rounds):
    """Median seconds of a() and b(), called alternately after one call each
    (which pays for first-touch page faults and the allocator's warm-up)."""
    a()
    b()
    ta, tb = [], []
    for _ in range(rounds):
        for f, times in ((a, ta), (b, tb)):
            t0 = time.perf_counter()
            f()
            times.append(time.perf_counter() - t0)
    return statistics.median(ta), statistics.median(tb)


def row(name, what, ta, tb, unit_a, unit_b):
    print(f"{name:<10} {what:<12} {unit_a(ta):>14} {unit_b(tb):>14} {tb / ta:>8.2f}x", flush=True)


def throughput(size):
    return lambda t: f"{size / t / 1e9:.2f} GB/s"


def per_call(n):
    return lambda t: f"{t / n * 1e9:.1f} ns"


def bench_is_valid(u, corpus, rounds):
    for name, text in corpus.items():
        data = repeat_to(text, MIB)
        reps = 20
        is_valid = u.is_valid

        def ours():
            for _ in range(reps):
                is_valid(data)

        def theirs():
            for _ in range(reps):
                data.decode("utf-8")

        ta, tb = pair(ours, theirs, rounds)
        row("is_valid", name, ta, tb, throughput(reps * len(data)), throughput(reps * len(data)))


def bench_short(u, corpus, rounds):
    pool = []
    for text in corpus.values():
        for i in range(0, len(text) - 16):
            s = text[i:i + 16]
            try:
                s.decode("utf-8")
            except UnicodeDecodeError:
                continue
            pool.append(s)
    pool = list(dict.fromkeys(pool))[:65536]
    ascii_pool = [b"%016d" % i for i in range(65536)]
    for label, strings in (("non-ASCII", pool), ("ASCII", ascii_pool)):
        is_valid = u.is_valid

        def ours():
            for s in strings:
                is_valid(s)

        def theirs():
            for s in strings:
                s.decode("utf-8")

        ta, tb = pair(ours, theirs, rounds * 3)
        row("short16", label, ta, tb, per_call(len(strings)), per_call(len(strings)))


def bench_sanitize(u, corpus, rounds):
    for name, text in corpus.items():
        chars = repeat_to(text, MIB).decode()
        # one ill-formed byte per KiB, between characters
        pieces, size, start = [], 0, 0
        for i, ch in enumerate(chars):
            size += len(ch.encode())
            if size >= 1023:
                pieces.append(chars[start:i + 1].encode())
                start, size = i + 1, 0
        pieces.append(chars[start:].encode())
        data = b"\xff".join(pieces)
        sanitize = u.sanitize
        assert sanitize(data) == data.decode("utf-8", "replace").encode()

        def ours():
            for _ in range(5):
                sanitize(data)

        def theirs():
            for _ in range(5):
                data.decode("utf-8", "replace").encode()

        ta, tb = pair(ours, theirs, rounds)
        row("sanitize", name, ta, tb, throughput(5 * len(data)), throughput(5 * len(data)))


def bench_percent(u, urls, rounds):
    lines = Path(urls).read_bytes().splitlines()
    validate_percent = u.validate_percent
    unquote = urllib.parse.unquote_to_bytes

    def ours():
        for line in lines:
            validate_percent(line)

    def theirs():
        for line in lines:
            try:
                unquote(line).decode("utf-8")
            except UnicodeDecodeError:
                pass

    ta, tb = pair(ours, theirs, rounds)
    row("percent", f"{len(lines)} lines", ta, tb, per_call(len(lines)), per_call(len(lines)))


def bench_threads(u, corpus, rounds):
    text = next(iter(corpus.values()))
    inputs = [repeat_to(text, 64 * MIB), bytearray(repeat_to(text, 64 * MIB))]
    is_valid = u.is_valid
    reps = 4

    def validate_all(data):
        for _ in range(reps):
            is_valid(data)

    def one():
        validate_all(inputs[0])

    def two():
        _both(validate_all, inputs)

    t1, t2 = pair(one, two, rounds)
    # throughput ratio: twice the bytes in t2
    print(f"{'threads':<10} {'64 MiB each':<12} {throughput(reps * 64 * MIB)(t1):>14} "
          f"{throughput(reps * 128 * MIB)(t2):>14} {(128 / t2) / (64 / t1):>8.2f}x", flush=True)
    # The same two-threads-against-one with hashlib.sha256, which releases the
    # GIL too: the ratio two free cores allow on this machine right now.
    def sha_all(data):
        hashlib.sha256(data).digest()

    t1, t2 = pair(lambda: sha_all(inputs[0]), lambda: _both(sha_all, inputs), rounds)
    print(f"{'control':<10} {'sha256':<12} {throughput(64 * MIB)(t1):>14} "
          f"{throughput(128 * MIB)(t2):>14} {(128 / t2) / (64 / t1):>8.2f}x", flush=True)


def _both(work, inputs):
    workers = [threading.Thread(target=work, args=(data,)) for data in inputs]
    for w in workers:
        w.start()
    for w in workers:
        w.join()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--urls", default=None)
    ap.add_argument("--only", action="append", default=None,
                    choices=["is_valid", "short16", "sanitize", "percent", "threads"])
    args = ap.parse_args()
    package = Path(args.build) / "python"
    if (package / "utf8guard").is_dir():
        sys.path.insert(0, str(package))
    import utf8guard as u

    corpus = texts()
    data = os.environ.get("UTF8GUARD_BENCH_DATA")
    urls = args.urls or (data and os.path.join(data, "urls/requests_1MiB.txt"))
    print(f"utf8guard {u.__version__} ({u.active_kernel()}) from {Path(u.__file__).parent}, "
          f"Python {sys.version.split()[0]}; medians of {args.rounds} rounds")
    print(f"{'pair':<10} {'input':<12} {'utf8guard':>14} {'stdlib':>14} {'speedup':>9}")
    only = set(args.only or ["is_valid", "short16", "sanitize", "percent", "threads"])
    if "is_valid" in only:
        bench_is_valid(u, corpus, args.rounds)
    if "short16" in only:
        bench_short(u, corpus, args.rounds)
    if "sanitize" in only:
        bench_sanitize(u, corpus, args.rounds)
    if "percent" in only:
        if urls and os.path.exists(urls):
            bench_percent(u, urls, args.rounds)
        else:
            print("percent: no URL lines ($UTF8GUARD_BENCH_DATA/urls/requests_1MiB.txt or --urls)")
    if "threads" in only:
        bench_threads(u, corpus, args.rounds)


if __name__ == "__main__":
    main()
