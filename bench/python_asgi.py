#!/usr/bin/env python3
"""bench/python_asgi.py [--build DIR] [--rounds N] [--seconds S] [--server KIND] -
requests per second of uvicorn + Starlette with utf8guard's ASGI middleware
against the same application without it, measured by wrk on loopback (or,
with --server, another of python/tests/servers.py's servers: wsgi for Flask
under gunicorn, django-mw-wsgi and django-mw-asgi for Django with the
middleware in settings.MIDDLEWARE). The two servers run
side by side on free 127.0.0.1 ports; wrk runs S seconds against each in
turn, N rounds; prints each round, the medians' ratio and the median of the
rounds' ratios (each round's two runs are neighbours in time). Every run is bounded
(wrk -d S, a timeout) and both servers stop at the end.

The request is a GET whose path, query and a header carry percent-encoded or
raw multilingual text, so the middleware checks every part. Needs wrk and
Debian's python3-uvicorn and python3-starlette; run with /usr/bin/python3."""

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python/tests"))

PATH = "/echo/%D0%B0%D0%B4%D0%B8%D0%BF%D0%B8%D1%81%D1%86%D0%B8%D0%BD%D0%B3/%E6%8E%A2%E7%A8%BF"
QUERY = "?title=%D8%A3%D8%AE%D8%B1+%D8%A8%D9%84&page=%E6%9C%88%E4%BD%90%E6%96%87"
HEADER = "X-Title: Lorem ipsum dolor sit amet, caf\u00e9 \u00fcber \u6587\u5b57"


def wrk(port, seconds):
    out = subprocess.run(
        ["wrk", "-t1", "-c8", f"-d{seconds}s", "--timeout", "5s", "-H", HEADER,
         f"http://127.0.0.1:{port}{PATH}{QUERY}"],
        check=True, stdout=subprocess.PIPE, text=True, timeout=seconds + 30).stdout
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise RuntimeError(f"wrk saw {errors.group(1)} failed answers:\n{out}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--seconds", type=int, default=3)
    ap.add_argument("--server", default="asgi",
                    choices=["asgi", "wsgi", "django-mw-wsgi", "django-mw-asgi", "django-wsgi",
                             "django-asgi"])
    args = ap.parse_args()
    package = Path(args.build) / "python"
    if (package / "utf8guard").is_dir():
        sys.path.insert(0, str(package))
    import servers

    guarded, plain = [], []
    with servers.server(args.server) as port_guarded, \
            servers.server(args.server, plain=True) as port_plain:
        for n in range(args.rounds):
            guarded.append(wrk(port_guarded, args.seconds))
            plain.append(wrk(port_plain, args.seconds))
            print(f"round {n + 1}: with utf8guard {guarded[-1]:.0f} req/s, "
                  f"without {plain[-1]:.0f} req/s", flush=True)
    g, p = statistics.median(guarded), statistics.median(plain)
    paired = statistics.median(a / b for a, b in zip(guarded, plain))
    print(f"median: with utf8guard {g:.0f} req/s, without {p:.0f} req/s, ratio {g / p:.3f}; "
          f"median of the rounds' ratios {paired:.3f}")


if __name__ == "__main__":
    main()
