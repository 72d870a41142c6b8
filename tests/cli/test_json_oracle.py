#!/usr/bin/env python3
"""test_json_oracle.py - check --json-text (docs/design.md, the JSON form)
against Python's json module, an outside oracle that shares nothing with
utf8guard.

json.loads keeps a lone surrogate escape in the str it returns (as one
surrogate character) and pairs a high surrogate escape with the low one that
follows it, so for well-formed JSON text "decode it with json.loads, then look
for code points D800-DFFF and the ones the policy denies" lists exactly what
utf8guard must refuse, in order. Each finding the tool reports is checked the
same way from its side: the encoded bytes it points at, read by json.loads as
the body of a JSON string, are exactly the one character it names (a lone
surrogate, or the denied character with its category and code point).

Inputs: random strings through json.dumps(s, ensure_ascii=True) and
ensure_ascii=False, lone and swapped surrogates made by hand, the lines of
nginx/tests/multilingual.txt (one line of each lipsum text) through
json.dumps both ways, and the JSONTestSuite-style files of json_cases/
(y_string_*: valid JSON; i_string_*: JSON that parsers disagree on, lone
surrogates, noncharacters, raw ill-formed UTF-8; n_string_*: malformed
escapes and raw ill-formed UTF-8 after escapes, which Python refuses and
utf8guard refuses under bad_escape). sanitize --json-text is checked the
same way: json.loads of its output is the decoded text with each finding
replaced by U+FFFD."""

import json
import os
import random
import unittest

import harness
from harness import CliTest, run
from policy_oracle import CATEGORIES, category

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "json_cases")
MULTILINGUAL = os.path.join(HERE, "..", "..", "nginx", "tests", "multilingual.txt")

PROFILES = {
    "strict": set(),
    "json": {"noncharacter"},
    "field": {"nul", "control", "newline", "c1", "bidi", "bom", "noncharacter"},
    "all": set(CATEGORIES),
}

# Characters the random strings are drawn from: ASCII (quotes and backslashes
# included), Latin-1, the BMP, supplementary planes, and the characters at the
# edges of the categories.
EDGES = [0x0, 0x1, 0x8, 0x9, 0xA, 0xD, 0x1F, 0x20, 0x22, 0x2F, 0x5C, 0x7F, 0x80, 0x85, 0x9F,
         0xA0, 0x61C, 0x200E, 0x2028, 0x202E, 0x2066, 0xD7FF, 0xE000, 0xF8FF, 0xFDD0, 0xFDEF,
         0xFEFF, 0xFFFD, 0xFFFE, 0xFFFF, 0x10000, 0x1F600, 0x1FFFF, 0xF0000, 0x10FFFD, 0x10FFFF]


def random_char(rng, surrogates):
    pick = rng.randrange(10)
    if pick < 3:
        return chr(rng.randrange(0x20, 0x7F))
    if pick == 3:
        return chr(rng.randrange(0x80, 0x800))
    if pick == 4:
        return chr(rng.choice([rng.randrange(0x800, 0xD800), rng.randrange(0xE000, 0x10000)]))
    if pick == 5:
        return chr(rng.randrange(0x10000, 0x110000))
    if pick == 6 and surrogates:
        return chr(rng.randrange(0xD800, 0xE000))
    return chr(rng.choice(EDGES))


def strings_of(value):
    """The strings of a decoded JSON value, keys included, in document order."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from strings_of(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings_of(v)


def expected(data, deny):
    """What utf8guard must report in well-formed JSON text, in order:
    ("surrogate", cp) for each lone surrogate escape, ("disallowed", category,
    cp) for each denied character; None when Python refuses the text (raw
    bytes that are not UTF-8, a malformed escape)."""
    try:
        value = json.loads(data.decode("utf-8"), strict=False)
    except (UnicodeDecodeError, ValueError):
        return None
    out = []
    for s in strings_of(value):
        for ch in s:
            cp = ord(ch)
            if 0xD800 <= cp <= 0xDFFF:
                out.append(("surrogate", cp))
            elif category(cp, False) in deny:
                out.append(("disallowed", category(cp, False), cp))
    return out


def replaced(value, deny):
    """The decoded value with each lone surrogate and denied character U+FFFD."""
    if isinstance(value, str):
        return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF or category(ord(c), False) in deny
                       else c for c in value)
    if isinstance(value, list):
        return [replaced(v, deny) for v in value]
    if isinstance(value, dict):
        return {replaced(k, deny): replaced(v, deny) for k, v in value.items()}
    return value


def deny_args(deny):
    return ["--deny", ",".join(sorted(deny))] if deny else []


class JsonText(CliTest):
    def check_files(self, datas, deny):
        """Runs check --json-text --all --hints on the datas (one file each, one
        run), and checks each report against Python's json."""
        paths = [self.write("d%d.json" % k, d) for k, d in enumerate(datas)]
        p = run(["check", "--json-text", "--format", "json", "--all", "--hints"]
                + deny_args(deny) + paths)
        self.assertIn(p.returncode, (0, 1), p.stderr)
        reports = [json.loads(line) for line in p.stdout.decode().splitlines()]
        self.assertEqual(len(reports), len(datas))
        for data, report in zip(datas, reports):
            self.check_report(data, report, deny)

    def check_report(self, data, report, deny):
        want = expected(data, deny)
        got = []
        for e in report["errors"]:
            piece = data[e["offset"]:e["offset"] + e["length"]]
            if e["kind"] not in ("surrogate", "disallowed"):
                # A raw ill-formed subpart: Python refuses the bytes too.
                self.assertIsNone(want, (data, e))
                continue
            try:
                chars = json.loads(b'"' + piece + b'"', strict=False)
            except ValueError:
                chars = None
            if e["kind"] == "disallowed" and e["category"] == "bad_escape":
                self.assertEqual(piece, b"\\", (data, e))
                self.assertIsNone(want, (data, e))  # Python refuses it too
                continue
            if e["kind"] == "surrogate" and not piece.startswith(b"\\"):
                # A raw surrogate (ED A0..BF): Python's codec refuses it.
                self.assertIsNone(want, (data, e))
                continue
            self.assertIsNotNone(chars, (data, e))
            self.assertEqual(len(chars), 1, (data, e))
            if e["kind"] == "surrogate":
                self.assertEqual(e.get("hint_value"), "U+%04X" % ord(chars), (data, e))
                got.append(("surrogate", ord(chars)))
            else:
                self.assertEqual(e["code_point"], "U+%04X" % ord(chars), (data, e))
                got.append(("disallowed", e["category"], ord(chars)))
        if want is not None:
            self.assertEqual(got, want, data)
            self.assertEqual(report["valid"], not want, data)
        else:
            self.assertFalse(report["valid"] and "bad_escape" in deny, data)

    def check_sanitize(self, data, deny):
        value = json.loads(data.decode("utf-8"), strict=False)
        path = self.write("s.json", data)
        p = run(["sanitize", "--json-text"] + deny_args(deny) + [path])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(p.stdout.decode("utf-8"), strict=False),
                         replaced(value, deny), data)

    def test_random_strings_both_ways(self):
        rng = random.Random(0x15013)
        for deny in PROFILES.values():
            datas = []
            for _ in range(harness.rounds(150)):
                s = "".join(random_char(rng, True) for _ in range(rng.randrange(12)))
                datas.append(json.dumps([s, {"k": s[::-1]}], ensure_ascii=True).encode())
                # Raw text has no lone surrogates: UTF-8 cannot carry them.
                t = "".join(random_char(rng, False) for _ in range(rng.randrange(12)))
                datas.append(json.dumps([t], ensure_ascii=False).encode())
            self.check_files(datas, deny)

    def test_lone_and_swapped_surrogates(self):
        forms = [r"\ud800", r"\udbff", r"\udc00", r"\udfff", r"\uDC00\uD800",
                 r"\ud800\ud83d\ude00", r"\ud83d\ude00\ude00", r"\ud800\u0041", r"\ud800\\udc00",
                 r"\ud800\n", r"\ud83d\ude00", r"\uD83D\uDE00", r"\udbff\udfff", r"\ud83f\udffe"]
        datas = []
        for form in forms:
            for before, after in [("", ""), ("x", "y"), ("\u00e9", "\U0001F600"), (r"\n", r"\"")]:
                datas.append(('["%s%s%s"]' % (before, form, after)).encode())
                datas.append(('{"%s%s%s":0}' % (before, form, after)).encode())
        for deny in PROFILES.values():
            self.check_files(datas, deny)
        self.check_sanitize(datas[0], set())
        self.check_sanitize(b'["\\udc00\\ud800 \\ud83d\\ude00 \\uffff"]', {"noncharacter"})

    def test_multilingual_lines_pass(self):
        with open(MULTILINGUAL, encoding="utf-8") as f:
            lines = [line.rstrip("\n") for line in f if not line.startswith("#")]
        self.assertGreaterEqual(len(lines), 9)
        datas = [json.dumps(lines, ensure_ascii=a).encode() for a in (True, False)]
        datas += [json.dumps({"text": line}, ensure_ascii=True).encode() for line in lines]
        for deny in PROFILES.values():
            self.check_files(datas, deny)
        # The json profile (I-JSON) passes all of it, escaped or raw.
        p = run(["check", "--json-text", "--profile", "json", self.write("m.json", datas[0]),
                 self.write("r.json", datas[1])])
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)

    def test_json_test_suite_style_cases(self):
        names = sorted(os.listdir(CASES))
        self.assertTrue(any(n.startswith("y_string_") for n in names))
        datas = []
        for name in names:
            with open(os.path.join(CASES, name), "rb") as f:
                datas.append(f.read())
            data = datas[-1]
            if name.startswith("y_string_"):
                self.assertIsNotNone(expected(data, set()), name)
                self.assertEqual(expected(data, set()), [], name)
            elif name.startswith("n_string_"):
                self.assertIsNone(expected(data, set()), name)
            else:
                self.assertTrue(name.startswith("i_string_"), name)
        for deny in list(PROFILES.values()) + [{"bad_escape"}]:
            self.check_files(datas, deny)
        # Every n_string_ case is refused once malformed escapes are denied.
        n_cases = [os.path.join(CASES, n) for n in names if n.startswith("n_string_")]
        for path in n_cases:
            p = run(["check", "--json-text", "--quiet", "--deny", "bad_escape", path])
            self.assertEqual(p.returncode, 1, path)
        # And every y_string_ case passes the strict check.
        y_cases = [os.path.join(CASES, n) for n in names if n.startswith("y_string_")]
        p = run(["check", "--json-text"] + y_cases)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)

    def test_sanitize_against_json_loads(self):
        rng = random.Random(0x15014)
        for deny in PROFILES.values():
            for _ in range(harness.rounds(10)):
                s = "".join(random_char(rng, True) for _ in range(rng.randrange(20)))
                self.check_sanitize(json.dumps([s, {s: s}], ensure_ascii=True).encode(), deny)


if __name__ == "__main__":
    harness.main()
