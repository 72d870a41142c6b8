#!/usr/bin/env python3
"""test_bodies.py - request bodies as they stream in: chunked transfer
encoding in 1-byte chunks with the error at every position, pipelined
keep-alive requests, clients that stop in the middle of a body, and a 100 MiB
body during which the worker's memory stays flat."""

import time

import nginx_harness as h
from nginx_harness import finding, read_response, request

BASE = "café שלום 月 text".encode()
JSON_TYPE = [(b"Content-Type", b"application/json")]
FORM_TYPE = [(b"Content-Type", b"application/x-www-form-urlencoded")]
TEXT_TYPE = [(b"Content-Type", b"text/plain")]
MIB = 1 << 20


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS for %d" % pid)


class Bodies(h.SiteTest):
    def expect(self, raw, want):
        status = self.nginx.exchange(raw)
        got = self.nginx.new_findings()
        self.assertEqual((status, got), (400, [want]) if want else (200, []))

    def test_one_byte_chunks_error_at_every_position(self):
        for types, bad, deny, percent in ((JSON_TYPE, b"\xc0\xaf", h.JSON, False),
                                          (FORM_TYPE, b"%C0%AF", h.FORM, True),
                                          (JSON_TYPE, b"\xef\xbf\xbe", h.JSON, False),
                                          (FORM_TYPE, b"%E2%80%AE", h.FORM, True)):
            for at in range(len(BASE) + 1):
                body = BASE[:at] + bad + BASE[at:]
                want = finding("body", body, deny, percent)
                self.assertIsNotNone(want)
                with self.subTest(bad=bad, at=at):
                    self.expect(request(b"POST", b"/c", types, body, chunked=True), want)
        # Cut at the end: found only when the body ends.
        body = BASE + b"\xe2\x82"
        self.expect(request(b"POST", b"/c", TEXT_TYPE, body, chunked=True),
                    finding("body", body, h.TEXT, False))
        self.expect(request(b"POST", b"/c", JSON_TYPE, BASE * 3, chunked=True), None)

    def test_pipelined_keep_alive(self):
        clean = [request(b"GET", b"/p1"), request(b"POST", b"/p2", JSON_TYPE, b'{"a":"%s"}' % BASE),
                 request(b"POST", b"/p3", FORM_TYPE, b"a=%C3%A9", chunked=True),
                 request(b"GET", b"/p4?q=%E6%9C%88")]
        with self.nginx.connect() as s:
            s.sendall(b"".join(clean))
            rest = b""
            for _ in clean:
                status, rest = read_response(s, rest)
                self.assertEqual(status, 200)
        self.assertEqual(self.nginx.new_findings(), [])
        bad = request(b"POST", b"/p5", JSON_TYPE, b'{"a":"\xed\xa0\x80"}')
        with self.nginx.connect() as s:
            s.sendall(clean[0] + bad + clean[1])
            status, rest = read_response(s)
            self.assertEqual(status, 200)
            status, rest = read_response(s, rest)
            self.assertEqual(status, 400)
            self.assertEqual(read_response(s, rest)[0], 0)  # closed after the refusal
        self.assertEqual(self.nginx.new_findings(),
                         [finding("body", b'{"a":"\xed\xa0\x80"}', h.JSON, False)])

    def test_client_stops_mid_body(self):
        head = request(b"POST", b"/m", JSON_TYPE)[:-2] + b"Content-Length: 100000\r\n\r\n"
        for sent in (b"", b"x" * 1000, b"x\xe2", b"x\xc0"):
            with self.nginx.connect() as s:
                s.sendall(head + sent)
                time.sleep(0.05)
            self.expect(request(b"GET", b"/after"), None)
        # A finding whose message bytes all arrived is blocked before the body ends.
        sent = b"x" * 10 + b"\xc0\xaf" + b"y" * 60
        with self.nginx.connect() as s:
            s.sendall(head + sent)
            self.assertEqual(read_response(s)[0], 400)
        self.assertEqual(self.nginx.new_findings(), [finding("body", sent, h.JSON, False)])
        log = self.nginx.error_log()
        self.assertNotIn(b"exited on signal", log)
        self.assertNotIn(b"[alert]", log)

    def send_big(self, types, piece, size, tail=b""):
        """POSTs size bytes (piece repeated, then tail) and samples the worker's
        RSS after every 4 MiB sent. Returns (status, samples in KiB)."""
        worker = self.nginx.worker_pids()
        self.assertEqual(len(worker), 1)
        block = piece * (MIB // len(piece))
        block = block + b"&" * (MIB - len(block))  # ASCII: no character is cut
        count = (size - len(tail)) // MIB
        body_len = count * MIB + len(tail)
        head = request(b"POST", b"/big", types)[:-2] + b"Content-Length: %d\r\n\r\n" % body_len
        samples = []
        with self.nginx.connect(timeout=60) as s:
            s.sendall(head)
            for i in range(count):
                s.sendall(block)
                if i % 4 == 3:
                    samples.append(rss_kib(worker[0]))
            s.sendall(tail)
            status = read_response(s)[0]
        return status, samples, body_len

    def test_100_mib_body_in_flat_memory(self):
        line = h.multilingual()[1] + b"\n"
        piece = line * (4096 // len(line) + 1)
        status, samples, _ = self.send_big(TEXT_TYPE, piece, 100 * MIB)
        self.assertEqual(status, 200)
        self.assertEqual(self.nginx.new_findings(), [])
        # After the first 4 MiB the worker holds what it will hold: the rest
        # streams through its buffers and the proxy's temporary file.
        self.assertLess(max(samples) - samples[0], 2048, samples)
        # The same body, percent-encoded with an error at its very end.
        piece = b"a=" + b"".join(b"%%%02X" % c for c in line) + b"&"
        tail = b"b=%E2%82"
        status, samples, body_len = self.send_big(FORM_TYPE, piece, 100 * MIB, tail)
        self.assertEqual(status, 400)
        want = "body: incomplete at byte %d (E2 82)" % (body_len - 6)
        self.assertEqual(self.nginx.new_findings(), [want])
        self.assertEqual(finding("body", b"b=%E2%82", h.FORM, True),
                         "body: incomplete at byte 2 (E2 82)")
        self.assertLess(max(samples) - samples[0], 2048, samples)


if __name__ == "__main__":
    h.main()
