#!/usr/bin/env python3
"""test_docs.py - --help, --version and the man page agree with each other and
with the tool; UTF8GUARD_KERNEL is honoured or refused, never ignored."""

import random
import re
import shutil
import subprocess
import unittest

import harness
from harness import CliTest, expected_errors, run, text_lines

OPTION = re.compile(r"(?<![\w-])(--?[a-z][a-z0-9-]*)")


def help_text():
    return run(["--help"]).stdout.decode()


def help_options(text):
    """Options listed in --help: the lines that start with two spaces and -."""
    found = set()
    for line in text.splitlines():
        if line.startswith("  -"):
            found.update(OPTION.findall(line.split("   ")[0]))
    return found


def man_options(roff):
    """Options the man page gives a paragraph (.TP) of their own."""
    lines = roff.splitlines()
    found = set()
    for prev, line in zip(lines, lines[1:]):
        if prev.startswith(".TP") and line.startswith(".B"):
            text = line.replace("\\-", "-").replace("\\fR", " ").replace("\\fP", " ")
            found.update(OPTION.findall(text))
    return found


class HelpAndManPage(unittest.TestCase):
    def setUp(self):
        with open(harness.MAN, encoding="utf-8") as f:
            self.roff = f.read()
        self.help = help_text()

    def test_same_options(self):
        options = help_options(self.help)
        self.assertEqual(options, {"--all", "--max-errors", "--json", "--quiet", "-j", "--jobs",
                                   "--files0-from", "--hints", "--percent", "--json-text", "--profile",
                                   "--deny",
                                   "--format", "--lines", "--skip-binary", "--skip-special",
                                   "-h",
                                   "--help", "--version"})
        self.assertEqual(man_options(self.roff), options)

    def test_every_listed_option_is_accepted(self):
        f = "/dev/null"
        for args in (["--all"], ["--max-errors", "2"], ["--json"], ["--quiet"], ["-j", "2"],
                     ["--jobs", "2"], ["--hints"], ["--percent"], ["--json-text"],
                     ["--profile", "field"],
                     ["--deny", "bidi"], ["--format", "sarif"], ["--lines"], ["--skip-binary"],
                     ["--skip-special"]):
            self.assertEqual(run(["check"] + args + [f]).returncode, 0, args)
        self.assertEqual(run(["check", "--files0-from", f]).returncode, 0)

    def test_help_is_complete(self):
        for needle in ["check", "sanitize", "PATH:LINE:COLUMN: KIND at byte OFFSET (HEX BYTES)",
                       '{"path":"a.txt","valid":false,"bytes":1234,"errors":[{"offset":17,',
                       "Exit status", "EPIPE", "UTF8GUARD_KERNEL", "--", "standard input"]:
            self.assertIn(needle, self.help)
        for kind in harness.KINDS:
            self.assertIn(kind, self.help)
            self.assertIn(".B " + kind, self.roff)
        for status in ("0 every input is well-formed", "1 some input is not", "2 a usage error"):
            self.assertIn(status, self.help)
        for section in ("SYNOPSIS", "OPTIONS", "TEXT OUTPUT", "JSON OUTPUT", "EXIT STATUS",
                        "ENVIRONMENT", "EXAMPLES"):
            self.assertIn(".SH " + section, self.roff)
        self.assertIn("UTF8GUARD_KERNEL", self.roff)
        self.assertIn("EPIPE", self.roff)

    @unittest.skipUnless(shutil.which("groff"), "groff is not installed")
    def test_man_page_renders_without_warnings(self):
        p = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", harness.MAN],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual((p.returncode, p.stderr), (0, b""))


def usable_kernels():
    line = run(["--version"]).stdout.decode().splitlines()[1]
    return re.search(r"\(usable:((?: \w+)+)\)", line).group(1).split()


class Kernels(CliTest):
    def test_unknown_kernel_is_an_error(self):
        for args in (["check", "/dev/null"], ["sanitize", "/dev/null"], ["--version"]):
            p = run(args, env={"UTF8GUARD_KERNEL": "bogus"})
            self.assertExit(p, 2)
            self.assertEqual(p.stdout, b"")
            self.assertTrue(p.stderr.startswith(b"utf8guard: "), p.stderr)
            self.assertIn(b"UTF8GUARD_KERNEL", p.stderr)
            self.assertEqual(p.stderr.count(b"\n"), 1)

    def test_every_usable_kernel_gives_the_same_answers(self):
        kernels = usable_kernels()
        self.assertIn("scalar", kernels)
        rng = random.Random(12)
        data = harness.planted(harness.CHUNK + 3 * harness.PAGE, shift=2) + \
            harness.hostile(rng, 20000)
        f = self.write("in", data)
        want = text_lines(f, expected_errors(data))
        for k in kernels + ["best"]:
            env = {"UTF8GUARD_KERNEL": k}
            version = run(["--version"], env=env).stdout.decode().splitlines()[1]
            if k != "best":
                self.assertTrue(version.startswith("kernel: %s " % k), version)
            p = run(["check", "--all", f], env=env)
            self.assertEqual((p.returncode, p.stdout), (1, want), k)
            p = run(["sanitize", f], env=env)
            self.assertEqual(p.stdout, harness.sanitized(data), k)


if __name__ == "__main__":
    harness.main()
