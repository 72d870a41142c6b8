"""Django middleware, configured from settings:

    MIDDLEWARE = ["utf8guard.django.Utf8GuardMiddleware", ...]   # first
    UTF8GUARD = {"detect_only": False, "exempt": ["/webhooks/"]}  # optional

settings.UTF8GUARD takes the keywords of utf8guard.asgi.Utf8GuardMiddleware;
a wrong one stops Django at startup (ImproperlyConfigured, naming it). The
middleware is sync and async capable, so it runs under WSGI, ASGI and
Django's test Client alike.

Every check runs before the view, on the raw request: the path
(RAW_URI/REQUEST_URI under WSGI, raw_path under ASGI), the query, the header
names and values, and the body under the rule its Content-Type selects. The
head is checked when the middleware is called, before the middleware after it
and before Django resolves the URL, so that neither they, Django's 404 handler
nor a redirect read a refused one; only a finding in a request for a view
marked exempt waits for process_view, which knows the view Django chose. The
body is checked in process_view. Under ASGI Django has received the body
before the middleware runs; it is checked from its file, chunk by chunk. Under WSGI a body of up to
``buffer`` bytes is read and checked before the view; a longer one is checked
as the view reads it (request.body, request.POST, request.read()): the read
that holds a finding raises RequestRejected (a django BadRequest) and the view
never gets those bytes; the answer is the refusal, whatever the view returns.
A view marked with @utf8guard.exempt is left alone.
"""

import io

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpResponse
from django.urls import Resolver404, resolve

from ._http import Guard, RequestRejected, exempt, is_exempt
from .wsgi import (Body, _Exchange, body_rule, check_head, has_body, read_lead,
                   request_context)

__all__ = ["Utf8GuardMiddleware", "exempt", "RequestRejected"]

_CHUNK = 1 << 16
_STATE = "_utf8guard"  # the request's attribute for a body checked as it is read
_HEAD = "_utf8guard_head"  # (rules, the head's finding, its log context), until process_view


def _answer(answer):
    response = HttpResponse(answer.body, status=answer.status)
    for name, value in answer.headers:
        response[name] = value
    return response


class _Stream:
    """The body for WSGIRequest._stream: read as _Exchange checks it."""

    def __init__(self, exchange):
        self.exchange = exchange
        self.read = exchange.read
        self.readline = exchange.readline


class Utf8GuardMiddleware:
    """See the module's documentation."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        options = getattr(settings, "UTF8GUARD", None) or {}
        if not isinstance(options, dict):
            raise ImproperlyConfigured(f"settings.UTF8GUARD: a dict of the middleware's "
                                       f"keywords, not {type(options).__name__!r}")
        try:
            self.guard = Guard(func="settings.UTF8GUARD", **options)
        except (TypeError, ValueError) as error:
            raise ImproperlyConfigured(str(error)) from error
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self._acall(request)
        refusal = self._before_routing(request)
        if refusal is not None:
            return refusal
        return self._after(request, self.get_response(request))

    async def _acall(self, request):
        refusal = self._before_routing(request)
        if refusal is not None:
            return refusal
        return self._after(request, await self.get_response(request))

    def _before_routing(self, request):
        """The head, checked before the middleware after this one and before
        Django resolves the URL: a request no URL pattern matches never
        reaches process_view, but Django's 404 handler (or a project's
        handler404) and CommonMiddleware's APPEND_SLASH redirect still read
        its path. A finding is answered here, unless the URL resolves to a
        view marked exempt: then process_view, which gets the view Django
        chose (another middleware may set request.urlconf), decides."""
        guard = self.guard
        rules = guard.rules_for(request.path)
        if rules is None:
            return None
        rejection, context = self._check_head(guard, rules, request)
        if rejection is not None:
            try:
                view = resolve(request.path_info, getattr(request, "urlconf", None)).func
            except Resolver404:
                view = None
            if not is_exempt(view):
                if guard.found(rejection, *context):
                    return _answer(guard.answer(rejection))
                rejection = None  # detect mode: logged once, the body still checked
        request.__dict__[_HEAD] = (rules, rejection, context)
        return None

    @staticmethod
    def _check_head(guard, rules, request):
        """(the head's finding or None, the request's log context)."""
        scope = request.__dict__.get("scope")  # ASGIRequest's; a WSGIRequest has none
        if scope is None:
            meta = request.META
            # Without RAW_URI or REQUEST_URI (the test Client, runserver),
            # WSGIRequest has replaced PATH_INFO with the path decoded as
            # UTF-8 and the bytes that are not UTF-8 percent-encoded again:
            # that path, as UTF-8, is checked percent-decoded.
            path = None
            if "RAW_URI" not in meta and "REQUEST_URI" not in meta:
                path = request.path.encode("utf-8", "surrogateescape")
            rejection = check_head(guard, rules, meta, path)
            return rejection, None if rejection is None else request_context(meta, request.method)
        raw_path = scope.get("raw_path")
        encoded = raw_path is not None
        if not encoded:
            raw_path = request.path.encode("utf-8", "surrogateescape")
        rejection = guard.check_head(rules, raw_path, scope.get("query_string", b""),
                                     scope.get("headers", ()), encoded)
        return rejection, (request.method, raw_path, (scope.get("client") or (None,))[0])

    def _after(self, request, response):
        """The refusal in place of the view's answer, when the body the view
        read held a finding."""
        exchange = request.__dict__.get(_STATE)
        if exchange is not None:
            exchange.drain()
            if exchange.rejection is not None:
                return _answer(self.guard.answer(exchange.rejection))
        return response

    def process_exception(self, request, exception):
        if isinstance(exception, RequestRejected):
            return _answer(self.guard.answer(exception.rejection))
        return None

    def process_view(self, request, view_func, view_args, view_kwargs):
        state = request.__dict__.pop(_HEAD, None)
        if state is None or is_exempt(view_func):
            return None
        guard = self.guard
        rules, rejection, context = state
        if rejection is not None and guard.found(rejection, *context):
            return _answer(guard.answer(rejection))
        scope = request.__dict__.get("scope")
        if scope is not None:
            return self._check_asgi_body(guard, rules, request, scope, context)
        meta = request.META
        if not has_body(meta):
            return None
        checker, rejection = body_rule(guard, rules, meta)
        if rejection is not None and guard.found(rejection, *request_context(meta, request.method)):
            return _answer(guard.answer(rejection))
        stream = getattr(request, "_stream", None)
        if checker is None or stream is None or hasattr(request, "_body"):
            return None
        # The stream's read(size) is Body's, whose end is the stream's.
        held, size, rejection = read_lead(stream, checker, guard.buffer)
        if rejection is not None and guard.found(rejection, *request_context(meta, request.method)):
            return _answer(guard.answer(rejection))
        if rejection is None and size <= guard.buffer:
            request._stream = io.BytesIO(b"".join(held))
            return None
        body = Body({"wsgi.input": stream, "wsgi.input_terminated": True})
        exchange = _Exchange(guard, None if rejection else checker, body, held,
                             request_context(meta, request.method), None)
        setattr(request, _STATE, exchange)
        request._stream = _Stream(exchange)
        return None

    def _check_asgi_body(self, guard, rules, request, scope, context):
        """process_view's body check under ASGI: from its file."""
        headers = scope.get("headers", ())
        types = tuple(v for n, v in headers if n.lower() == b"content-type")
        codings = [v for n, v in headers if n.lower() == b"content-encoding"]
        checker, rejection = guard.body(rules, types, codings[-1] if codings else None)
        if rejection is None and checker is not None and \
                getattr(request, "_stream", None) is not None and not hasattr(request, "_body"):
            rejection = self._check_file(checker, request)
        if rejection is not None and guard.found(rejection, *context):
            return _answer(guard.answer(rejection))
        return None

    @staticmethod
    def _check_file(checker, request):
        """The finding in a body Django has already received (its file, read
        from where it stands and put back there)."""
        stream = request._stream
        if not (hasattr(stream, "seek") and hasattr(stream, "tell")):
            # The AsyncClient's payload, in memory: read once, kept for the view.
            data = stream.read()
            request._stream = io.BytesIO(data)
            return checker.feed(data) or checker.finish()
        start = stream.tell()
        try:
            while True:
                data = stream.read(_CHUNK)
                if not data:
                    return checker.finish()
                rejection = checker.feed(data)
                if rejection is not None:
                    return rejection
        finally:
            stream.seek(start)
