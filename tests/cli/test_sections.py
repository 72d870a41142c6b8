#!/usr/bin/env python3
"""test_sections.py - a large regular file checked alone is first validated in
sections on several threads (src/cli/sections.hpp) and then read on from the
first section that holds an error. Wherever the cuts fall (inside a character,
on an error, next to one), the report is the one Python's decoder implies and
the one -j 1 prints; sections that cannot be read leave the work to one pass."""

import json
import os
import random
import unittest

import harness
from harness import CliTest, expected_errors, json_errors, read_report, run, shim_env, text_lines

SIZE = 16 << 20  # room for four sections of the 4 MiB minimum
ALIGN = 64 * 1024  # the cuts' alignment before they move past continuation bytes
UNIT = "Ünïcödé text, 東京, Привет, 🙂 and ascii;\n".encode()  # 1-4-byte characters
# Reduced (valgrind, sanitizers): try every n-th case only.
STRIDE = 7 if harness.REDUCED else 1


def cuts(size, sections):
    """Where the tool cuts a file of size bytes into sections, before it moves
    a cut forward to the next character start."""
    return [size // sections * i // ALIGN * ALIGN for i in range(1, sections)]


def text(size, shift):
    """size bytes of valid multilingual text; shift moves every character
    against the cuts."""
    data = bytearray(b"." * shift)
    data += UNIT * ((size - shift) // len(UNIT) + 1)
    del data[size:]
    end = size
    while data[end - 1] & 0xC0 == 0x80:  # drop a character the cut split
        end -= 1
    if data[end - 1] >= 0xC0:
        end -= 1
    data[end:] = b"." * (size - end)
    return data


def is_continuation(b):
    return b & 0xC0 == 0x80


class Sections(CliTest):
    def check_json(self, path, data, jobs):
        p = run(["check", "--all", "--json", "-j%d" % jobs, path])
        expected = expected_errors(bytes(data))
        self.assertExit(p, 1 if expected else 0)
        got = json.loads(p.stdout)
        self.assertEqual(got["bytes"], len(data))
        self.assertEqual(got["valid"], not expected)
        self.assertEqual(got["errors"], json_errors(expected), "-j%d" % jobs)
        return expected

    def test_valid_files_cut_inside_characters(self):
        inside = 0
        for shift in range(0, len(UNIT), 2 * STRIDE):
            data = text(SIZE, shift)
            f = self.write("valid", data)
            base = run(["check", "--json", "-j1", f])
            self.assertExit(base, 0)
            for jobs in (2, 3, 4):
                inside += sum(is_continuation(data[c]) for c in cuts(SIZE, jobs))
                p = run(["check", "--json", "-j%d" % jobs, f])
                self.assertExit(p, 0)
                self.assertEqual(p.stdout, base.stdout, (shift, jobs))
                self.assertEqual(json.loads(p.stdout)["bytes"], SIZE)
        self.assertGreater(inside, 0, "no cut fell inside a character")

    def test_sections_read_a_valid_file_once(self):
        # Given as standard input, the file's bytes are counted: the sections
        # read all of it with pread, and read(2) only meets the end. With an
        # error in the last section, read(2) reads that section alone.
        data = text(SIZE, 1)
        f = self.write("valid", data)
        report = self.path("shim.txt")
        for bad in (False, True):
            if bad:
                data[SIZE - 1000] = 0xFF
                f = self.write("bad", data)
            with open(f, "rb") as stdin:
                p = run(["check", "--quiet", "-j4"], stdin=stdin, env=shim_env("count", report))
            self.assertExit(p, 1 if bad else 0)
            counts = read_report(report)
            self.assertGreaterEqual(counts["preads"], SIZE // harness.CHUNK)
            last = SIZE - cuts(SIZE, 4)[-1]
            self.assertLessEqual(counts["reads"], (last // harness.CHUNK + 2) if bad else 1)

    def test_errors_next_to_every_cut(self):
        # Each case plants one ill-formed piece 3 bytes before a cut .. 1 after
        # it, so that it ends the section before, spans the cut, or opens the
        # section after; the sections before it prove valid and the one-pass
        # check takes over there (or a section earlier).
        tokens = [t for t in harness.INVALID if len(t) <= 4]
        base = text(SIZE, 5)
        case = errors = 0
        for jobs in (2, 3, 4):
            for c in cuts(SIZE, jobs):
                for d in range(-3, 2):
                    case += 1
                    if case % STRIDE:
                        continue
                    token = tokens[case % len(tokens)]
                    data = bytearray(base)
                    data[c + d:c + d + len(token)] = token
                    f = self.write("bad", data)
                    expected = self.check_json(f, data, jobs)
                    p = run(["check", "-j%d" % jobs, f])
                    self.assertExit(p, 1 if expected else 0)  # a token may complete a character
                    errors += len(expected)
                    self.assertEqual(p.stdout, text_lines(f, expected[:1]), (jobs, c, d, token))
        self.assertGreater(errors, case // STRIDE)

    def test_four_continuation_bytes_on_a_cut(self):
        # A cut cannot move past 4 continuation bytes: it stays, both sections
        # beside it fail, and the one-pass check reports each stray byte.
        data = text(SIZE, 0)
        c = cuts(SIZE, 2)[0]
        data[c - 2:c + 2] = b"\x80\x81\x82\x83"
        f = self.write("run", data)
        expected = self.check_json(f, data, 2)
        self.assertGreaterEqual(len(expected), 4)

    def test_errors_in_several_sections(self):
        # Errors in the first and the last section, and at the file's end: the
        # first section fails, so everything is read in one pass.
        data = text(SIZE, 3)
        rng = random.Random(7)
        for at in (100, SIZE // 2 + 12345, SIZE - 2):
            data[at:at + 1] = rng.choice([b"\xc0", b"\xff", b"\xe2"])
        f = self.write("many", data)
        self.check_json(f, data, 4)

    def test_only_the_last_section_is_bad(self):
        for jobs in (2, 4):
            data = text(SIZE, 1)
            data[SIZE - 1:] = b"\xf0"  # incomplete at the end of input
            f = self.write("tail", data)
            expected = self.check_json(f, data, jobs)
            self.assertEqual([e["kind"] for e in expected], ["incomplete"])

    def test_stdin_file_read_from_its_middle(self):
        # Standard input may be a regular file whose offset is not 0: offsets
        # count from there, and the sections cover only what follows it.
        data = text(SIZE + 4096, 0)
        data[SIZE // 2 + 77:SIZE // 2 + 78] = b"\x80"
        f = self.write("mid", data)
        start = 4096 + 1  # inside a character: the first byte is a stray one
        reports = []
        for jobs in (1, 2, 4):
            with open(f, "rb") as stdin:
                stdin.seek(start)
                p = run(["check", "--all", "--json", "-j%d" % jobs], stdin=stdin)
            self.assertExit(p, 1)
            reports.append(p.stdout)
            got = json.loads(p.stdout)
            self.assertEqual(got["errors"], json_errors(expected_errors(bytes(data[start:]))))
        self.assertEqual(reports[1:], reports[:1] * 2)

    def test_sections_that_cannot_be_read(self):
        # Every pread fails: no section proves anything, one read(2) pass
        # checks the file all the same.
        f = self.write("valid", text(SIZE, 0))
        report = self.path("shim.txt")
        p = run(["check", "--json", "-j4", f], env=shim_env("pread-fails", report))
        self.assertGreater(read_report(report)["faults"], 0, "the shim was not active")
        self.assertExit(p, 0)
        self.assertEqual(json.loads(p.stdout)["bytes"], SIZE)

    def test_interrupted_and_short_preads(self):
        # Every other pread fails with EINTR, the rest read half of what they
        # ask for: the sections retry and read on, and the report is unchanged.
        data = text(SIZE, 2)
        data[SIZE // 4 * 3 + 5:SIZE // 4 * 3 + 6] = b"\xc1"
        f = self.write("bad", data)
        report = self.path("shim.txt")
        p = run(["check", "--all", "--json", "-j4", f], env=shim_env("faults", report))
        self.assertGreater(read_report(report)["faults"], 0, "the shim was not active")
        self.assertExit(p, 1)
        self.assertEqual(json.loads(p.stdout)["errors"], json_errors(expected_errors(bytes(data))))

    def test_small_files_and_one_job_are_read_in_one_pass(self):
        # Below two sections' worth, and with -j 1, no pread is made unless an
        # error needs its line.
        for size, jobs in ((2 * (4 << 20) - 1, 4), (SIZE, 1)):
            f = self.write("one", text(size, 0))
            report = self.path("shim.txt")
            p = run(["check", "-j%d" % jobs, f], env=shim_env("pread-fails", report))
            self.assertExit(p, 0)
            self.assertEqual(read_report(report)["faults"], 0, (size, jobs))


if __name__ == "__main__":
    harness.main()
