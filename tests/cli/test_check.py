#!/usr/bin/env python3
"""test_check.py - `utf8guard check`: usage, exit codes, text and JSON output,
--all / --max-errors / --quiet and the summary, stdin, and bad inputs."""

import json
import os
import random
import subprocess
import unittest

import harness
from harness import CliTest, expected_errors, json_errors, run, summary, text_lines


class Usage(CliTest):
    def test_usage_errors(self):
        self.assertUsageError([], b"missing command")
        self.assertUsageError(["frobnicate"], b"unknown command 'frobnicate'")
        self.assertUsageError(["--json"], b"unknown option '--json'")
        self.assertUsageError(["check", "--frobnicate"], b"unknown option '--frobnicate'")
        self.assertUsageError(["check", "-x", "a"], b"unknown option '-x'")
        self.assertUsageError(["check", "--max-errors", "0"], b"--max-errors needs a number N >= 1")
        self.assertUsageError(["check", "--max-errors"], b"option '--max-errors' needs a number")
        self.assertUsageError(["check", "--max-errors=x"], b"invalid number for --max-errors: 'x'")
        self.assertUsageError(["check", "-j", "-1"], b"invalid number for -j: '-1'")
        self.assertUsageError(["check", "-jx"], b"invalid number for -j: '-jx'")
        self.assertUsageError(["check", "--jobs=2x"], b"invalid number for --jobs: '2x'")
        self.assertUsageError(["sanitize", "--all"], b"unknown option '--all'")
        self.assertUsageError(["sanitize", "a", "b"], b"sanitize takes at most one FILE")

    def test_usage_error_reads_nothing(self):
        # A usage error anywhere wins before any file is read.
        p = run(["check", "missing-file", "--bogus"])
        self.assertExit(p, 2)
        self.assertNotIn(b"missing-file", p.stderr)

    def test_help_and_version_exit_zero(self):
        for args in (["--help"], ["-h"], ["help"], ["check", "--help"], ["sanitize", "-h"]):
            p = run(args)
            self.assertExit(p, 0)
            self.assertTrue(p.stdout.startswith(b"Usage: utf8guard check"), args)
            self.assertEqual(p.stderr, b"")
        p = run(["--version"])
        self.assertExit(p, 0)
        first, second = p.stdout.decode().splitlines()
        self.assertEqual(first, "utf8guard " + harness.VERSION)
        self.assertRegex(second, r"^kernel: \w+ \(usable:( \w+)+\)$")

    def test_options_among_files_and_double_dash(self):
        a = self.write("a.txt", b"ok\n")
        b = self.write("b.txt", b"x\xc0y\n")
        dashed = self.write("--json", b"\xff")
        p = run(["check", a, "--all", b])
        self.assertExit(p, 1)
        self.assertEqual(p.stdout, text_lines(b, expected_errors(b"x\xc0y\n")))
        os.chdir(self.dir)
        try:
            p = run(["check", "--", "--json"])
        finally:
            os.chdir("/")
        self.assertExit(p, 1)
        self.assertEqual(p.stdout, b"--json:1:1: invalid_byte at byte 0 (FF)\n")
        self.assertTrue(os.path.exists(dashed))

    def test_value_forms(self):
        data = b"\xff" * 5
        f = self.write("f", data)
        want = text_lines(f, expected_errors(data)[:3])
        for args in (["--max-errors", "3"], ["--max-errors=3"]):
            for jobs in (["-j", "2"], ["-j2"], ["--jobs", "2"], ["--jobs=2"], ["-j0"]):
                p = run(["check"] + args + jobs + [f])
                self.assertExit(p, 1)
                self.assertEqual(p.stdout, want, (args, jobs))


class ExitCodes(CliTest):
    def test_valid_invalid_empty(self):
        self.assertExit(run(["check", self.write("v", "héllo\n".encode())]), 0)
        self.assertExit(run(["check", self.write("e", b"")]), 0)
        self.assertExit(run(["check", self.write("i", b"h\xe9llo\n")]), 1)

    def test_missing_file_wins_and_others_are_still_checked(self):
        good = self.write("good.txt", b"fine\n")
        bad = self.write("bad.txt", b"..\xc0\xaf..\n")
        missing = self.path("missing.txt")
        p = run(["check", bad, missing, good])
        self.assertExit(p, 2)
        self.assertEqual(p.stdout, text_lines(bad, expected_errors(b"..\xc0\xaf..\n")[:1]))
        self.assertEqual(p.stderr, b"utf8guard: %s: No such file or directory\n" % missing.encode())
        p = run(["check", missing, good])
        self.assertExit(p, 2)
        p = run(["check", good, bad])
        self.assertExit(p, 1)

    def test_directory(self):
        os.mkdir(self.path("dir"))
        bad = self.write("bad", b"\x80")
        for name in ("dir", "dir/", "dir/."):
            p = run(["check", bad, self.path(name)])
            self.assertExit(p, 2)
            self.assertEqual(p.stdout, b"%s:1:1: unexpected_continuation at byte 0 (80)\n" % bad.encode())
            self.assertEqual(p.stderr, b"utf8guard: %s: Is a directory\n" % self.path(name).encode())
        p = run(["sanitize", self.path("dir/")])
        self.assertExit(p, 2)
        self.assertEqual(p.stderr, b"utf8guard: %s: Is a directory\n" % self.path("dir/").encode())

    def test_unreadable_file(self):
        f = self.write("secret.txt", b"text\n")
        os.chmod(f, 0)
        kwargs = {}
        if os.geteuid() == 0:
            # root reads mode-000 files; run the CLI as nobody instead.
            os.chmod(self.dir, 0o755)
            kwargs = {"user": 65534, "group": 65534, "extra_groups": []}
        try:
            p = run(["check", f], **kwargs)
        except PermissionError as e:
            self.skipTest("cannot run as nobody: %s" % e)
        self.assertExit(p, 2)
        self.assertEqual(p.stderr, b"utf8guard: %s: Permission denied\n" % f.encode())
        p = run(["sanitize", f], **kwargs)
        self.assertExit(p, 2)
        self.assertEqual(p.stdout, b"")
        self.assertEqual(p.stderr, b"utf8guard: %s: Permission denied\n" % f.encode())

    def test_read_error(self):
        # Opening works, reading fails: page 0 of the process is never mapped.
        for cmd in (["check"], ["check", "--json"], ["sanitize"]):
            p = run(cmd + ["/proc/self/mem"])
            self.assertExit(p, 2)
            # --json says it in the input's place too.
            self.assertEqual(p.stdout, b'{"path":"/proc/self/mem","error":"Input/output error"}\n'
                             if "--json" in cmd else b"")
            self.assertEqual(p.stderr, b"utf8guard: /proc/self/mem: Input/output error\n")

    def test_fifo(self):
        fifo = self.path("fifo")
        os.mkfifo(fifo)
        data = harness.hostile(random.Random(3), 300_000)
        for cmd, want, code in ((["check", "--all"], text_lines(fifo, expected_errors(data)), 1),
                                (["sanitize"], harness.sanitized(data), 0)):
            proc = harness.popen(cmd + [fifo], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            writer = harness.start_writer(fifo, data)
            out, err = proc.communicate(timeout=60 * harness.SLOWDOWN)
            writer.join()
            self.assertEqual(proc.returncode, code, err)
            self.assertEqual(out, want)


class TextOutput(CliTest):
    def check_text(self, data, all_errors=True, pipe=False):
        """A file is counted lazily (re-read at the first error), a pipe as
        it streams by: both must give the oracle's answer."""
        f = "-" if pipe else self.write("in.txt", data)
        errors = expected_errors(data)
        p = run(["check"] + (["--all"] if all_errors else []) + [f], input=data if pipe else None)
        self.assertExit(p, 1 if errors else 0)
        self.assertEqual(p.stdout, text_lines(f, errors if all_errors else errors[:1]))

    def test_design_examples(self):
        f = self.write("iis", b"\x2e\x2e\xc0\xaf\x2e\x2e")
        p = run(["check", f])
        self.assertEqual(p.stdout, b"%s:1:3: overlong at byte 2 (C0 AF 2E 2E)\n" % f.encode())
        f = self.write("end", b"ab\n\xe4\xb8\x80\xc0\xaf")
        p = run(["check", "--all", f])
        self.assertEqual(p.stdout, b"%s:2:2: overlong at byte 6 (C0 AF)\n"
                                   b"%s:2:3: unexpected_continuation at byte 7 (AF)\n"
                                   % (f.encode(), f.encode()))

    def test_every_kind(self):
        cases = {
            b"a\x80": "1:2: unexpected_continuation at byte 1 (80)",
            b"\xc1\xbf": "1:1: overlong at byte 0 (C1 BF)",
            b"\n\xe0\x9f\xbf!": "2:1: overlong at byte 1 (E0 9F BF 21)",
            b"\xf0\x8f\xbf\xbf": "1:1: overlong at byte 0 (F0 8F BF BF)",
            b"<a\xed\xa0\x80>": "1:3: surrogate at byte 2 (ED A0 80 3E)",
            b"\xf4\x90\x80\x80": "1:1: too_large at byte 0 (F4 90 80 80)",
            b"\xc3\xa9\xf5": "1:2: invalid_byte at byte 2 (F5)",
            b"a\xc3\x22\x3e": "1:2: truncated at byte 1 (C3 22 3E)",
            b"\xf0\x9f\x22\x3e": "1:1: truncated at byte 0 (F0 9F 22 3E)",
            b"ok\n\n\xe2\x82": "3:1: incomplete at byte 4 (E2 82)",
        }
        for data, want in cases.items():
            f = self.write("k", data)
            p = run(["check", f])
            self.assertExit(p, 1)
            self.assertEqual(p.stdout.decode(), "%s:%s\n" % (f, want))
            self.check_text(data)

    def test_columns_count_code_points_and_subparts(self):
        # Column counts well-formed sequences and maximal subparts alike.
        data = "é東🙂".encode() + b"\xc0\xaf\xed\xa0\x80\xe1\x80A\x80\xff" + b"\n" + "ü".encode() + b"\xc2"
        self.check_text(data)
        e = expected_errors(data)
        self.assertEqual([x["column"] for x in e], [4, 5, 6, 7, 8, 9, 11, 12, 2])

    def test_random_inputs(self):
        rng = random.Random(7)
        for i in range(harness.rounds(40)):
            data = harness.hostile(rng, rng.randrange(0, 3000), rng.choice([0.0, 0.02, 0.3, 1.0]))
            self.check_text(data, all_errors=i % 2 == 0, pipe=i % 4 < 2)
        for _ in range(harness.rounds(10)):
            self.check_text(harness.random_bytes(rng, rng.randrange(0, 5000)))

    def test_path_as_given(self):
        os.chdir(self.dir)
        try:
            self.write("a b:c.txt", b"\xff")
            os.mkdir(self.path("sub"))
            self.write("sub/x", b"\xfe")
            raw = b"caf\xe9.txt"  # not UTF-8: printed as is in text
            with open(os.path.join(os.fsencode(self.dir), raw), "wb") as f:
                f.write(b"\xc0")
            p = run(["check", "a b:c.txt", "./sub/../sub/x", raw])
        finally:
            os.chdir("/")
        self.assertExit(p, 1)
        self.assertEqual(p.stdout, b"a b:c.txt:1:1: invalid_byte at byte 0 (FF)\n"
                                   b"./sub/../sub/x:1:1: invalid_byte at byte 0 (FE)\n"
                                   b"caf\xe9.txt:1:1: overlong at byte 0 (C0)\n")

    def test_large_input_errors_at_read_boundaries(self):
        for shift in range(3):
            data = harness.planted(3 * harness.CHUNK + 777, shift=shift)
            self.check_text(data)
            self.check_text(data, pipe=True)
            self.check_text(data, all_errors=False, pipe=True)

    def test_first_error_at_each_read_boundary(self):
        base = bytearray(("x" * 50 + "\n") * (harness.CHUNK // 51 + 2), "ascii")
        for piece, token in enumerate(
                (b"\xc0\xaf", b"\xe1\x80\x41", b"\xf0\x90\x80", b"\xed\xa0\x80", b"\x80")):
            for d in harness.spread(range(-4, 3), 2, piece):
                data = bytearray(base[:harness.CHUNK + 16])
                at = harness.CHUNK + d
                data[at:at + len(token)] = token
                if len(token) == 3 and token[0] == 0xF0:
                    del data[at + 3:]  # and once as the input's unfinished end
                self.check_text(bytes(data), all_errors=False)
                self.check_text(bytes(data), all_errors=False, pipe=True)


class JsonOutput(CliTest):
    def parse(self, line):
        pairs = json.loads(line, object_pairs_hook=lambda kv: kv)
        self.assertEqual([k for k, _ in pairs], ["path", "valid", "bytes", "errors"])
        obj = dict(pairs)
        for e in obj["errors"]:
            self.assertEqual([k for k, _ in e], ["offset", "length", "kind", "line", "column"])
        obj["errors"] = [dict(e) for e in obj["errors"]]
        return obj

    def check_json(self, data, all_errors=True, pipe=False):
        f = "-" if pipe else self.write("in.json", data)
        errors = expected_errors(data)
        p = run(["check", "--json"] + (["--all"] if all_errors else []) + [f],
                input=data if pipe else None)
        self.assertExit(p, 1 if errors else 0)
        self.assertTrue(p.stdout.endswith(b"\n"))
        line = p.stdout.decode("utf-8")
        self.assertEqual(line.count("\n"), 1)
        obj = self.parse(line)
        want = {"path": f, "valid": not errors, "bytes": len(data),
                "errors": json_errors(errors if all_errors else errors[:1])}
        self.assertEqual(obj, want)
        # No spaces, nothing else: exactly the compact form.
        self.assertEqual(line, json.dumps(want, separators=(",", ":"), ensure_ascii=False) + "\n")

    def test_contract_example_shape(self):
        f = self.write("a.txt", b"abc\n\x80")
        p = run(["check", "--json", f])
        self.assertEqual(p.stdout, b'{"path":"%s","valid":false,"bytes":5,"errors":[{"offset":4,'
                                   b'"length":1,"kind":"unexpected_continuation","line":2,'
                                   b'"column":1}]}\n' % f.encode())
        g = self.write("b.txt", b"")
        p = run(["check", "--json", g])
        self.assertExit(p, 0)
        self.assertEqual(p.stdout, b'{"path":"%s","valid":true,"bytes":0,"errors":[]}\n' % g.encode())

    def test_random_inputs(self):
        rng = random.Random(11)
        for i in range(harness.rounds(30)):
            self.check_json(harness.hostile(rng, rng.randrange(0, 4000), rng.choice([0, 0.05, 0.5])),
                            all_errors=i % 3 != 0)

    def test_large_input_errors_at_read_boundaries(self):
        data = harness.planted(2 * harness.CHUNK + 5000, shift=3)
        self.check_json(data)
        self.check_json(data, pipe=True)

    def test_long_error_list(self):
        # Several MiB of errors: the list passes through a temporary file.
        self.check_json(b"\xc0a" * 40000 + "ü\n".encode() + b"\xed\xa0\x80" * 20000)

    def test_one_object_per_input_and_one_for_failures(self):
        a = self.write("a", b"ok")
        b = self.write("b", b"\xc3(")
        p = run(["check", "--json", a, self.path("missing"), b, "-"], input=b"\xff\xfe")
        self.assertExit(p, 2)
        lines = p.stdout.decode().splitlines()
        self.assertEqual(json.loads(lines.pop(1)),
                         {"path": self.path("missing"), "error": "No such file or directory"})
        objs = [self.parse(line) for line in lines]
        self.assertEqual([o["path"] for o in objs], [a, b, "-"])
        self.assertEqual([o["valid"] for o in objs], [True, False, False])
        self.assertEqual(objs[2]["errors"], json_errors(expected_errors(b"\xff\xfe"))[:1])
        self.assertIn(b"missing: No such file or directory", p.stderr)

    def test_path_escaping(self):
        names = [b'quote"back\\slash', b"tab\tnew\nline\x01\x1f", b"bad\xff\xc0utf8",
                 "ünï 東京".encode()]
        dirb = os.fsencode(self.dir)
        paths = []
        for n in names:
            p = os.path.join(dirb, n)
            with open(p, "wb") as f:
                f.write(b"\x80")
            paths.append(p)
        p = run(["check", "--json"] + paths)
        self.assertExit(p, 1)
        lines = p.stdout.split(b"\n")
        self.assertEqual(lines[-1], b"")
        self.assertEqual(len(lines), len(paths) + 1)
        for raw, line in zip(paths, lines):
            obj = self.parse(line.decode("utf-8"))  # every line is UTF-8 and parses
            self.assertEqual(obj["path"], raw.decode("utf-8", "replace"))
            self.assertNotIn(b"\t", line)
            for c in range(0x20):
                self.assertNotIn(bytes([c]), line)
        self.assertIn(b"\\u0009", lines[1])
        self.assertIn(b'\\"', lines[0])
        self.assertIn(b"\\\\", lines[0])


class AllAndLimits(CliTest):
    def setUp(self):
        super().setUp()
        rng = random.Random(5)
        self.inputs = [harness.hostile(rng, 2000, 0.2) for _ in range(3)] + [b"valid \xc3\xa9\n"]
        self.paths = [self.write("f%d" % i, d) for i, d in enumerate(self.inputs)]

    def test_all_reports_every_subpart_and_a_summary(self):
        p = run(["check", "--all"] + self.paths)
        self.assertExit(p, 1)
        everything = []
        want = b""
        for path, data in zip(self.paths, self.inputs):
            errors = expected_errors(data)
            everything += errors
            want += text_lines(path, errors)
        self.assertEqual(p.stdout, want)
        self.assertEqual(p.stderr, summary(4, sum(map(len, self.inputs)), everything))
        # The subparts --all reports are exactly those sanitize replaces.
        self.assertEqual(len(everything),
                         sum(harness.sanitized(d).count("\ufffd".encode()) for d in self.inputs))

    def test_summary_shapes(self):
        v = self.write("v", b"")
        p = run(["check", "--all", v])
        self.assertExit(p, 0)
        self.assertEqual(p.stderr, b"utf8guard: 1 file, 0 bytes, 0 errors\n")
        p = run(["check", "--all", "--json", self.paths[0], self.path("missing")])
        self.assertExit(p, 2)
        self.assertEqual(p.stderr.splitlines(keepends=True)[-1],
                         summary(1, len(self.inputs[0]), expected_errors(self.inputs[0])))

    def test_first_error_only_without_all(self):
        p = run(["check"] + self.paths)
        self.assertExit(p, 1)
        self.assertEqual(p.stdout, b"".join(text_lines(path, expected_errors(d)[:1])
                                            for path, d in zip(self.paths, self.inputs)))
        self.assertEqual(p.stderr, b"")

    def test_max_errors(self):
        for n in (1, 2, 7):
            want = b"".join(text_lines(path, expected_errors(d)[:n])
                            for path, d in zip(self.paths, self.inputs))
            p = run(["check", "--max-errors", str(n)] + self.paths)
            self.assertExit(p, 1)
            self.assertEqual(p.stdout, want)
            self.assertEqual(p.stderr, b"")
            p = run(["check", "--all", "--max-errors", str(n)] + self.paths)
            self.assertEqual(p.stdout, want)
            # The summary counts every error found, printed or not.
            everything = sum((expected_errors(d) for d in self.inputs), [])
            self.assertEqual(p.stderr, summary(4, sum(map(len, self.inputs)), everything))
            p = run(["check", "--json", "--max-errors=%d" % n, self.paths[0]])
            obj = json.loads(p.stdout)
            self.assertEqual(obj["errors"], json_errors(expected_errors(self.inputs[0])[:n]))
            self.assertEqual(obj["bytes"], len(self.inputs[0]))

    def test_max_errors_past_a_read_boundary_still_counts_bytes(self):
        data = b"\xff" * 10 + b"a" * (3 * harness.CHUNK)
        f = self.write("big", data)
        p = run(["check", "--json", "--max-errors", "3", f])
        obj = json.loads(p.stdout)
        self.assertEqual((obj["bytes"], len(obj["errors"]), obj["valid"]), (len(data), 3, False))

    def test_quiet(self):
        for extra in ([], ["--all"], ["--json", "--all"], ["--max-errors", "3"]):
            p = run(["check", "--quiet"] + extra + self.paths)
            self.assertExit(p, 1)
            self.assertEqual((p.stdout, p.stderr), (b"", b""))
            p = run(["check", "--quiet"] + extra + [self.paths[3]])
            self.assertExit(p, 0)
            self.assertEqual((p.stdout, p.stderr), (b"", b""))
            p = run(["check", "--quiet"] + extra + [self.paths[0], self.path("nope")])
            self.assertExit(p, 2)
            self.assertEqual(p.stdout, b"")
            self.assertEqual(p.stderr, b"utf8guard: %s: No such file or directory\n"
                             % self.path("nope").encode())


class Sample(CliTest):
    """samples/attacks.txt holds the findings samples/README.md describes."""

    def test_attacks_sample(self):
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples",
                            "attacks.txt")
        with open(path, "rb") as f:
            data = f.read()
        errors = expected_errors(data)
        p = run(["check", "--all", path])
        self.assertExit(p, 1)
        self.assertEqual(p.stdout, text_lines(path, errors))
        found = [(e["line"], e["kind"], e["hex"]) for e in errors]
        self.assertIn((2, "overlong", "C0 AF 2E 2E"), found)
        self.assertIn((4, "surrogate", "ED A0 BD ED"), found)
        self.assertIn((4, "surrogate", "ED B8 80 22"), found)
        self.assertIn((5, "truncated", "C3 22 2C 22"), found)
        self.assertEqual(len(errors), 9)
        # Around them: well-formed multilingual text, 2-, 3- and 4-byte sequences.
        text = data.decode("utf-8", "replace")
        for lo, hi in ((0x80, 0x7FF), (0x800, 0xFFFC), (0x10000, 0x10FFFF)):
            self.assertTrue(any(lo <= ord(c) <= hi for c in text), hex(lo))


class Stdin(CliTest):
    def test_no_file_and_dash_read_stdin(self):
        data = b"line one\nline \xe2\x82\xac two \xe2\x82\n"
        want = text_lines("-", expected_errors(data))
        for args in (["check", "--all"], ["check", "--all", "-"]):
            p = run(args, input=data)
            self.assertExit(p, 1)
            self.assertEqual(p.stdout, want)
        f = self.write("f", b"\xc0")
        p = run(["check", f, "-", f], input=b"\xff")
        self.assertEqual(p.stdout, b"%s:1:1: overlong at byte 0 (C0)\n-:1:1: invalid_byte at byte 0 "
                                   b"(FF)\n%s:1:1: overlong at byte 0 (C0)\n" % (f.encode(), f.encode()))
        p = run(["check", "--json"], input=b"ok")
        self.assertEqual(p.stdout, b'{"path":"-","valid":true,"bytes":2,"errors":[]}\n')

    def test_stdin_from_file_and_dev_null(self):
        data = harness.planted(harness.CHUNK + 9000, shift=1)
        f = self.write("f", data)
        with open(f, "rb") as fh:
            p = run(["check", "--all"], stdin=fh)
        self.assertEqual(p.stdout, text_lines("-", expected_errors(data)))
        # A file as stdin, read from its middle: offsets and lines count from
        # there, also when the first error is chunks away.
        data = harness.hostile(random.Random(1), 3 * harness.CHUNK, 0.0) + data
        f = self.write("g", data)
        for skip in (0, 1000, harness.CHUNK // 2 + 1):
            with open(f, "rb") as fh:
                fh.seek(skip)
                p = run(["check", "--all"], stdin=fh)
            self.assertEqual(p.stdout, text_lines("-", expected_errors(data[skip:])))
        with open(os.devnull, "rb") as fh:
            p = run(["check", "--json"], stdin=fh)
        self.assertExit(p, 0)
        self.assertEqual(p.stdout, b'{"path":"-","valid":true,"bytes":0,"errors":[]}\n')


if __name__ == "__main__":
    harness.main()
