#!/usr/bin/env python3
"""bench/python_asgi.py [--build DIR] [--rounds N] [--seconds S] [--server KIND]
[--request get|form|json|json-escaped ...] - requests per second of uvicorn + Starlette with
utf8guard's ASGI middleware against the same application without it, measured
by wrk on loopback (or, with --server, another of python/tests/servers.py's
servers: wsgi for Flask under gunicorn, django-mw-wsgi and django-mw-asgi for
Django with the middleware in settings.MIDDLEWARE). The two servers run side by
side on free 127.0.0.1 ports; each round, wrk runs S seconds against each in
turn for every request (the first server alternates between rounds), N
rounds; prints each round, and per request the medians' ratio and the median
of the rounds' ratios (each round's two runs are neighbours in time). Every
run is bounded (wrk -d S, a timeout) and both servers stop at the end.

Beside the requests per second, the servers' CPU time a request (the time
the server's processes ran, from /proc, over each run): wrk's figure
depends on how the machine's other work shares the cores, the CPU time on
what the server does for a request (which contention inflates too). Its
ratio is written as requests per second (without / with), so that both read
the same way.

The requests (--request, repeatable; default get): "get", a GET whose path,
query and a header carry percent-encoded or raw multilingual text, so the
middleware checks every part; "form", a POST of an
application/x-www-form-urlencoded body of the same text to /form, which the
view reads as request.POST (Django) or request.form (Flask); "json", a POST of
an application/json body of raw multilingual text, which the view reads
whole; "json-escaped", the same body with every non-ASCII character escaped,
as json.dumps writes it by default. Each has the GET's header. Needs wrk and Debian's python3-uvicorn,
python3-starlette, gunicorn, Flask and Django; run with /usr/bin/python3."""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python/tests"))

PATH = "/echo/%D0%B0%D0%B4%D0%B8%D0%BF%D0%B8%D1%81%D1%86%D0%B8%D0%BD%D0%B3/%E6%8E%A2%E7%A8%BF"
QUERY = "?title=%D8%A3%D8%AE%D8%B1+%D8%A8%D9%84&page=%E6%9C%88%E4%BD%90%E6%96%87"
HEADER = "X-Title: Lorem ipsum dolor sit amet, caf\u00e9 \u00fcber \u6587\u5b57"

_FIELDS = {
    "title": "Lorem ipsum dolor sit amet, caf\u00e9 \u00fcber \u6587\u5b57",
    "name": "\u0410\u0434\u0438\u043f\u0438\u0441\u0446\u0438\u043d\u0433 "
            "\u043f\u0440\u043e\u0444\u0438",
    "city": "\u6771\u4eac\u90fd \u6e0b\u8c37\u533a",
    "note": "\u0623\u062e\u0631 \u0628\u0644\u062f \u0641\u064a "
            "\u0627\u0644\u0639\u0627\u0644\u0645 " * 4,
    "text": "Quisque \u00e9l\u00e9ment na\u00efve co\u00f6perate \u2014 stra\u00dfe. " * 6,
}
# (method, path, Content-Type, body) of each request.
REQUESTS = {
    "get": ("GET", PATH + QUERY, None, None),
    "form": ("POST", "/form", "application/x-www-form-urlencoded",
             urlencode(_FIELDS).encode("ascii")),
    "json": ("POST", PATH, "application/json",
             json.dumps(_FIELDS, ensure_ascii=False).encode("utf-8")),
    "json-escaped": ("POST", PATH, "application/json",
                     json.dumps(_FIELDS).encode("ascii")),
}


def script(directory, kind):
    """A wrk Lua script sending |kind|'s POST, or None for a GET."""
    method, _, content_type, body = REQUESTS[kind]
    if body is None:
        return None
    path = Path(directory) / f"{kind}.lua"
    escaped = "".join(f"\\{b:03d}" for b in body)  # every byte, whatever it is
    path.write_text(f'wrk.method = "{method}"\n'
                    f'wrk.headers["Content-Type"] = "{content_type}"\n'
                    f'wrk.body = "{escaped}"\n')
    return str(path)


def cpu_seconds(pid):
    """CPU seconds that process |pid|, its children and their threads have
    run so far (the scheduler's nanoseconds, /proc/PID/task/TID/schedstat)."""
    pids = [pid]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
                pids.append(int(entry))
    ns = 0
    for p in pids:
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                ns += int(Path(f"/proc/{p}/task/{task}/schedstat").read_text().split()[0])
        except OSError:
            continue
    return ns / 1e9


def wrk(port, pid, seconds, kind, lua):
    """(requests per second, the server's CPU seconds a request) of one run."""
    _, target, _, _ = REQUESTS[kind]
    command = ["wrk", "-t1", "-c8", f"-d{seconds}s", "--timeout", "5s", "-H", HEADER]
    if lua:
        command += ["-s", lua]
    before = cpu_seconds(pid)
    out = subprocess.run(command + [f"http://127.0.0.1:{port}{target}"], check=True,
                         stdout=subprocess.PIPE, text=True, timeout=seconds + 30).stdout
    cpu = cpu_seconds(pid) - before
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise RuntimeError(f"wrk saw {errors.group(1)} failed answers:\n{out}")
    count = int(re.search(r"(\d+) requests in", out).group(1))
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), cpu / max(count, 1)


def ready(port, kinds):
    """Waits until the server answers each request 200 (a gunicorn master
    listens before its worker has loaded the application)."""
    import servers

    deadline = time.monotonic() + 60
    for kind in kinds:
        method, target, content_type, body = REQUESTS[kind]
        name, _, value = HEADER.partition(": ")
        headers = [(name.encode(), value.encode())]
        if content_type:
            headers.append((b"Content-Type", content_type.encode()))
        while True:
            try:
                status = servers.request(port, target.encode(), headers, body)[0]
            except OSError:
                status = 0
            if status == 200:
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server on {port} answers {kind} with {status}")
            time.sleep(0.2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--seconds", type=int, default=3)
    ap.add_argument("--server", default="asgi",
                    choices=["asgi", "wsgi", "django-mw-wsgi", "django-mw-asgi", "django-wsgi",
                             "django-asgi"])
    ap.add_argument("--request", action="append", choices=list(REQUESTS),
                    help="the request wrk sends (repeatable; default get)")
    args = ap.parse_args()
    kinds = args.request or ["get"]
    package = Path(args.build) / "python"
    if (package / "utf8guard").is_dir():
        sys.path.insert(0, str(package))
    import servers

    runs = {kind: {"with": [], "without": []} for kind in kinds}
    with tempfile.TemporaryDirectory(prefix="utf8guard-bench-") as tmp, \
            servers.server_process(args.server) as guarded, \
            servers.server_process(args.server, plain=True) as plain:
        lua = {kind: script(tmp, kind) for kind in kinds}
        sides = [("with", guarded[0], guarded[1].pid), ("without", plain[0], plain[1].pid)]
        for _, port, pid in sides:
            ready(port, kinds)
            for kind in kinds:
                wrk(port, pid, 1, kind, lua[kind])  # warm-up, not counted
        for n in range(args.rounds):
            for kind in kinds:
                line = []
                for side, port, pid in sides if n % 2 == 0 else sides[::-1]:
                    rps, cpu = wrk(port, pid, args.seconds, kind, lua[kind])
                    runs[kind][side].append((rps, cpu))
                    line.append(f"{side} utf8guard {rps:.0f} req/s {1e6 * cpu:.0f} us CPU")
                print(f"round {n + 1} {kind}: " + ", ".join(line), flush=True)
    for kind in kinds:
        g, p = runs[kind]["with"], runs[kind]["without"]
        g_rps, p_rps = statistics.median(r for r, _ in g), statistics.median(r for r, _ in p)
        g_cpu, p_cpu = statistics.median(c for _, c in g), statistics.median(c for _, c in p)
        paired = statistics.median(a[0] / b[0] for a, b in zip(g, p))
        paired_cpu = statistics.median(b[1] / a[1] for a, b in zip(g, p))
        print(f"{kind}: median with utf8guard {g_rps:.0f} req/s, without {p_rps:.0f} req/s, "
              f"ratio {g_rps / p_rps:.3f}; median of the rounds' ratios {paired:.3f}")
        print(f"{kind}: server CPU a request, median: with utf8guard {1e6 * g_cpu:.0f} us, "
              f"without {1e6 * p_cpu:.0f} us, as req/s ratio {p_cpu / g_cpu:.3f}; "
              f"median of the rounds' ratios {paired_cpu:.3f}")


if __name__ == "__main__":
    main()
