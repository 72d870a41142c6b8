"""The applications the server tests run (Starlette, Flask, and Django both
ways): each answers 200 "ok N" with the number of body bytes it read. UTF8GUARD_TEST_DETECT=1 makes the middleware
detect-only; UTF8GUARD_TEST_PLAIN=1 leaves it out (the benchmark's baseline)."""

import os

DETECT = os.environ.get("UTF8GUARD_TEST_DETECT") == "1"
PLAIN = os.environ.get("UTF8GUARD_TEST_PLAIN") == "1"


def _starlette():
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    from utf8guard.asgi import Utf8GuardMiddleware

    async def echo(request):
        body = await request.body()
        return PlainTextResponse(f"ok {len(body)}")

    middleware = [] if PLAIN else [Middleware(Utf8GuardMiddleware, detect_only=DETECT)]
    methods = ["GET", "POST", "PUT"]
    return Starlette(routes=[Route("/", echo, methods=methods),
                             Route("/{rest:path}", echo, methods=methods)],
                     middleware=middleware)


def _flask():
    from flask import Flask, request

    from utf8guard.wsgi import Utf8GuardWSGIMiddleware

    app = Flask(__name__)

    @app.route("/", defaults={"rest": ""}, methods=["GET", "POST", "PUT"])
    @app.route("/<path:rest>", methods=["GET", "POST", "PUT"])
    def echo(rest):
        return f"ok {len(request.get_data())}", 200, {"Content-Type": "text/plain"}

    if not PLAIN:
        app.wsgi_app = Utf8GuardWSGIMiddleware(app.wsgi_app, detect_only=DETECT)
    return app


def _django():
    """Django with no settings module: the view alone, no CSRF or other middleware."""
    import django
    from django.conf import settings

    settings.configure(DEBUG=False, SECRET_KEY="utf8guard-tests", ALLOWED_HOSTS=["127.0.0.1"],
                       ROOT_URLCONF=__name__, MIDDLEWARE=[])
    django.setup()
    from django.http import HttpResponse
    from django.urls import re_path

    def echo(request):
        return HttpResponse(f"ok {len(request.body)}", content_type="text/plain")

    return [re_path(r"", echo)]


SERVER = os.environ.get("UTF8GUARD_TEST_SERVER", "asgi")
if SERVER == "wsgi":
    wsgi_app = _flask()
elif SERVER == "asgi":
    asgi_app = _starlette()
elif SERVER == "django-wsgi":
    from django.core.wsgi import get_wsgi_application

    from utf8guard.wsgi import Utf8GuardWSGIMiddleware

    urlpatterns = _django()
    wsgi_app = get_wsgi_application()
    if not PLAIN:
        wsgi_app = Utf8GuardWSGIMiddleware(wsgi_app, detect_only=DETECT)
elif SERVER == "django-asgi":
    from django.core.asgi import get_asgi_application

    from utf8guard.asgi import Utf8GuardMiddleware

    urlpatterns = _django()
    asgi_app = get_asgi_application()
    if not PLAIN:
        asgi_app = Utf8GuardMiddleware(asgi_app, detect_only=DETECT)
