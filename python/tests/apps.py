"""The applications the server tests run (Starlette, Flask, and Django both
ways): each answers 200 "ok N" with the number of body bytes it read. UTF8GUARD_TEST_DETECT=1 makes the middleware
detect-only; UTF8GUARD_TEST_PLAIN=1 leaves it out (the benchmark's baseline)."""

import json
import logging
import os

DETECT = os.environ.get("UTF8GUARD_TEST_DETECT") == "1"
PLAIN = os.environ.get("UTF8GUARD_TEST_PLAIN") == "1"
# Every server exempts /webhook/ by prefix and the view at /raw by decorator.
OPTIONS = {"detect_only": DETECT, "exempt": ["/webhook/"]}


class Counter(logging.Handler):
    """Counts the records of every logger by level, and utf8guard's apart:
    GET /_stats answers them as JSON."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.counts = {}

    def emit(self, record):
        for key in (record.levelname, f"{record.name.split('.')[0]}:{record.levelname}"):
            self.counts[key] = self.counts.get(key, 0) + 1


COUNTER = Counter()
_errors = logging.StreamHandler()  # the server's stderr, which tests read
_errors.setLevel(logging.WARNING)
logging.getLogger().addHandler(COUNTER)
logging.getLogger().addHandler(_errors)
logging.getLogger().setLevel(logging.INFO)


def stats(mails=0):
    return json.dumps(dict(COUNTER.counts, mails=mails))


def _starlette():
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    from utf8guard.asgi import Utf8GuardMiddleware

    async def echo(request):
        body = await request.body()
        return PlainTextResponse(f"ok {len(body)}")

    async def stats_view(request):
        return PlainTextResponse(stats())

    middleware = [] if PLAIN else [Middleware(Utf8GuardMiddleware, **OPTIONS)]
    methods = ["GET", "POST", "PUT"]
    return Starlette(routes=[Route("/_stats", stats_view), Route("/", echo, methods=methods),
                             Route("/{rest:path}", echo, methods=methods)],
                     middleware=middleware)


def _flask():
    from flask import Flask, request

    import utf8guard
    from utf8guard.wsgi import Utf8GuardWSGIMiddleware

    app = Flask(__name__)

    @app.route("/", defaults={"rest": ""}, methods=["GET", "POST", "PUT"])
    @app.route("/<path:rest>", methods=["GET", "POST", "PUT"])
    def echo(rest):
        return f"ok {len(request.get_data())}", 200, {"Content-Type": "text/plain"}

    @app.route("/form", methods=["POST"])
    def form():
        return f"ok {len(request.form)}", 200, {"Content-Type": "text/plain"}

    @app.route("/raw", methods=["POST"])
    @utf8guard.exempt
    def raw():
        return f"ok {len(request.get_data())}", 200, {"Content-Type": "text/plain"}

    @app.route("/_stats")
    def stats_view():
        return stats(), 200, {"Content-Type": "application/json"}

    if not PLAIN:
        app.wsgi_app = Utf8GuardWSGIMiddleware(app.wsgi_app, **OPTIONS)
    return app


def _django(middleware=False):
    """Django with no settings module: the views alone, and with |middleware|
    utf8guard's in settings.MIDDLEWARE (and CSRF's, which reads request.POST
    before the view), ADMINS and the locmem mail backend."""
    import django
    from django.conf import settings

    settings.configure(
        DEBUG=False, SECRET_KEY="utf8guard-tests", ALLOWED_HOSTS=["127.0.0.1", "testserver"],
        ROOT_URLCONF=__name__, ADMINS=[("Admin", "admin@example.com")],
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
        MIDDLEWARE=["utf8guard.django.Utf8GuardMiddleware"] if middleware and not PLAIN else [],
        UTF8GUARD=OPTIONS)
    django.setup()
    from django.core import mail
    from django.http import HttpResponse
    from django.urls import re_path
    from django.views.decorators.csrf import csrf_exempt

    import utf8guard

    @csrf_exempt
    def echo(request):
        return HttpResponse(f"ok {len(request.body)}", content_type="text/plain")

    @csrf_exempt
    def form(request):
        return HttpResponse(f"ok {len(request.POST)}", content_type="text/plain")

    @utf8guard.exempt
    @csrf_exempt
    def raw(request):
        return HttpResponse(f"ok {len(request.body)}", content_type="text/plain")

    def stats_view(request):
        return HttpResponse(stats(len(getattr(mail, "outbox", []))),
                            content_type="application/json")

    return [re_path(r"^_stats$", stats_view), re_path(r"^form$", form),
            re_path(r"^raw$", raw), re_path(r"", echo)]


SERVER = os.environ.get("UTF8GUARD_TEST_SERVER", "asgi")
if SERVER == "wsgi":
    wsgi_app = _flask()
elif SERVER == "asgi":
    asgi_app = _starlette()
elif SERVER == "django-mw-wsgi":
    from django.core.wsgi import get_wsgi_application

    urlpatterns = _django(middleware=True)
    wsgi_app = get_wsgi_application()
elif SERVER == "django-mw-asgi":
    from django.core.asgi import get_asgi_application

    urlpatterns = _django(middleware=True)
    asgi_app = get_asgi_application()
elif SERVER == "django-wsgi":
    from django.core.wsgi import get_wsgi_application

    from utf8guard.wsgi import Utf8GuardWSGIMiddleware

    urlpatterns = _django()
    wsgi_app = get_wsgi_application()
    if not PLAIN:
        wsgi_app = Utf8GuardWSGIMiddleware(wsgi_app, **OPTIONS)
elif SERVER == "django-asgi":
    from django.core.asgi import get_asgi_application

    from utf8guard.asgi import Utf8GuardMiddleware

    urlpatterns = _django()
    asgi_app = get_asgi_application()
    if not PLAIN:
        asgi_app = Utf8GuardMiddleware(asgi_app, **OPTIONS)
