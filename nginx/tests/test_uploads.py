#!/usr/bin/env python3
"""test_uploads.py - multipart/form-data bodies through nginx: part header
values under the headers rule (the classic file-name attacks: a bidi
override, an overlong '/' raw and percent-encoded, a NUL), text fields under
the form rule, files left alone by default (and checked with
utf8guard_body_file), malformed multipart refused; part headers split at
every byte, 1-byte chunked bodies; block and detect mode, with a real
application behind nginx. Clean uploads of binary files with multilingual
names and fields pass byte for byte."""


import nginx_harness as h
from nginx_harness import finding, request

SERVER = """
    location / {{
        proxy_pass http://127.0.0.1:{app};
    }}
    location /files/ {{
        utf8guard_body_file strict;
        proxy_pass http://127.0.0.1:{app};
    }}
"""

BOUNDARY = b"----utf8guardBoundary7MA4YWxk"
CT = [(b"Content-Type", b"multipart/form-data; boundary=" + BOUNDARY)]
BINARY = bytes(range(256)) * 4 + b"\r\n--not-the-boundary\r\n"


def part(disposition, body, extra=b""):
    return (b"--" + BOUNDARY + b"\r\nContent-Disposition: " + disposition + b"\r\n" + extra +
            b"\r\n" + body + b"\r\n")


def form(*parts):
    return b"".join(parts) + b"--" + BOUNDARY + b"--\r\n"


def header_finding(n, value, param=None, param_value=None):
    """The finding of part n's Content-Disposition: its whole value raw
    under the headers rule, else the parameter's value percent-decoded."""
    label = "multipart part %d header Content-Disposition" % n
    want = finding(label, value, h.HEADERS, False)
    if want is None and param is not None:
        want = finding(label + " " + param, param_value, h.HEADERS, True)
    return want


def field_finding(n, body):
    return finding("multipart part %d field" % n, body, h.FORM, False)


def file_part(name):
    return part(b'form-data; name="upload"; filename="' + name + b'"', BINARY,
                b"Content-Type: application/octet-stream\r\n")


FILE_NAMES = [b"photo\xe2\x80\xaegpj.exe", b"..%C0%AF..", b"..\xc0\xaf..", b"shell.php\x00.jpg",
              b"a%E2%80%AEb.txt"]


class Multipart(h.UpstreamTest):
    server = SERVER

    def tearDown(self):
        self.assertNotIn(b"[alert]", self.nginx.error_log())

    def send(self, body, want, where=b"/x", chunked=False):
        status = self.nginx.exchange(request(b"POST", where, CT, body, chunked=chunked))
        got = self.nginx.new_findings()
        seen = [s[3] for s in self.app.take()]
        if want is None or self.mode == "detect":
            self.assertEqual((status, got, seen), (200, [want] if want else [], [body]))
        else:
            self.assertEqual((status, got, seen), (400, [want], []))

    def test_file_names(self):
        for name in FILE_NAMES:
            with self.subTest(name=name):
                disposition = b'form-data; name="upload"; filename="' + name + b'"'
                value = disposition
                want = header_finding(1, value, "filename", name)
                self.assertIsNotNone(want)
                self.send(form(file_part(name)), want)

    def test_text_fields_and_files(self):
        bad = "ok שלום ".encode() + b"\xc0\xaf"
        body = form(part(b'form-data; name="a"', "café".encode()),
                    part(b'form-data; name="b"', bad))
        self.send(body, field_finding(2, bad))
        # A file's bytes are the application's business unless asked for.
        upload = form(part(b'form-data; name="a"', b"x"), file_part(b"data.bin"))
        self.send(upload, None)
        self.send(upload, finding("multipart part 2 file", BINARY, h.TEXT, False), b"/files/x")

    def test_malformed(self):
        cut = form(part(b'form-data; name="a"', b"x"))[:-len(BOUNDARY) - 6]
        self.send(cut, "multipart: no closing boundary at the end of the body at byte %d"
                  % len(cut))
        self.send(b"preamble\r\n" + form(part(b'form-data; name="a"', b"x")),
                  "multipart: data before the first boundary at byte 0")

    def test_clean_multilingual_uploads(self):
        for i, line in enumerate(h.multilingual()):
            with self.subTest(line=i):
                # A file name is a header's value: a BOM in it is a finding
                # under the headers rule (field), so the sample's BOM goes.
                name = line[:60].decode("utf-8", "ignore").lstrip("\ufeff").encode()
                name = name.replace(b'"', b"")
                body = form(part(b'form-data; name="text"', line),
                            part(b'form-data; name="upload"; filename="' + name + b'"', BINARY),
                            part(b'form-data; name="more"', line * 3))
                self.send(body, None)

    def test_split_at_every_byte(self):
        name = b"photo\xe2\x80\xaegpj.exe"
        body = form(part(b'form-data; name="a"', "żółw".encode()), file_part(name))
        value = b'form-data; name="upload"; filename="' + name + b'"'
        want = header_finding(2, value, "filename", name)
        # 1-byte chunks: every boundary and part header arrives split at
        # every byte.
        self.send(body, want, chunked=True)
        clean = form(part(b'form-data; name="a"', "żółw".encode()), file_part(b"photo.jpg"))
        self.send(clean, None, chunked=True)
        # Two writes, split at each byte of the head of the second part.
        start = body.index(b"--" + BOUNDARY, 10)
        end = body.index(b"\r\n\r\n", start) + 4
        raw = request(b"POST", b"/x", CT, body)
        head = len(raw) - len(body)
        for cut in range(start, end + 1):
            with self.subTest(cut=cut):
                with self.nginx.connect() as s:
                    s.sendall(raw[:head + cut])
                    s.sendall(raw[head + cut:])
                    status = h.read_response(s)[0]
                got = self.nginx.new_findings()
                seen = self.app.take()
                refused = self.mode == "block"
                self.assertEqual((status, got, len(seen)), (400 if refused else 200, [want],
                                                             0 if refused else 1))


class MultipartDetect(Multipart):
    mode = "detect"


if __name__ == "__main__":
    h.main()
