#!/usr/bin/env python3
"""test_streams.py - the CLI on hostile streams and hostile outputs: stdin one
byte per read, EINTR and short reads/writes, stop/continue, a broken pipe,
a full disk, a closed stdout, regular files read from their middle, and
bounded memory."""

import json
import os
import random
import resource
import signal
import subprocess
import sys
import time
import unittest

import harness
from harness import CliTest, expected_errors, read_report, run, sanitized, shim_env, text_lines

FULL = b"utf8guard: error writing standard output: No space left on device\n"


class SlowStdin(CliTest):
    """Standard input that arrives one byte at a time, with pauses."""

    def feed_slowly(self, args, data, pause=0.002):
        proc = harness.popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, bufsize=0)
        reader = harness.collect(proc.stdout)
        for i in range(len(data)):
            proc.stdin.write(data[i:i + 1])
            time.sleep(pause)
        proc.stdin.close()
        err = proc.stderr.read()
        proc.wait(timeout=60 * harness.SLOWDOWN)
        reader.join()
        proc.stderr.close()
        return proc.returncode, reader.data, err

    def test_one_byte_per_read(self):
        data = (b"ab\xc0\xafcd\n\xe1\x80\x41\xed\xa0\x80 \xf0\x90\x80\x80 ok\n"
                b"\xf4\x90\x80\x80\xe2\x82\xac\xf0\x9f\x98")
        code, out, err = self.feed_slowly(["check", "--all"], data)
        self.assertEqual((code, err), (1, harness.summary(1, len(data), expected_errors(data))))
        self.assertEqual(out, text_lines("-", expected_errors(data)))
        code, out, _ = self.feed_slowly(["check", "--json", "--all"], data)
        self.assertEqual(code, 1)
        self.assertIn(b'"bytes":%d' % len(data), out)
        code, out, _ = self.feed_slowly(["sanitize"], data)
        self.assertEqual((code, out), (0, sanitized(data)))

    def test_message_is_the_whole_inputs_at_every_cut(self):
        # The library's finding window: an error cut from the bytes its
        # message reads (before and after it, with --hints) is printed as
        # over the whole input, wherever the one pause in the input falls.
        cases = [(["--hints"], b"ab\xed\xa0\xbd\xed\xb8\x80cdefgh\n"),
                 (["--hints", "--percent"], b"q=%C0%AF%2E%2E%41%42&x=1\n"),
                 (["--all"], b"x\xc0\xafyz\xffw\n")]
        for args, data in cases:
            whole = run(["check"] + args + ["-"], input=data).stdout
            self.assertIn(b"at byte", whole)
            for cut in range(len(data) + 1):
                proc = harness.popen(["check"] + args + ["-"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
                reader = harness.collect(proc.stdout)
                proc.stdin.write(data[:cut])
                time.sleep(0.005)
                proc.stdin.write(data[cut:])
                proc.stdin.close()
                proc.stderr.read()
                proc.wait(timeout=60 * harness.SLOWDOWN)
                reader.join()
                proc.stderr.close()
                self.assertEqual(reader.data, whole, (args, cut))

    def test_stop_and_continue_while_reading(self):
        data = harness.hostile(random.Random(2), 20000)
        proc = harness.popen(["check", "--all"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, bufsize=0)
        reader = harness.collect(proc.stdout)
        for i in range(0, len(data), 1000):
            proc.stdin.write(data[i:i + 1000])
            time.sleep(0.01)
            proc.send_signal(signal.SIGSTOP)
            time.sleep(0.01)
            proc.send_signal(signal.SIGCONT)
        proc.stdin.close()
        proc.wait(timeout=60 * harness.SLOWDOWN)
        reader.join()
        proc.stderr.close()
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(reader.data, text_lines("-", expected_errors(data)))


class Interrupted(CliTest):
    """EINTR and short transfers on every other call (tests/cli/eintr_shim.c)."""

    def run_shimmed(self, args, data):
        report = self.path("shim.txt")
        src = self.write("input", data)
        with open(src, "rb") as stdin:
            p = run(args, stdin=stdin, env=shim_env("faults", report))
        counts = read_report(report)
        self.assertGreater(counts["faults"], 2, "the shim was not active")
        return p

    def test_check_retries_reads_and_writes(self):
        data = harness.planted(3 * harness.PAGE + 100, step=1000)
        for args, want in ((["check", "--all"], text_lines("-", expected_errors(data))),
                           (["check", "--all", "-"], text_lines("-", expected_errors(data)))):
            p = self.run_shimmed(args, data)
            self.assertExit(p, 1)
            self.assertEqual(p.stdout, want)
        p = self.run_shimmed(["check", "--json"], data)
        self.assertExit(p, 1)
        self.assertIn(b'"bytes":%d' % len(data), p.stdout)

    def test_check_retries_reads_of_a_large_file(self):
        # Over 2 chunks of 1-5-byte reads: the look-behind bytes carried from
        # read to read, and the lazy counting of a regular file, hold up.
        data = harness.planted(2 * harness.CHUNK + 5000, step=5000)
        p = self.run_shimmed(["check", "--all"], data)
        self.assertExit(p, 1)
        self.assertEqual(p.stdout, text_lines("-", expected_errors(data)))

    def test_sanitize_retries_reads_and_writes(self):
        data = harness.hostile(random.Random(4), 6000)
        p = self.run_shimmed(["sanitize"], data)
        self.assertExit(p, 0)
        self.assertEqual(p.stdout, sanitized(data))


class RereadFailure(CliTest):
    """A regular file is re-read (pread) to find the line of its first error;
    if that fails, the file is an I/O error, named with the reason."""

    def test_pread_fails(self):
        data = b"a\n" * harness.CHUNK + b"\xc0"
        f = self.write("f", data)
        report = self.path("shim.txt")
        p = run(["check", f], env=shim_env("pread-fails", report))
        self.assertGreater(read_report(report)["faults"], 0, "the shim was not active")
        self.assertExit(p, 2)
        self.assertEqual(p.stdout, b"")
        self.assertEqual(p.stderr, b"utf8guard: %s: Input/output error\n" % f.encode())
        # --quiet needs no position, so no re-read and no failure.
        p = run(["check", "--quiet", f], env=shim_env("pread-fails", report))
        self.assertExit(p, 1)


class ReadFailure(CliTest):
    """A read error ends the input with its reason and exit 2, after one
    chunk of a small file or one chunk into a large one."""

    def test_read_fails(self):
        for size in (1000, 2 * harness.CHUNK + 1000):
            f = self.write("f", b"a" * size)
            report = self.path("shim.txt")
            with open(f, "rb") as stdin:
                p = run(["check"], stdin=stdin, env=shim_env("read-fails", report))
            self.assertGreater(read_report(report)["faults"], 0, "the shim was not active")
            self.assertExit(p, 2)
            self.assertEqual(p.stdout, b"")
            self.assertEqual(p.stderr, b"utf8guard: -: Input/output error\n")


class BrokenPipe(CliTest):
    """A reader that goes away: stop at once, print nothing, exit 2."""

    LIMIT = 10  # seconds, times SLOWDOWN

    def assertQuietStop(self, args, stdin=subprocess.DEVNULL):
        proc = harness.popen(args, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual(len(proc.stdout.read(1)), 1)
        start = time.monotonic()
        proc.stdout.close()
        try:
            proc.wait(timeout=self.LIMIT * harness.SLOWDOWN)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            self.fail("%s still running after its reader left" % args)
        err = proc.stderr.read()
        proc.stderr.close()
        self.assertEqual((proc.returncode, err), (2, b""), args)
        return time.monotonic() - start

    def test_endless_inputs(self):
        self.assertQuietStop(["sanitize", "/dev/zero"])
        self.assertQuietStop(["check", "--all", "/dev/urandom"])
        with open("/dev/urandom", "rb") as endless:
            self.assertQuietStop(["check", "--all"], stdin=endless)
            self.assertQuietStop(["sanitize", "-"], stdin=endless)
        self.assertQuietStop(["check", "--all", "-j", "2", "/dev/urandom", "/dev/urandom"])

    def test_finite_inputs(self):
        many = [self.write("f%d" % i, b"\xff" * 5000) for i in range(50)]
        self.assertQuietStop(["check", "--all"] + many)
        self.assertQuietStop(["check", "--all", "--json"] + many)
        self.assertQuietStop(["check", "--all", "-j3"] + many)

    def test_shell_pipeline_head(self):
        cmd = " ".join(map(harness.shell_quote, harness.cli_command(["sanitize", "/dev/zero"])))
        start = time.monotonic()
        p = subprocess.run(["bash", "-c", cmd + ' | head -c1 >/dev/null; echo "${PIPESTATUS[0]}"'],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=self.LIMIT * harness.SLOWDOWN)
        self.assertLess(time.monotonic() - start, self.LIMIT * harness.SLOWDOWN)
        self.assertEqual((p.stdout, p.stderr), (b"2\n", b""))


class WriteErrors(CliTest):
    def test_dev_full(self):
        bad = self.write("bad", b"x\xc0y\n" * 10)
        cases = [["check", bad], ["check", "--all", bad], ["check", "--json", bad],
                 ["check", "--all", "-j2", bad, bad, bad], ["sanitize", bad], ["--help"],
                 ["--version"]]
        with open("/dev/full", "wb") as full:
            for args in cases:
                p = run(args, stdout=full)
                self.assertExit(p, 2)
                self.assertEqual(p.stderr, FULL, args)

    def test_large_sanitize_to_dev_full(self):
        data = harness.hostile(random.Random(1), 2 * harness.CHUNK)
        src = self.write("big", data)
        with open("/dev/full", "wb") as full:
            p = run(["sanitize", src], stdout=full)
        self.assertExit(p, 2)
        self.assertEqual(p.stderr, FULL)

    @unittest.skipIf(harness.WRAPPER, "the wrapper (valgrind) needs TMPDIR itself")
    def test_json_error_list_without_a_temporary_directory(self):
        # Over 256 KiB of JSON errors goes to a temporary file; none can be made.
        bad = self.write("bad", b"\xc0a" * 40000)
        p = run(["check", "--all", "--json", bad], env={"TMPDIR": self.path("nowhere")})
        self.assertExit(p, 2)
        self.assertEqual(p.stdout, b"")
        self.assertEqual(p.stderr.splitlines()[0],
                         b"utf8guard: %s: cannot keep the JSON error list in a temporary file: "
                         b"No such file or directory" % bad.encode())

    def test_closed_stdout(self):
        bad = self.write("bad", b"\xc0")
        for args in (["check", bad], ["sanitize", bad]):
            p = run(args, stdout=None, preexec_fn=lambda: os.close(1))
            self.assertExit(p, 2)
            self.assertEqual(p.stderr,
                             b"utf8guard: error writing standard output: Bad file descriptor\n")


class FileInputs(CliTest):
    """A regular file is read like a pipe, but counted lazily: errors found
    past the first chunks get the lines and columns a pipe gets."""

    UNIT = b"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\n"  # 1-4-byte characters, 16 bytes

    def json_of(self, p):
        self.assertEqual(p.stdout.count(b"\n"), 1, p.stdout)
        return json.loads(p.stdout)

    def test_error_past_many_chunks(self):
        # Past 8 MiB (32 chunks): the same offset, line and column as when
        # the bytes come through a pipe.
        head = self.UNIT * ((8 << 20) // len(self.UNIT) + 3)
        data = head + b"ok \xed\xa0\x80 tail\n" + self.UNIT
        f = self.write("f", data)
        from_file = run(["check", "--all", "--json", f])
        with open(f, "rb") as src:
            from_pipe = run(["check", "--all", "--json", "-"], input=src.read())
        self.assertExit(from_file, 1)
        got = self.json_of(from_file)
        self.assertEqual(got["errors"][0]["offset"], len(head) + 3)
        self.assertEqual(got["errors"][0]["kind"], "surrogate")
        self.assertEqual(got["errors"][0]["line"], data.count(b"\n", 0, len(head)) + 1)
        piped = self.json_of(from_pipe)
        piped["path"] = f
        self.assertEqual(got, piped)

    def test_stdin_file_read_from_its_middle(self):
        # Standard input may be a file whose offset is not 0: only the bytes
        # from there on are checked (offsets count from there), and the
        # shared offset is left at the end of the file.
        data = self.UNIT * 5000
        f = self.write("f", data)
        for start, valid in ((len(self.UNIT) * 7, True), (len(self.UNIT) * 7 + 4, False)):
            script = ("import os, subprocess, sys\n"
                      "fd = os.open(sys.argv[1], os.O_RDONLY)\n"
                      "os.lseek(fd, int(sys.argv[2]), os.SEEK_SET)\n"
                      "p = subprocess.run(sys.argv[3:], stdin=fd, stdout=subprocess.PIPE)\n"
                      "sys.stdout.buffer.write(p.stdout)\n"
                      "print(p.returncode, os.lseek(fd, 0, os.SEEK_CUR))\n")
            out = subprocess.run([sys.executable, "-c", script, f, str(start)] +
                                 harness.cli_command(["check", "--json"]),
                                 stdout=subprocess.PIPE, check=True, timeout=120).stdout
            report, status = out.rsplit(b"\n", 2)[0], out.rsplit(b"\n", 2)[1].split()
            got = json.loads(report)
            self.assertEqual(got["bytes"], len(data) - start)
            self.assertEqual(got["valid"], valid)
            if not valid:  # the offset fell after the 4 bytes of "caf\xc3": \xa9 is lone
                self.assertEqual(got["errors"][0]["offset"], 0)
                self.assertEqual(got["errors"][0]["kind"], "unexpected_continuation")
            self.assertEqual(int(status[0]), 0 if valid else 1)
            self.assertEqual(int(status[1]), len(data))


@unittest.skipIf(harness.WRAPPER, "a wrapper's memory is not the tool's")
class Memory(CliTest):
    """Peak memory stays under 64 MiB whatever the input or the error count."""

    LIMIT_KIB = 64 * 1024

    def peak_kib(self, args, stdin_cmd=None):
        """Runs the CLI (stdout to /dev/null) in a fresh Python process and
        returns the tool's peak RSS in KiB."""
        script = ("import resource, subprocess, sys\n"
                  "src = subprocess.Popen(sys.argv[2], shell=True, stdout=subprocess.PIPE)"
                  " if sys.argv[2] else None\n"
                  "p = subprocess.run(sys.argv[3:], stdin=src.stdout if src else None,"
                  " stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
                  "if src: src.stdout.close(); src.wait()\n"
                  "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
        # Under AddressSanitizer freed memory sits in a 256 MiB quarantine that
        # is the sanitizer's, not the tool's: turn it off so the figure stays
        # the tool's own (ASAN_OPTIONS is ignored by uninstrumented builds).
        asan = ":".join(filter(None, [os.environ.get("ASAN_OPTIONS"), "quarantine_size_mb=0"]))
        env = dict(os.environ, TMPDIR=self.dir, ASAN_OPTIONS=asan)
        out = subprocess.run([sys.executable, "-c", script, "x", stdin_cmd or ""] +
                             harness.cli_command(args), env=env, stdout=subprocess.PIPE,
                             check=True, timeout=600).stdout.split()
        return int(out[0]), int(out[1])

    def test_millions_of_errors(self):
        hostile = self.write("hostile", b"\xc0a" * 2_000_000)
        for args in (["check", "--all"], ["check", "--all", "--json"],
                     ["check", "--all", "--json", "-j", "3", hostile, hostile]):
            code, kib = self.peak_kib(args + [hostile])
            self.assertEqual(code, 1)
            self.assertLess(kib, self.LIMIT_KIB, args)

    def test_large_valid_file(self):
        big = self.write("big", b"0123456789abcde\n" * (6 << 20))  # 96 MiB
        for args in (["check"], ["check", "--json", "-j", "2", big]):
            code, kib = self.peak_kib(args + [big])
            self.assertEqual(code, 0)
            self.assertLess(kib, self.LIMIT_KIB, args)

    def test_long_stdin(self):
        # 512 MiB through a pipe: nothing may accumulate.
        for args in (["check"], ["check", "--all", "--json"], ["sanitize"]):
            code, kib = self.peak_kib(args, "head -c 536870912 /dev/zero")
            self.assertEqual(code, 0)
            self.assertLess(kib, self.LIMIT_KIB, args)


if __name__ == "__main__":
    harness.main()
