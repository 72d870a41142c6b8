"""harness.py - running the utf8guard CLI from tests, and what the tests
check it against.

What the CLI must report (kinds, offsets, lines, columns, context bytes and
sanitized output) comes from tests/support/utf8_oracle.py, which works it out
from Python's own UTF-8 decoder, never by asking the CLI. This file renders
those answers as the CLI prints them.

Configuration comes from the command line (see main()) and the environment:
  UTF8GUARD_CLI_WRAPPER  a command prefixed to every CLI run, e.g.
                         "valgrind --error-exitcode=99 --leak-check=full -q";
                         time limits are then multiplied by SLOWDOWN.
  UTF8GUARD_CLI_REDUCED  "1": the random and scale tests run a fraction of their
                         rounds (REDUCED), as under a wrapper. The sanitizer jobs
                         set it: they check memory and threads, while the plain
                         build's run covers the full rounds.
"""

import os
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from utf8_oracle import KINDS, expected_errors, sanitized  # noqa: E402,F401  (re-exported)

CLI = None  # path of the utf8guard binary
SHIM = None  # path of the read/write fault-injection library (eintr_shim.c)
MAN = None  # path of docs/utf8guard.1
VERSION = None  # the project version, as CMake knows it

WRAPPER = shlex.split(os.environ.get("UTF8GUARD_CLI_WRAPPER", ""))
# valgrind runs code 20-50x slower; time limits stretch accordingly.
SLOWDOWN = 50 if WRAPPER else 1
REDUCED = bool(WRAPPER) or os.environ.get("UTF8GUARD_CLI_REDUCED") == "1"


def rounds(n):
    """The number of random rounds to run: n, or a fifth of it when REDUCED."""
    return max(1, n // 5) if REDUCED else n


def spread(values, per_piece, piece):
    """The values a test tries for its piece-th input: all of them, or under
    a wrapper (valgrind runs every CLI run 20-50x slower) per_piece of them,
    a different share for each piece, so that the pieces together still try
    every value."""
    values = list(values)
    if not WRAPPER:
        return values
    start = (piece * per_piece) % len(values)
    return [values[(start + k) % len(values)] for k in range(per_piece)]

# The CLI's read size (src/cli/io.hpp). Tests plant errors around multiples of
# 4096, so they straddle read boundaries for this and any other power of two
# from 4 KiB up, including the 64 KiB a pipe delivers at a time.
CHUNK = 256 * 1024
PAGE = 4096


def cli_command(args):
    return WRAPPER + [CLI] + [os.fsencode(a) if isinstance(a, str) else a for a in args]


def run(args, input=None, stdin=None, stdout=subprocess.PIPE, env=None, timeout=120,
        **kwargs):
    """Runs the CLI to completion; returns CompletedProcess (bytes)."""
    full_env = dict(os.environ)
    full_env.pop("UTF8GUARD_KERNEL", None)
    if env:
        full_env.update(env)
    return subprocess.run(cli_command(args), input=input, stdin=stdin, stdout=stdout,
                          stderr=subprocess.PIPE, env=full_env, timeout=timeout * SLOWDOWN,
                          **kwargs)


def popen(args, env=None, **kwargs):
    full_env = dict(os.environ)
    full_env.pop("UTF8GUARD_KERNEL", None)
    if env:
        full_env.update(env)
    return subprocess.Popen(cli_command(args), env=full_env, **kwargs)


# ---- the report, as the CLI prints it -----------------------------------------

def text_lines(path, errors):
    """The CLI's text report of errors, as bytes."""
    if isinstance(path, str):
        path = os.fsencode(path)
    return b"".join(
        path + (":%d:%d: %s at byte %d (%s)\n" % (
            e["line"], e["column"], e["kind"], e["offset"], e["hex"])).encode()
        for e in errors)


def json_errors(errors):
    return [{k: e[k] for k in ("offset", "length", "kind", "line", "column")} for e in errors]


def summary(files, nbytes, errors):
    """The --all summary line on stderr, as bytes (the kinds in the order
    of the kind table, then the characters a policy denied)."""
    counts = [(k, sum(1 for e in errors if e["kind"] == k)) for k in KINDS + ["disallowed"]]
    noun = lambda n, w: "%d %s%s" % (n, w, "" if n == 1 else "s")
    text = "utf8guard: %s, %s, %s" % (noun(files, "file"), noun(nbytes, "byte"),
                                      noun(len(errors), "error"))
    if errors:
        text += " (" + ", ".join("%s %d" % (k, n) for k, n in counts if n) + ")"
    return (text + "\n").encode()


# ---- inputs -------------------------------------------------------------------

# Well-formed pieces: every row of Unicode Table 3-7 at its edges, LFs, text.
VALID = [b"a", b"Z", b" ", b"\n", b"\x00", b"\x7f", b"\xc2\x80", b"\xdf\xbf", b"\xe0\xa0\x80",
         b"\xe0\xbf\xbf", b"\xe1\x80\x80", b"\xec\xbf\xbf", b"\xed\x80\x80", b"\xed\x9f\xbf",
         b"\xee\x80\x80", b"\xef\xbf\xbf", b"\xef\xbb\xbf", b"\xf0\x90\x80\x80",
         b"\xf0\xbf\xbf\xbf", b"\xf1\x80\x80\x80", b"\xf3\xbf\xbf\xbf", b"\xf4\x80\x80\x80",
         b"\xf4\x8f\xbf\xbf", "zoë — 東京 🙂\n".encode()]
# Ill-formed pieces: one or more maximal subparts of every kind.
INVALID = [b"\x80", b"\xbf", b"\xc0\xaf", b"\xc1\xbf", b"\xe0\x80\x80", b"\xe0\x9f\xbf",
           b"\xf0\x80\x80\x80", b"\xf0\x8f\xbf\xbf", b"\xed\xa0\x80", b"\xed\xbf\xbf",
           b"\xed\xa0\xbd\xed\xb8\x80", b"\xf4\x90\x80\x80", b"\xf7\xbf\xbf\xbf", b"\xf5",
           b"\xff", b"\xfe", b"\xc3\x22", b"\xe1\x80\x41", b"\xf0\x9f\x22\x3e", b"\xf1\x80\x80",
           b"\xe2\x28\xa1", b"\xc2", b"\xe1\x80", b"\xf3\xbf\xbf", b"\xf8\x88\x80\x80\x80"]


def hostile(rng, size, error_rate=0.3):
    """Random text from VALID and INVALID pieces, about size bytes."""
    out = bytearray()
    while len(out) < size:
        pool = INVALID if rng.random() < error_rate else VALID
        out += rng.choice(pool)
    return bytes(out)


def random_bytes(rng, size):
    return bytes(rng.getrandbits(8) for _ in range(size))


def planted(size, step=PAGE, seed=1, shift=0):
    """size bytes of multilingual text with LFs, and an ill-formed piece
    planted across every multiple of step: starting 1..4 bytes before it, or
    right on it, so that errors straddle read boundaries. shift varies which
    piece lands where."""
    rng = random.Random(seed)
    text = "Ünïcödé text, 東京, Привет, 🙂 and ascii; ".encode()
    data = bytearray()
    while len(data) < size:
        data += text
        if rng.random() < 0.2:
            data += b"\n"
    del data[size:]
    tokens = [t for t in INVALID if len(t) <= 4]
    for i, boundary in enumerate(range(step, size - 8, step)):
        token = tokens[(i + 7 * shift) % len(tokens)]
        at = boundary - ((i + shift) % 5)
        data[at:at + len(token)] = token
    return bytes(data)


def shim_env(mode, report):
    """The environment that loads eintr_shim.c in the given mode, its counts
    going to the file report."""
    return {"LD_PRELOAD": SHIM, "UTF8GUARD_SHIM": mode, "UTF8GUARD_SHIM_REPORT": report}


def read_report(path):
    """The shim's counts: {"reads": R, "writes": W, "preads": P, "faults": F}."""
    with open(path) as f:
        words = f.read().split()
    return dict(zip(words[::2], map(int, words[1::2])))


def start_writer(path, data, piece=None, pause=0.0):
    """Writes data to path (a FIFO) from a thread, in pieces of piece bytes
    (all at once if None) with a pause between them. Returns the thread."""
    def write():
        with open(path, "wb", buffering=0) as w:
            step = piece or max(1, len(data))
            for i in range(0, len(data), step):
                w.write(data[i:i + step])
                if pause:
                    time.sleep(pause)
    t = threading.Thread(target=write, daemon=True)
    t.start()
    return t


class collect(threading.Thread):
    """Reads a stream to its end in a thread (so the writer never blocks);
    join(), then .data holds the bytes. Closes the stream."""

    def __init__(self, stream):
        super().__init__(daemon=True)
        self.stream = stream
        self.data = b""
        self.start()

    def run(self):
        self.data = self.stream.read()
        self.stream.close()


def shell_quote(arg):
    return shlex.quote(os.fsdecode(arg))


def tool_on_path(folder):
    """Makes folder/utf8guard, a script that runs the CLI under test (and
    UTF8GUARD_CLI_WRAPPER), for what finds utf8guard on PATH; returns an
    environment with folder first on PATH."""
    os.makedirs(folder, exist_ok=True)
    tool = os.path.join(folder, "utf8guard")
    with open(tool, "w") as f:
        f.write("#!/bin/sh\nexec %s \"$@\"\n" % " ".join(shell_quote(a) for a in WRAPPER + [CLI]))
    os.chmod(tool, 0o755)
    env = dict(os.environ, PATH=folder + os.pathsep + os.environ["PATH"])
    env.pop("UTF8GUARD_KERNEL", None)
    return env


# ---- test plumbing ------------------------------------------------------------

USAGE_HINT = b"utf8guard: try 'utf8guard --help' for more information\n"

class CliTest(unittest.TestCase):
    """A test case with a private temporary directory."""

    maxDiff = 4000

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="utf8guard-cli-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, data):
        p = self.path(name)
        with open(p, "wb") as f:
            f.write(data)
        return p

    def assertExit(self, proc, code):
        self.assertEqual(proc.returncode, code,
                         "exit status %r, stderr: %r" % (proc.returncode, proc.stderr[:2000]))

    def assertUsageError(self, args, why):
        """A usage error: exit 2, nothing on stdout, the reason and the hint."""
        p = run(args)
        self.assertExit(p, 2)
        self.assertEqual(p.stdout, b"")
        self.assertEqual(p.stderr, b"utf8guard: " + why + b"\n" + USAGE_HINT)


def main():
    """Usage: test_X.py --cli PATH [--shim PATH] [--man PATH] [--version V]
    [unittest arguments]"""
    global CLI, SHIM, MAN, VERSION
    args = sys.argv[1:]
    rest = []
    while args:
        a = args.pop(0)
        if a in ("--cli", "--shim", "--man", "--version"):
            value = args.pop(0)
            if a == "--cli":
                CLI = os.path.abspath(value)
            elif a == "--shim":
                SHIM = os.path.abspath(value)
            elif a == "--man":
                MAN = os.path.abspath(value)
            else:
                VERSION = value
        else:
            rest.append(a)
    if CLI is None:
        sys.exit("usage: %s --cli PATH [--shim PATH] [--man PATH] [--version V]" % sys.argv[0])
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
