#!/usr/bin/env python3
"""bench/python_asgi.py [--build DIR] [--rounds N] [--seconds S] [--server KIND] [--json BYTES] -
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
raw multilingual text, so the middleware checks every part; with --json, a
POST to the same target with an application/json body of about BYTES bytes
(records of text in several scripts, half of them written raw and half with
every non-ASCII character escaped, as json.dumps does by default), which the
middleware checks in the JSON form and the application reads. Needs wrk and
Debian's python3-uvicorn and python3-starlette; run with /usr/bin/python3."""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python/tests"))

PATH = "/echo/%D0%B0%D0%B4%D0%B8%D0%BF%D0%B8%D1%81%D1%86%D0%B8%D0%BD%D0%B3/%E6%8E%A2%E7%A8%BF"
QUERY = "?title=%D8%A3%D8%AE%D8%B1+%D8%A8%D9%84&page=%E6%9C%88%E4%BD%90%E6%96%87"
HEADER = "X-Title: Lorem ipsum dolor sit amet, caf\u00e9 \u00fcber \u6587\u5b57"


TEXTS = ["Lorem ipsum dolor sit amet, caf\u00e9 \u00fcber na\u00efve",
         "\u041b\u043e\u0440\u0435\u043c \u0438\u043f\u0441\u0443\u043c \u0434\u043e\u043b\u043e\u0440",
         "\u6708\u4f50\u6587\u5b57\u306e\u30c6\u30b9\u30c8\u3067\u3059",
         "\u0623\u062e\u0631 \u0628\u0644 \u0645\u0639 \u0627\u0644\u0646\u0635",
         "emoji \U0001F600\U0001F680 and \u00e9t\u00e9"]


def json_body(size):
    """About size bytes of JSON: records of multilingual text, every other
    one with its non-ASCII characters escaped."""
    records, n, i = [], 2, 0
    while n < size:
        text = TEXTS[i % len(TEXTS)]
        record = json.dumps({"id": i, "title": text, "tags": text.split()[:2]},
                            ensure_ascii=i % 2 == 1)
        records.append(record)
        n += len(record.encode()) + 1
        i += 1
    return ("[" + ",".join(records) + "]").encode()


def json_script(folder, size):
    """A wrk script that POSTs the JSON body."""
    body = os.path.join(folder, "body.json")
    with open(body, "wb") as f:
        f.write(json_body(size))
    script = os.path.join(folder, "post.lua")
    with open(script, "w") as f:
        f.write('wrk.method = "POST"\n'
                'wrk.headers["Content-Type"] = "application/json"\n'
                f'local f = io.open("{body}", "rb")\n'
                'wrk.body = f:read("*a")\n'
                'f:close()\n')
    return script


def wrk(port, seconds, script=None):
    extra = ["-s", script] if script else []
    out = subprocess.run(
        ["wrk", "-t1", "-c8", f"-d{seconds}s", "--timeout", "5s", "-H", HEADER] + extra +
        [f"http://127.0.0.1:{port}{PATH}{QUERY}"],
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
    ap.add_argument("--json", type=int, default=0, metavar="BYTES",
                    help="POST a JSON body of about BYTES bytes instead of the GET")
    args = ap.parse_args()
    package = Path(args.build) / "python"
    if (package / "utf8guard").is_dir():
        sys.path.insert(0, str(package))
    import servers

    guarded, plain = [], []
    with tempfile.TemporaryDirectory() as folder, servers.server(args.server) as port_guarded, \
            servers.server(args.server, plain=True) as port_plain:
        script = json_script(folder, args.json) if args.json else None
        for n in range(args.rounds):
            guarded.append(wrk(port_guarded, args.seconds, script))
            plain.append(wrk(port_plain, args.seconds, script))
            print(f"round {n + 1}: with utf8guard {guarded[-1]:.0f} req/s, "
                  f"without {plain[-1]:.0f} req/s", flush=True)
    g, p = statistics.median(guarded), statistics.median(plain)
    paired = statistics.median(a / b for a, b in zip(guarded, plain))
    print(f"median: with utf8guard {g:.0f} req/s, without {p:.0f} req/s, ratio {g / p:.3f}; "
          f"median of the rounds' ratios {paired:.3f}")


if __name__ == "__main__":
    main()
