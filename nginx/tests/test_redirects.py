#!/usr/bin/env python3
"""test_redirects.py - the client's target and headers are checked once, at
the first location where the module is on, whichever way the request came
there: a server-level rewrite, try_files, index, error_page, rewrite ...
last, a named location. A refused request stays refused: an error_page for
its status may serve a page, but the application never receives it. Each
layout runs in block mode and in detect mode (one finding, logged once),
against a real application behind nginx (nginx_harness.Upstream)."""

import os

import nginx_harness as h
from nginx_harness import finding, request

# utf8guard is on in the server and off where the layouts start, as in the
# usual "guard the application only" configuration.
SERVER = """
    utf8guard on;
    root {prefix}/html;
    rewrite ^/old/(.*)$ /app/$1;
    location / {{
        utf8guard off;
        try_files $uri /index.php?$args;
    }}
    location ~ \\.php$ {{
        proxy_pass http://127.0.0.1:{app};
    }}
    location /app/ {{
        proxy_pass http://127.0.0.1:{app};
    }}
    location /idx/ {{
        utf8guard off;
        index /index.php;
    }}
    location /last/ {{
        utf8guard off;
        rewrite ^ /app/last last;
    }}
    location /twice/ {{
        rewrite ^ /app/twice last;
    }}
    location /named/ {{
        utf8guard off;
        try_files /nonexistent @app;
    }}
    location @app {{
        proxy_pass http://127.0.0.1:{app};
    }}
    location /err/ {{
        utf8guard off;
        error_page 404 = /app/err;
        return 404;
    }}
    location /to-app/ {{
        error_page 400 = @app;
        proxy_pass http://127.0.0.1:{app};
    }}
    location /to-proxy/ {{
        error_page 400 /app/refused;
        proxy_pass http://127.0.0.1:{app};
    }}
    location /to-page/ {{
        error_page 400 /refused.html;
        proxy_pass http://127.0.0.1:{app};
    }}
    location = /refused.html {{
        return 400 "refused\\n";
    }}
    location /failed/ {{
        utf8guard off;
        client_body_buffer_size 1k;
        error_page 502 = @app;
        proxy_pass http://127.0.0.1:{closed};
    }}
    location /off/ {{
        utf8guard off;
        proxy_pass http://127.0.0.1:{app};
    }}
"""

BAD_QUERY = b"a=%C0%AF"
QUERY_FINDING = finding("query", BAD_QUERY, h.TARGET, True)
BAD_HEADER = b"\xed\xa0\x80"
HEADER_FINDING = finding("header X-Test", BAD_HEADER, h.HEADERS, False)
JSON = [(b"Content-Type", b"application/json")]
BAD_BODY = b'{"a":"\xf4\x90\x80\x80"}'
BODY_FINDING = finding("body", BAD_BODY, h.JSON, False)

# Each layout: a target prefix that reaches the application through it.
LAYOUTS = [("server rewrite", b"/old/x"), ("try_files", b"/x"), ("try_files, .php", b"/y.php"),
           ("index", b"/idx/"), ("rewrite last", b"/last/x"), ("named location", b"/named/x"),
           ("error_page", b"/err/x"), ("direct", b"/app/x"), ("twice", b"/twice/x")]


class Redirects(h.UpstreamTest):
    http = "utf8guard_mode %s;"
    server = SERVER

    @classmethod
    def values(cls):
        return dict(super().values(), closed=h.free_port())

    @classmethod
    def prepare(cls, prefix):
        os.makedirs(os.path.join(prefix, "html", "idx"))

    def send(self, raw, refused, findings, again=None):
        """Sends raw; checks the answer, the findings logged and whether the
        application received the request. again: the location where a
        refused request was refused once more (block mode)."""
        status = self.nginx.exchange(raw)
        got = self.nginx.new_findings()
        seen = self.app.take()
        if self.mode == "block" and refused:
            if again:
                findings = findings + ['a refused request is not passed on to "%s"' % again]
            self.assertEqual((status, got, len(seen)), (400, findings, 0))
        else:
            self.assertEqual((status, got, len(seen)), (200, findings, 1))
        return seen

    def test_every_layout_checks_target_headers_and_body_once(self):
        for name, target in LAYOUTS:
            with self.subTest(layout=name):
                self.send(request(b"GET", target + b"?" + BAD_QUERY), True, [QUERY_FINDING])
                self.send(request(b"GET", target, [(b"X-Test", BAD_HEADER)]), True,
                          [HEADER_FINDING])
                self.send(request(b"POST", target, JSON, BAD_BODY), True, [BODY_FINDING])
                self.send(request(b"GET", target + b"?a=%C3%A9", [(b"X-Test", b"caf\xc3\xa9")]),
                          False, [])
        # The path the client sent, not the one a rewrite made of it.
        path = b"/old/%C0%AF"
        self.send(request(b"GET", path), True, [finding("path", path, h.TARGET, True)])
        path = b"/x%C0%AF"
        self.send(request(b"GET", path), True, [finding("path", path, h.TARGET, True)])

    def test_body_read_before_the_guarded_location(self):
        # A location where the module is off reads the body, its upstream
        # fails, and error_page takes the request to the application: the
        # body is checked there, from nginx's buffers or its temporary file.
        for size in (40, 3000, 100000):
            pad = b'{"pad":"' + "żółw 月 ".encode() * (size // 12) + b'",'
            bad = pad + BAD_BODY[1:]
            with self.subTest(size=size):
                want = finding("body", bad, h.JSON, False)
                seen = self.send(request(b"POST", b"/failed/x", JSON, bad), True, [want])
                if seen:
                    self.assertEqual(seen[0][3], bad)
                clean = pad + b'"a":"\xc3\xa9"}'
                seen = self.send(request(b"POST", b"/failed/x", JSON, clean), False, [])
                self.assertEqual(seen[0][3], clean)

    def test_off_stays_off(self):
        self.send(request(b"GET", b"/off/x?" + BAD_QUERY), False, [])

    def test_refused_stays_refused(self):
        for target, again in ((b"/to-app/x", "@app"), (b"/to-proxy/x", "/app/")):
            with self.subTest(target=target):
                self.send(request(b"GET", target + b"?" + BAD_QUERY), True, [QUERY_FINDING], again)
                self.send(request(b"POST", target, JSON, BAD_BODY), True, [BODY_FINDING], again)
                self.send(request(b"POST", target, JSON, b'{"a":"\xc3\xa9"}'), False, [])
        # An error page that is not the application is served.
        with self.nginx.connect() as s:
            s.sendall(request(b"GET", b"/to-page/x?" + BAD_QUERY, [(b"Connection", b"close")]))
            data = b""
            while True:
                more = s.recv(65536)
                if not more:
                    break
                data += more
        self.assertEqual(self.nginx.new_findings(), [QUERY_FINDING])
        self.assertEqual(len(self.app.take()), self.mode == "detect")
        if self.mode == "block":
            self.assertTrue(data.startswith(b"HTTP/1.1 400 "), data[:100])
            self.assertTrue(data.endswith(b"\r\n\r\nrefused\n"), data[-100:])
        else:
            self.assertTrue(data.startswith(b"HTTP/1.1 200 "), data[:100])
        self.assertNotIn(b"[alert]", self.nginx.error_log())


class RedirectsDetect(Redirects):
    mode = "detect"


if __name__ == "__main__":
    h.main()
