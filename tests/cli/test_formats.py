#!/usr/bin/env python3
"""test_formats.py - check --format sarif|github|gitlab (and json, text):
every finding of random inputs, under a policy and with hints, against the
oracles of test_policy.py (Python's decoder, unicodedata, the hint rules);
the same words as the text line in every format; an unreadable input as a
finding of its own in every format; hostile file names never printed raw;
stable fingerprints; and the SARIF validated by Microsoft's SARIF multitool
(tests/cli/install_sarif_multitool.sh installs it; without it the test skips,
except under CI=true, where it fails)."""

import json
import os
import random
import re
import subprocess
import unittest
import urllib.parse

import harness
import test_policy
from harness import CliTest, run

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
MULTITOOL = os.environ.get("UTF8GUARD_SARIF_MULTITOOL") or os.path.join(
    ROOT, "build-tools", "sarif-multitool", "node_modules", ".bin", "sarif-multitool")
IN_CI = os.environ.get("CI") == "true"

SOURCE = test_policy.PROFILES["source"]


def rule_of(e):
    return e["kind"] if e["kind"] != "disallowed" else "disallowed-" + e["category"]


def description(e, hints):
    """The text line's words after PATH:LINE:COLUMN: , from the oracle."""
    if not hints:
        e = {k: v for k, v in e.items() if k != "hint"}
    line = test_policy.text("P", [e]).decode()
    return line[line.index(": ") + 2:-1]


def github_unescape_property(s):
    for esc, c in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        s = s.replace(esc, c)
    return s


def parse_github(out):
    """The ::error commands of out as (properties dict, message)."""
    found = []
    for line in out.decode("utf-8").split("\n")[:-1]:
        m = re.fullmatch(r"::error ([^:]*)::(.*)", line)
        assert m, line
        props = dict(p.split("=", 1) for p in m.group(1).split(","))
        found.append((props, m.group(2)))
    return found


class Findings(CliTest):
    """Random inputs: each format says what the oracle says."""

    def inputs(self):
        rng = random.Random(55)
        return [test_policy.random_input(rng, rng.randrange(1, 60))
                for _ in range(harness.rounds(15))]

    def check_all(self, hints):
        datas = self.inputs()
        files = [self.write("in%02d.c" % i, d) for i, d in enumerate(datas)]
        want = [test_policy.expected(d, SOURCE, hints=True) for d in datas]
        args = ["check", "--all", "--profile", "source"] + (["--hints"] if hints else [])
        text = run(args + files)
        self.assertEqual(text.stdout, b"".join(
            test_policy.text(f, [e if hints else {k: v for k, v in e.items() if k != "hint"}
                                 for e in w]) for f, w in zip(files, want)))

        sarif = run(args + ["--format", "sarif"] + files)
        self.assertEqual((sarif.returncode, sarif.stderr), (text.returncode, text.stderr))
        doc = json.loads(sarif.stdout)
        run0 = doc["runs"][0]
        self.assertEqual(doc["version"], "2.1.0")
        self.assertEqual(run0["columnKind"], "unicodeCodePoints")
        rules = run0["tool"]["driver"]["rules"]
        results = run0["results"]
        expect = [(f, e) for f, w in zip(files, want) for e in w]
        self.assertEqual(len(results), len(expect))
        for r, (f, e) in zip(results, expect):
            self.assertEqual(r["ruleId"], rule_of(e))
            self.assertEqual(rules[r["ruleIndex"]]["id"], r["ruleId"])
            self.assertEqual(r["level"], "error")
            self.assertEqual(r["message"]["text"], description(e, hints))
            loc = r["locations"][0]["physicalLocation"]
            self.assertEqual(urllib.parse.unquote(loc["artifactLocation"]["uri"]), "file://" + f)
            self.assertEqual(loc["region"], {"startLine": e["line"], "startColumn": e["column"],
                                             "byteOffset": e["offset"], "byteLength": e["length"]})
            self.assertRegex(r["partialFingerprints"]["utf8guardFinding/v1"], "^[0-9a-f]{16}$")
            h = e.get("hint")
            props = r.get("properties", {})
            if h:  # SARIF always carries the hint
                self.assertEqual(props["hint"], h[0])
                self.assertEqual(props.get("hintValue"),
                                 None if h[1] is None else test_policy.u(h[1]))
            else:
                self.assertNotIn("hint", props)
        prints = [r["partialFingerprints"]["utf8guardFinding/v1"] for r in results]
        self.assertEqual(len(set(prints)), len(prints))

        github = run(args + ["--format", "github"] + files)
        self.assertEqual(github.returncode, text.returncode)
        got = parse_github(github.stdout)
        self.assertEqual(len(got), len(expect))
        for (props, message), (f, e) in zip(got, expect):
            self.assertEqual(props, {"file": f.replace("%", "%25").replace(":", "%3A")
                                     .replace(",", "%2C"), "line": str(e["line"]),
                                     "col": str(e["column"]), "title": "utf8guard " + rule_of(e)})
            self.assertEqual(message, description(e, hints))

        gitlab = run(args + ["--format", "gitlab"] + files)
        self.assertEqual(gitlab.returncode, text.returncode)
        issues = json.loads(gitlab.stdout)
        self.assertEqual(len(issues), len(expect))
        for i, (f, e) in zip(issues, expect):
            self.assertEqual(set(i), {"description", "check_name", "fingerprint", "severity",
                                      "location"})
            self.assertEqual(i["description"], description(e, hints))
            self.assertEqual(i["check_name"], rule_of(e))
            self.assertEqual(i["location"], {"path": f, "lines": {"begin": e["line"]}})
        self.assertEqual([i["fingerprint"] for i in issues], prints)

    def test_every_format_says_what_the_oracle_says(self):
        self.check_all(hints=False)

    def test_with_hints(self):
        self.check_all(hints=True)

    def test_json_is_format_json_and_text_is_the_default(self):
        f = self.write("a", b"ok\n\xc0\xaf \xe2\x80\xae\n")
        for args in (["--all"], ["--profile", "source", "--hints"]):
            self.assertEqual(run(["check", "--json"] + args + [f]).stdout,
                             run(["check", "--format", "json"] + args + [f]).stdout)
            self.assertEqual(run(["check"] + args + [f]).stdout,
                             run(["check", "--format=text"] + args + [f]).stdout)
        for fmt in ("sarif", "github", "gitlab", "json"):
            p = run(["check", "--quiet", "--format", fmt, f])
            self.assertEqual((p.returncode, p.stdout), (1, b""))

    def test_clean_inputs_and_no_input(self):
        f = self.write("ok", "caf\u00e9\n".encode())
        for fmt, empty in (("sarif", None), ("gitlab", []), ("github", b"")):
            p = run(["check", "--format", fmt, f])
            self.assertExit(p, 0)
            if fmt == "sarif":
                self.assertEqual(json.loads(p.stdout)["runs"][0]["results"], [])
            elif fmt == "gitlab":
                self.assertEqual(json.loads(p.stdout), empty)
            else:
                self.assertEqual(p.stdout, empty)

    def test_parallel_jobs_write_the_same_document(self):
        rng = random.Random(7)
        count = 12 if harness.REDUCED else 60
        files = [self.write("f%03d" % i, test_policy.random_input(rng, 8)) for i in range(count)]
        for fmt in ("sarif", "gitlab", "github"):
            one = run(["check", "--all", "--profile", "source", "--format", fmt, "-j1"] + files)
            for jobs in ("-j3",) if harness.REDUCED else ("-j3", "-j0"):
                p = run(["check", "--all", "--profile", "source", "--format", fmt, jobs] + files)
                self.assertEqual((p.returncode, p.stdout), (one.returncode, one.stdout), fmt)
            if fmt != "github":
                json.loads(one.stdout)

    def test_unknown_format_is_a_usage_error(self):
        self.assertUsageError(["check", "--format", "xml"],
                              b"unknown format 'xml' (text, json, sarif, github, gitlab)")
        self.assertUsageError(["check", "--format"], b"option '--format' needs a format name")
        self.assertUsageError(["sanitize", "--format", "json"], b"unknown option '--format'")


class Fingerprints(CliTest):
    def prints(self, data, name="a.c"):
        f = self.write(name, data)
        doc = json.loads(run(["check", "--all", "--profile", "source", "--format", "sarif",
                              name], cwd=self.dir).stdout)
        return [r["partialFingerprints"]["utf8guardFinding/v1"] for r in doc["runs"][0]["results"]]

    def test_stable_when_lines_move(self):
        body = b"int a;\n/* \xe2\x80\xae */\nint b = 1;\x1b\n/* \xe2\x80\xae */\n"
        first = self.prints(body)
        self.assertEqual(len(first), 3)
        self.assertEqual(len(set(first)), 3)  # the same character twice: two fingerprints
        self.assertEqual(self.prints(body), first)  # run to run
        self.assertEqual(self.prints(b"// a new first line\n\n" + body), first)
        self.assertNotEqual(self.prints(body, "b.c"), first)  # another file


class Unreadable(CliTest):
    """A missing file, a folder and a read error are findings of their own."""

    def test_every_format(self):
        ok = self.write("ok.txt", b"fine\n")
        missing = self.path("missing.txt")
        folder = self.path("dir")
        os.mkdir(folder)
        inputs = [ok, missing, folder, "/proc/self/mem"]
        why = {missing: "No such file or directory", folder: "Is a directory",
               "/proc/self/mem": "Input/output error"}
        stderr = b"".join(b"utf8guard: %s: %s\n" % (p.encode(), why[p].encode())
                          for p in inputs[1:])
        for fmt in ("text", "json", "sarif", "github", "gitlab"):
            p = run(["check", "--format", fmt] + inputs)
            self.assertExit(p, 2)
            self.assertEqual(p.stderr, stderr, fmt)
            if fmt == "text":
                self.assertEqual(p.stdout, b"")  # the messages say it all
            elif fmt == "json":
                objs = [json.loads(line) for line in p.stdout.splitlines()]
                self.assertEqual(objs[1:], [{"path": q, "error": why[q]} for q in inputs[1:]])
                self.assertEqual(objs[0]["valid"], True)
            elif fmt == "sarif":
                results = json.loads(p.stdout)["runs"][0]["results"]
                self.assertEqual([r["ruleId"] for r in results], ["unreadable"] * 3)
                self.assertEqual([r["message"]["text"] for r in results],
                                 ["unreadable: " + why[q] for q in inputs[1:]])
                self.assertEqual([urllib.parse.unquote(r["locations"][0]["physicalLocation"]
                                                       ["artifactLocation"]["uri"])
                                  for r in results], ["file://" + q for q in inputs[1:]])
            elif fmt == "github":
                self.assertEqual(parse_github(p.stdout),
                                 [({"file": q, "title": "utf8guard unreadable"},
                                   "unreadable: " + why[q]) for q in inputs[1:]])
            else:
                issues = json.loads(p.stdout)
                self.assertEqual([(i["check_name"], i["description"], i["location"]["path"])
                                  for i in issues],
                                 [("unreadable", "unreadable: " + why[q], q) for q in inputs[1:]])

    def test_bad_names_of_a_list(self):
        lst = self.write("list", b"\0" + self.path("missing").encode() + b"\0")
        p = run(["check", "--format", "gitlab", "--files0-from", lst])
        self.assertExit(p, 2)
        issues = json.loads(p.stdout)
        self.assertEqual([i["check_name"] for i in issues], ["unreadable", "unreadable"])
        self.assertIn("zero-length file name", issues[0]["description"])


HOSTILE_NAMES = [b"esc\x1b[31mred", b"new\nline,col:1", b"cr\rname", b"bidi\xe2\x80\xaeevil.c",
                 b"bad\xff\xc0utf8", b"per%2Ccent", b"c1\xc2\x9bcsi", b"\xef\xbb\xbfbom",
                 "东京 ünï.txt".encode(), b"tab\tname", b"quote\"back\\slash"]
# What may never reach a log or a page raw: C0 controls (TAB aside, which
# the JSON formats escape and GitHub shows), DEL, C1 (as UTF-8), bidi controls.
RAW = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]"
                 rb"|\xe2\x80[\x8e\x8f]|\xd8\x9c")


class HostileNames(CliTest):
    def setUp(self):
        super().setUp()
        d = os.fsencode(self.dir)
        self.files = []
        for n in HOSTILE_NAMES:
            p = os.path.join(d, n)
            with open(p, "wb") as f:
                f.write(b"x\xc0\xafy\n")
            self.files.append(p)
        self.files.append(os.path.join(d, b"missing\x1b]0;title\x07"))

    def test_never_printed_raw(self):
        for fmt in ("sarif", "github", "gitlab"):
            p = run(["check", "--format", fmt] + self.files)
            self.assertExit(p, 2)
            body = p.stdout.replace(b"\n", b"")  # the formats' own line ends
            self.assertIsNone(RAW.search(body), (fmt, RAW.search(body)))
            self.assertEqual(p.stdout.count(b"\n"), {"sarif": 2, "gitlab": 2,
                                                     "github": 0}[fmt] + len(self.files))

    def test_sarif_uris_keep_the_bytes(self):
        p = run(["check", "--format", "sarif"] + self.files)
        results = json.loads(p.stdout)["runs"][0]["results"]
        uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results]
        self.assertTrue(all(re.fullmatch(r"file://[A-Za-z0-9%/._~-]+", u) for u in uris), uris)
        self.assertEqual([urllib.parse.unquote_to_bytes(u[len("file://"):]) for u in uris],
                         self.files)

    def test_names_read_back(self):
        # GitHub: the property unescaped is the name, sanitized, its hostile
        # characters as %XX; JSON: the name sanitized, hostile ones as \\u.
        p = run(["check", "--format", "github"] + self.files)
        names = [github_unescape_property(props["file"]) for props, _ in parse_github(p.stdout)]
        field = test_policy.PROFILES["field"]
        for name, f in zip(names, self.files):
            want = "".join("".join("%%%02X" % b for b in c.encode())
                           if test_policy.category(ord(c), False) in field | {"bom"} else c
                           for c in f.decode("utf-8", "replace"))
            self.assertEqual(name, want)
        p = run(["check", "--format", "gitlab"] + self.files)
        paths = [i["location"]["path"] for i in json.loads(p.stdout)]
        self.assertEqual(paths, [f.decode("utf-8", "replace") for f in self.files])


class SarifMultitool(CliTest):
    """The SARIF goes through `sarif-multitool validate`: the schema and
    Microsoft's rules for what a SARIF producer must and should write."""

    def setUp(self):
        super().setUp()
        if not os.access(MULTITOOL, os.X_OK):
            if IN_CI:
                self.fail("the SARIF multitool is not installed at %s: CI runs "
                          "tests/cli/install_sarif_multitool.sh (scripts/install-deps.sh --ci)"
                          % MULTITOOL)
            self.skipTest("the SARIF multitool is not installed (run "
                          "tests/cli/install_sarif_multitool.sh); CI=true makes this a failure")

    def validate(self, sarif):
        log = self.write("in.sarif", sarif)
        out = self.path("validation.sarif")
        p = subprocess.run([MULTITOOL, "validate", log, "-o", out, "--log", "ForceOverwrite"],
                           capture_output=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        with open(out, encoding="utf-8") as f:
            report = json.load(f)
        problems = [(r.get("ruleId"), r.get("level", "warning"), r["message"].get("arguments"))
                    for run_ in report["runs"] for r in run_.get("results", [])]
        return problems

    def test_valid_with_every_kind_of_finding(self):
        rng = random.Random(3)
        files = [self.write("in%d.c" % i, test_policy.random_input(rng, 40)) for i in range(4)]
        files += [self.path("missing"), "relative-missing", self.write("ok", b"ok\n")]
        hostile = os.path.join(os.fsencode(self.dir), b"evil\xe2\x80\xae\x1b\xff, name.c")
        with open(hostile, "wb") as f:
            f.write(b"\xed\xa0\xbd\xed\xb8\x80\n")
        for args in (["--all", "--profile", "field", "--hints"], ["--all", "--percent",
                                                                 "--profile", "url"], []):
            p = run(["check", "--format", "sarif"] + args + files + [hostile], cwd=self.dir)
            self.assertExit(p, 2)
            self.assertGreater(len(json.loads(p.stdout)["runs"][0]["results"]), 3)
            self.assertEqual(self.validate(p.stdout), [], args)

    def test_a_broken_log_is_refused(self):
        # The validator itself: a result without a message is an error.
        f = self.write("a", b"\xff")
        doc = json.loads(run(["check", "--format", "sarif", f]).stdout)
        del doc["runs"][0]["results"][0]["message"]
        self.assertTrue(any(level == "error" for _, level, _ in
                            self.validate(json.dumps(doc).encode())))


if __name__ == "__main__":
    harness.main()
