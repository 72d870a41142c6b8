"""ASGI middleware: refuse requests whose path, query, header values or body
are not acceptable UTF-8 text, before the application sees the bad bytes.

    from utf8guard.asgi import Utf8GuardMiddleware
    app = Utf8GuardMiddleware(app)                      # any ASGI app
    app.add_middleware(Utf8GuardMiddleware)             # Starlette, FastAPI

Checked, each under its own policy (a policy spec such as "url,-newline", or
None to leave the part alone):

- ``path``: the raw path (scope["raw_path"]), percent-decoded ("url");
- ``query``: the raw query string, percent-decoded ("url");
- ``headers``: every header value ("field");
- the body as the application reads it, chunk by chunk, never held whole:
  ``form`` for application/x-www-form-urlencoded, percent-decoded
  ("url,-newline"); ``json`` for application/json and */*+json ("json");
  ``text`` for text/* ("strict"). Other types, and bodies declared in another
  charset, pass untouched.

A refused request gets 400 with an RFC 9457 application/problem+json body
naming the part and the finding (its bytes as hex, never raw). A bad body
chunk is never handed to the application: its receive() raises
RequestRejected instead, and whatever it answers then is replaced by the 400.
With ``detect_only=True`` nothing is refused; each finding is logged through
the "utf8guard" logger (or ``logger``). Lifespan and WebSocket scopes pass
through.
"""

from ._http import GuardedApp, RequestRejected

__all__ = ["Utf8GuardMiddleware", "RequestRejected"]


async def _send_problem(send, rejection):
    body = rejection.problem()
    await send({"type": "http.response.start", "status": 400, "headers": [
        (b"content-type", b"application/problem+json"),
        (b"content-length", str(len(body)).encode("ascii")),
        (b"connection", b"close"),
    ]})
    await send({"type": "http.response.body", "body": body})


class Utf8GuardMiddleware(GuardedApp):
    """Wraps an ASGI application; see the module's documentation."""

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        guard = self.guard
        raw_path = scope.get("raw_path")
        encoded = raw_path is not None
        if not encoded:
            raw_path = scope.get("path", "").encode("utf-8", "surrogateescape")
        headers = scope.get("headers", ())
        rejection = guard.check_head(raw_path, scope.get("query_string", b""), headers, encoded)
        if rejection is not None and guard.found(rejection):
            await _send_problem(send, rejection)
            return
        content_type = None
        for name, value in headers:
            if name.lower() == b"content-type":
                content_type = value
                break
        checker = guard.body_checker(content_type)
        if checker is None:
            await self.app(scope, receive, send)
            return
        await _Exchange(guard, checker, receive, send).run(self.app, scope)


class _Exchange:
    """One request whose body is checked as the application receives it."""

    __slots__ = ("guard", "checker", "receive_", "send_", "rejection", "started", "done")

    def __init__(self, guard, checker, receive, send):
        self.guard = guard
        self.checker = checker
        self.receive_ = receive
        self.send_ = send
        self.rejection = None
        self.started = False
        self.done = False

    async def receive(self):
        if self.rejection is not None:
            raise RequestRejected(self.rejection)
        message = await self.receive_()
        if message["type"] == "http.request" and not self.done:
            last = not message.get("more_body", False)
            rejection = self.checker.feed(message.get("body", b""), last)
            self.done = last or rejection is not None
            if rejection is not None and self.guard.found(rejection):
                self.rejection = rejection
                raise RequestRejected(rejection)
        return message

    async def send(self, message):
        if self.rejection is not None:
            return  # the application's answer to a refused request is dropped
        if message["type"] == "http.response.start":
            self.started = True
        await self.send_(message)

    async def run(self, app, scope):
        try:
            await app(scope, self.receive, self.send)
        except Exception:
            if self.rejection is None:
                raise
        if self.rejection is not None and not self.started:
            await _send_problem(self.send_, self.rejection)
