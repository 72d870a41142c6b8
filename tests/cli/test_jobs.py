#!/usr/bin/env python3
"""test_jobs.py - `check -j N` prints exactly what -j 1 prints (same bytes,
same order, same exit status), for many files, large reports and failures."""

import os
import random
import subprocess
import unittest

import harness
from harness import CliTest, expected_errors, run, text_lines


class SameAsSequential(CliTest):
    def setUp(self):
        super().setUp()
        rng = random.Random(99)
        self.files = []
        self.contents = {}
        for i in range(300):
            kind = i % 10
            name = self.path("f%03d" % i)
            if kind == 7:
                self.files.append(name)  # missing
                continue
            if kind == 8:
                os.mkdir(name)  # a directory
                self.files.append(name)
                continue
            data = harness.hostile(rng, rng.randrange(0, 3000), 0.0 if kind < 3 else 0.1)
            self.files.append(self.write("f%03d" % i, data))
            self.contents[name] = data

    def assertSameOutput(self, args, jobs=(2, 3, 8, 0)):
        base = run(["check"] + args + ["-j1"] + self.files)
        for j in jobs:
            p = run(["check"] + args + ["-j%d" % j] + self.files)
            self.assertEqual(p.returncode, base.returncode, (args, j))
            self.assertEqual(p.stdout, base.stdout, (args, j))
            self.assertEqual(p.stderr, base.stderr, (args, j))
        return base

    def test_text(self):
        base = self.assertSameOutput([])
        self.assertEqual(base.returncode, 2)
        want = b"".join(text_lines(f, expected_errors(self.contents[f])[:1])
                        for f in self.files if f in self.contents)
        self.assertEqual(base.stdout, want)
        self.assertEqual(base.stderr.count(b"No such file or directory"), 30)
        self.assertEqual(base.stderr.count(b"Is a directory"), 30)

    def test_all_json_quiet_max_errors(self):
        self.assertSameOutput(["--all"])
        self.assertSameOutput(["--all", "--json"])
        self.assertSameOutput(["--max-errors", "2", "--json"])
        self.assertSameOutput(["--quiet"])

    def test_reports_larger_than_the_per_file_buffer(self):
        # Each report is several MiB: workers must wait for their turn.
        rng = random.Random(3)
        self.files = [self.write("big%d" % i, harness.hostile(rng, 400_000, 0.5)) for i in range(5)]
        self.files.insert(2, self.path("missing"))
        base = self.assertSameOutput(["--all"], jobs=(2, 4))
        self.assertGreater(len(base.stdout), 5 * 2**20)
        self.assertSameOutput(["--all", "--json"], jobs=(3,))

    def test_files_of_several_chunks(self):
        # Each worker reads its file chunk by chunk (TSan runs this in CI).
        rng = random.Random(8)
        size = 2 * harness.CHUNK + 1000
        self.files = [self.write("chunks%d" % i, harness.hostile(rng, size, 0.001))
                      for i in range(4)]
        base = self.assertSameOutput(["--all"], jobs=(2, 4))
        self.assertEqual(base.returncode, 1)
        with open(self.files[0], "rb") as f:
            data = f.read()
        self.assertIn(text_lines(self.files[0], expected_errors(data)), base.stdout)

    def test_fifo_among_files(self):
        fifo = self.path("fifo")
        os.mkfifo(fifo)
        data = harness.hostile(random.Random(6), 100_000)
        files = self.files[:20] + [fifo] + self.files[20:40]
        outputs = []
        for j in (1, 4):
            proc = harness.popen(["check", "--all", "-j%d" % j] + files, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
            writer = harness.start_writer(fifo, data)
            out, err = proc.communicate(timeout=120 * harness.SLOWDOWN)
            writer.join()
            outputs.append((proc.returncode, out, err))
        self.assertEqual(outputs[0], outputs[1])
        self.assertIn(text_lines(fifo, expected_errors(data)), outputs[0][1])


if __name__ == "__main__":
    harness.main()
