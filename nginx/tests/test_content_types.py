#!/usr/bin/env python3
"""test_content_types.py - the server decides what is checked, not the
client: every Content-Type variant a client could use to turn the body check
off (a charset on JSON, forms and text, none at all, a quoted ';', a codec
alias, NDJSON and +json types), two Content-Type headers, a malformed one,
a Content-Encoding the module cannot read, and header names that are no
tokens (ignore_invalid_headers off), in block and detect mode, against a
real application behind nginx."""

import json

import nginx_harness as h
from nginx_harness import finding, request

SERVER = """
    ignore_invalid_headers off;
    location / {{
        proxy_pass http://127.0.0.1:{app};
    }}
    location /declared/ {{
        utf8guard_text_charset declared;
        proxy_pass http://127.0.0.1:{app};
    }}
    location /coded/ {{
        utf8guard_content_encoding pass;
        proxy_pass http://127.0.0.1:{app};
    }}
    location /none-off/ {{
        utf8guard_body_none off;
        proxy_pass http://127.0.0.1:{app};
    }}
"""

RAW_BAD = b'{"a":"\xc0\xaf"}'
FORM_BAD = b"a=%C0%AF"
JSON_RULE = h.JSON


def ct(value):
    return [(b"Content-Type", value)]


# (Content-Type headers, body, the rule it is checked under (deny, percent)).
BODIES = [
    (ct(b"application/json"), RAW_BAD, (JSON_RULE, False)),
    (ct(b"application/json; charset=latin1"), RAW_BAD, (JSON_RULE, False)),
    (ct(b"application/json; charset=x"), RAW_BAD, (JSON_RULE, False)),
    (ct(b"Application/JSON ; Charset=\"windows-1252\" ;"), RAW_BAD, (JSON_RULE, False)),
    (ct(b'application/json; x="a;charset=latin1"'), RAW_BAD, (JSON_RULE, False)),
    (ct(b"application/problem+json"), RAW_BAD, (JSON_RULE, False)),
    (ct(b"application/x-ndjson"), RAW_BAD + b"\n" + RAW_BAD, (JSON_RULE, False)),
    (ct(b"application/jsonl"), RAW_BAD, (JSON_RULE, False)),
    (ct(b"application/json-seq"), b"\x1e" + RAW_BAD, (JSON_RULE, False)),
    ([], RAW_BAD, (h.NONE, False)),
    (ct(b"text/plain; charset=iso-8859-1"), RAW_BAD, (h.TEXT, False)),
    (ct(b"text/plain; charset=utf_8"), RAW_BAD, (h.TEXT, False)),
    (ct(b"text/plain; charset=us-ascii"), RAW_BAD, (h.TEXT, False)),
    (ct(b"application/x-www-form-urlencoded; charset=latin1"), FORM_BAD, (h.FORM, True)),
    (ct(b"application/x-www-form-urlencoded;charset=\"iso-8859-1\""), FORM_BAD, (h.FORM, True)),
]
MALFORMED = [
    (b"application/json x", "header Content-Type: malformed media type at byte 17 (78)"),
    (b"application/octet-stream, application/x-www-form-urlencoded",
     "header Content-Type: malformed media type at byte 24 (2C 20 61 70)"),
    (b"application/json; charset=utf-8; charset=latin1",
     "header Content-Type: malformed media type at byte 33 (63 68 61 72)"),
    (b"multipart/form-data", "header Content-Type: malformed media type at byte 19 (end)"),
]
TWO = "header Content-Type: 2 headers (parsers disagree on which one counts)"


class ContentTypes(h.UpstreamTest):
    server = SERVER

    def send(self, raw, findings):
        """Sends raw: refused with these findings in block mode (let through
        and logged in detect mode), or let through when there are none."""
        status = self.nginx.exchange(raw)
        got = self.nginx.new_findings()
        seen = len(self.app.take())
        refused = bool(findings) and self.mode == "block"
        self.assertEqual((status, got, seen), (400 if refused else 200, findings, 0 if refused else 1))

    def test_every_content_type_is_checked(self):
        for headers, body, (deny, percent) in BODIES:
            with self.subTest(headers=headers):
                want = finding("body", body, deny, percent)
                self.assertIsNotNone(want)
                self.send(request(b"POST", b"/x", headers, body), [want])
                self.send(request(b"POST", b"/x", headers, body, chunked=True), [want])
                clean = body.replace(b"\xc0\xaf", b"\xc3\xa9").replace(b"%C0%AF", b"%C3%A9")
                self.send(request(b"POST", b"/x", headers, clean), [])

    def test_text_charset_as_declared(self):
        latin1 = ct(b"text/plain; charset=iso-8859-1")
        self.send(request(b"POST", b"/declared/", latin1, b"caf\xe9"), [])
        self.send(request(b"POST", b"/x", latin1, b"caf\xe9"),
                  [finding("body", b"caf\xe9", h.TEXT, False)])
        # Declared UTF-8 under any name is still UTF-8; JSON ignores charsets.
        for headers, body, (deny, percent) in BODIES[:2] + BODIES[11:13]:
            self.send(request(b"POST", b"/declared/", headers, body),
                      [finding("body", body, deny, percent)])
        self.send(request(b"POST", b"/none-off/", [], RAW_BAD), [])

    def test_two_content_types(self):
        body = b"a=%C3%A9"
        headers = ct(b"application/octet-stream") + ct(b"application/x-www-form-urlencoded")
        self.send(request(b"POST", b"/x", headers, body), [TWO])
        # Detect mode: the body is then checked under the first one's rule.
        self.send(request(b"POST", b"/x", ct(b"text/plain") + ct(b"text/plain"), RAW_BAD),
                  [TWO] + ([finding("body", RAW_BAD, h.TEXT, False)] if self.mode == "detect"
                           else []))
        self.send(request(b"GET", b"/x", headers), [])  # no body, nothing to misread

    def test_malformed_content_type(self):
        for value, want in MALFORMED:
            with self.subTest(value=value):
                extra = [finding("body", RAW_BAD, h.NONE, False)] if self.mode == "detect" else []
                self.send(request(b"POST", b"/x", ct(value), RAW_BAD), [want] + extra)

    def test_content_encoding(self):
        gzip = [(b"Content-Encoding", b"gzip")] + ct(b"application/json")
        body = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xab\x56\x4a\x54\xb2\x52\x02\x00"
        want = 'header Content-Encoding: body coding "gzip" cannot be checked'
        self.send(request(b"POST", b"/x", gzip, body), [want])
        self.send(request(b"POST", b"/coded/", gzip, body), [])
        identity = [(b"Content-Encoding", b"identity")] + ct(b"application/json")
        self.send(request(b"POST", b"/x", identity, RAW_BAD),
                  [finding("body", RAW_BAD, JSON_RULE, False)])
        self.send(request(b"POST", b"/x", [(b"Content-Encoding", b"Deflate")], b"x"),
                  ['header Content-Encoding: body coding "Deflate" cannot be checked'])

    def test_json_escapes(self):
        # JSON bodies are checked as JSON text: an escape meets the rule as
        # the character it stands for (the words are the library's).
        cases = [(b'{"a":"\\ud800"}', "body: surrogate \\ud800 U+D800 at byte 6 (ED A0 80 22) "
                                      "[surrogate_code_point U+D800]"),
                 (b'{"a":"\\u202e"}', "body: disallowed bidi \\u202e U+202E at byte 6 "
                                      "(E2 80 AE 22)"),
                 (b'{"a":"\\u0000"}', "body: disallowed nul \\u0000 U+0000 at byte 6 (00 22 7D)"),
                 (b'{"a":"\\uffff"}', "body: disallowed noncharacter \\uffff U+FFFF at byte 6 "
                                      "(EF BF BF 22)"),
                 (b'{"a":"\\x41"}', "body: disallowed bad_escape U+005C at byte 6 (5C 78 34 31)")]
        for body, want in cases:
            for headers in (ct(b"application/json"), ct(b"application/x-ndjson; charset=latin1")):
                with self.subTest(body=body, headers=headers):
                    self.send(request(b"POST", b"/x", headers, body), [want])
                    self.send(request(b"POST", b"/x", headers, body, chunked=True), [want])
        # Clean JSON that escapes every non-ASCII character passes.
        for line in h.multilingual():
            text = line.decode().lstrip("\ufeff")
            body = json.dumps({"text": text, "lines": [text] * 3}, ensure_ascii=True).encode()
            self.send(request(b"POST", b"/x", ct(b"application/json"), body), [])
            self.send(request(b"POST", b"/x", ct(b"application/json"),
                              json.dumps({"text": text}, ensure_ascii=False).encode()), [])

    def test_header_names(self):
        name = b"X-\xc0\xaf\xe2\x80\xae"
        want = "header X-\\xC0\\xAF\\xE2\\x80\\xAE: name is no token at byte 2 (C0 AF E2 80)"
        self.send(request(b"GET", b"/x", [(name, b"v")]), [want])
        self.send(request(b"GET", b"/x", [(b"X-Ok_1", b"v")]), [])


class ContentTypesDetect(ContentTypes):
    mode = "detect"


if __name__ == "__main__":
    h.main()
