#!/usr/bin/env python3
"""test_json_text.py - check --json-text and sanitize --json-text
(docs/design.md, "JSON text"): the four bodies a raw check passes, refused in
every output format; lines and columns in the text as written (a raw LF ends
a line, \\n does not); escapes cut by the tool's reads (files) and by writes
to a pipe; the usage errors; sanitize's JSON text out.

The expected reports are written by hand from the contract: each case is a
piece whose findings are known, placed after a run of plain ASCII so that
its offsets follow."""

import json
import os
import unittest

import harness
from harness import CliTest, run

# A piece of JSON text, the policy, and its findings: (offset in the piece,
# length, kind, category or None, code point or None, message after PATH:L:C:).
BODIES = [
    (b'{"a":"x\\ud800y"}', [], [(7, 6, "surrogate", None, None,
                                 b"surrogate \\ud800 U+D800 at byte %d (ED A0 80 79)")]),
    (b'{"a":"x\\u202ey"}', ["--profile", "field"],
     [(7, 6, "disallowed", "bidi", "U+202E",
       b"disallowed bidi \\u202e U+202E at byte %d (E2 80 AE 79)")]),
    (b'{"a":"x\\u0000y"}', ["--profile", "field"],
     [(7, 6, "disallowed", "nul", "U+0000",
       b"disallowed nul \\u0000 U+0000 at byte %d (00 79 22 7D)")]),
    (b'{"a":"x\\uffffy"}', ["--profile", "json"],
     [(7, 6, "disallowed", "noncharacter", "U+FFFF",
       b"disallowed noncharacter \\uffff U+FFFF at byte %d (EF BF BF 79)")]),
]


def line_of(path, data, offset, message):
    line = data.count(b"\n", 0, offset) + 1
    column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    return path.encode() + b":%d:%d: " % (line, column) + message % offset + b"\n"


class FourBodies(CliTest):
    def test_refused_in_text_and_passed_by_a_raw_check(self):
        for body, args, findings in BODIES:
            path = self.write("body.json", body)
            p = run(["check", "--json-text"] + args + [path])
            self.assertExit(p, 1)
            self.assertEqual(p.stdout, b"".join(line_of(path, body, f[0], f[5])
                                                for f in findings))
            # The raw bytes are plain ASCII: a raw check passes them.
            self.assertExit(run(["check"] + args + [path]), 0)
        # A valid escaped pair passes under every profile.
        path = self.write("pair.json", b'{"a":"\\ud83d\\ude00 \\u00e9\\t"}')
        for profile in ("strict", "source", "field", "json", "url"):
            self.assertExit(run(["check", "--json-text", "--profile", profile, path]), 0)

    def test_every_format(self):
        for body, args, findings in BODIES:
            path = self.write("body.json", body)
            offset, length, kind, category, code_point, message = findings[0]
            p = run(["check", "--json-text", "--format", "json"] + args + [path])
            self.assertExit(p, 1)
            error = json.loads(p.stdout)["errors"][0]
            want = {"offset": offset, "length": length, "kind": kind, "line": 1,
                    "column": offset + 1}
            if category:
                want.update(category=category, code_point=code_point)
            self.assertEqual(error, want)
            text = (message % offset).decode()
            p = run(["check", "--json-text", "--format", "sarif"] + args + [path])
            self.assertExit(p, 1)
            result = json.loads(p.stdout)["runs"][0]["results"][0]
            region = result["locations"][0]["physicalLocation"]["region"]
            self.assertEqual((region["byteOffset"], region["byteLength"]), (offset, length))
            self.assertEqual(result["message"]["text"], text)
            p = run(["check", "--json-text", "--format", "github"] + args + [path])
            self.assertExit(p, 1)
            self.assertIn(("line=1,col=%d," % (offset + 1)).encode(), p.stdout)
            self.assertTrue(p.stdout.rstrip(b"\n").endswith(text.encode()), p.stdout)
            p = run(["check", "--json-text", "--format", "gitlab"] + args + [path])
            self.assertExit(p, 1)
            self.assertEqual(json.loads(p.stdout)[0]["description"], text)


class Positions(CliTest):
    def test_raw_lf_ends_a_line_and_escaped_lf_does_not(self):
        data = b'{"a":"\\n\\u202e"}\n{"b":"x\\ud800"}\n'
        path = self.write("lines.json", data)
        p = run(["check", "--json-text", "--all", "--profile", "field", path])
        self.assertExit(p, 1)
        self.assertEqual(p.stdout, b"".join([
            line_of(path, data, 6, b"disallowed newline \\n U+000A at byte %d (0A E2 80 AE)"),
            line_of(path, data, 8, b"disallowed bidi \\u202e U+202E at byte %d (E2 80 AE 22)"),
            line_of(path, data, 16, b"disallowed newline U+000A at byte %d (0A 7B 22 62)"),
            line_of(path, data, 24, b"surrogate \\ud800 U+D800 at byte %d (ED A0 80 22)"),
            line_of(path, data, 32, b"disallowed newline U+000A at byte %d (0A)")]))
        # --lines exempts the raw LF, not the escaped one.
        p = run(["check", "--json-text", "--all", "--lines", "--profile", "field", path])
        self.assertEqual(p.stdout.count(b"disallowed newline"), 1)


def cut_cases(filler):
    """Each body's first finding placed so that the tool's reads cut it at
    every byte: (data, [(offset, message)])."""
    cases = []
    for body, args, findings in BODIES:
        offset, message = findings[0][0], findings[0][5]
        for shift in range(-12, 1, 2 if harness.REDUCED else 1):
            pad = filler + shift - offset
            cases.append((args, b"x" * pad + body, [(pad + offset, message)]))
    return cases


class Streams(CliTest):
    def test_across_read_chunks(self):
        for args, data, findings in cut_cases(harness.CHUNK):
            path = self.write("cut.json", data)
            p = run(["check", "--json-text", "--all"] + args + [path])
            self.assertEqual(p.stdout, b"".join(line_of(path, data, o, m) for o, m in findings))

    def test_pipe_in_small_pieces(self):
        # FIFOs written a few bytes at a time: reads end inside escapes.
        cases = cut_cases(40)[::4]
        for k, (args, data, findings) in enumerate(cases):
            path = self.path("fifo%d" % k)
            os.mkfifo(path)
            writer = harness.start_writer(path, data, 1 + k % 5, 0.0005)
            p = run(["check", "--json-text", "--all", "-j", "1"] + args + [path])
            writer.join()
            self.assertEqual(p.stdout, b"".join(line_of(path, data, o, m) for o, m in findings))


class Usage(CliTest):
    def test_one_form(self):
        why = b"--percent and --json-text exclude each other: an input has one form"
        self.assertUsageError(["check", "--percent", "--json-text", "-"], why)
        self.assertUsageError(["check", "--json-text", "--percent", "-"], why)
        self.assertUsageError(["sanitize", "--percent", "-"],
                              b"--percent is an option of check only: sanitize does not decode "
                              b"percent-encoding")


class Sanitize(CliTest):
    def test_json_text_out(self):
        data = (b'{"a":"x\\ud800y","b":"\\u202e\xc0\\n","c":"\\ud83d\\ude00\\q"}\n' * 3000)
        want = (b'{"a":"x\\ufffdy","b":"\\ufffd\xef\xbf\xbd\\ufffd","c":"\\ud83d\\ude00\\ufffdq"}'
                b"\xef\xbf\xbd") * 3000
        path = self.write("in.json", data)
        p = run(["sanitize", "--json-text", "--profile", "field", "--deny", "bad_escape", path])
        self.assertExit(p, 0)
        self.assertEqual(p.stdout, want)
        out = self.write("out.json", p.stdout)
        self.assertExit(run(["check", "--json-text", "--profile", "field", "--deny", "bad_escape",
                             out]), 0)
        # Through a pipe, and sanitizing valid text changes nothing.
        p = run(["sanitize", "--json-text"], input=data)
        self.assertEqual(p.stdout, data.replace(b"\\ud800", b"\\ufffd").replace(b"\xc0",
                                                                              b"\xef\xbf\xbd"))
        self.assertEqual(run(["sanitize", "--json-text", "--profile", "field", "--deny",
                              "bad_escape", out]).stdout, want)
        valid = b'{"a":"\\ud83d\\ude00 \\u00e9\\n"}\n'
        self.assertEqual(run(["sanitize", "--json-text"], input=valid).stdout, valid)


if __name__ == "__main__":
    harness.main()
