#!/usr/bin/env python3
"""test_ci_example.py - examples/ci_trojan_source.sh, the CI step that runs
`git ls-files -z | xargs -0 utf8guard check --profile source`, in throwaway
git repositories: a clean one passes, a bidi override fails the job with the
file, line and character named, odd file names are files, an empty repository
passes, and a job that cannot run the tool is an error, not a pass."""

import os
import shutil
import subprocess
import unittest

import harness
from harness import CliTest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                      "ci_trojan_source.sh")


@unittest.skipUnless(shutil.which("git") and shutil.which("bash"), "needs git and bash")
class CiStep(CliTest):
    def repo(self, files):
        d = self.path("repo")
        os.mkdir(d)
        subprocess.run(["git", "init", "-q", d], check=True)
        for name, data in files.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
        if files:
            subprocess.run(["git", "-C", d, "add", "--", *files], check=True)
        return d

    def job(self, repo, tool=None):
        env = dict(os.environ, UTF8GUARD=tool or harness.CLI)
        return subprocess.run(["bash", SCRIPT, repo], env=env, capture_output=True)

    def test_clean_repository_passes(self):
        p = self.job(self.repo({"main.c": b"int main(void) { return 0; }\n",
                                "README": "caf\u00e9 \U0001F600\n".encode(),
                                "bom.txt": b"\xef\xbb\xbfsignature at byte 0\n"}))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(b"ci_trojan_source: ok", p.stdout)

    def test_bidi_override_fails_the_job(self):
        p = self.job(self.repo({"ok.c": b"int x;\n",
                                "auth.c": b"int ok;\nif (admin)\xe2\x80\xae { }\n"}))
        self.assertEqual(p.returncode, 1)
        self.assertIn(b"auth.c:2:11: disallowed bidi U+202E at byte 18 (E2 80 AE 20)\n", p.stdout)
        self.assertIn(b"ci_trojan_source: FAILED", p.stderr)

    def test_odd_file_names_are_files(self):
        p = self.job(self.repo({"-rf": b"\x1b[2J\n", "a b\nc.txt": b"fine\n"}))
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn(b"-rf:1:1: disallowed control U+001B at byte 0 (1B 5B 32 4A)\n", p.stdout)

    def test_empty_repository_passes(self):
        p = self.job(self.repo({}))
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_missing_tool_is_an_error(self):
        p = self.job(self.repo({"a.c": b"int x;\n"}), tool=self.path("no-such-utf8guard"))
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"ERROR", p.stderr)


if __name__ == "__main__":
    harness.main()
