#!/usr/bin/env python3
"""test_files0.py - `check --files0-from LIST`: the names of a NUL-separated
list are checked as FILE operands would be (same bytes out, same order, same
exit status, with any -j), whatever bytes the names hold; the defects of a
list are reported in their place with exit 2; a list and operands together
are a usage error."""

import json
import os
import random
import shutil
import subprocess
import unittest

import harness
from harness import CliTest, expected_errors, run, summary, text_lines


def nul_list(names):
    return b"".join(os.fsencode(n) + b"\0" for n in names)


class Files0Test(CliTest):
    def setUp(self):
        super().setUp()
        rng = random.Random(41)
        self.contents = {}
        # Names with spaces, newlines, a leading dash and bytes that are not
        # UTF-8, valid and invalid contents, plus a missing file and a folder.
        odd = [b"plain.txt", b"with space.txt", b"new\nline.txt", b"-dash", b"tab\there",
               b"bad\xff\xc0name", b"\xe6\x9d\xb1\xe4\xba\xac.txt", b"trail \n"]
        self.names = []
        for i, base in enumerate(odd * 4):
            name = os.fsencode(self.dir) + b"/" + (b"%02d-" % i) + base
            data = harness.hostile(rng, rng.randrange(0, 4000), 0.0 if i % 3 else 0.05)
            with open(name, "wb") as f:
                f.write(data)
            self.contents[name] = data
            self.names.append(name)
        self.missing = os.fsencode(self.path("missing"))
        self.folder = os.fsencode(self.path("folder"))
        os.mkdir(self.folder)
        self.names[5:5] = [self.missing]
        self.names[20:20] = [self.folder]

    def list_file(self, data, name="list"):
        return self.write(name, data)

    def expected_text(self, names, first_only=True):
        return b"".join(text_lines(n, expected_errors(self.contents[n])[:1] if first_only
                                   else expected_errors(self.contents[n]))
                        for n in names if n in self.contents)


class SameAsOperands(Files0Test):
    def test_every_format_and_jobs(self):
        lst = self.list_file(nul_list(self.names))
        for args in ([], ["--all"], ["--json"], ["--all", "--json"], ["--quiet"],
                     ["--max-errors", "2"]):
            want = run(["check", "-j1"] + args + self.names)
            self.assertExit(want, 2)
            for jobs in ("-j1", "-j3", "-j0"):
                got = run(["check", jobs] + args + ["--files0-from", lst])
                self.assertEqual((got.returncode, got.stdout, got.stderr),
                                 (want.returncode, want.stdout, want.stderr), (args, jobs))

    def test_text_matches_the_oracle(self):
        lst = self.list_file(nul_list(self.names))
        p = run(["check", "--all", "--files0-from=" + lst])
        self.assertExit(p, 2)
        self.assertEqual(p.stdout, self.expected_text(self.names, first_only=False))
        errors = [e for n in self.names if n in self.contents
                  for e in expected_errors(self.contents[n])]
        self.assertEqual(
            p.stderr,
            b"utf8guard: %s: No such file or directory\n" % self.missing +
            b"utf8guard: %s: Is a directory\n" % self.folder +
            summary(len(self.contents), sum(map(len, self.contents.values())), errors))

    def test_names_that_are_not_utf8_in_json(self):
        lst = self.list_file(nul_list(self.names))
        p = run(["check", "--json", "--files0-from", lst])
        objects = [json.loads(line) for line in p.stdout.decode("utf-8").splitlines()]
        # Every name has its object: a report, or why it could not be read.
        self.assertEqual([o["path"] for o in objects],
                         [n.decode("utf-8", "replace") for n in self.names])
        self.assertEqual([n for n, o in zip(self.names, objects) if "error" in o],
                         [n for n in self.names if n not in self.contents])
        self.assertIn(os.fsdecode(self.dir) + "/05-bad\ufffd\ufffdname",
                      [o["path"] for o in objects])

    def test_list_on_standard_input(self):
        want = run(["check", "--all"] + self.names)
        for jobs in ("-j1", "-j2"):
            p = run(["check", "--all", jobs, "--files0-from", "-"], input=nul_list(self.names))
            self.assertEqual((p.returncode, p.stdout, p.stderr),
                             (want.returncode, want.stdout, want.stderr), jobs)

    def test_list_read_in_small_interrupted_pieces(self):
        # The shim makes every other read of standard input fail with EINTR
        # and the others return a few bytes: names span many reads.
        want = run(["check", "--all"] + self.names)
        report = self.path("shim.txt")
        with open(self.list_file(nul_list(self.names)), "rb") as stdin:
            p = run(["check", "--all", "--files0-from", "-"], stdin=stdin,
                    env=harness.shim_env("faults", report))
        self.assertGreater(harness.read_report(report)["faults"], 0, "the shim was not active")
        self.assertEqual((p.returncode, p.stdout, p.stderr),
                         (want.returncode, want.stdout, want.stderr))

    def test_relative_names_and_dash_in_a_list_file(self):
        # Names are opened as given, relative to the working directory; in a
        # list that is not standard input, - is standard input.
        self.write("a.txt", b"ok\n")
        self.write("b.txt", b"\xc0\xaf")
        lst = self.list_file(b"a.txt\0-\0b.txt\0")
        p = run(["check", "--all", "--files0-from", lst], input=b"x\xff\n", cwd=self.dir)
        self.assertExit(p, 1)
        self.assertEqual(p.stdout, b"-:1:2: invalid_byte at byte 1 (FF 0A)\n"
                                   b"b.txt:1:1: overlong at byte 0 (C0 AF)\n"
                                   b"b.txt:1:2: unexpected_continuation at byte 1 (AF)\n")
        self.assertEqual(p.stderr, b"utf8guard: 3 files, 8 bytes, 3 errors "
                                   b"(unexpected_continuation 1, overlong 1, invalid_byte 1)\n")

    @unittest.skipUnless(shutil.which("git"), "git is not installed")
    def test_git_ls_files(self):
        repo = self.path("repo")
        os.mkdir(repo)
        files = {b"README": b"fine\n", b"src/a b.c": b"int x; // \xe2\x82\n",
                 b"docs/na\xefve.txt": b"caf\xc3\xa9\n", b"new\nline": b"\xed\xa0\x80"}
        for name, data in files.items():
            path = os.path.join(os.fsencode(repo), name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
        git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", repo]
        subprocess.run(git + ["init", "-q"], check=True)
        subprocess.run(git + ["add", "."], check=True)
        listing = subprocess.run(git + ["ls-files", "-z"], check=True,
                                 stdout=subprocess.PIPE).stdout
        self.assertEqual(listing.count(b"\0"), len(files))
        p = run(["check", "--all", "--files0-from", "-"], input=listing, cwd=repo)
        self.assertExit(p, 1)
        names = listing.split(b"\0")[:-1]
        self.assertEqual(p.stdout, b"".join(text_lines(n, expected_errors(files[n]))
                                            for n in names))
        self.assertEqual(p.stderr.count(b"\n"), 1)
        self.assertTrue(p.stderr.startswith(b"utf8guard: 4 files, "), p.stderr)


class HugeList(Files0Test):
    def test_100000_names(self):
        # 100,000 names over the files of setUp (missing and folder too):
        # one process, the same report as the files one after the other.
        rng = random.Random(5)
        # Under valgrind or a sanitizer (a memory check, not a scale test) 2,000 names do.
        names = [rng.choice(self.names) for _ in range(2_000 if harness.REDUCED else 100_000)]
        lst = self.list_file(nul_list(names))
        base = run(["check", "--all", "-j1", "--files0-from", lst], timeout=600)
        self.assertExit(base, 2)
        self.assertEqual(base.stdout, self.expected_text(names, first_only=False))
        checked = [n for n in names if n in self.contents]
        errors = [e for n in checked for e in expected_errors(self.contents[n])]
        self.assertTrue(base.stderr.endswith(
            summary(len(checked), sum(len(self.contents[n]) for n in checked), errors)))
        self.assertEqual(base.stderr.count(b"No such file or directory"),
                         names.count(self.missing))
        self.assertEqual(base.stderr.count(b"Is a directory"), names.count(self.folder))
        for jobs in ("-j2", "-j0"):
            p = run(["check", "--all", jobs, "--files0-from", lst], timeout=600)
            self.assertEqual((p.returncode, p.stdout, p.stderr),
                             (base.returncode, base.stdout, base.stderr), jobs)
        p = run(["check", "--json", "--files0-from", "-"], input=nul_list(names), timeout=600)
        self.assertEqual(p.stdout.count(b"\n"), len(names))
        self.assertEqual(p.stdout.count(b'"error":'), len(names) - len(checked))


class DefaultJobs(Files0Test):
    def test_one_by_one_then_shared_out(self):
        # By default a few small inputs are checked one after the other; a
        # large one (read in sections) makes what is left worth the threads,
        # which take over from there. The report is -j1's all along.
        rng = random.Random(17)
        small = [self.write("s%03d" % i, harness.hostile(rng, rng.randrange(0, 300), 0.1))
                 for i in range(200)]
        big = self.write("big", harness.planted(9 * 2**20 + 5000, step=2**20))
        names = small[:5] + [big] + small[5:] + [self.missing] + small[:3]
        lst = self.list_file(nul_list(names))
        for args in (["--all"], ["--json", "--max-errors", "3"]):
            want = run(["check", "-j1"] + args + ["--files0-from", lst])
            self.assertExit(want, 2)
            for jobs in ([], ["-j0"], ["-j2"]):
                got = run(["check"] + jobs + args + ["--files0-from", lst])
                self.assertEqual((got.returncode, got.stdout, got.stderr),
                                 (want.returncode, want.stdout, want.stderr), (args, jobs))


class ListDefects(Files0Test):
    def run_list(self, data, args=(), **kwargs):
        return run(["check"] + list(args) + ["--files0-from", self.list_file(data)], **kwargs)

    def test_empty_name(self):
        a, b = self.names[0], self.names[1]
        lst = self.list_file(a + b"\0\0" + b + b"\0\0")
        for jobs in ("-j1", "-j2"):
            p = run(["check", "--all", jobs, "--files0-from", lst])
            self.assertExit(p, 2)
            self.assertEqual(p.stdout, self.expected_text([a, b], first_only=False))
            self.assertTrue(p.stderr.startswith(
                b"utf8guard: %s:2: invalid zero-length file name\n"
                b"utf8guard: %s:4: invalid zero-length file name\n"
                b"utf8guard: 2 files, " % (os.fsencode(lst), os.fsencode(lst))), p.stderr)

    def test_messages_keep_their_place_among_reports(self):
        # A defect's message comes where its name is, between the reports of
        # the names before and after it, with any -j.
        bad = self.write("bad", b"\xff")
        lst = nul_list([bad]) + b"\0" + nul_list([bad, self.missing, bad])
        want = (b"%s:1:1: invalid_byte at byte 0 (FF)\n" % os.fsencode(bad)) * 3
        for jobs in ("-j1", "-j2", "-j8"):
            proc = harness.popen(["check", jobs, "--files0-from", self.list_file(lst)],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            out, _ = proc.communicate(timeout=60 * harness.SLOWDOWN)
            self.assertEqual(proc.returncode, 2)
            lines = out.splitlines(keepends=True)
            self.assertEqual(lines[0] + lines[2] + lines[4], want, jobs)
            self.assertTrue(lines[1].endswith(b":2: invalid zero-length file name\n"), lines)
            self.assertEqual(lines[3], b"utf8guard: %s: No such file or directory\n"
                             % self.missing)

    def test_missing_final_nul(self):
        a = self.names[0]
        valid = self.write("valid.txt", b"fine\n")
        for jobs in ("-j1", "-j2"):
            p = self.run_list(a + b"\0" + os.fsencode(valid), ["--all", jobs])
            self.assertExit(p, 2)
            self.assertEqual(p.stdout, self.expected_text([a], first_only=False))
            lst = os.fsencode(self.path("list"))
            # The last name is not checked: 1 file, not 2.
            self.assertTrue(p.stderr.startswith(
                b"utf8guard: %s:2: file name not followed by a NUL byte at the end of the list;"
                b" not checked\nutf8guard: 1 file, " % lst), p.stderr)

    def test_dash_in_a_list_read_from_standard_input(self):
        a = self.names[0]
        p = run(["check", "--files0-from", "-"], input=a + b"\0-\0")
        self.assertExit(p, 2)
        self.assertEqual(p.stderr, b"utf8guard: -:2: when reading file names from standard "
                                   b"input, no file name of '-' allowed\n")
        self.assertEqual(p.stdout, self.expected_text([a]))

    def test_empty_list_checks_nothing(self):
        # Standard input holds an invalid byte: it must not be read.
        p = self.run_list(b"", ["--all"], input=b"\xff")
        self.assertExit(p, 0)
        self.assertEqual(p.stdout, b"")
        self.assertEqual(p.stderr, b"utf8guard: 0 files, 0 bytes, 0 errors\n")

    def test_only_a_nul(self):
        p = self.run_list(b"\0", ["--all"])
        self.assertExit(p, 2)
        self.assertTrue(p.stderr.startswith(b"utf8guard: %s:1: invalid zero-length file name\n"
                                            % os.fsencode(self.path("list"))), p.stderr)

    def test_read_error_after_the_names(self):
        # The shim lets the first read of standard input through and fails
        # the next with EIO: the names read are checked, then the error.
        a, b = self.names[0], self.names[1]
        report = self.path("shim.txt")
        with open(self.list_file(a + b"\0" + b + b"\0"), "rb") as stdin:
            p = run(["check", "--files0-from", "-"], stdin=stdin,
                    env=harness.shim_env("read-fails", report))
        self.assertGreater(harness.read_report(report)["faults"], 0, "the shim was not active")
        self.assertExit(p, 2)
        self.assertEqual(p.stdout, self.expected_text([a, b]))
        self.assertEqual(p.stderr, b"utf8guard: -: Input/output error\n")

    def test_list_cannot_be_opened(self):
        for lst, why in ((self.path("nope"), b"No such file or directory"),
                         (self.dir, b"Is a directory")):
            p = run(["check", "--all", "--files0-from", lst])
            self.assertExit(p, 2)
            self.assertEqual(p.stdout, b"")
            # Nothing was checked: no summary either.
            self.assertEqual(p.stderr, b"utf8guard: %s: %s\n" % (os.fsencode(lst), why))


class CommandLine(Files0Test):
    def assertUsageError(self, args, needle):
        p = run(args, input=b"")
        self.assertExit(p, 2)
        self.assertEqual(p.stdout, b"")
        self.assertIn(needle, p.stderr)
        self.assertTrue(p.stderr.endswith(b"try 'utf8guard --help' for more information\n"))

    def test_operands_with_a_list(self):
        lst = self.list_file(nul_list(self.names[:2]))
        for args in (["--files0-from", lst, "a"], ["a", "--files0-from", lst],
                     ["--files0-from=" + lst, "-"], ["--files0-from", "-", "--", "x"]):
            self.assertUsageError(["check"] + args,
                                  b"file operands cannot be combined with --files0-from")

    def test_malformed_option(self):
        lst = self.list_file(b"")
        self.assertUsageError(["check", "--files0-from"], b"'--files0-from' needs a file name")
        self.assertUsageError(["check", "--files0-from", lst, "--files0-from", lst],
                              b"--files0-from given twice")
        self.assertUsageError(["sanitize", "--files0-from", lst], b"unknown option")

    def test_after_double_dash_it_is_a_file_name(self):
        p = run(["check", "--", "--files0-from"], cwd=self.dir)
        self.assertExit(p, 2)
        self.assertEqual(p.stderr, b"utf8guard: --files0-from: No such file or directory\n")


if __name__ == "__main__":
    harness.main()
