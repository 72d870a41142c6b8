"""WSGI middleware: refuse requests whose path, query, header names and
values or body are not acceptable UTF-8 text, before the application sees
the bad bytes.

    from utf8guard.wsgi import Utf8GuardWSGIMiddleware
    app.wsgi_app = Utf8GuardWSGIMiddleware(app.wsgi_app)   # Flask
    application = Utf8GuardWSGIMiddleware(application)     # any WSGI app

The parts, their rules, the answer, logging and detect_only are those of
utf8guard.asgi. The raw bytes come back from PEP 3333's native strings by
encoding them to latin-1, which is how the server decoded them. The raw path
is RAW_URI (gunicorn) or REQUEST_URI (uWSGI, mod_wsgi), checked
percent-decoded; without either, SCRIPT_NAME + PATH_INFO, which the server has
already decoded, is checked as it is.

A body of up to ``buffer`` bytes (256 KiB by default) is read and checked
before the application is called: a refused one never reaches it, and no
framework sees an error. A longer body is checked as the application reads
wsgi.input (read, readline, readlines, iteration), chunk by chunk: a bad chunk
is never returned to it; the read raises RequestRejected (also a
werkzeug/Django BadRequest when those are loaded, so that Flask and Django
answer 400 and log no error), and whatever the application answers is
replaced by the refusal. Whatever the application leaves unread is read and
checked before its answer goes out. The body is read to its real end (the
server's end of input, with wsgi.input_terminated), not to CONTENT_LENGTH.
"""

import io
import sys

from . import _utf8guard
from ._http import Answer, Guard, Rejection, RequestRejected, exempt, is_exempt, status_line

__all__ = ["Utf8GuardWSGIMiddleware", "RequestRejected", "Rejection", "Answer", "exempt"]

_CHUNK = 1 << 16


def _raw(text):
    """The bytes behind a PEP 3333 native string (latin-1, by the PEP); a
    server that decoded UTF-8 instead gave characters above U+00FF."""
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape")


_BODY_FIELDS = ("CONTENT_TYPE", "CONTENT_LENGTH")


def _header_items(environ):
    """The environ's headers as (CGI key, native string value)."""
    return [(key, value) for key, value in environ.items()
            if (key[:5] == "HTTP_" or key in _BODY_FIELDS) and isinstance(value, str)]


def _header_name(key):
    """The header's name as bytes, lowercase (ASCII letters only)."""
    return _raw((key[5:] if key[:5] == "HTTP_" else key).replace("_", "-")).lower()


def target(environ):
    """(raw path, path is still encoded, raw query)."""
    uri = environ.get("RAW_URI") or environ.get("REQUEST_URI")
    if uri:
        raw_path, encoded = _raw(uri).partition(b"?")[0], True
    else:
        raw_path = _raw(environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", ""))
        encoded = False
    return raw_path, encoded, _raw(environ.get("QUERY_STRING", ""))


def head(environ):
    """(raw path, path is still encoded, raw query, headers as (name, value))."""
    raw_path, encoded, query = target(environ)
    headers = [(_header_name(key), _raw(value)) for key, value in _header_items(environ)]
    return raw_path, encoded, query, headers


def check_head(guard, rules, environ, path=None):
    """Guard.check_head for a WSGI environ: the raw path, the query and the
    headers read in place first, in one call (the bytes the server read, as
    PEP 3333's latin-1 strings), part by part only when that finds
    something. A path without RAW_URI or REQUEST_URI is checked as it is.
    |path|, when given, is the raw path instead, still percent-encoded."""
    if path is None:
        if _utf8guard.environ_clean(environ, *rules.head):
            return None
        raw_path, encoded, query = target(environ)
    else:
        raw_path, encoded, query = path, True, _raw(environ.get("QUERY_STRING", ""))
    rejection = guard.check_target(rules, raw_path, query, encoded)
    if rejection is not None or rules.headers is None:
        return rejection
    if _utf8guard.environ_headers_clean(environ, rules.headers[0]):
        return None
    headers = [(_header_name(k), _raw(v)) for k, v in _header_items(environ)]
    return guard.check_headers(rules, headers)


def request_context(environ, method=None):
    """(method, raw path, client): the request a finding is logged with."""
    if method is None:
        method = environ.get("REQUEST_METHOD", "")
    return method, target(environ)[0], environ.get("REMOTE_ADDR")


def route_path(environ):
    """The path the application routes, as str."""
    return _raw(environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")).decode(
        "utf-8", "surrogateescape")


def has_body(environ):
    """Whether the request has a body: HTTP/1.1 gives one only with a
    Content-Length above 0 or a Transfer-Encoding (RFC 9112 6.3)."""
    return environ.get("CONTENT_LENGTH", "0") not in ("", "0") or \
        "HTTP_TRANSFER_ENCODING" in environ


def body_rule(guard, rules, environ):
    """Guard.body for a WSGI environ (which holds one Content-Type at most)."""
    content_type = environ.get("CONTENT_TYPE")
    coding = environ.get("HTTP_CONTENT_ENCODING")
    return guard.body(rules, (_raw(content_type),) if content_type else (),
                      _raw(coding) if coding else None)


def start_answer(start_response, answer, exc_info=None):
    headers = list(answer.headers)
    headers.append(("Content-Length", str(len(answer.body))))
    start_response(status_line(answer.status), headers, exc_info)
    return [answer.body]


_rejected_classes = {}


def rejected(rejection):
    """RequestRejected, also werkzeug's and Django's BadRequest when those are
    loaded: a framework that sees it raised answers 400 and logs no error."""
    bases = [RequestRejected]
    for module, name in (("werkzeug.exceptions", "BadRequest"),
                         ("django.core.exceptions", "BadRequest")):
        base = getattr(sys.modules.get(module), name, None)
        if base is not None:
            bases.append(base)
    key = tuple(bases)
    cls = _rejected_classes.get(key)
    if cls is None:
        cls = RequestRejected if len(bases) == 1 else type("RequestRejected", key, {})
        _rejected_classes[key] = cls
    return cls(rejection)


class Body:
    """wsgi.input's bytes, read to the real end: the server's end of input
    when it says there is one (wsgi.input_terminated), else CONTENT_LENGTH."""

    __slots__ = ("stream", "left")

    def __init__(self, environ):
        self.stream = environ["wsgi.input"]
        self.left = None
        if not environ.get("wsgi.input_terminated"):
            try:
                self.left = max(int(environ.get("CONTENT_LENGTH") or "0"), 0)
            except ValueError:
                self.left = 0

    def read(self, size):
        return self._take(self.stream.read, size)

    def readline(self, size):
        return self._take(self.stream.readline, size)

    def _take(self, read, size):
        """read(size) of the stream (read() for a negative size), kept
        within the bytes left."""
        if self.left is not None:
            if size < 0 or size > self.left:
                size = self.left
            if size == 0:
                return b""
        data = read(size) if size >= 0 else read()
        if self.left is not None:
            self.left -= len(data)
        return data


def read_lead(body, checker, limit):
    """Reads a body's first bytes, up to limit + 1 of them, into checker
    until a finding: (the chunks read, their size, the finding or None).
    A size of at most limit is the whole body."""
    held = []
    size = 0
    while size <= limit:
        data = body.read(min(_CHUNK, limit + 1 - size))
        if not data:
            return held, size, checker.finish()
        held.append(data)
        size += len(data)
        rejection = checker.feed(data)
        if rejection is not None:
            return held, size, rejection
    return held, size, None


class Utf8GuardWSGIMiddleware:
    """Wraps a WSGI application; see the module's documentation. The
    keywords are checked here: a wrong one raises TypeError or ValueError
    naming it. Flask views marked with utf8guard.exempt are left alone when
    the middleware wraps app.wsgi_app."""

    def __init__(self, app, **options):
        self.app = app
        self.guard = Guard(func=type(self).__name__, **options)
        owner = getattr(app, "__self__", None)
        self._flask = owner if hasattr(owner, "url_map") and hasattr(owner, "view_functions") \
            else None
        self._views = (-1, False)

    def _view_exempt(self, environ):
        """Whether the Flask view that will answer is marked exempt."""
        flask = self._flask
        count = len(flask.view_functions)
        if self._views[0] != count:
            self._views = (count, any(is_exempt(v) for v in flask.view_functions.values()))
        if not self._views[1]:
            return False
        try:
            endpoint, _ = flask.url_map.bind_to_environ(environ).match()
        except Exception:  # no such route: the application answers 404 or 405
            return False
        return is_exempt(flask.view_functions.get(endpoint))

    def __call__(self, environ, start_response):
        guard = self.guard
        rules = guard.rules_for(route_path(environ))
        if rules is None or (self._flask is not None and self._view_exempt(environ)):
            return self.app(environ, start_response)
        rejection = check_head(guard, rules, environ)
        if rejection is not None and guard.found(rejection, *request_context(environ)):
            return start_answer(start_response, guard.answer(rejection))
        if "wsgi.input" not in environ or not has_body(environ):
            return self.app(environ, start_response)
        checker, rejection = body_rule(guard, rules, environ)
        if rejection is not None and guard.found(rejection, *request_context(environ)):
            return start_answer(start_response, guard.answer(rejection))
        if checker is None:
            return self.app(environ, start_response)
        body = Body(environ)
        # A short body: read, checked, and handed over whole.
        held, size, rejection = read_lead(body, checker, guard.buffer)
        if rejection is not None and guard.found(rejection, *request_context(environ)):
            return start_answer(start_response, guard.answer(rejection))
        if rejection is None and size <= guard.buffer:
            data = b"".join(held)
            environ["wsgi.input"] = io.BytesIO(data)
            environ["CONTENT_LENGTH"] = str(len(data))
            return self.app(environ, start_response)
        # A long body (or one past its finding, in detect mode): checked as
        # the application reads it, after the bytes already held.
        exchange = _Exchange(guard, None if rejection else checker, body, held,
                             request_context(environ), start_response)
        environ["wsgi.input"] = exchange
        try:
            result = self.app(environ, exchange.start_response)
        except Exception:
            if exchange.rejection is None:
                raise
            result = None
        return exchange.respond(result)


class _Exchange:
    """wsgi.input checked as it is read, after the bytes already held, and the
    answer held until the rest of the body has been checked."""

    def __init__(self, guard, checker, body, held, context, start_response):
        self.guard = guard
        self.checker = checker  # None once the body needs no more checks
        self.body = body
        self.held = io.BytesIO(b"".join(held))
        self.context = context
        self.start_response_ = start_response
        self.rejection = None
        self.pending = None  # the application's (status, headers, exc_info)
        self.write_ = None   # the server's write(), once the answer has started

    # ---- wsgi.input ----
    def _check(self, data, asked):
        """data, read for a request of |asked| bytes (-1: to the end), once
        checked; b"" for a request of more than 0 bytes is the end."""
        if self.rejection is not None:
            raise rejected(self.rejection)
        checker = self.checker
        if checker is not None:
            rejection = checker.feed(data) if data else None
            if rejection is None and ((not data and asked != 0) or asked < 0):
                rejection = checker.finish()
                self.checker = None
            if rejection is not None:
                self.checker = None
                if self.guard.found(rejection, *self.context):
                    self.rejection = rejection
                    raise rejected(rejection)
        return data

    def read(self, size=-1):
        """|size| bytes, fewer only at the end (as a file gives them: Django's
        LimitedStream takes a short read for the end)."""
        size = -1 if size is None else size
        data = self.held.read(size)
        if size < 0:
            return data + self._check(self.body.read(-1), -1)
        while len(data) < size:
            more = self._check(self.body.read(size - len(data)), size - len(data))
            if not more:
                break
            data += more
        return data

    def readline(self, size=-1):
        size = -1 if size is None else size
        line = self.held.readline(size)
        if line.endswith(b"\n") or (size >= 0 and len(line) >= size):
            return line
        rest = size - len(line) if size >= 0 else -1
        more = self.body.readline(rest)
        return line + self._check(more, 1)  # a line, never "to the end"

    def readlines(self, hint=-1):
        lines = []
        total = 0
        while hint is None or hint <= 0 or total < hint:
            line = self.readline()
            if not line:
                break
            lines.append(line)
            total += len(line)
        return lines

    def __iter__(self):
        while True:
            line = self.readline()
            if not line:
                return
            yield line

    def drain(self):
        """Reads and checks what the application left unread."""
        while self.checker is not None and self.rejection is None:
            try:
                self._check(self.body.read(_CHUNK), _CHUNK)
            except RequestRejected:
                return

    # ---- the answer ----
    def start_response(self, status, headers, exc_info=None):
        if exc_info is not None and self.write_ is not None:
            raise exc_info[1].with_traceback(exc_info[2])
        self.pending = (status, headers, exc_info)
        return self.write

    def _start(self):
        if self.write_ is None:
            self.drain()
            if self.rejection is None:
                self.write_ = self.start_response_(*self.pending)

    def write(self, data):
        if self.rejection is None:
            self._start()
        if self.rejection is None:
            self.write_(data)

    def respond(self, result):
        if self.rejection is not None and self.write_ is None:
            _close(result)
            return start_answer(self.start_response_, self.guard.answer(self.rejection))
        return self._forward(result)

    def _forward(self, result):
        try:
            for chunk in result:
                if self.write_ is None:
                    self._start()
                if self.rejection is not None:
                    break
                yield chunk
        except RequestRejected:
            pass
        finally:
            _close(result)
        if self.write_ is None and self.rejection is None and self.pending is not None:
            self._start()
        if self.rejection is not None and self.write_ is None:
            yield from start_answer(self.start_response_, self.guard.answer(self.rejection))


def _close(result):
    close = getattr(result, "close", None)
    if close is not None:
        close()
