"""The applications the server tests run: each answers 200 "ok N" with the
number of body bytes it read. UTF8GUARD_TEST_DETECT=1 makes the middleware
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


if os.environ.get("UTF8GUARD_TEST_SERVER") == "wsgi":
    wsgi_app = _flask()
else:
    asgi_app = _starlette()
