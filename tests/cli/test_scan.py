#!/usr/bin/env python3
"""test_scan.py - what repository and log scans need: --lines (a line's own
LF or CRLF is no finding, every other line break still is: against
test_policy's and test_percent's oracles, also with the CR and its LF in
different reads), --skip-binary (git's rule, with git itself as the oracle)
and --skip-special (what is not a regular file, os.path.isfile as the
oracle)."""

import os
import random
import shutil
import socket
import subprocess
import unittest

import harness
import test_percent
import test_policy
from harness import CliTest, run

FIELD = test_policy.PROFILES["field"]
URL = test_policy.PROFILES["url"]


def line_ends(data):
    """Offsets of the raw LFs and of the raw CRs right before one."""
    ends = set()
    for i, b in enumerate(data):
        if b == 0x0A or (b == 0x0D and data[i + 1:i + 2] == b"\n"):
            ends.add(i)
    return ends


def without_line_ends(data, errors):
    ends = line_ends(data)
    return [e for e in errors
            if not (e["kind"] == "disallowed" and e["category"] == "newline"
                    and e["length"] == 1 and e["offset"] in ends)]


class Lines(CliTest):
    def test_random_lines(self):
        rng = random.Random(41)
        for _ in range(harness.rounds(20)):
            data = test_policy.random_input(rng, rng.randrange(1, 80)) + \
                rng.choice([b"", b"\r", b"\n", b"\r\n", b"\r\r\n"])
            f = self.write("in", data)
            want = without_line_ends(data, test_policy.expected(data, FIELD))
            p = run(["check", "--lines", "--all", "--profile", "field", f])
            self.assertEqual(p.stdout, test_policy.text(f, want), data)
            self.assertExit(p, 1 if want else 0)
            # The summary counts what is reported; --max-errors counts the same.
            self.assertEqual(p.stderr, harness.summary(1, len(data), want))
            p = run(["check", "--lines", "--max-errors", "2", "--profile", "field", f])
            self.assertEqual(p.stdout, test_policy.text(f, want[:2]))

    def test_percent_encoded_log(self):
        rng = random.Random(42)
        pieces = test_percent.PIECES + [b"%0A", b"%0d%0a", b"\r", b"\n"]
        for _ in range(harness.rounds(10)):
            data = b"".join(b"GET /" + b"".join(rng.choice(pieces) for _ in range(6)) +
                            rng.choice([b"\n", b"\r\n"]) for _ in range(5))
            f = self.write("access.log", data)
            want = without_line_ends(data, test_percent.expected(data, URL))
            p = run(["check", "--lines", "--percent", "--all", "--profile", "url", f])
            self.assertEqual(p.stdout, test_percent.text(f, want), data)

    def test_only_the_terminator(self):
        # A lone CR, a CR before a CR LF, NEL and LS are findings; a BOM after
        # a line end is no signature (one input, not one per line).
        data = "a\rb\r\r\nc\u0085d\u2028e\n\ufeffx\n".encode()
        want = without_line_ends(data, test_policy.expected(data, FIELD))
        self.assertEqual([e["code_point"] for e in want],
                         ["U+000D", "U+000D", "U+0085", "U+2028", "U+FEFF"])
        p = run(["check", "--lines", "--all", "--profile", "field", "-"], input=data)
        self.assertEqual(p.stdout, test_policy.text("-", want))
        # Without a policy that denies line breaks --lines changes nothing.
        p = run(["check", "--lines", "--all", "-"], input=data + b"\xc0")
        self.assertEqual(p.stdout, harness.text_lines("-", harness.expected_errors(data + b"\xc0")))

    def test_cr_and_lf_in_different_reads(self):
        # A CR that ends a read waits for the next byte: LF, or not.
        heads = [b"value one\r", b"x" * harness.PAGE + b"\r", b"tail\r"]
        tails = [b"\nnext\r\n", b"more\n", b""]
        datas = [h + t for h, t in zip(heads, tails)]
        paths = []
        for k, (data, head) in enumerate(zip(datas, heads)):
            paths.append(self.path("fifo%d" % k))
            os.mkfifo(paths[-1])
            harness.start_writer(paths[-1], data, piece=len(head), pause=0.05)
        p = run(["check", "--lines", "--all", "--profile", "field", "-j1"] + paths)
        self.assertEqual(p.stdout, b"".join(
            test_policy.text(f, without_line_ends(d, test_policy.expected(d, FIELD)))
            for f, d in zip(paths, datas)))
        self.assertIn(b":1:4097: disallowed newline U+000D at byte 4096 (0D 6D 6F 72)\n", p.stdout)
        self.assertIn(b"U+000D at byte 4 ", p.stdout)


@unittest.skipUnless(shutil.which("git"), "needs git")
class SkipBinary(CliTest):
    def test_git_decides_what_is_binary(self):
        files = {
            "elf": b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)),
            "nul_at_7999": b"a" * 7999 + b"\x00" + b"\xff",
            "nul_at_8000": b"a" * 8000 + b"\x00\n\xff",
            "utf16": "text\n".encode("utf-16"),
            "latin1": "caf\u00e9\n".encode("latin-1"),
            "ok.c": b"int x;\n",
            "png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        }
        repo = self.path("repo")
        os.mkdir(repo)
        for name, data in files.items():
            with open(os.path.join(repo, name), "wb") as f:
                f.write(data)
        subprocess.run(["git", "init", "-q", repo], check=True)
        subprocess.run(["git", "-C", repo, "add", "."], check=True)
        # git's own verdict: -I leaves out the files it takes for binary.
        text = subprocess.run(["git", "-C", repo, "grep", "-I", "-l", "-e", ""],
                              capture_output=True, check=True).stdout.decode().split()
        self.assertEqual(sorted(text), ["latin1", "nul_at_8000", "ok.c"])
        names = sorted(files)
        p = run(["check", "--all", "--skip-binary", "--profile", "source"] + names, cwd=repo)
        want = b"".join(test_policy.text(n, test_policy.expected(files[n], test_policy.PROFILES[
            "source"])) for n in names if n in text)
        self.assertEqual(p.stdout, want)
        self.assertExit(p, 1)
        self.assertEqual(p.stderr, harness.summary(
            len(text), sum(len(files[n]) for n in text),
            [e for n in names if n in text for e in test_policy.expected(
                files[n], test_policy.PROFILES["source"])]))
        # On a pipe, whatever pieces the first 8000 bytes arrive in.
        for name in names:
            fifo = self.path("fifo-" + name)
            os.mkfifo(fifo)
            harness.start_writer(fifo, files[name], piece=3000, pause=0.01)
            with open(fifo, "rb") as stdin:
                p = run(["check", "--skip-binary", "--quiet", "-"], stdin=stdin)
            self.assertExit(p, (1 if test_policy.expected(files[name], set()) else 0)
                            if name in text else 0)


class SkipSpecial(CliTest):
    def test_only_regular_files_are_read(self):
        d = self.dir
        good = self.write("good.txt", b"ok\n")
        bad = self.write("bad.txt", b"\xc0\xaf\n")
        os.mkdir(self.path("folder"))
        os.symlink("folder", self.path("link-to-folder"))
        os.symlink("bad.txt", self.path("link-to-bad"))
        os.symlink("nowhere", self.path("dangling"))
        os.mkfifo(self.path("fifo"))  # no writer: opening it would block
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(self.path("socket"))
        self.addCleanup(sock.close)
        names = ["good.txt", "bad.txt", "folder", "link-to-folder", "link-to-bad", "dangling",
                 "fifo", "socket", "/dev/null"]
        regular = [n for n in names if os.path.isfile(os.path.join(d, n))]
        self.assertEqual(regular, ["good.txt", "bad.txt", "link-to-bad"])
        contents = {}
        for n in regular:
            with open(os.path.join(d, n), "rb") as f:
                contents[n] = f.read()
        want = b"".join(harness.text_lines(n, harness.expected_errors(contents[n])[:1])
                        for n in regular)
        p = run(["check", "--skip-special"] + names, cwd=d, timeout=30)
        self.assertEqual((p.returncode, p.stdout, p.stderr), (1, want, b""))
        lst = b"".join(n.encode() + b"\0" for n in names)
        p = run(["check", "--skip-special", "--files0-from", "-"], input=lst, cwd=d, timeout=30)
        self.assertEqual((p.returncode, p.stdout, p.stderr), (1, want, b""))
        # A missing file is still an error; standard input is still read.
        p = run(["check", "--skip-special", "missing", "-"], cwd=d, input=b"\xff")
        self.assertExit(p, 2)
        self.assertEqual(p.stdout, b"-:1:1: invalid_byte at byte 0 (FF)\n")
        self.assertEqual(p.stderr, b"utf8guard: missing: No such file or directory\n")
        # Without the option a folder is an error, as it always was.
        p = run(["check", "link-to-folder", good], cwd=d)
        self.assertEqual((p.returncode, p.stderr),
                         (2, b"utf8guard: link-to-folder: Is a directory\n"))


if __name__ == "__main__":
    harness.main()
