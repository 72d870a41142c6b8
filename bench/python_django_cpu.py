#!/usr/bin/env python3
"""bench/python_django_cpu.py [--build DIR] [--rounds N] [--requests M] - the CPU
time of one request through Django's WSGI handler in process, with
utf8guard.django.Utf8GuardMiddleware in settings.MIDDLEWARE, with a middleware
that does nothing, and with none: what the middleware costs, measured where a
loaded machine's scheduling does not blur it (bench/python_asgi.py --server
django-mw-wsgi measures the same under gunicorn with wrk). N rounds of M
requests each, the three handlers in turn; prints the medians and their
ratios. The request is bench/python_asgi.py's: a path, a query and a header of
multilingual text. Run with /usr/bin/python3 (Debian's Django)."""

import argparse
import io
import os
import statistics
import sys
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


def environ():
    from python_asgi import HEADER, PATH, QUERY
    from urllib.parse import unquote_to_bytes

    name, _, value = HEADER.partition(": ")
    return {
        "REQUEST_METHOD": "GET", "SCRIPT_NAME": "", "QUERY_STRING": QUERY[1:],
        "PATH_INFO": unquote_to_bytes(PATH).decode("latin-1"), "RAW_URI": PATH + QUERY,
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1", "REMOTE_PORT": "40000", "HTTP_HOST": "127.0.0.1",
        "HTTP_USER_AGENT": "wrk", "HTTP_ACCEPT": "*/*", "HTTP_CONNECTION": "keep-alive",
        "HTTP_" + name.upper().replace("-", "_"): value.encode().decode("latin-1"),
        "wsgi.url_scheme": "http", "wsgi.input_terminated": True, "wsgi.errors": sys.stderr,
        "wsgi.version": (1, 0), "wsgi.multithread": False, "wsgi.multiprocess": False,
        "wsgi.run_once": False}


def cpu_per_request(handler, base, count):
    start = time.process_time()
    for _ in range(count):
        env = dict(base)
        env["wsgi.input"] = io.BytesIO(b"")
        result = handler(env, lambda status, headers, exc_info=None: None)
        b"".join(result)
        result.close()
    return (time.process_time() - start) / count


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--requests", type=int, default=2000)
    args = ap.parse_args()
    package = Path(args.build) / "python"
    if (package / "utf8guard").is_dir():
        sys.path.insert(0, str(package))
    os.environ["UTF8GUARD_TEST_SERVER"] = "django-mw-wsgi"
    import apps  # noqa: F401  (Django configured with the middleware)
    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler

    sys.modules["python_django_cpu"] = sys.modules[__name__]
    handlers = {}
    for name, middleware in (("utf8guard", ["utf8guard.django.Utf8GuardMiddleware"]),
                             ("nothing", ["python_django_cpu.Nothing"]), ("none", [])):
        settings.MIDDLEWARE = middleware
        handlers[name] = WSGIHandler()
    base = environ()
    times = {name: [] for name in handlers}
    for name, handler in handlers.items():
        cpu_per_request(handler, base, args.requests // 4)
    for _ in range(args.rounds):
        for name, handler in handlers.items():
            times[name].append(cpu_per_request(handler, base, args.requests))
    m = {name: statistics.median(t) for name, t in times.items()}
    print(", ".join(f"{name} {1e6 * t:.1f} us/request" for name, t in m.items()))
    print(f"requests/s ratio to none: utf8guard {m['none'] / m['utf8guard']:.3f}, "
          f"a middleware that does nothing {m['none'] / m['nothing']:.3f}")


if __name__ == "__main__":
    main()
