"""WSGI middleware: refuse requests whose path, query, header values or body
are not acceptable UTF-8 text, before the application sees the bad bytes.

    from utf8guard.wsgi import Utf8GuardWSGIMiddleware
    app.wsgi_app = Utf8GuardWSGIMiddleware(app.wsgi_app)   # Flask
    application = Utf8GuardWSGIMiddleware(application)     # Django's wsgi.py

The parts, their policies, the 400 answer and detect_only are those of
utf8guard.asgi. The raw bytes come back from PEP 3333's native strings by
encoding them to latin-1, which is how the server decoded them. The raw path
is RAW_URI (gunicorn) or REQUEST_URI (uWSGI, mod_wsgi), checked
percent-decoded; without either, SCRIPT_NAME + PATH_INFO, which the server has
already decoded, is checked as it is. The body is checked as the application
reads wsgi.input (read, readline, readlines, iteration), chunk by chunk; a bad
chunk is never returned to it: the read raises RequestRejected, and whatever
the application answers then is replaced by the 400.
"""

from ._http import GuardedApp, RequestRejected

__all__ = ["Utf8GuardWSGIMiddleware", "RequestRejected"]


def _raw(text):
    """The bytes behind a PEP 3333 native string (latin-1, by the PEP); a
    server that decoded UTF-8 instead gave characters above U+00FF."""
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape")


def _head(environ):
    """(raw path, path is still encoded, raw query, headers as (name, value))."""
    uri = environ.get("RAW_URI") or environ.get("REQUEST_URI")
    if uri:
        raw_path, encoded = _raw(uri).partition(b"?")[0], True
    else:
        raw_path = _raw(environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", ""))
        encoded = False
    headers = []
    for key, value in environ.items():
        if key.startswith("HTTP_"):
            name = key[5:].replace("_", "-").lower()
        elif key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            name = key.replace("_", "-").lower()
        else:
            continue
        if isinstance(value, str):
            headers.append((name.encode("latin-1"), _raw(value)))
    return raw_path, encoded, _raw(environ.get("QUERY_STRING", "")), headers


def _problem(start_response, rejection, exc_info=None):
    body = rejection.problem()
    start_response("400 Bad Request", [("Content-Type", "application/problem+json"),
                                       ("Content-Length", str(len(body)))], exc_info)
    return [body]


class Utf8GuardWSGIMiddleware(GuardedApp):
    """Wraps a WSGI application; see the module's documentation."""

    def __call__(self, environ, start_response):
        guard = self.guard
        raw_path, encoded, query, headers = _head(environ)
        rejection = guard.check_head(raw_path, query, headers, encoded)
        if rejection is not None and guard.found(rejection):
            return _problem(start_response, rejection)
        content_type = environ.get("CONTENT_TYPE")
        checker = guard.body_checker(_raw(content_type) if content_type else None)
        if checker is None or "wsgi.input" not in environ:
            return self.app(environ, start_response)
        try:
            length = int(environ.get("CONTENT_LENGTH") or "")
        except ValueError:
            length = None  # read to the end of the stream
        exchange = _Exchange(guard, checker, environ["wsgi.input"], length, start_response)
        environ["wsgi.input"] = exchange
        try:
            result = self.app(environ, exchange.start_response)
        except Exception:
            if exchange.rejection is None:
                raise
            result = None
        return exchange.respond(result)


class _Exchange:
    """wsgi.input checked as it is read, and the answer held until the
    application's first body chunk shows whether the request stands."""

    def __init__(self, guard, checker, stream, length, start_response):
        self.guard = guard
        self.checker = checker
        self.stream = stream
        self.left = length  # body bytes not read yet, when the length is known
        self.start_response_ = start_response
        self.rejection = None
        self.done = False
        self.pending = None  # the application's (status, headers, exc_info)
        self.write_ = None   # the server's write(), once the answer has started

    # ---- wsgi.input ----
    def _check(self, data, last):
        if self.rejection is not None:
            raise RequestRejected(self.rejection)
        if not self.done:
            if self.left is not None:
                self.left -= len(data)
                last = last or self.left <= 0
            rejection = self.checker.feed(data, last)
            self.done = last or rejection is not None
            if rejection is not None and self.guard.found(rejection):
                self.rejection = rejection
                raise RequestRejected(rejection)
        return data

    def read(self, size=-1):
        data = self.stream.read() if size is None or size < 0 else self.stream.read(size)
        return self._check(data, not data or size is None or size < 0)

    def readline(self, size=-1):
        data = self.stream.readline() if size is None or size < 0 else self.stream.readline(size)
        return self._check(data, not data)

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

    # ---- the answer ----
    def start_response(self, status, headers, exc_info=None):
        if exc_info is not None and self.write_ is not None:
            raise exc_info[1].with_traceback(exc_info[2])
        self.pending = (status, headers, exc_info)
        return self.write

    def _start(self):
        if self.write_ is None:
            self.write_ = self.start_response_(*self.pending)

    def write(self, data):
        if self.rejection is not None:
            return
        self._start()
        self.write_(data)

    def respond(self, result):
        if self.rejection is not None:
            _close(result)
            return _problem(self.start_response_, self.rejection)
        return self._forward(result)

    def _forward(self, result):
        try:
            for chunk in result:
                if self.rejection is not None:
                    break
                if self.write_ is None:
                    self._start()
                yield chunk
        except RequestRejected:
            pass
        finally:
            _close(result)
        if self.rejection is not None and self.write_ is None:
            yield from _problem(self.start_response_, self.rejection)
        elif self.write_ is None and self.pending is not None:
            self._start()


def _close(result):
    close = getattr(result, "close", None)
    if close is not None:
        close()
