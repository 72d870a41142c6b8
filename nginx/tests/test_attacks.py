#!/usr/bin/env python3
"""test_attacks.py - every row of security/vectors/vectors.tsv, raw and
percent-encoded, in the path, the query, a header, a form body and a JSON
body, against nginx with the module's defaults: blocked (400) with the
finding the oracle words, or let through when the oracle finds nothing
there (a percent-encoded row in a header or a JSON string is plain ASCII
there). Multilingual text in every part is never blocked."""

import os

import nginx_harness as h
from nginx_harness import finding, request

VECTORS = os.path.join(h.ROOT, "security", "vectors", "vectors.tsv")


def rows():
    out = []
    with open(VECTORS, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or line.startswith("id\t"):
                continue
            cols = line.rstrip("\n").split("\t")
            out.append((cols[0], bytes.fromhex(cols[1])))
    return out


def encode(data):
    return "".join("%%%02X" % b for b in data).encode()


def carried_in_target(data):
    """Whether nginx's request-line parser takes these raw bytes in a target:
    it refuses controls and spaces, and '?', '#' and '%' mean something."""
    return not any(b <= 0x20 or b == 0x7F or b in b"?#%" for b in data)


def carried_in_header(data):
    """Whether a header value can carry these raw bytes: NUL, CR and LF end
    or break the line, and nginx trims spaces and tabs at both ends."""
    return not any(b in (0, 0x0A, 0x0D) for b in data) and data[:1] not in (b" ", b"\t") \
        and data[-1:] not in (b" ", b"\t")


# Each part: how the payload goes into the request, and what the module
# checks there (the bytes of the part, its denied categories, percent mode).
def path_case(p):
    return request(b"GET", b"/a/" + p), ("path", b"/a/" + p, h.TARGET, True)


def query_case(p):
    return request(b"GET", b"/q?v=" + p), ("query", b"v=" + p, h.TARGET, True)


def header_case(p):
    return request(b"GET", b"/h", [(b"X-Test", p)]), ("header X-Test", p, h.HEADERS, False)


def form_case(p):
    body = b"a=1&v=" + p
    return (request(b"POST", b"/f", [(b"Content-Type", b"application/x-www-form-urlencoded")],
                    body), ("body", body, h.FORM, True))


def json_case(p):
    body = b'{"v":"' + p + b'"}'
    return (request(b"POST", b"/j", [(b"Content-Type", b"application/json")], body),
            ("body", body, h.JSON, False))


def text_case(p):
    return (request(b"POST", b"/t", [(b"Content-Type", b"text/plain; charset=utf-8")], p),
            ("body", p, h.TEXT, False))


PARTS = {"path": (path_case, carried_in_target), "query": (query_case, carried_in_target),
         "header": (header_case, carried_in_header), "form": (form_case, None),
         "json": (json_case, None)}


class Attacks(h.SiteTest):
    def check(self, raw, part, data, deny, percent):
        want = finding(part, data, deny, percent)
        status = self.nginx.exchange(raw)
        got = self.nginx.new_findings()
        if part == "path" and b"%00" in data:
            # nginx decodes the path and refuses a NUL in it itself, before
            # any module runs.
            self.assertEqual((status, got), (400, []))
            self.assertIn(b"client sent invalid request", self.nginx.error_log())
            return True
        if want is None:
            self.assertEqual((status, got), (200, []))
        else:
            self.assertEqual((status, got), (400, [want]))
        return want is not None

    def test_every_row_in_every_part(self):
        blocked = skipped = 0
        for name, payload in rows():
            for part, (case, carried) in PARTS.items():
                for encoding, p in (("raw", payload), ("percent", encode(payload))):
                    if encoding == "raw" and carried is not None and not carried(p):
                        skipped += 1
                        continue
                    with self.subTest(row=name, part=part, encoding=encoding):
                        raw, (label, data, deny, percent) = case(p)
                        blocked += self.check(raw, label, data, deny, percent)
        # Every ill-formed row is blocked raw in the path, the query, a
        # header, a form and a JSON body, and encoded in the path, the query
        # and a form body, wherever the raw bytes could be sent at all.
        self.assertGreater(blocked, 300)
        self.assertLess(skipped, 40)

    def test_multilingual_text_is_never_blocked(self):
        for i, line in enumerate(h.multilingual()):
            words = line.replace(b" ", b"+")
            cases = [path_case(encode(line)), path_case(line.replace(b" ", b"_")),
                     query_case(words), query_case(encode(line)), header_case(line),
                     form_case(words), form_case(encode(line)), json_case(line), text_case(line),
                     text_case(b"\n".join([line] * 50))]
            for n, (raw, (label, data, deny, percent)) in enumerate(cases):
                with self.subTest(line=i, case=n):
                    self.assertIsNone(finding(label, data, deny, percent))
                    self.assertFalse(self.check(raw, label, data, deny, percent))


if __name__ == "__main__":
    h.main()
