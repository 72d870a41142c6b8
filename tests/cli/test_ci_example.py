#!/usr/bin/env python3
"""test_ci_example.py - the CI examples in throwaway git repositories.

examples/ci_trojan_source.sh, the CI step that runs `git ls-files -z | xargs
-0 utf8guard check --profile source`: a clean repository passes, a bidi
override fails the job with the file, line and character named, odd file
names are files, an empty repository passes, and a job that cannot run the
tool is an error, not a pass.

examples/ci/github-actions.yml and examples/ci/.gitlab-ci.yml: the commands
of their steps (every `run:` of the workflow but the one that installs
utf8guard, the job's `script:`), read from the YAML and run as GitHub's and
GitLab's runners run them (bash -e -o pipefail) with the built tool on PATH,
on a repository that holds a Trojan Source file, an ill-formed one, a binary
file and a symlink to a folder: the SARIF, the annotations and the Code
Quality report hold what test_policy's oracle finds, the jobs fail, and a
clean repository passes."""

import json
import os
import shutil
import subprocess
import unittest
import urllib.parse

import harness
import test_policy
from harness import CliTest

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples")
SCRIPT = os.path.join(EXAMPLES, "ci_trojan_source.sh")


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


def yaml_module():
    try:
        import yaml  # Debian's python3-yaml (pre-commit needs it too)
        return yaml
    except ImportError:
        return None


REPO_FILES = {
    "src/main.c": b"int main(void) { return 0; }\n",
    "src/auth.c": b"int ok;\nif (admin)\xe2\x80\xae { }\n",
    "docs/notes.txt": "caf\u00e9 \x1b[2J\n".encode("latin-1", "replace") + b"\xc0\xaf\n",
    "logo.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xe2\x80\xae",
}
SOURCE = test_policy.PROFILES["source"]


@unittest.skipUnless(shutil.which("git") and shutil.which("bash") and yaml_module(),
                     "needs git, bash and python3-yaml")
class CiTemplates(CliTest):
    def setUp(self):
        super().setUp()
        self.env = harness.tool_on_path(self.path("bin"))
        yaml = yaml_module()
        with open(os.path.join(EXAMPLES, "ci", "github-actions.yml")) as f:
            steps = yaml.safe_load(f)["jobs"]["utf8guard"]["steps"]
        self.github = [st["run"] for st in steps if "run" in st and
                       not st["name"].startswith("Install")]
        self.assertEqual(len(self.github), 2)
        self.assertIn("upload-sarif", " ".join(st.get("uses", "") for st in steps))
        with open(os.path.join(EXAMPLES, "ci", ".gitlab-ci.yml")) as f:
            job = yaml.safe_load(f)["utf8guard"]
        self.gitlab = "\n".join(job["script"])
        self.assertEqual(job["artifacts"]["reports"]["codequality"], "gl-code-quality-report.json")

    def repo(self, files, folder_link=True):
        d = self.path("repo")
        os.mkdir(d)
        subprocess.run(["git", "init", "-q", d], check=True)
        for name, data in files.items():
            os.makedirs(os.path.dirname(os.path.join(d, name)), exist_ok=True)
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
        if folder_link:
            os.symlink("src", os.path.join(d, "src-link"))  # a committed link to a folder
        subprocess.run(["git", "-C", d, "add", "-A"], check=True)
        return d

    def step(self, repo, command):
        return subprocess.run(["bash", "-e", "-o", "pipefail", "-c", command], cwd=repo,
                              env=self.env, capture_output=True, timeout=120 * harness.SLOWDOWN)

    def findings(self):
        """(path, finding) of every text file of REPO_FILES, as git lists them."""
        return [(n, e) for n in sorted(REPO_FILES) if n != "logo.png"
                for e in test_policy.expected(REPO_FILES[n], SOURCE)]

    def test_github_workflow(self):
        repo = self.repo(REPO_FILES)
        check, annotate = self.github
        p = self.step(repo, check)
        self.assertEqual(p.returncode, 0, p.stderr)  # findings are uploaded, not fatal here
        with open(os.path.join(repo, "utf8guard.sarif"), "rb") as f:
            results = json.load(f)["runs"][0]["results"]
        want = self.findings()
        self.assertEqual([(urllib.parse.unquote(r["locations"][0]["physicalLocation"]
                                                ["artifactLocation"]["uri"]),
                           r["locations"][0]["physicalLocation"]["region"]["startLine"],
                           r["locations"][0]["physicalLocation"]["region"]["byteOffset"])
                          for r in results],
                         [(n, e["line"], e["offset"]) for n, e in want])
        p = self.step(repo, annotate)
        self.assertEqual(p.returncode, 1, p.stderr)
        lines = p.stdout.decode().splitlines()
        self.assertEqual(len(lines), len(want))
        for line, (n, e) in zip(lines, want):
            self.assertTrue(line.startswith("::error file=%s,line=%d,col=%d,"
                                            % (n, e["line"], e["column"])), line)
        self.assertIn("::disallowed bidi U+202E at byte 18 (E2 80 AE 20)", lines[-1])

    def test_gitlab_job(self):
        repo = self.repo(REPO_FILES)
        p = self.step(repo, self.gitlab)
        self.assertEqual(p.returncode, 1, p.stderr)  # the job fails; the report is kept
        with open(os.path.join(repo, "gl-code-quality-report.json"), "rb") as f:
            issues = json.load(f)
        self.assertEqual([(i["location"]["path"], i["location"]["lines"]["begin"],
                           i["check_name"]) for i in issues],
                         [(n, e["line"], e["kind"] if e["kind"] != "disallowed" else
                           "disallowed-" + e["category"]) for n, e in self.findings()])

    def test_clean_repository_passes(self):
        repo = self.repo({"a.c": b"int a;\n", "b.md": "caf\u00e9\n".encode(),
                          "bin.dat": b"\x00\xff\xfe"})
        check, annotate = self.github
        self.assertEqual(self.step(repo, check).returncode, 0)
        with open(os.path.join(repo, "utf8guard.sarif"), "rb") as f:
            self.assertEqual(json.load(f)["runs"][0]["results"], [])
        p = self.step(repo, annotate)
        self.assertEqual((p.returncode, p.stdout), (0, b""))
        self.assertEqual(self.step(repo, self.gitlab).returncode, 0)
        with open(os.path.join(repo, "gl-code-quality-report.json"), "rb") as f:
            self.assertEqual(json.load(f), [])

    def test_missing_tool_fails(self):
        repo = self.repo({"a.c": b"int a;\n"})
        self.env["PATH"] = "/usr/bin:/bin"
        self.assertNotEqual(self.step(repo, self.github[0]).returncode, 0)
        self.assertNotEqual(self.step(repo, self.gitlab).returncode, 0)


if __name__ == "__main__":
    harness.main()
