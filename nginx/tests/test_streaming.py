#!/usr/bin/env python3
"""test_streaming.py - every body byte is seen, however nginx reads it: in
memory, spooled to a temporary file (client_body_buffer_size 1k, a 10 MiB
body), chunked, over HTTP/2 (h2c, curl --http2-prior-knowledge), and with
proxy_request_buffering off; a finding at every offset across a body
buffer's boundary, with buffering on and off, in block and detect mode, to a
real application that reads the body; and a JSON body with every non-ASCII
character escaped, whose lone surrogate escape must be found each of these
ways. nginx's buffer contract holds: no
[alert] in the error log, no stalled request, and the application gets
every byte of a clean body."""

import json
import os
import re
import subprocess
import tempfile
import time

import nginx_harness as h
from nginx_harness import finding, request

SERVER = """
    listen 127.0.0.1:{h2} http2;
    access_log {prefix}/streaming.log streaming;
    client_body_buffer_size 1k;
    proxy_http_version 1.1;
    location /buffered/ {{
        proxy_pass http://127.0.0.1:{app};
    }}
    location /unbuffered/ {{
        proxy_request_buffering off;
        proxy_pass http://127.0.0.1:{app};
    }}
    location /memory/ {{
        client_body_buffer_size 16m;
        proxy_pass http://127.0.0.1:{app};
    }}
"""

JSON = [(b"Content-Type", b"application/json")]
TEXT = [(b"Content-Type", b"text/plain")]
LINE = "żółw 月 שלום text ".encode()
MIB = 1 << 20
BAD = b"\xed\xa0\x80"  # a surrogate: found as soon as its second byte is read


def clean_text(size):
    """size bytes of multilingual text or a little less (cut at a character)."""
    return (LINE * (size // len(LINE) + 1))[:size].decode("utf-8", "ignore").encode()


def body_of(size, bad_at=None, bad=BAD):
    """About size bytes of multilingual text, with |bad| at |bad_at| or just
    before, and the finding the oracle words for it (None for a clean
    body). The oracle reads only the bytes around the finding: the text
    before it is clean, and a message shows a few bytes."""
    if bad_at is None:
        return clean_text(size), None
    head = clean_text(bad_at)
    body = head + bad + clean_text(max(size - len(head) - len(bad), 0))
    start = len(clean_text(max(len(head) - 32, 0)))
    want = finding("body", body[start:len(head) + 64], h.TEXT, False)
    return body, re.sub(r"at byte (\d+)", lambda m: "at byte %d" % (int(m.group(1)) + start), want,
                        count=1)


class Streaming(h.UpstreamTest):
    http = "utf8guard on; utf8guard_mode %s; log_format streaming '$server_port $status';"
    server = SERVER
    sent = 0

    @classmethod
    def setUpClass(cls):
        cls.h2_port = h.free_port()
        super().setUpClass()

    @classmethod
    def values(cls):
        return dict(super().values(), h2=cls.h2_port)

    def tearDown(self):
        log = self.nginx.error_log()
        self.assertNotIn(b"[alert]", log)
        self.assertNotIn(b"[crit]", log)

    def expect(self, status, body, want, where):
        """Checks the answer to a POST of |body| (whose finding is |want|)
        to |where| and what the application received."""
        got = self.nginx.new_findings()
        seen = [s for s in self.app.take() if s[1] == self.last]
        # Unbuffered: the application may have received the bytes before a
        # finding, and sees its request cut off (body None), maybe later.
        whole = [s[3] for s in seen if s[3] is not None]
        if where != "unbuffered":
            self.assertEqual(len(whole), len(seen))
        if want is None or self.mode == "detect":
            self.assertEqual((status, got), (200, [want] if want else []))
            self.assertEqual(len(whole), 1)
            self.assertTrue(whole[0] == body)  # every byte reached the application
        else:
            self.assertEqual((status, got, whole), (400, [want], []))

    def post(self, where, body, chunked=False, types=TEXT):
        raw = request(b"POST", self.target(where), types, body, chunked=chunked)
        return self.nginx.exchange(raw, timeout=30)

    def target(self, where):
        """A target of its own for each request: the application's record of
        an earlier one that nginx cut off (unbuffered) may come in late."""
        Streaming.sent += 1
        self.last = b"/%s/x?n=%d" % (where.encode(), Streaming.sent)
        return self.last

    def test_finding_at_every_offset_across_buffer_boundaries(self):
        for where in ("buffered", "unbuffered", "memory"):
            for boundary in (1024, 4096):
                for at in range(boundary - 6, boundary + 4):
                    body, want = body_of(boundary + 40, at)
                    with self.subTest(where=where, at=at):
                        self.expect(self.post(where, body), body, want, where)
            # Chunked: the chunks' framing splits the buffers elsewhere.
            for at in range(1018, 1030):
                body, want = body_of(3000, at)
                with self.subTest(where=where, at=at, chunked=True):
                    self.expect(self.post(where, body, chunked=True), body, want, where)

    def test_ten_mib_spooled_to_a_temporary_file(self):
        for where in ("buffered", "unbuffered"):
            for bad_at in (None, 5 * MIB + 7, 10 * MIB - 3):
                body, want = body_of(10 * MIB, bad_at)
                with self.subTest(where=where, bad_at=bad_at):
                    self.expect(self.post(where, body), body, want, where)
            body, want = body_of(MIB, MIB - 3)
            with self.subTest(where=where, chunked=True):
                self.expect(self.post(where, body, chunked=True), body, want, where)

    def h2(self, where, body, types=b"text/plain"):
        """POSTs body over HTTP/2 (h2c) with curl and returns the status
        nginx logged: when nginx answers before the body is all sent, it
        resets the stream after the response (as it does for its own 413),
        and curl reports the reset instead of the response."""
        log = os.path.join(self.nginx.prefix, "streaming.log")
        before = len(self.lines(log))
        with tempfile.NamedTemporaryFile() as f:
            f.write(body)
            f.flush()
            p = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{http_version}",
                                "--http2-prior-knowledge", "--max-time", "30",
                                "-H", b"Content-Type: " + types, "--data-binary", "@" + f.name,
                                "http://127.0.0.1:%d%s" % (self.h2_port,
                                                           self.target(where).decode())],
                               stdout=subprocess.PIPE, timeout=60)
        status, version = p.stdout.decode().split()
        deadline = time.monotonic() + 10
        while len(self.lines(log)) == before and time.monotonic() < deadline:
            time.sleep(0.02)
        logged = self.lines(log)[before:]
        self.assertEqual(len(logged), 1, logged)
        self.assertIn(status, ("000", logged[0].split()[1]))
        if status != "000":
            self.assertEqual(version, "2")
        return int(logged[0].split()[1])

    def lines(self, log):
        """The h2c port's lines of the access log (port, status)."""
        if not os.path.exists(log):
            return []
        with open(log) as f:
            return [line for line in f.read().splitlines()
                    if line.split()[0] == str(self.h2_port)]

    def test_http2(self):
        for where in ("buffered", "unbuffered", "memory"):
            for size, bad_at in ((100, None), (100, 50), (3 * MIB, None), (3 * MIB, 2 * MIB + 1),
                                 (3 * MIB, 3 * MIB - 3), (70000, 65535)):
                body, want = body_of(size, bad_at)
                with self.subTest(where=where, size=size, bad_at=bad_at):
                    self.expect(self.h2(where, body), body, want, where)


    def test_escaped_json_every_way(self):
        # JSON with every non-ASCII character escaped goes through the
        # library's vector decoder in blocks: a lone surrogate escape past
        # many of them, at body buffer boundaries, must be found however the
        # body arrives (in memory, spooled, unbuffered, chunked, HTTP/2).
        text = json.dumps(LINE.decode() * 400, ensure_ascii=True).encode()
        for where in ("buffered", "unbuffered", "memory"):
            for near in (None, 1021, 4093, len(text) - 40):
                # The lone surrogate escape goes in before the escape at or
                # after |near|, so that it cuts no other.
                at = None if near is None else text.index(b"\\", near)
                body = text if at is None else text[:at] + b"\\ud800" + text[at:]
                for how in ("http/1.1", "chunked", "h2"):
                    with self.subTest(where=where, at=at, how=how):
                        if how == "h2":
                            status = self.h2(where, body, b"application/json")
                        else:
                            status = self.post(where, body, how == "chunked", JSON)
                        got = self.nginx.new_findings()
                        self.app.take()
                        if at is None:
                            self.assertEqual((status, got), (200, []))
                        else:
                            self.assertEqual(status, 200 if self.mode == "detect" else 400)
                            self.assertEqual(len(got), 1, got)
                            self.assertTrue(got[0].startswith(
                                "body: surrogate \\ud800 U+D800 at byte %d (" % at), got[0])


class StreamingDetect(Streaming):
    mode = "detect"


if __name__ == "__main__":
    h.main()
