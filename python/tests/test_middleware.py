"""The middleware in process, without a server: every body type cut at every
byte, detect-only logging, and what the application sees."""

import asyncio
import codecs
import io
import json
import logging

import pytest

from oracle import lipsum, percent_encode_all, vectors
from utf8guard.asgi import RequestRejected, Utf8GuardMiddleware
from utf8guard.wsgi import Utf8GuardWSGIMiddleware

LOOP = asyncio.new_event_loop()  # one loop for every call: a loop per call costs more than the call
BODY_TYPES = [(b"text/plain", lambda d: d), (b"application/json", lambda d: b'["' + d + b'"]'),
              (b"application/x-www-form-urlencoded", lambda d: b"q=" + d),
              (b"application/x-www-form-urlencoded", lambda d: b"q=" + percent_encode_all(d))]


def asgi_call(body_parts, content_type, detect=False, caplog=None):
    seen = []

    async def app(scope, receive, send):
        while True:
            message = await receive()
            seen.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    messages = [{"type": "http.request", "body": p, "more_body": i + 1 < len(body_parts)}
                for i, p in enumerate(body_parts)]
    sent = []

    async def receive():
        return messages.pop(0)

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/x", "raw_path": b"/x", "query_string": b"",
             "headers": [(b"content-type", content_type)]}
    LOOP.run_until_complete(Utf8GuardMiddleware(app, detect_only=detect)(scope, receive, send))
    return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:]), seen


def wsgi_call(body_parts, content_type):
    class Chunks(io.RawIOBase):
        def __init__(self):
            self.parts = [p for p in body_parts if p]  # b"" is the end of a stream

        def read(self, size=-1):
            return self.parts.pop(0) if self.parts else b""

    def app(environ, start_response):
        data = b""
        while True:
            piece = environ["wsgi.input"].read(1 << 16)
            data += piece
            if not piece or len(data) >= int(environ["CONTENT_LENGTH"]):
                break
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]

    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/x", "RAW_URI": "/x", "QUERY_STRING": "",
               "CONTENT_TYPE": content_type.decode(), "wsgi.input": Chunks(),
               "CONTENT_LENGTH": str(sum(len(p) for p in body_parts))}
    status = []
    body = b"".join(Utf8GuardWSGIMiddleware(app)(environ, lambda s, h, e=None: status.append(s)))
    return int(status[0].split()[0]), body


@pytest.mark.parametrize("content_type,wrap", BODY_TYPES)
def test_bodies_cut_at_every_byte(content_type, wrap):
    for vid, data, kind in vectors():
        if kind == "none":
            continue
        body = wrap(b"lead " + data + b" tail")
        for cut in range(len(body) + 1):
            parts = [body[:cut], body[cut:]]
            status, answer, seen = asgi_call(parts, content_type)
            assert status == 400, (vid, cut)
            problem = json.loads(answer)
            assert problem["part"] == "body" and all(b < 0x80 for b in answer)
            # the application never received the chunk holding the finding
            # (a character may still be open at the end of what it saw)
            codecs.getincrementaldecoder("utf-8")().decode(b"".join(seen), final=False)
            assert wsgi_call(parts, content_type)[0] == 400, (vid, cut)
    for text in lipsum().values():
        body = wrap(text)
        for cut in range(0, len(body) + 1, 7):
            parts = [body[:cut], body[cut:]]
            assert asgi_call(parts, content_type)[0] == 200
            assert wsgi_call(parts, content_type) == (200, b"ok")


def test_other_types_untouched():
    assert asgi_call([b"\xff\xfe"], b"application/octet-stream")[0] == 200
    assert asgi_call([b"\xe9t\xe9"], b"text/plain; charset=iso-8859-1")[0] == 200
    assert wsgi_call([b"\xff"], b"image/png")[0] == 200


def test_detect_only_logs(caplog):
    with caplog.at_level(logging.WARNING, logger="utf8guard"):
        status, answer, seen = asgi_call([b"ok \xc0\xaf"], b"text/plain", detect=True)
    assert status == 200 and seen == [b"ok \xc0\xaf"]
    assert caplog.messages == [
        "utf8guard: detected POST /x from -: body: overlong at byte 3 (C0 AF) [overlong_form U+002F]"]
    record = caplog.records[0]
    assert record.levelno == logging.WARNING
    assert record.utf8guard["part"] == "body" and record.utf8guard["finding"]["kind"] == "overlong"


def test_app_that_swallows_the_rejection_is_still_refused():
    async def app(scope, receive, send):
        try:
            await receive()
        except RequestRejected:
            pass
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    sent = []

    async def receive():
        return {"type": "http.request", "body": b"\xff", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "raw_path": b"/", "query_string": b"",
             "headers": [(b"content-type", b"text/plain")]}
    LOOP.run_until_complete(Utf8GuardMiddleware(app)(scope, receive, send))
    assert [m.get("status") for m in sent if m["type"] == "http.response.start"] == [400]
