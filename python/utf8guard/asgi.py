"""ASGI middleware: refuse requests whose path, query, header names and
values or body are not acceptable UTF-8 text, before the application sees
the bad bytes.

    from utf8guard.asgi import Utf8GuardMiddleware
    app = Utf8GuardMiddleware(app)                      # any ASGI app
    app.add_middleware(Utf8GuardMiddleware)             # Starlette, FastAPI

Each part is checked under its own rule (a policy spec such as
"url,-newline", or None to leave the part alone); the defaults and which
rule a body's Content-Type selects are the rule core's (request_check, as in
the nginx module): see docs/python.md. The body is checked chunk by chunk as
the application receives it, never held whole; a bad chunk is never handed to
it: its receive() raises RequestRejected, and whatever it answers then is
replaced by the refusal.

A refused request gets 400 with an RFC 9457 application/problem+json body
naming the part and the finding (its bytes as hex, never raw), or what
``on_reject`` returns. Each finding is logged once through the "utf8guard"
logger (or ``logger``) at WARNING (or ``log_level``); with
``detect_only=True`` nothing is refused. Lifespan and WebSocket scopes pass
through.
"""

from . import _utf8guard
from ._http import Answer, Guard, Rejection, RequestRejected, exempt

__all__ = ["Utf8GuardMiddleware", "RequestRejected", "Rejection", "Answer", "exempt"]


async def _send_answer(send, answer):
    headers = [(name.lower().encode("ascii"), value.encode("ascii"))
               for name, value in answer.headers]
    headers.append((b"content-length", str(len(answer.body)).encode("ascii")))
    await send({"type": "http.response.start", "status": answer.status, "headers": headers})
    await send({"type": "http.response.body", "body": answer.body})


def _raw_path(scope):
    """The request's path as bytes: raw_path, or path encoded back."""
    raw_path = scope.get("raw_path")
    if raw_path is None:
        raw_path = scope.get("path", "").encode("utf-8", "surrogateescape")
    return raw_path


def _client(scope):
    client = scope.get("client")
    return client[0] if client else None


class Utf8GuardMiddleware:
    """Wraps an ASGI application; see the module's documentation. The
    keywords are checked here: a wrong one raises TypeError or ValueError
    naming it."""

    def __init__(self, app, **options):
        self.app = app
        self.guard = Guard(func=type(self).__name__, **options)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        guard = self.guard
        rules = guard.rules_for(scope.get("path", ""))
        if rules is None:
            await self.app(scope, receive, send)
            return
        # The usual request: its head clean, checked in one call.
        head = _utf8guard.scope_head(scope, *rules.head)
        if head is None:
            content_types, content_encoding = await self._check_head(guard, rules, scope, send)
            if content_types is None:
                return
            has_body = True
        else:
            content_types, content_encoding, has_body = head
        checker, rejection = guard.body(rules, content_types, content_encoding, has_body)
        if rejection is not None and guard.found(rejection, scope.get("method", ""),
                                                 _raw_path(scope), _client(scope)):
            await _send_answer(send, guard.answer(rejection))
            return
        if checker is None:
            await self.app(scope, receive, send)
            return
        await _Exchange(guard, checker, receive, send, scope).run(self.app)

    @staticmethod
    async def _check_head(guard, rules, scope, send):
        """Checks the head part by part: (Content-Type values, Content-Encoding),
        or (None, None) when the request was refused."""
        raw_path = scope.get("raw_path")
        encoded = raw_path is not None
        if not encoded:
            raw_path = _raw_path(scope)
        headers = scope.get("headers", ())
        rejection = guard.check_head(rules, raw_path, scope.get("query_string", b""), headers,
                                     encoded)
        if rejection is not None and guard.found(rejection, scope.get("method", ""), raw_path,
                                                 _client(scope)):
            await _send_answer(send, guard.answer(rejection))
            return None, None
        content_types = []
        content_encoding = None
        for name, value in headers:
            name = name.lower()
            if name == b"content-type":
                content_types.append(value)
            elif name == b"content-encoding":
                content_encoding = value
        return tuple(content_types), content_encoding


class _Exchange:
    """One request whose body is checked as the application receives it."""

    __slots__ = ("guard", "checker", "receive_", "send_", "scope", "rejection", "started",
                 "done")

    def __init__(self, guard, checker, receive, send, scope):
        self.guard = guard
        self.checker = checker
        self.receive_ = receive
        self.send_ = send
        self.scope = scope
        self.rejection = None
        self.started = False
        self.done = False

    async def receive(self):
        if self.rejection is not None:
            raise RequestRejected(self.rejection)
        message = await self.receive_()
        if message["type"] == "http.request" and not self.done:
            rejection = self.checker.feed(message.get("body", b""))
            if rejection is None and not message.get("more_body", False):
                self.done = True
                rejection = self.checker.finish()
            if rejection is not None:
                self.done = True
                if self.guard.found(rejection, self.scope.get("method", ""), _raw_path(self.scope),
                                    _client(self.scope)):
                    self.rejection = rejection
                    raise RequestRejected(rejection)
        return message

    async def send(self, message):
        if self.rejection is not None:
            return  # the application's answer to a refused request is dropped
        if message["type"] == "http.response.start":
            self.started = True
        await self.send_(message)

    async def run(self, app):
        try:
            await app(self.scope, self.receive, self.send)
        except Exception:
            if self.rejection is None:
                raise
        if self.rejection is not None and not self.started:
            await _send_answer(self.send_, self.guard.answer(self.rejection))
