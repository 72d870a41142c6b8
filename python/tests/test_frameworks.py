"""The middleware as each framework runs it, on a real server: refusals are
answers (warnings, never errors or admin mails), exempt routes and views,
and the same 400 document everywhere.

UTF8GUARD_TEST_SERVER_KINDS names the servers (servers.py): asgi (Starlette
under uvicorn), wsgi (Flask under gunicorn), django-mw-wsgi and
django-mw-asgi (settings.MIDDLEWARE under gunicorn and uvicorn),
django-asgi and django-wsgi (the wrappers around Django's handlers)."""

import json
import os

import pytest

import servers

KINDS = os.environ.get("UTF8GUARD_TEST_SERVER_KINDS", "asgi,wsgi").split(",")
TEXT = [(b"Content-Type", b"text/plain")]
FORM = [(b"Content-Type", b"application/x-www-form-urlencoded")]
LONG = 300 * 1024  # past the WSGI middleware's buffer: checked as the view reads it


@pytest.fixture(scope="module", params=KINDS)
def server(request):
    with servers.server(request.param) as port:
        yield request.param, port


def stats(port):
    status, _, body = servers.request(port, b"/_stats")
    assert status == 200, body
    return json.loads(body)


def refused(port, target, headers, body):
    status, fields, answer = servers.request(port, target, headers, body)
    assert status == 400, (target, answer[:300])
    assert fields["content-type"] == b"application/problem+json"
    problem = json.loads(answer)
    assert problem["type"] == "urn:utf8guard:problem:unacceptable-text"
    assert problem["part"] == "body" and problem["status"] == 400
    return fields


def test_a_burst_of_refusals_logs_warnings_only(server):
    kind, port = server
    before = stats(port)
    for i in range(100):
        if i % 10 == 9:  # a long body, refused as the application reads it
            body = b"a" * LONG + b"\xc0\xaf"
            refused(port, b"/echo" if i % 20 == 9 else b"/form", FORM, body)
        elif i % 2:
            refused(port, b"/form", FORM, b"q=%C0%AF")
        else:
            refused(port, b"/echo", TEXT, b"caf\xe9")
    after = stats(port)

    def grew(key):
        return after.get(key, 0) - before.get(key, 0)

    assert grew("utf8guard:WARNING") == 100, after
    assert grew("ERROR") == 0 and grew("CRITICAL") == 0, after
    assert after["mails"] == 0, after


def test_exempt_prefix_and_view(server):
    kind, port = server
    status, _, answer = servers.request(port, b"/webhook/in", TEXT, b"caf\xe9")
    assert (status, answer) == (200, b"ok 4")
    if kind in ("wsgi", "django-mw-wsgi", "django-mw-asgi"):  # the decorator needs the views
        status, _, answer = servers.request(port, b"/raw", TEXT, b"caf\xe9")
        assert (status, answer) == (200, b"ok 4")
    refused(port, b"/webhook", TEXT, b"caf\xe9")  # a prefix, not a word


def test_clean_bodies_of_every_length_pass(server):
    kind, port = server
    for size in (0, 1, LONG):
        body = "é".encode() * (size // 2)
        status, _, answer = servers.request(port, b"/echo", TEXT, body)
        assert (status, answer) == (200, b"ok %d" % len(body)), (kind, size)


def test_multipart_uploads(server):
    """Part headers and text fields through the rule core's multipart reader;
    binary file contents left alone."""
    kind, port = server
    ctype = [(b"Content-Type", b"multipart/form-data; boundary=b0undary")]

    def body(filename, field=b"caption"):
        return (b"--b0undary\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\n" + field
                + b"\r\n--b0undary\r\nContent-Disposition: form-data; name=\"photo\"; filename=\""
                + filename + b"\"\r\nContent-Type: image/png\r\n\r\n" + bytes(range(256)) * 64
                + b"\r\n--b0undary--\r\n")

    for clean in ("фото.png".encode(), "写真.png".encode()):
        status, _, answer = servers.request(port, b"/echo", ctype, body(clean))
        assert status == 200, (kind, answer[:200])
    for hostile in ("photo\u202egpj.exe".encode(), b"..%C0%AF..", b"shell.php\x00.jpg"):
        fields = refused(port, b"/echo", ctype, body(hostile))
    refused(port, b"/echo", ctype, body(b"a.png", field=b"caf\xe9"))


def test_the_client_does_not_choose_what_is_checked(server):
    """A body's declared charset, a missing Content-Type or a JSON escape is no
    way around the guard (the rule core reads Content-Type as nginx does)."""
    kind, port = server
    for ctype in (b"application/json; charset=latin1", b"application/json; charset=x",
                  b"text/plain; charset=iso-8859-1", b"application/json; x=\"a;charset=latin1\"",
                  b"application/x-www-form-urlencoded; charset=latin1", None):
        headers = [] if ctype is None else [(b"Content-Type", ctype)]
        refused(port, b"/echo", headers, b"a\xc0\xaf")
    for escaped in (b'{"a":"\\ud800"}', b'{"a":"x\\udc00"}'):
        refused(port, b"/echo", [(b"Content-Type", b"application/json")], escaped)
    status, _, answer = servers.request(port, b"/echo", [(b"Content-Type", b"application/json")],
                                        b'{"a":"caf\\u00e9 \\ud83d\\ude00"}')
    assert status == 200, answer
    status, fields, answer = servers.request(
        port, b"/echo", [(b"Content-Type", b"text/plain"), (b"Content-Encoding", b"gzip")], b"x")
    assert status == 400 and json.loads(answer)["finding"]["kind"] == "content_encoding"
