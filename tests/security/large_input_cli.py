#!/usr/bin/env python3
"""large_input_cli.py --cli PATH [--run-with CMD] | --skip REASON

`utf8guard check` on a sparse file of 4 GiB + 1 MiB: three errors past 2^32,
each reported with its exact 64-bit offset, line and column, in text and in
JSON, and with a peak memory that does not grow with the input.

Zeros are valid UTF-8 (U+0000), so the file is a hole with a few bytes in it:
  2^32 + 3        C0   overlong        line 1, column 2^32 + 4 (every NUL is a code point)
  2^32 + 100      LF
  2^32 + 105      F5   invalid_byte    line 2, column 5
  size - 1        E2   incomplete      line 2, column size - 1 - (2^32 + 100)
A 32-bit offset, line or column counter anywhere in the CLI shows here as a
wrong number. The file lives in $TMPDIR (or /tmp), costs no disk space, and is
removed, with its page cache dropped, at the end.

The CLI is not run under UTF8GUARD_CLI_WRAPPER: 4 GiB under valgrind would
take hours; the valgrind job runs tests/cli instead.
Exit 0 pass, 1 fail, 77 (ctest "skipped") with --skip.
"""
import argparse
import json
import os
import re
import resource
import shlex
import subprocess
import sys
import tempfile
import time

GIB4 = 1 << 32
SIZE = GIB4 + (1 << 20)
BAD1, LF, BAD2, LAST = GIB4 + 3, GIB4 + 100, GIB4 + 105, SIZE - 1
# docs/design.md: "peak memory stays under 64 MiB whatever the input size".
PEAK_LIMIT = 64 << 20

EXPECTED = [
    {"offset": BAD1, "length": 1, "kind": "overlong", "line": 1, "column": BAD1 + 1},
    {"offset": BAD2, "length": 1, "kind": "invalid_byte", "line": 2, "column": BAD2 - LF},
    {"offset": LAST, "length": 1, "kind": "incomplete", "line": 2, "column": LAST - LF},
]
# The subpart, then context up to 4 bytes in all (docs/design.md): either may be shown.
HEX = {BAD1: r"C0( 00){0,3}", BAD2: r"F5( 00){0,3}", LAST: r"E2"}


def make_sparse(path):
    with open(path, "wb") as f:
        f.truncate(SIZE)
        for at, byte in ((BAD1, b"\xC0"), (LF, b"\n"), (BAD2, b"\xF5"), (LAST, b"\xE2")):
            f.seek(at)
            f.write(byte)


def drop_cache(path):
    try:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)
    except OSError:
        pass


class Failure(Exception):
    pass


def expect(cond, what):
    if not cond:
        raise Failure(what)


def run(cmd, args):
    start = time.monotonic()
    proc = subprocess.run(cmd + args, capture_output=True, timeout=1500)
    took = time.monotonic() - start
    out = proc.stdout.decode("utf-8", "replace")
    err = proc.stderr.decode("utf-8", "replace")
    print(f"$ utf8guard {' '.join(args[:-1])} FILE: exit {proc.returncode} in {took:.1f} s")
    expect(proc.returncode == 1, f"exit {proc.returncode}, want 1 (ill-formed); stderr: {err}")
    return out


def check_text_line(line, path, e):
    m = re.fullmatch(r"(.*):(\d+):(\d+): (\w+) at byte (\d+) \(([0-9A-F ]+)\)", line)
    expect(m is not None, f"not a docs/design.md text line: {line!r}")
    got = (m.group(1), int(m.group(2)), int(m.group(3)), m.group(4), int(m.group(5)))
    want = (path, e["line"], e["column"], e["kind"], e["offset"])
    expect(got == want, f"text line {line!r}: got {got}, want {want}")
    expect(re.fullmatch(HEX[e["offset"]], m.group(6)) is not None,
           f"hex bytes ({m.group(6)}) at {e['offset']}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli")
    ap.add_argument("--skip")
    ap.add_argument("--run-with", default="", help="emulator for a cross-compiled CLI")
    opts = ap.parse_args()
    if opts.skip:
        print(f"SKIPPED: {opts.skip}")
        return 77
    cmd = shlex.split(opts.run_with) + [opts.cli, "check"]
    sanitized = os.environ.get("UTF8GUARD_SANITIZED") == "1"

    fd, path = tempfile.mkstemp(prefix="utf8guard-4gib-", suffix=".txt")
    os.close(fd)
    try:
        make_sparse(path)
        st = os.stat(path)
        expect(st.st_size == SIZE, "sparse file size")
        print(f"{path}: {st.st_size} bytes, {st.st_blocks * 512} on disk")

        out = run(cmd, [path])
        lines = out.splitlines()
        expect(len(lines) == 1, f"without --all one line, got {len(lines)}: {out[:400]!r}")
        check_text_line(lines[0], path, EXPECTED[0])

        out = run(cmd, ["--all", path])
        lines = out.splitlines()
        expect(len(lines) == 3, f"--all: 3 lines, got {len(lines)}: {out[:600]!r}")
        for line, e in zip(lines, EXPECTED):
            check_text_line(line, path, e)

        out = run(cmd, ["--json", "--all", path])
        docs = [json.loads(l) for l in out.splitlines()]
        expect(len(docs) == 1, f"--json: one object per input, got {len(docs)}")
        want = {"path": path, "valid": False, "bytes": SIZE, "errors": EXPECTED}
        expect(docs[0] == want, f"--json --all: got {docs[0]}, want {want}")

        out = run(cmd, ["--json", path])
        doc = json.loads(out)
        expect(doc["bytes"] == SIZE and doc["errors"] == EXPECTED[:1],
               f"--json: got {doc}")

        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
        print(f"peak RSS of the CLI runs: {peak / (1 << 20):.1f} MiB")
        if not sanitized and not opts.run_with:
            expect(peak < PEAK_LIMIT, f"peak RSS {peak} bytes on a {SIZE}-byte input, "
                                      f"limit {PEAK_LIMIT}")
    except Failure as f:
        print(f"FAIL: {f}")
        return 1
    finally:
        drop_cache(path)
        os.unlink(path)
    print("ok: offsets, lines and columns past 2^32 are exact")
    return 0


if __name__ == "__main__":
    sys.exit(main())
