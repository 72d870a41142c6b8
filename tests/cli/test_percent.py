#!/usr/bin/env python3
"""test_percent.py - check --percent (docs/design.md 2.3 and 2.4): the URL
attacks, bad escapes and double encoding as exact text and JSON lines,
escapes cut by the tool's reads (files and pipes), lines and columns in
encoded bytes (a raw LF ends a line, %0A does not), hints over the decoded
bytes, the --all summary, exit statuses, -j and --files0-from, and the
access-log example (examples/scan_access_log.sh on samples/access.log, as
samples/README.md shows it).

Expected reports come from the decoding written here (cross-checked with
Python's urllib.parse.unquote_to_bytes) and test_policy.py's oracle, which
finds the subparts, violations and hints of the decoded bytes with Python's
own decoder; the offsets are then mapped back to the encoded bytes."""

import json
import os
import random
import shutil
import subprocess
import unittest
import urllib.parse

import harness
from harness import CliTest, run
import test_policy
from test_policy import PROFILES

HEX = b"0123456789abcdefABCDEF"
HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(HERE, "..", "..", "examples", "scan_access_log.sh")
SAMPLE = os.path.join(HERE, "..", "..", "samples", "access.log")


def units(data):
    """The units of encoded data as (offset, width, decoded byte, kind),
    kind "escape", "bad" (a '%' without two hex digits) or "raw"."""
    out = []
    i = 0
    while i < len(data):
        if data[i:i + 1] == b"%":
            if len(data) >= i + 3 and data[i + 1] in HEX and data[i + 2] in HEX:
                out.append((i, 3, int(data[i + 1:i + 3], 16), "escape"))
                i += 3
            else:
                out.append((i, 1, 0x25, "bad"))
                i += 1
        else:
            out.append((i, 1, data[i], "raw"))
            i += 1
    return out


def position(data, offset):
    """LINE and COLUMN of an encoded offset: raw LFs, and bytes since the last."""
    return data.count(b"\n", 0, offset) + 1, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


def expected(data, deny, hints=False):
    """Every error of percent-encoded data under the denied categories, in
    input order, as test_policy.expected's dicts with encoded offsets."""
    us = units(data)
    decoded = bytes(u[2] for u in us)
    assert decoded == urllib.parse.unquote_to_bytes(data), data
    out = []
    for e in test_policy.expected(decoded, deny, hints):
        d = e["offset"]
        e = dict(e, offset=us[d][0], length=sum(u[1] for u in us[d:d + e["length"]]))
        out.append(e)
    for d, (offset, width, byte, kind) in enumerate(us):
        cat = None
        if kind == "bad" and "bad_escape" in deny:
            cat = "bad_escape"
        elif (kind == "escape" and byte == 0x25 and "double_encoding" in deny and
              decoded[d + 1:d + 2] and decoded[d + 1] in HEX and
              decoded[d + 2:d + 3] and decoded[d + 2] in HEX):
            cat = "double_encoding"
        if cat:
            out.append({"offset": offset, "length": width, "kind": "disallowed",
                        "category": cat, "code_point": "U+0025",
                        "hex": " ".join("%02X" % b for b in decoded[d:d + 4])})
    out.sort(key=lambda e: e["offset"])
    for e in out:
        e["line"], e["column"] = position(data, e["offset"])
    return out


def after_x(n, tail, deny, hints=False):
    """expected(b"x" * n + tail, ...), worked out on a short input: n >= 9 x
    bytes have no error, and a hint reads at most 3 decoded bytes back."""
    errors = expected(b"x" * 9 + tail, deny, hints)
    for e in errors:
        if e["line"] == 1:
            e["column"] += n - 9
        e["offset"] += n - 9
    return errors


def text(path, errors):
    return test_policy.text(path, errors)


def json_line(path, data, errors):
    return json.dumps({"path": path, "valid": not errors, "bytes": len(data),
                       "errors": [test_policy.json_entry(e) for e in errors]},
                      separators=(",", ":")).encode() + b"\n"


def encode_all(raw):
    return "".join("%%%02X" % b for b in raw).encode()


def encode_lower(raw):
    return "".join("%%%02x" % b for b in raw).encode()


# Encoded pieces: every piece of test_policy.PIECES raw, escaped in upper and
# lower case, and half escaped; bad escapes; double encodings and near misses.
PIECES = ([p for raw in test_policy.PIECES for p in (raw, encode_all(raw), encode_lower(raw),
                                                      encode_all(raw[:1]) + raw[1:])] +
          [b"%", b"%4", b"%4G", b"%G4", b"%%41", b"%25", b"%2541", b"%25%34%31", b"%25%34",
           b"%25zz", b"%25%25", b"%0A", b"%0a", b"\n", b"%20", b"+", b"/", b"%2F", b"%C3%A9"])


# Errors decided up to 11 encoded bytes after they start (a 4-byte character,
# a 3-byte prefix cut by an escape), hints reading 9 encoded bytes back, and
# escapes of every kind, to be cut by reads anywhere.
CUT_PIECES = [b"%E2%80%AE", b"%F3%B0%80%80", b"%F0%9F%98%41", b"%ED%A0%BD%ED%B8%80", b"%C0%AF",
              b"%2541", b"%25%34%31", b"%4G", b"%", b"\xe2%80\xae", b"%f4%90%80%80", b"a%e9a"]


def random_input(rng, pieces):
    return b"".join(rng.choice(PIECES) for _ in range(pieces))


def lines_of(path, lines):
    """The text report's lines for path, each written as ":LINE:COL: ..." after it."""
    return b"".join(path.encode() + line + b"\n" for line in lines)


class Batch(CliTest):
    """Cases checked in one run of the tool, each input a file (a run costs
    more than an input, under valgrind above all)."""

    def files(self, cases):
        return [self.write("case%d" % k, data) for k, (data, _) in enumerate(cases)]

    def assertReports(self, args, cases, status):
        """Runs check --percent ARGS on the cases' inputs; each case is
        (input, [report line without its path]); the text and exit status
        must be exactly these."""
        files = self.files(cases)
        p = run(["check", "--percent"] + args + files)
        self.assertExit(p, status)
        self.assertEqual(p.stdout, b"".join(lines_of(f, want) for f, (_, want) in
                                            zip(files, cases)))
        return files


class Attacks(Batch):
    """The required URL attacks (security/vectors/README.md) and the hints over
    decoded bytes, exactly."""

    CASES = [
        # IIS, CVE-2000-0884: an overlong '/'.
        (b"/scripts/..%c0%af../winnt/system32/cmd.exe",
         [b":1:12: overlong at byte 11 (C0 AF 2E 2E) [overlong_form U+002F]",
          b":1:15: unexpected_continuation at byte 14 (AF 2E 2E 2F)"]),
        # Tomcat, CVE-2008-2938: an overlong '.'.
        (b"/%c0%ae%c0%ae/etc/passwd",
         [b":1:2: overlong at byte 1 (C0 AE C0 AE) [overlong_form U+002E]",
          b":1:5: unexpected_continuation at byte 4 (AE C0 AE 2F)",
          b":1:8: overlong at byte 7 (C0 AE 2F 65) [overlong_form U+002E]",
          b":1:11: unexpected_continuation at byte 10 (AE 2F 65 74)"]),
        # IIS double decode, CVE-2001-0333.
        (b"/scripts/..%255c../winnt",
         [b":1:12: disallowed double_encoding U+0025 at byte 11 (25 35 63 2E)"]),
        # NUL path truncation.
        (b"/download.php?file=report.pdf%00.jpg",
         [b":1:30: disallowed nul U+0000 at byte 29 (00 2E 6A 70)"]),
        # An encoded bidi override: 9 encoded bytes.
        (b"/files/invoice%e2%80%aefdp.exe",
         [b":1:15: disallowed bidi U+202E at byte 14 (E2 80 AE 66)"]),
        # A CESU-8 pair: the low half's hint reads 3 decoded bytes back (9 encoded).
        (b"a%ED%A0%BD%ED%B8%80b",
         [b":1:2: surrogate at byte 1 (ED A0 BD ED) [cesu8_pair U+1F600]",
          b":1:5: unexpected_continuation at byte 4 (A0 BD ED B8)",
          b":1:8: unexpected_continuation at byte 7 (BD ED B8 80)",
          b":1:11: surrogate at byte 10 (ED B8 80 62) [cesu8_pair U+1F600]",
          b":1:14: unexpected_continuation at byte 13 (B8 80 62)",
          b":1:17: unexpected_continuation at byte 16 (80 62)"]),
        # The same decoded bytes, raw and escaped mixed: other offsets.
        (b"a\xed%A0\xbd%ED\xb8%80b",
         [b":1:2: surrogate at byte 1 (ED A0 BD ED) [cesu8_pair U+1F600]",
          b":1:3: unexpected_continuation at byte 2 (A0 BD ED B8)",
          b":1:6: unexpected_continuation at byte 5 (BD ED B8 80)",
          b":1:7: surrogate at byte 6 (ED B8 80 62) [cesu8_pair U+1F600]",
          b":1:10: unexpected_continuation at byte 9 (B8 80 62)",
          b":1:11: unexpected_continuation at byte 10 (80 62)"]),
        # A hint without a value, for decoded byte 0 only.
        (b"%FF%FEh", [b":1:1: invalid_byte at byte 0 (FF FE 68) [utf16_bom]",
                      b":1:4: invalid_byte at byte 3 (FE 68)"]),
        (b"x%FF%FE", [b":1:2: invalid_byte at byte 1 (FF FE)",
                      b":1:5: invalid_byte at byte 4 (FE)"]),
        # A bad escape and a double encoding, each where it starts.
        (b"%%2541", [b":1:1: disallowed bad_escape U+0025 at byte 0 (25 25 34 31)",
                     b":1:2: disallowed double_encoding U+0025 at byte 1 (25 34 31)"]),
        (b"/ok%20%C3%A9?q=%E6%9D%B1%E4%BA%AC+x", []),
    ]

    def test_attacks_text_and_json(self):
        args = ["--all", "--hints", "--profile", "url"]
        files = self.assertReports(args, self.CASES, 1)
        p = run(["check", "--percent", "--json"] + args + files[:3])
        self.assertEqual(p.stdout, (
            b'{"path":"%s","valid":false,"bytes":42,"errors":[{"offset":11,"length":3,'
            b'"kind":"overlong","line":1,"column":12,"hint":"overlong_form",'
            b'"hint_value":"U+002F"},{"offset":14,"length":3,'
            b'"kind":"unexpected_continuation","line":1,"column":15}]}\n'
            b'{"path":"%s","valid":false,"bytes":24,"errors":[{"offset":1,"length":3,'
            b'"kind":"overlong","line":1,"column":2,"hint":"overlong_form",'
            b'"hint_value":"U+002E"},{"offset":4,"length":3,"kind":"unexpected_continuation",'
            b'"line":1,"column":5},{"offset":7,"length":3,"kind":"overlong","line":1,'
            b'"column":8,"hint":"overlong_form","hint_value":"U+002E"},{"offset":10,'
            b'"length":3,"kind":"unexpected_continuation","line":1,"column":11}]}\n'
            b'{"path":"%s","valid":false,"bytes":24,"errors":[{"offset":11,"length":3,'
            b'"kind":"disallowed","category":"double_encoding","code_point":"U+0025",'
            b'"line":1,"column":12}]}\n') % tuple(f.encode() for f in files[:3]))
        p = run(["check", "--percent", "--json"] + args + files[3:])
        self.assertEqual(p.stdout, b"".join(
            json_line(f, d, expected(d, PROFILES["url"], True))
            for f, (d, _) in zip(files[3:], self.CASES[3:])))
        self.assertIn(b'"offset":14,"length":9,"kind":"disallowed","category":"bidi"', p.stdout)

    def test_without_percent_or_the_category(self):
        # Without --percent the tool sees only ASCII (the issue's first
        # report), and the percent categories match nothing; allowed, %25 is
        # a '%' like any other.
        self.assertReports(["--profile", "source"], [(self.CASES[2][0], [])], 0)
        files = self.files(self.CASES[:5])
        self.assertEqual(run(["check", "--profile", "url"] + files[:3]).returncode, 0)


class Escapes(Batch):
    def test_bad_escapes(self):
        cases = [(b"%", [(0, "25")]), (b"ab%", [(2, "25")]), (b"%4", [(0, "25 34")]),
                 (b"%4G", [(0, "25 34 47")]), (b"%G4x", [(0, "25 47 34 78")]),
                 (b"%%41", [(0, "25 41")]), (b"%zz%", [(0, "25 7A 7A 25"), (3, "25")]),
                 (b"100%", [(3, "25")]), (b"%41%7e%7E", [])]
        cases = [(data, [b":1:%d: disallowed bad_escape U+0025 at byte %d (%s)"
                         % (o + 1, o, h.encode()) for o, h in errors]) for data, errors in cases]
        self.assertReports(["--all", "--deny", "bad_escape"], cases, 1)
        # When allowed, a bad escape's '%' is a literal byte.
        self.assertReports(["--all"], [(data, []) for data, _ in cases], 0)

    def test_double_encoding(self):
        cases = [(data, [b":1:1: disallowed double_encoding U+0025 at byte 0 (%s)" % hex_])
                 for data, hex_ in ((b"%2541", b"25 34 31"), (b"%25%34%31", b"25 34 31"),
                                    (b"%25%34f", b"25 34 66"), (b"%2541x", b"25 34 31 78"))]
        cases += [(data, []) for data in (b"%25", b"%254", b"%25zz", b"%25%25", b"%2%41",
                                          b"%25%4G", b"2541")]
        self.assertReports(["--all", "--deny", "double_encoding"], cases, 1)


class Positions(Batch):
    def test_raw_lf_ends_a_line_and_escaped_lf_does_not(self):
        data = b"GET /a\nGET /b%0Ac%c0\nGET /%0a%E2%80%AE\n"
        # A raw 2-byte character counts 2 columns, an escape 3.
        columns = "é%C3%A9%C0".encode()
        self.assertReports(["--all"], [(data, [b":2:11: overlong at byte 17 (C0 0A 47 45)"]),
                                       (columns, [b":1:9: overlong at byte 8 (C0)"])], 1)
        want = [b":1:7: disallowed newline U+000A at byte 6 (0A 47 45 54)",
                b":2:7: disallowed newline U+000A at byte 13 (0A 63 C0 0A)",
                b":2:11: overlong at byte 17 (C0 0A 47 45)",
                b":2:14: disallowed newline U+000A at byte 20 (0A 47 45 54)",
                b":3:6: disallowed newline U+000A at byte 26 (0A E2 80 AE)",
                b":3:9: disallowed bidi U+202E at byte 29 (E2 80 AE 0A)",
                b":3:18: disallowed newline U+000A at byte 38 (0A)"]
        files = self.assertReports(["--all", "--deny", "newline,bidi"], [(data, want)], 1)
        self.assertEqual(lines_of(files[0], want),
                         text(files[0], expected(data, {"newline", "bidi"})))


class Summary(CliTest):
    def test_all_counts_and_exit_statuses(self):
        data = b"/a%c0%af%00%zz%2541%e2%80%ae\n/ok%20%C3%A9\n"
        f = self.write("log", data)
        # The url profile refuses a raw LF as a line break in a URL component.
        clean = self.write("clean", b"/ok%20%C3%A9?q=%E6%9D%B1%E4%BA%AC+x")
        p = run(["check", "--percent", "--all", "--profile", "url", clean, f])
        self.assertExit(p, 1)
        self.assertEqual(p.stdout, text(f, expected(data, PROFILES["url"])))
        self.assertEqual(p.stderr, b"utf8guard: 2 files, %d bytes, 8 errors "
                         b"(unexpected_continuation 1, overlong 1, disallowed 6)\n"
                         % (len(data) + 35))
        p = run(["check", "--percent", "--quiet", clean, f])
        self.assertEqual((p.returncode, p.stdout, p.stderr), (1, b"", b""))
        p = run(["check", "--percent", clean, self.path("nope"), f])
        self.assertExit(p, 2)
        self.assertEqual(p.stdout, b"%s:1:3: overlong at byte 2 (C0 AF 00 25)\n" % f.encode())
        self.assertEqual(p.stderr, b"utf8guard: %s: No such file or directory\n"
                         % self.path("nope").encode())

    def test_sanitize_refuses_percent(self):
        self.assertUsageError(["sanitize", "--percent"], b"--percent is an option of check only: "
                              b"sanitize does not decode percent-encoding")


class Streams(CliTest):
    """Escapes, characters and hints cut by the tool's reads. Each test checks
    its inputs in one run of the tool (a run costs more than an input)."""

    ARGS = ["check", "--percent", "--profile", "url", "--deny", "private_use"]
    DENY = PROFILES["url"] | {"private_use"}

    def test_across_read_chunks(self):
        rng = random.Random(3737)
        files, datas, every, first = [], [], [], []
        for n, cut_piece in enumerate(CUT_PIECES):
            # Every cut inside the piece, and right before and after it.
            for shift in range(-len(cut_piece), 2, 3 if harness.REDUCED else 1):
                tail = cut_piece + random_input(rng, 3)
                data = b"x" * (harness.CHUNK + shift) + tail
                files.append(self.write("cut%d_%d" % (n, shift), data))
                datas.append(data)
                every.append(after_x(harness.CHUNK + shift, tail, self.DENY, True))
                first.append(after_x(harness.CHUNK + shift, tail, self.DENY)[:1])
        p = run(self.ARGS + ["--all", "--hints"] + files)
        self.assertEqual(p.stdout, b"".join(text(f, w) for f, w in zip(files, every)))
        p = run(self.ARGS + ["--all", "--hints", "--json"] + files)
        self.assertEqual(p.stdout, b"".join(json_line(f, d, w)
                                            for f, d, w in zip(files, datas, every)))
        # The first error alone: percent_validator.
        p = run(self.ARGS + files)
        self.assertEqual(p.stdout, b"".join(text(f, w) for f, w in zip(files, first)))

    def fifos(self, datas, pieces, pause):
        """FIFOs that threads write datas to, in pieces (sizes) with a pause
        between them; returns their paths and the threads."""
        paths, writers = [], []
        for k, (data, piece) in enumerate(zip(datas, pieces)):
            paths.append(self.path("fifo%d" % k))
            os.mkfifo(paths[-1])
            writers.append(harness.start_writer(paths[-1], data, piece=piece, pause=pause))
        return paths, writers

    def test_cut_between_two_writes_to_a_pipe(self):
        # A pipe is counted as it streams by: here the lines and columns are
        # found inline, with an error reported up to 11 bytes into the next read.
        rng = random.Random(373)
        datas, heads = [], []
        for cut_piece in CUT_PIECES:
            for cut in range(0, len(cut_piece) + 1, 3 if harness.REDUCED else 1):
                heads.append(b"x\n%41" * 5 + cut_piece[:cut])
                datas.append(heads[-1] + cut_piece[cut:] + random_input(rng, 2))
        paths, writers = self.fifos(datas, [len(h) for h in heads], 0.005)
        p = run(self.ARGS + ["--all", "--hints", "-j", "1"] + paths)
        for w in writers:
            w.join()
        self.assertEqual(p.stdout, b"".join(text(f, expected(d, self.DENY, True))
                                            for f, d in zip(paths, datas)))

    def test_pipe_in_small_pieces(self):
        # FIFOs written a few bytes at a time: reads end inside escapes.
        rng = random.Random(37)
        datas = [random_input(rng, 40) for _ in range(harness.rounds(5))]
        paths, writers = self.fifos(datas, [rng.choice([1, 2, 4, 5]) for _ in datas], 0.0005)
        p = run(self.ARGS + ["--all", "--hints", "-j", "1"] + paths)
        for w in writers:
            w.join()
        self.assertEqual(p.stdout, b"".join(text(f, expected(d, self.DENY, True))
                                            for f, d in zip(paths, datas)))

    def test_large_input_through_a_pipe(self):
        data = b"".join(b"%c3%a9" * 250 + b"\n" + piece for piece in
                        (b"%C0%AF", b"%2541", b"%ED%A0%BD%ED%B8%80", b"%00", b"%E2%80%AE",
                         b"%", b"%4")) * 40
        want = expected(data, PROFILES["url"], True)
        p = run(["check", "--percent", "--all", "--hints", "--profile", "url"], input=data)
        self.assertEqual(p.stdout, text("-", want))
        # Per round: 7 raw LFs (newline) and 13 errors in the 7 pieces.
        self.assertEqual(len(want), 40 * 20)


class Faults(CliTest):
    """Reads cut short or failing (tests/cli/eintr_shim.c)."""

    def test_tiny_interrupted_reads(self):
        # Standard input read 1 to 5 bytes at a time, EINTR between, and its
        # prefix re-read the same way for the first error's line.
        rng = random.Random(3)
        data = b"".join(random_input(rng, 30) + b"\n" for _ in range(20))
        f = self.write("in", data)
        report = self.path("shim.txt")
        with open(f, "rb") as stdin:
            p = run(["check", "--percent", "--all", "--hints", "--profile", "url"], stdin=stdin,
                    env=harness.shim_env("faults", report))
        self.assertGreater(harness.read_report(report)["faults"], 0, "the shim was not active")
        self.assertEqual(p.stdout, text("-", expected(data, PROFILES["url"], True)))

    def test_read_error_inside_an_escape(self):
        # The read that would finish %A? fails: the error shows the bytes
        # known, not a '%' the rest of the escape would have decoded away.
        data = b"x" * (harness.CHUNK - 5) + b"%C0%AF" + b"y" * 100
        f = self.write("in", data)
        report = self.path("shim.txt")
        with open(f, "rb") as stdin:
            p = run(["check", "--percent"], stdin=stdin, env=harness.shim_env("read-fails", report))
        self.assertGreater(harness.read_report(report)["faults"], 0, "the shim was not active")
        self.assertExit(p, 2)
        self.assertEqual(p.stdout, b"-:1:%d: overlong at byte %d (C0)\n"
                         % (harness.CHUNK - 4, harness.CHUNK - 5))
        self.assertEqual(p.stderr, b"utf8guard: -: Input/output error\n")


class Random(CliTest):
    def test_random_inputs(self):
        rng = random.Random(3701)
        for r in range(harness.rounds(10)):
            profile = rng.choice(list(PROFILES))
            extra = set(rng.sample(test_policy.CATEGORIES, rng.randrange(0, 3)))
            deny = PROFILES[profile] | extra
            args = ["--profile", profile] + (["--deny", ",".join(sorted(extra))] if extra else [])
            hints = rng.random() < 0.5
            args += ["--hints"] if hints else []
            datas = [random_input(rng, rng.randrange(1, 16)) for _ in range(6)]
            files = [self.write("in%d_%d" % (r, k), d) for k, d in enumerate(datas)]
            wants = [expected(d, deny, hints) for d in datas]
            p = run(["check", "--percent", "--all"] + args + files)
            self.assertExit(p, 1 if any(wants) else 0)
            self.assertEqual(p.stdout, b"".join(text(f, w) for f, w in zip(files, wants)))
            p = run(["check", "--percent", "--json", "--all"] + args + files)
            self.assertEqual(p.stdout, b"".join(json_line(f, d, w)
                                                for f, d, w in zip(files, datas, wants)))
            p = run(["check", "--percent"] + args, input=datas[0])
            self.assertEqual(p.stdout, text("-", wants[0][:1]))


class Kernels(CliTest):
    def test_every_usable_kernel_gives_the_same_answers(self):
        # The decoder has a vector form per x86 kernel: each kernel, forced.
        line = run(["--version"]).stdout.decode().splitlines()[1]
        kernels = line[line.index("(usable:") + 8:line.rindex(")")].split()
        self.assertIn("scalar", kernels)
        rng = random.Random(38)
        datas = [random_input(rng, rng.randrange(20, 200)) for _ in range(12)]
        datas.append(b"%41" * 100 + b"%C3%A9" * 40 + b"%E2%80%AE" + b"%c0%af" + b"%2541" + b"%")
        files = [self.write("in%d" % k, d) for k, d in enumerate(datas)]
        want = b"".join(text(f, expected(d, PROFILES["url"], True)) for f, d in zip(files, datas))
        for k in kernels:
            p = run(["check", "--percent", "--all", "--hints", "--profile", "url"] + files,
                    env={"UTF8GUARD_KERNEL": k})
            self.assertEqual(p.stdout, want, k)


class ManyInputs(CliTest):
    def test_jobs_and_files0_from(self):
        rng = random.Random(12)
        datas = [random_input(rng, 30) for _ in range(6)]
        files = [self.write("f%d" % k, d) for k, d in enumerate(datas)]
        want = b"".join(text(f, expected(d, PROFILES["url"])) for f, d in zip(files, datas))
        args = ["check", "--percent", "--all", "--profile", "url"]
        p = run(args + ["-j", "3"] + files)
        self.assertEqual(p.stdout, want)
        listing = b"".join(os.fsencode(f) + b"\0" for f in files)
        p = run(args + ["--files0-from", "-", "-j", "2"], input=listing)
        self.assertEqual(p.stdout, want)

    def test_large_file_is_not_cut_into_sections(self):
        # Raw bytes that are plain ASCII: sections would prove them valid and
        # skip the escapes. 9 MiB, enough for sections on -j 4.
        size = 9 << 20
        data = bytearray(b"a" * size)
        data[size // 2:size // 2 + 6] = b"%C0%AF"
        data[size - 100:size - 97] = b"%FF"
        f = self.write("big", bytes(data))
        p = run(["check", "--percent", "--all", "-j", "4", f])
        self.assertEqual(p.stdout, b"%s:1:%d: overlong at byte %d (C0 AF 61 61)\n"
                         b"%s:1:%d: unexpected_continuation at byte %d (AF 61 61 61)\n"
                         b"%s:1:%d: invalid_byte at byte %d (FF 61 61 61)\n"
                         % (f.encode(), size // 2 + 1, size // 2, f.encode(),
                            size // 2 + 4, size // 2 + 3, f.encode(), size - 99, size - 100))


@unittest.skipUnless(shutil.which("bash") and shutil.which("awk"), "needs bash and awk")
class AccessLogExample(CliTest):
    """examples/scan_access_log.sh on samples/access.log: every URL attack,
    each under the log line it came in, and nothing from the clean lines."""

    def scan(self, log, tool=None):
        env = dict(os.environ, UTF8GUARD=tool or harness.CLI)
        return subprocess.run(["bash", EXAMPLE, log], env=env, capture_output=True)

    def test_sample_findings(self):
        with open(SAMPLE, "rb") as f:
            data = f.read()
        want = expected(data, PROFILES["url"], True)
        p = run(["check", "--percent", "--profile", "url", "--all", "--hints", SAMPLE])
        self.assertExit(p, 1)
        self.assertEqual(p.stdout, text(SAMPLE, want))
        lines = data.split(b"\n")
        # The log's own line ends are the only raw LFs the profile refuses.
        raw_lf = [e for e in want if data[e["offset"]:e["offset"] + 1] == b"\n"]
        self.assertEqual(len(raw_lf), len(lines) - 1)
        attacks = [e for e in want if e not in raw_lf]
        found = {(e["line"], e["kind"], e.get("category")) for e in attacks}
        for line, kind, category in ((3, "overlong", None), (5, "overlong", None),
                                     (6, "disallowed", "double_encoding"),
                                     (8, "disallowed", "nul"), (9, "disallowed", "newline"),
                                     (10, "disallowed", "bidi")):
            self.assertIn((line, kind, category), found)
        clean = set(range(1, len(lines))) - {e["line"] for e in attacks}
        self.assertGreaterEqual(len(clean), 4)
        decoded = b"".join(urllib.parse.unquote_to_bytes(lines[n - 1]) for n in clean)
        self.assertRegex(decoded, rb"[\x80-\xff]")  # well-formed escaped UTF-8 among them

        p = self.scan(SAMPLE)
        self.assertEqual(p.returncode, 1, p.stderr)
        # The findings of each line, then the line, then a caret under each.
        want = b""
        for n in sorted({e["line"] for e in attacks}):
            here = [e for e in attacks if e["line"] == n]
            want += text(SAMPLE, here)
            marks = ""
            for e in here:
                marks += " " * (e["column"] - len(marks) - 1) + "^"
            want += b"%8d | %s\n%8s | %s\n" % (n, lines[n - 1], b"", marks.encode())
        self.assertEqual(p.stdout, want)
        self.assertEqual(p.stderr, b"scan_access_log: findings in %s: each is shown above the "
                         b"log line it points to\n" % SAMPLE.encode())

    def test_samples_readme_excerpt(self):
        # samples/README.md's block is the example's output on the sample, cut
        # to a few lines: each of its lines comes out, in that order.
        root = os.path.join(HERE, "..", "..")
        with open(os.path.join(root, "samples", "README.md"), encoding="utf-8") as f:
            readme = f.read()
        command = "$ examples/scan_access_log.sh samples/access.log\n"
        block = readme[readme.index(command) + len(command):]
        block = block[:block.index("```")].splitlines()
        self.assertGreater(len(block), 5)
        env = dict(os.environ, UTF8GUARD=harness.CLI)
        p = subprocess.run(["bash", "examples/scan_access_log.sh", "samples/access.log"],
                           cwd=root, env=env, capture_output=True)
        self.assertEqual(p.returncode, 1, p.stderr)
        out = iter(p.stdout.decode().splitlines())
        for line in block:
            self.assertIn(line, out)  # consumes the output up to that line

    def test_clean_log_and_missing_tool(self):
        log = self.write("clean.log", b'192.0.2.1 - - [27/Nov/2026:10:00:00 +0000] '
                         b'"GET /caf%C3%A9?q=a+b%20c HTTP/1.1" 200 12 "-" "curl/8.0"\n' * 3)
        p = self.scan(log)
        self.assertEqual((p.returncode, p.stdout), (0, b""), p.stderr)
        self.assertEqual(p.stderr, b"scan_access_log: no findings in %s\n" % log.encode())
        # A CRLF log: the CR before each LF is the line's end too.
        crlf = self.write("crlf.log", b"GET /a%00 HTTP/1.1\r\nGET /b HTTP/1.1\r\n")
        p = self.scan(crlf)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertEqual(p.stdout, b"%s:1:7: disallowed nul U+0000 at byte 6 (00 20 48 54)\n"
                         b"       1 | GET /a%%00 HTTP/1.1\n         |       ^\n" % crlf.encode())
        p = self.scan(log, tool=self.path("no-such-utf8guard"))
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"ERROR", p.stderr)
        p = self.scan(self.path("no-such.log"))
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"No such file or directory", p.stderr)


if __name__ == "__main__":
    harness.main()
