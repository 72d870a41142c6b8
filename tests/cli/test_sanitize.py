#!/usr/bin/env python3
"""test_sanitize.py - `utf8guard sanitize` against Python's
bytes.decode('utf-8', 'replace').encode('utf-8'): random, hostile and
chunk-straddling inputs, from files, stdin and pipes; I/O errors; buffering."""

import os
import random
import subprocess
import unittest

import harness
from harness import CliTest, run, sanitized


class Replacement(CliTest):
    def check(self, data):
        f = self.write("in", data)
        p = run(["sanitize", f])
        self.assertExit(p, 0)
        self.assertEqual(p.stderr, b"")
        self.assertEqual(p.stdout, sanitized(data))
        return p.stdout

    def test_examples(self):
        cases = {
            b"": b"",
            b"..\xc0\xaf..": b"..\xef\xbf\xbd\xef\xbf\xbd..",
            b"a\xc0\"b": b"a\xef\xbf\xbd\"b",  # the quote after a broken lead survives
            b"a\xc3\x22\x3e": b"a\xef\xbf\xbd\x22\x3e",
            b"\xed\xa0\xbd\xed\xb8\x80": b"\xef\xbf\xbd" * 6,
            b"\xf0\x9f\x98": b"\xef\xbf\xbd",
            b"\xef\xbb\xbfBOM kept": b"\xef\xbb\xbfBOM kept",
            b"\x00NUL\x00": b"\x00NUL\x00",
            b"\xf4\x90\x80\x80": b"\xef\xbf\xbd" * 4,
        }
        for data, want in cases.items():
            self.assertEqual(self.check(data), want)

    def test_random_and_hostile(self):
        rng = random.Random(21)
        for _ in range(harness.rounds(25)):
            self.check(harness.random_bytes(rng, rng.randrange(0, 4000)))
        for _ in range(harness.rounds(25)):
            self.check(harness.hostile(rng, rng.randrange(0, 6000), rng.choice([0, 0.1, 0.6, 1])))

    def test_well_formed_input_is_unchanged_and_sanitize_is_idempotent(self):
        rng = random.Random(8)
        text = harness.hostile(rng, 3 * harness.CHUNK, 0.0)
        self.assertEqual(self.check(text), text)
        once = self.check(harness.hostile(rng, 50000))
        self.assertEqual(self.check(once), once)

    def test_errors_straddling_read_boundaries(self):
        for shift in range(3):
            self.check(harness.planted(3 * harness.CHUNK + 123, shift=shift))
        # The unfinished sequence at the end of a read, finished or broken by the next.
        for tail in (b"\xf0", b"\xf0\x9f", b"\xf0\x9f\x98", b"\xe2\x82"):
            for follow in (b"\x80\x80\x80", b"A", b""):
                data = b"a" * (harness.CHUNK - len(tail)) + tail + follow + b"z"
                self.check(data)

    def test_stdin_dash_and_pipe(self):
        data = harness.planted(harness.CHUNK + 5000, shift=4)
        want = sanitized(data)
        for args in (["sanitize"], ["sanitize", "-"]):
            p = run(args, input=data)
            self.assertExit(p, 0)
            self.assertEqual(p.stdout, want)
        # A pipe delivers at most 64 KiB per read: other boundaries.
        src = subprocess.Popen(["cat", self.write("in", data)], stdout=subprocess.PIPE)
        p = run(["sanitize"], stdin=src.stdout)
        src.stdout.close()
        src.wait()
        self.assertEqual(p.stdout, want)


class Failures(CliTest):
    def test_missing_file(self):
        missing = self.path("missing.txt")
        p = run(["sanitize", missing])
        self.assertExit(p, 2)
        self.assertEqual(p.stdout, b"")
        self.assertEqual(p.stderr, b"utf8guard: %s: No such file or directory\n" % missing.encode())

    def test_more_than_one_file_is_a_usage_error(self):
        a = self.write("a", b"a")
        p = run(["sanitize", a, a])
        self.assertExit(p, 2)
        self.assertEqual(p.stdout, b"")
        self.assertTrue(p.stderr.startswith(b"utf8guard: "))

    def test_read_error(self):
        p = run(["sanitize", "/proc/self/mem"])
        self.assertExit(p, 2)
        self.assertEqual(p.stderr, b"utf8guard: /proc/self/mem: Input/output error\n")


class Buffering(CliTest):
    """Output goes out in large writes, not one per U+FFFD."""

    def test_few_writes(self):
        data = b"\xff" * 300_000  # 300 000 replacements, 900 000 bytes out
        report = self.path("shim.txt")
        with open(self.write("in", data), "rb") as stdin:
            p = run(["sanitize"], stdin=stdin,
                    env={"LD_PRELOAD": harness.SHIM, "UTF8GUARD_SHIM": "count",
                         "UTF8GUARD_SHIM_REPORT": report})
        self.assertExit(p, 0)
        self.assertEqual(p.stdout, sanitized(data))
        with open(report) as f:
            writes = int(f.read().split()[3])
        self.assertGreater(writes, 0, "the shim was not active")
        self.assertLessEqual(writes, 16)


if __name__ == "__main__":
    harness.main()
