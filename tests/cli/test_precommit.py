#!/usr/bin/env python3
"""test_precommit.py - the hooks of .pre-commit-hooks.yaml under Debian's
pre-commit, in scratch git repositories: `pre-commit try-repo` runs each
hook on files whose verdicts come from test_policy's oracle, and, installed
as a git hook, the Trojan Source hook refuses a commit that adds a bidi
override (the commit does not happen) and lets a clean one through. The
hooks run the built CLI (under UTF8GUARD_CLI_WRAPPER too) as `utf8guard` on
PATH. Without pre-commit or git the test skips, except under CI=true."""

import os
import shutil
import subprocess
import unittest

import harness
import test_policy
from harness import CliTest

HERE = os.path.dirname(os.path.abspath(__file__))
HOOKS_FILE = os.path.join(HERE, "..", "..", ".pre-commit-hooks.yaml")
TOOLS = ("git", "pre-commit")

FILES = {
    "clean.c": "int main(void) { return 0; } /* caf\u00e9 */\n".encode(),
    "trojan.c": b"int ok;\nif (admin)\xe2\x80\xae { }\n",
    "latin1.txt": "caf\u00e9\n".encode("latin-1"),
    "logo.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe",  # binary: passed over
}


class PreCommit(CliTest):
    def setUp(self):
        super().setUp()
        missing = [t for t in TOOLS if not shutil.which(t)]
        if missing:
            if os.environ.get("CI") == "true":
                self.fail("%s not installed (scripts/install-deps.sh)" % ", ".join(missing))
            self.skipTest("needs %s" % ", ".join(missing))
        self.env = dict(harness.tool_on_path(self.path("bin")),
                        PRE_COMMIT_HOME=self.path("cache"), HOME=self.dir,
                        GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
                        GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com",
                        GIT_CONFIG_NOSYSTEM="1")
        # The hooks' repository: this project's .pre-commit-hooks.yaml, committed.
        self.hooks = self.path("hooks")
        os.mkdir(self.hooks)
        shutil.copy(HOOKS_FILE, self.hooks)
        self.git(self.hooks, "init", "-q")
        self.git(self.hooks, "add", ".pre-commit-hooks.yaml")
        self.git(self.hooks, "commit", "-q", "-m", "hooks")
        self.work = self.path("work")
        os.mkdir(self.work)
        self.git(self.work, "init", "-q")
        for name, data in FILES.items():
            with open(os.path.join(self.work, name), "wb") as f:
                f.write(data)

    def git(self, repo, *args, check=True):
        return subprocess.run(["git", "-C", repo, *args], env=self.env, capture_output=True,
                              check=check, timeout=60)

    def pre_commit(self, *args):
        return subprocess.run(["pre-commit", *args], cwd=self.work, env=self.env,
                              capture_output=True, timeout=120 * harness.SLOWDOWN)

    def expected(self, names, profile):
        return b"".join(test_policy.text(n, test_policy.expected(
            FILES[n], test_policy.PROFILES[profile])[:1]) for n in names)

    def try_repo(self, hook, names):
        return self.pre_commit("try-repo", self.hooks, hook, "--files", *names)

    def test_try_repo(self):
        texts = ["clean.c", "latin1.txt", "trojan.c"]
        for hook, profile in (("utf8guard", "strict"), ("utf8guard-trojan-source", "source")):
            for name in texts + ["logo.png"]:
                p = self.try_repo(hook, [name])
                want = self.expected([name], profile) if name != "logo.png" else b""
                self.assertEqual(p.returncode, 1 if want else 0, (hook, name, p.stdout))
                self.assertIn(want, p.stdout)
        # All at once: each file's first finding, in the order pre-commit passes them.
        p = self.try_repo("utf8guard-trojan-source", texts + ["logo.png"])
        self.assertEqual(p.returncode, 1)
        for name in ("latin1.txt", "trojan.c"):
            self.assertIn(self.expected([name], "source"), p.stdout)

    def test_a_commit_the_hook_refuses(self):
        rev = self.git(self.hooks, "rev-parse", "HEAD").stdout.decode().strip()
        with open(os.path.join(self.work, ".pre-commit-config.yaml"), "w") as f:
            f.write("repos:\n- repo: %s\n  rev: %s\n  hooks:\n  - id: utf8guard\n"
                    "  - id: utf8guard-trojan-source\n" % (self.hooks, rev))
        p = self.pre_commit("install")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.git(self.work, "add", ".pre-commit-config.yaml", "clean.c", "trojan.c", "logo.png")
        p = self.git(self.work, "commit", "-m", "add trojan.c", check=False)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn(self.expected(["trojan.c"], "source"), p.stdout + p.stderr)
        self.assertEqual(self.git(self.work, "rev-parse", "--verify", "-q", "HEAD",
                                  check=False).returncode, 1)  # no commit was made
        self.git(self.work, "rm", "-q", "--cached", "trojan.c")
        p = self.git(self.work, "commit", "-q", "-m", "clean files", check=False)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        files = self.git(self.work, "ls-tree", "--name-only", "HEAD").stdout.split()
        self.assertEqual(sorted(files), [b".pre-commit-config.yaml", b"clean.c", b"logo.png"])


if __name__ == "__main__":
    harness.main()
