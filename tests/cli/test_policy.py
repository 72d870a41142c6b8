#!/usr/bin/env python3
"""test_policy.py - check and sanitize with --profile, --deny and --hints:
the exact lines and JSON of the contract's examples, usage errors, and random
inputs (also across the tool's read chunks) against Python: its decoder for
the subparts, unicodedata for the Cc and Co categories, and the hint rules
written here from their byte patterns."""

import json
import random
import unittest

import harness
from harness import CliTest, run

from policy_oracle import CATEGORIES, PROFILES, category  # noqa: E402  (tests/support)


def cont(b):
    return b is not None and 0x80 <= b <= 0xBF


def hint(data, i):
    """docs/design.md's hint table, rule by rule, as byte patterns."""
    b = lambda k: data[i + k] if 0 <= i + k < len(data) else None
    b0 = b(0)
    if i == 0 and data[:2] in (b"\xfe\xff", b"\xff\xfe"):
        return ("utf16_bom", None)
    if data[i:i + 2] == b"\xc0\x80":
        return ("modified_utf8_nul", 0)

    def value(n, lead_bits):
        v = b0 & ((1 << lead_bits) - 1)
        for k in range(1, n):
            v = (v << 6) | (b(k) & 0x3F)
        return v

    if b0 in (0xC0, 0xC1) and cont(b(1)):
        return ("overlong_form", value(2, 5))
    if b0 == 0xE0 and b(1) is not None and 0x80 <= b(1) <= 0x9F and cont(b(2)):
        return ("overlong_form", value(3, 4))
    if b0 == 0xF0 and b(1) is not None and 0x80 <= b(1) <= 0x8F and cont(b(2)) and cont(b(3)):
        return ("overlong_form", value(4, 3))

    def half(k, lo, hi):
        return b(k) == 0xED and b(k + 1) is not None and lo <= b(k + 1) <= hi and cont(b(k + 2))

    def sur(k):
        return 0xD000 | ((b(k + 1) & 0x3F) << 6) | (b(k + 2) & 0x3F)

    if half(0, 0xA0, 0xAF) and half(3, 0xB0, 0xBF):
        return ("cesu8_pair", 0x10000 + ((sur(0) - 0xD800) << 10) + sur(3) - 0xDC00)
    if i >= 3 and half(-3, 0xA0, 0xAF) and half(0, 0xB0, 0xBF):
        return ("cesu8_pair", 0x10000 + ((sur(-3) - 0xD800) << 10) + sur(0) - 0xDC00)
    if half(0, 0xA0, 0xBF):
        return ("surrogate_code_point", sur(0))
    if b0 == 0xF4 and b(1) is not None and 0x90 <= b(1) <= 0xBF and cont(b(2)) and cont(b(3)):
        return ("beyond_unicode", value(4, 3))
    for lo, hi, n, bits in ((0xF5, 0xF7, 4, 3), (0xF8, 0xFB, 5, 2), (0xFC, 0xFD, 6, 1)):
        if lo <= b0 <= hi and all(cont(b(k)) for k in range(1, n)):
            return ("beyond_unicode", value(n, bits))
    if b0 >= 0x80 and (b(-1) is None or b(-1) < 0x80) and (b(1) is None or b(1) < 0x80):
        return ("windows1252", ord(bytes([b0]).decode("cp1252")) if b0 not in
                (0x81, 0x8D, 0x8F, 0x90, 0x9D) else b0)
    return None


def u(cp):
    return "U+%04X" % cp


def expected(data, deny, hints=False):
    """Every error and violation of data, in order, as dicts."""
    subparts = harness.expected_errors(data)
    by_start = {e["offset"]: e for e in subparts}
    out = []
    i = 0
    line, col = 1, 1
    while i < len(data):
        if i in by_start:
            e = dict(by_start[i])
            if hints:
                e["hint"] = hint(data, i)
            out.append(e)
            i += e["length"]
            continue
        n = 1 if data[i] < 0x80 else 2 if data[i] < 0xE0 else 3 if data[i] < 0xF0 else 4
        cp = ord(data[i:i + n].decode("utf-8"))
        cat = category(cp, i == 0)
        if cat in deny:
            line = data.count(b"\n", 0, i) + 1
            start = data.rfind(b"\n", 0, i) + 1
            col = len(data[start:i].decode("utf-8", "replace")) + 1
            out.append({"offset": i, "length": n, "kind": "disallowed", "category": cat,
                        "code_point": u(cp), "line": line, "column": col,
                        "hex": " ".join("%02X" % b for b in data[i:i + 4])})
        i += n
    return out


def text(path, errors):
    lines = []
    for e in errors:
        kind = e["kind"]
        if kind == "disallowed":
            kind += " %s %s" % (e["category"], e["code_point"])
        line = "%s:%d:%d: %s at byte %d (%s)" % (path, e["line"], e["column"], kind, e["offset"],
                                                  e["hex"])
        h = e.get("hint")
        if h:
            line += " [%s]" % h[0] if h[1] is None else " [%s %s]" % (h[0], u(h[1]))
        lines.append(line + "\n")
    return "".join(lines).encode()


def json_entry(e):
    out = {k: e[k] for k in ("offset", "length", "kind")}
    if e["kind"] == "disallowed":
        out["category"] = e["category"]
        out["code_point"] = e["code_point"]
    out["line"] = e["line"]
    out["column"] = e["column"]
    h = e.get("hint")
    if h:
        out["hint"] = h[0]
        if h[1] is not None:
            out["hint_value"] = u(h[1])
    return out


def sanitized(data, deny):
    out = bytearray()
    i = 0
    for e in expected(data, deny):
        out += data[i:e["offset"]].decode("utf-8", "replace").encode() + "\ufffd".encode()
        i = e["offset"] + e["length"]
    return bytes(out + data[i:].decode("utf-8", "replace").encode())


PIECES = [b"a", b"text ", b"\n", b"\t", b"\r\n", b"\x00", b"\x1b[2J", b"\x7f", b"\xc2\x85",
          b"\xc2\x9b", b"\xc2\xa0", b"\xd8\x9c", b"\xe2\x80\x8e", b"\xe2\x80\xa8", b"\xe2\x80\xae",
          b"\xe2\x81\xa6", b"\xe2\x80\x9c", b"\xee\x80\x80", b"\xef\xa3\xbf", b"\xef\xb7\x90",
          b"\xef\xbb\xbf", b"\xef\xbf\xbd", b"\xef\xbf\xbe", b"\xf0\x9f\x98\x80",
          b"\xf3\xb0\x80\x80", b"\xf4\x8f\xbf\xbf", b"\xc0\xaf", b"\xc0\x80", b"\xed\xa0\xbd",
          b"\xed\xb8\x80", b"\xf4\x90\x80\x80", b"\xf8\x88\x80\x80\x80", b"\xe9", b"\x80",
          b"\xfe\xff", b"\xe2\x80"]


def random_input(rng, pieces):
    return b"".join(rng.choice(PIECES) for _ in range(pieces))


class Examples(CliTest):
    """The contract's examples, byte for byte."""

    def test_cesu8_pair_with_hints(self):
        p = run(["check", "--hints"], input=b"a\xed\xa0\xbd\xed\xb8\x80b")
        self.assertExit(p, 1)
        self.assertEqual(p.stdout, b"-:1:2: surrogate at byte 1 (ED A0 BD ED) [cesu8_pair U+1F600]\n")
        p = run(["check", "--hints", "--json"], input=b"a\xed\xa0\xbd\xed\xb8\x80b")
        self.assertEqual(p.stdout, b'{"path":"-","valid":false,"bytes":8,"errors":[{"offset":1,'
                         b'"length":1,"kind":"surrogate","line":1,"column":2,"hint":"cesu8_pair",'
                         b'"hint_value":"U+1F600"}]}\n')

    def test_overlong_slash_with_hints(self):
        p = run(["check", "--hints"], input=b"..\xc0\xaf..")
        self.assertEqual(p.stdout, b"-:1:3: overlong at byte 2 (C0 AF 2E 2E) [overlong_form U+002F]\n")
        p = run(["check", "--hints", "--json"], input=b"..\xc0\xaf..")
        self.assertEqual(p.stdout, b'{"path":"-","valid":false,"bytes":6,"errors":[{"offset":2,'
                         b'"length":1,"kind":"overlong","line":1,"column":3,"hint":"overlong_form",'
                         b'"hint_value":"U+002F"}]}\n')

    def test_hint_without_value_and_without_hints(self):
        p = run(["check", "--hints"], input=b"\xff\xfeh\x00")
        self.assertEqual(p.stdout, b"-:1:1: invalid_byte at byte 0 (FF FE 68 00) [utf16_bom]\n")
        p = run(["check", "--hints", "--json"], input=b"\xff\xfeh\x00")
        self.assertIn(b'"column":1,"hint":"utf16_bom"}', p.stdout)
        p = run(["check"], input=b"..\xc0\xaf..")
        self.assertEqual(p.stdout, b"-:1:3: overlong at byte 2 (C0 AF 2E 2E)\n")

    def test_bidi_override_with_profile_source(self):
        f = self.write("t.c", b"int x;\nif (a)\xe2\x80\xae { }\n")
        p = run(["check", "--profile", "source", f])
        self.assertExit(p, 1)
        self.assertEqual(p.stdout, f.encode() + b":2:7: disallowed bidi U+202E at byte 13 (E2 80 AE 20)\n")
        p = run(["check", "--profile", "source", "--json", "--hints", f])
        self.assertEqual(p.stdout, b'{"path":"' + f.encode() + b'","valid":false,"bytes":21,'
                         b'"errors":[{"offset":13,"length":3,"kind":"disallowed","category":"bidi",'
                         b'"code_point":"U+202E","line":2,"column":7}]}\n')
        self.assertExit(run(["check", f]), 0)
        self.assertExit(run(["check", "--profile", "json", f]), 0)

    def test_summary_counts_disallowed(self):
        p = run(["check", "--all", "--deny", "control,newline"], input=b"a\x1b\r\n\xc0")
        self.assertExit(p, 1)
        self.assertEqual(p.stderr,
                         b"utf8guard: 1 file, 5 bytes, 4 errors (overlong 1, disallowed 3)\n")

    def test_sanitize_with_a_policy(self):
        p = run(["sanitize", "--profile", "field"], input=b"user\r\nX-Admin: 1\x1b\xc0")
        self.assertExit(p, 0)
        self.assertEqual(p.stdout, "user\ufffd\ufffdX-Admin: 1\ufffd\ufffd".encode())
        p = run(["sanitize", "--deny=bom"], input=b"\xef\xbb\xbfa\xef\xbb\xbf")
        self.assertEqual(p.stdout, "\ufeffa\ufffd".encode())


class Usage(CliTest):
    def test_bad_names_list_the_valid_ones(self):
        cats = b"(valid: " + ", ".join(CATEGORIES).encode() + b")"
        profs = b"(valid: strict, source, field, json, url)"
        self.assertUsageError(["check", "--deny", "bidi,foo", "x"], b"unknown category 'foo' " + cats)
        self.assertUsageError(["check", "--deny", ""], b"--deny needs a comma-separated list of "
                              b"categories " + cats)
        self.assertUsageError(["check", "--deny"], b"--deny needs a comma-separated list of "
                              b"categories " + cats)
        self.assertUsageError(["sanitize", "--deny=bidi,"], b"empty category name in --deny " + cats)
        self.assertUsageError(["check", "--profile", "Source"], b"unknown profile 'Source' " + profs)
        self.assertUsageError(["sanitize", "--profile"], b"--profile needs a profile name " + profs)
        self.assertUsageError(["sanitize", "--hints"], b"unknown option '--hints'")

    def test_every_name_is_accepted(self):
        for name in CATEGORIES:
            self.assertExit(run(["check", "--deny", name, "/dev/null"]), 0)
        for name in PROFILES:
            self.assertExit(run(["check", "--profile=" + name, "/dev/null"]), 0)
            self.assertExit(run(["sanitize", "--profile", name, "/dev/null"]), 0)


class Random(CliTest):
    def check_one(self, data, deny, args, hints):
        f = self.write("in", data)
        want = expected(data, deny, hints)
        extra = ["--hints"] if hints else []
        p = run(["check", "--all"] + args + extra + [f])
        self.assertExit(p, 1 if want else 0)
        self.assertEqual(p.stdout, text(f, want), data)
        p = run(["check", "--all", "--json"] + args + extra + [f])
        got = json.loads(p.stdout)
        self.assertEqual(got["errors"], [json_entry(e) for e in want], data)
        p = run(["check"] + args + extra + [f])
        self.assertEqual(p.stdout, text(f, want[:1]), data)
        p = run(["sanitize"] + args + [f])
        self.assertEqual(p.stdout, sanitized(data, deny), data)

    def test_random_inputs(self):
        rng = random.Random(36)
        # Reduced (sanitizers): a tenth of the rounds; under valgrind, a twentieth.
        for round in range(6 if harness.WRAPPER else 12 if harness.REDUCED else 120):
            data = random_input(rng, rng.randrange(1, 20))
            profile = rng.choice(list(PROFILES))
            extra = set(rng.sample(CATEGORIES, rng.randrange(0, 3)))
            args = ["--profile", profile]
            if extra:
                args += ["--deny", ",".join(sorted(extra))]
            self.check_one(data, PROFILES[profile] | extra, args, rng.random() < 0.5)

    def test_across_read_chunks(self):
        # Characters and subparts cut by the tool's 256 KiB reads, and hints
        # whose bytes lie on both sides of a cut.
        rng = random.Random(3636)
        for piece, cut_piece in enumerate([b"\xe2\x80\xae", b"\xf4\x8f\xbf\xbf",
                                           b"\xed\xa0\xbd\xed\xb8\x80", b"\xc0\xaf", b"a\xe9a",
                                           b"\xf8\x88\x80\x80\x80"]):
            # Reduced (sanitizers): every third shift; under valgrind, the
            # pieces share the shifts out.
            shifts = range(-6, 3, 3 if harness.REDUCED and not harness.WRAPPER else 1)
            for shift in harness.spread(shifts, 2, piece):
                head = b"x" * (harness.CHUNK + shift)
                data = head + cut_piece + random_input(rng, 3)
                self.check_one(data, PROFILES["field"] | {"private_use"},
                               ["--profile", "field", "--deny", "private_use"], True)

    def test_parallel_jobs_give_the_same_output(self):
        rng = random.Random(7)
        files = [self.write("f%d" % k, random_input(rng, 30) + b"x" * (4 << 20) * (k == 0))
                 for k in range(4)]
        one = run(["check", "--all", "--profile", "field", "--hints", "-j", "1"] + files)
        many = run(["check", "--all", "--profile", "field", "--hints", "-j", "4"] + files)
        self.assertEqual(one.stdout, many.stdout)
        self.assertEqual(one.returncode, many.returncode)


if __name__ == "__main__":
    harness.main()
