#!/usr/bin/env python3
"""bench/python_asgi_cpu.py [--build DIR] [--base DIR] [--rounds N] [--requests M]
[--request get|form|json|json-escaped ...] - the CPU time of one request through
a Starlette application in process, with utf8guard.asgi.Utf8GuardMiddleware
and without it: what the middleware costs, measured where a loaded machine's
scheduling does not blur it (bench/python_asgi.py measures the same under
uvicorn with wrk). Each request is called with the scope, receive and send
uvicorn gives it (the body in one message). N rounds of M requests each, the
applications in turn; prints the medians and the middleware's cost (uvicorn's
own work a request, which python_asgi.py's ratio includes, is not here). The requests are bench/python_asgi.py's. Run with
/usr/bin/python3 (Debian's Starlette).

--base DIR times another build's middleware (main's, say) in the same
rounds, as python_django_cpu.py does."""

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote_to_bytes

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "python/tests"))


def request(kind):
    """(scope, body) of a request of python_asgi.REQUESTS, as uvicorn gives it."""
    from python_asgi import HEADER, REQUESTS

    method, target, content_type, body = REQUESTS[kind]
    path, _, query = target.partition("?")
    name, _, value = HEADER.partition(": ")
    headers = [(b"host", b"127.0.0.1:8000"), (b"user-agent", b"wrk"), (b"accept", b"*/*"),
               (name.lower().encode("ascii"), value.encode("utf-8"))]
    if body is not None:
        headers += [(b"content-length", str(len(body)).encode("ascii")),
                    (b"content-type", content_type.encode("ascii"))]
    scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"},
             "http_version": "1.1", "server": ("127.0.0.1", 8000),
             "client": ("127.0.0.1", 40000), "scheme": "http", "method": method,
             "root_path": "", "path": unquote_to_bytes(path).decode("utf-8"),
             "raw_path": path.encode("ascii"), "query_string": query.encode("ascii"),
             "headers": headers}
    return scope, body or b""


def application(middleware):
    """apps.py's Starlette application, with |middleware| (a class) or none."""
    from apps import OPTIONS
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    async def echo(request):
        body = await request.body()
        return PlainTextResponse(f"ok {len(body)}")

    methods = ["GET", "POST", "PUT"]
    return Starlette(routes=[Route("/", echo, methods=methods),
                             Route("/{rest:path}", echo, methods=methods)],
                     middleware=[] if middleware is None else [Middleware(middleware, **OPTIONS)])


def cpu_per_request(loop, app, base, count):
    scope, body = base

    async def receive():
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message):
        pass

    async def many():
        for _ in range(count):
            await app(dict(scope), receive, send)

    start = time.process_time()
    loop.run_until_complete(many())
    return (time.process_time() - start) / count


def main():
    from python_django_cpu import arguments
    args = arguments(__doc__, 5000)
    from utf8guard.asgi import Utf8GuardMiddleware

    apps = {"utf8guard": application(Utf8GuardMiddleware)}
    tmp = tempfile.TemporaryDirectory(prefix="utf8guard-bench-")
    if args.base:
        from python_django_cpu import base_package
        base_package(args.base, tmp.name)
        from utf8guard_base.asgi import Utf8GuardMiddleware as Base
        apps["base"] = application(Base)
    apps["none"] = application(None)
    loop = asyncio.new_event_loop()
    for kind in args.request or ["get"]:
        base = request(kind)
        times = {name: [] for name in apps}
        for app in apps.values():
            cpu_per_request(loop, app, base, args.requests // 4)
        for _ in range(args.rounds):
            for name, app in apps.items():
                times[name].append(cpu_per_request(loop, app, base, args.requests))
        m = {name: statistics.median(t) for name, t in times.items()}
        print(f"{kind}: " + ", ".join(f"{name} {1e6 * t:.2f} us/request" for name, t in m.items()))
        print(f"{kind}: the middleware's cost: " + ", ".join(
            f"{name} {1e6 * (m[name] - m['none']):.2f} us" for name in m if name != "none"),
            flush=True)
        if args.base:
            paired = statistics.median(b / a for a, b in zip(times["utf8guard"], times["base"]))
            print(f"{kind}: utf8guard against base, median of the rounds' time ratios "
                  f"(base / utf8guard): {paired:.3f}", flush=True)
    loop.close()
    tmp.cleanup()


if __name__ == "__main__":
    main()
