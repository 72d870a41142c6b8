"""One POST through each middleware, with a stand-in application that reads
the body and answers 200: the status the middleware gives."""

import asyncio
import io

from utf8guard.asgi import Utf8GuardMiddleware
from utf8guard.wsgi import Utf8GuardWSGIMiddleware

LOOP = asyncio.new_event_loop()  # one loop for every call: a loop per call costs more than the call


async def _app(scope, receive, send):
    await receive()
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


def asgi_status(headers, body):
    """The ASGI middleware's status for a POST of body with headers, a list
    of (name, value) bytes pairs."""
    sent = []

    async def receive():
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/", "raw_path": b"/", "query_string": b"",
             "headers": headers}
    LOOP.run_until_complete(Utf8GuardMiddleware(_app)(scope, receive, send))
    return sent[0]["status"]


def wsgi_status(fields, body):
    """The WSGI middleware's status for a POST of body with fields, environ
    keys (CONTENT_TYPE, HTTP_...) and their values."""
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/", "QUERY_STRING": "",
               "CONTENT_LENGTH": str(len(body)), "wsgi.input": io.BytesIO(body)}
    environ.update(fields)
    started = []
    b"".join(Utf8GuardWSGIMiddleware(lambda e, s: s("200 OK", []) or [b"ok"])(
        environ, lambda s, h, e=None: started.append(s)))
    return int(started[0][:3])
