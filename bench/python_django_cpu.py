#!/usr/bin/env python3
"""bench/python_django_cpu.py [--build DIR] [--base DIR] [--rounds N] [--requests M]
[--request get|form|json ...] - the CPU time of one request through Django's
WSGI handler in process, with
utf8guard.django.Utf8GuardMiddleware in settings.MIDDLEWARE, with a middleware
that does nothing, and with none: what the middleware costs, measured where a
loaded machine's scheduling does not blur it (bench/python_asgi.py --server
django-mw-wsgi measures the same under gunicorn with wrk). N rounds of M
requests each, the three handlers in turn; prints the medians and their
ratios. The requests are bench/python_asgi.py's (--request, repeatable;
default get): a GET whose path, query and a header carry multilingual text, a
form POST read as request.POST, a JSON POST read whole. Run with
/usr/bin/python3 (Debian's Django).

With --base DIR (another build directory, e.g. main's), that build's package
is imported as utf8guard_base and its middleware timed in the same rounds:
an older and a newer middleware side by side, in one process."""

import argparse
import io
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python/tests"))
sys.path.insert(0, str(ROOT / "bench"))


class Nothing:
    """A middleware that does nothing: Django's own cost of one more."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        return None


def environ(kind):
    """The environ gunicorn gives a request of python_asgi.REQUESTS, and its
    body."""
    from python_asgi import HEADER, REQUESTS
    from urllib.parse import unquote_to_bytes

    method, target, content_type, body = REQUESTS[kind]
    path, _, query = target.partition("?")
    name, _, value = HEADER.partition(": ")
    env = {
        "REQUEST_METHOD": method, "SCRIPT_NAME": "", "QUERY_STRING": query,
        "PATH_INFO": unquote_to_bytes(path).decode("latin-1"), "RAW_URI": target,
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1", "REMOTE_PORT": "40000", "HTTP_HOST": "127.0.0.1",
        "HTTP_USER_AGENT": "wrk", "HTTP_ACCEPT": "*/*", "HTTP_CONNECTION": "keep-alive",
        "HTTP_" + name.upper().replace("-", "_"): value.encode().decode("latin-1"),
        "wsgi.url_scheme": "http", "wsgi.input_terminated": True, "wsgi.errors": sys.stderr,
        "wsgi.version": (1, 0), "wsgi.multithread": False, "wsgi.multiprocess": False,
        "wsgi.run_once": False}
    if body is not None:
        env["CONTENT_TYPE"] = content_type
        env["CONTENT_LENGTH"] = str(len(body))
    return env, body or b""


def arguments(doc, requests):
    """The command line of the in-process benchmarks (this one and
    python_asgi_cpu.py): --build, --base, --rounds, --requests (default
    |requests|), --request (python_asgi.REQUESTS' names). The build's package
    goes first on sys.path."""
    from python_asgi import REQUESTS
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--base", help="a build directory whose middleware is timed as well")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--requests", type=int, default=requests)
    ap.add_argument("--request", action="append", choices=list(REQUESTS),
                    help="the request (repeatable; default get)")
    args = ap.parse_args()
    package = Path(args.build) / "python"
    if (package / "utf8guard").is_dir():
        sys.path.insert(0, str(package))
    return args


def base_package(build, directory):
    """Makes another build's package importable as utf8guard_base. Its
    imports are relative: a copy under another name is a second, independent
    package (its own extension module)."""
    shutil.copytree(Path(build) / "python/utf8guard", Path(directory) / "utf8guard_base")
    sys.path.insert(0, directory)


def cpu_per_request(handler, base, count):
    base, body = base
    start = time.process_time()
    for _ in range(count):
        env = dict(base)
        env["wsgi.input"] = io.BytesIO(body)
        result = handler(env, lambda status, headers, exc_info=None: None)
        b"".join(result)
        result.close()
    return (time.process_time() - start) / count


def main():
    args = arguments(__doc__, 2000)
    os.environ["UTF8GUARD_TEST_SERVER"] = "django-mw-wsgi"
    import apps  # noqa: F401  (Django configured with the middleware)
    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler

    sys.modules["python_django_cpu"] = sys.modules[__name__]
    sides = [("utf8guard", ["utf8guard.django.Utf8GuardMiddleware"])]
    tmp = tempfile.TemporaryDirectory(prefix="utf8guard-bench-")
    if args.base:
        base_package(args.base, tmp.name)
        sides.append(("base", ["utf8guard_base.django.Utf8GuardMiddleware"]))
    handlers = {}
    for name, middleware in sides + [("nothing", ["python_django_cpu.Nothing"]), ("none", [])]:
        settings.MIDDLEWARE = middleware
        handlers[name] = WSGIHandler()
    for kind in args.request or ["get"]:
        base = environ(kind)
        times = {name: [] for name in handlers}
        for name, handler in handlers.items():
            cpu_per_request(handler, base, args.requests // 4)
        for _ in range(args.rounds):
            for name, handler in handlers.items():
                times[name].append(cpu_per_request(handler, base, args.requests))
        m = {name: statistics.median(t) for name, t in times.items()}
        print(f"{kind}: " + ", ".join(f"{name} {1e6 * t:.1f} us/request" for name, t in m.items()))
        print(f"{kind}: requests/s ratio to none: utf8guard {m['none'] / m['utf8guard']:.3f}, "
              + (f"base {m['none'] / m['base']:.3f}, " if args.base else "")
              + f"a middleware that does nothing {m['none'] / m['nothing']:.3f}", flush=True)
        if args.base:
            paired = statistics.median(b / a for a, b in zip(times["utf8guard"], times["base"]))
            print(f"{kind}: utf8guard against base, median of the rounds' time ratios "
                  f"(base / utf8guard): {paired:.3f}", flush=True)
    tmp.cleanup()


if __name__ == "__main__":
    main()
