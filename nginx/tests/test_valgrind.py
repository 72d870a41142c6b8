#!/usr/bin/env python3
"""test_valgrind.py - a subset of the attack, body and configuration runs
with nginx under valgrind memcheck (one process: `master_process off`), which
must report 0 errors. UTF8GUARD_VALGRIND names valgrind (default: on PATH)."""

import os
import re
import unittest

import nginx_harness as h
import test_attacks as attacks
from nginx_harness import Nginx, finding, read_response, request

VALGRIND = os.environ.get("UTF8GUARD_VALGRIND", "valgrind")


class Memcheck(unittest.TestCase):
    def test_requests_under_memcheck(self):
        n = Nginx(wrapper=[VALGRIND, "--error-exitcode=99", "--track-fds=no",
                           "--leak-check=no", "--num-callers=30"], start_timeout=90)
        try:
            n.start()
            rows = dict(attacks.rows())
            for name in ("iis-cve-2000-0884-url", "cesu8-pair", "end-lead-4", "trojan-source-rlo",
                         "legacy-6-byte-max", "bom-is-data"):
                for case in attacks.PARTS.values():
                    for p in (rows[name], attacks.encode(rows[name])):
                        raw, (label, data, deny, percent) = case[0](p)
                        if case[1] and p is rows[name] and not case[1](p):
                            continue
                        want = finding(label, data, deny, percent)
                        status = n.exchange(raw, timeout=60)
                        self.assertEqual((status, n.new_findings()),
                                         (400, [want]) if want else (200, []))
            body = "café שלום 月".encode() + b"\xed\xa0\x80" + b"x" * 20
            raw = request(b"POST", b"/c", [(b"Content-Type", b"application/json")], body,
                          chunked=True)
            self.assertEqual(n.exchange(raw, timeout=60), 400)
            self.assertEqual(n.new_findings(), [finding("body", body, h.JSON, False)])
            # The rule core's other paths: JSON text, multipart, the
            # request's shape.
            json_type = [(b"Content-Type", b"application/json")]
            raw = request(b"POST", b"/c", json_type, b'{"a":"x\\ud800y"}', chunked=True)
            self.assertEqual(n.exchange(raw, timeout=60), 400)
            upload = (b"--XyZ\r\nContent-Disposition: form-data; name=\"f\"; "
                      b"filename=\"..%C0%AF..\"\r\n\r\ndata\r\n--XyZ--\r\n")
            mp_type = [(b"Content-Type", b"multipart/form-data; boundary=XyZ")]
            self.assertEqual(n.exchange(request(b"POST", b"/u", mp_type, upload, chunked=True),
                                        timeout=60), 400)
            self.assertEqual(n.exchange(request(b"POST", b"/u", mp_type,
                                                upload.replace(b"%C0%AF", b"x")), timeout=60),
                             200)
            for headers in (json_type + json_type, [(b"Content-Type", b"text/plain x")],
                            json_type + [(b"Content-Encoding", b"gzip")]):
                self.assertEqual(n.exchange(request(b"POST", b"/s", headers, b"{}"), timeout=60),
                                 400)
            self.assertEqual(len(n.new_findings()), 5)
            with n.connect(timeout=60) as s:
                s.sendall(request(b"GET", b"/d/?v=%C3%A9") + request(b"GET", b"/detect/?v=%C0%AF"))
                status, rest = read_response(s)
                self.assertEqual(status, 200)
                self.assertEqual(read_response(s, rest)[0], 200)
            with n.connect(timeout=60) as s:  # stops mid-body
                s.sendall(request(b"POST", b"/m", [(b"Content-Length", b"1000")])[:-2] +
                          b"\r\n" + b"x\xe2")
            self.assertEqual(n.exchange(request(b"GET", b"/after"), timeout=60), 200)
        finally:
            # A graceful quit waits for the connection the last client left
            # mid-body until its timeout; a fast stop ends it, and nginx still
            # exits by itself, so memcheck writes its summary.
            status = n.stop(timeout=60, graceful=5)
            output = n.output()
            n.__exit__(None, None, None)
        summary = re.findall(r"ERROR SUMMARY: (\d+) errors", output)
        self.assertTrue(summary, output[-3000:])
        self.assertEqual(summary[-1], "0", output[-6000:])
        self.assertEqual(status, 0, output[-3000:])


if __name__ == "__main__":
    h.main()
