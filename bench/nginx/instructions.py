#!/usr/bin/env python3
"""instructions.py - the instructions Debian's nginx runs per request with
ngx_http_utf8guard_module on and without it, counted by callgrind: a figure
that does not move with the load of a shared machine, beside speed.py's times.

nginx runs in one process (master_process off) under callgrind, in a
temporary prefix on a loopback port, and answers COUNT requests pipelined on
one keep-alive connection: the request lines of the data file with the dozen
headers of requests.lua, as speed.py sends them, answered by `return 200`.
Each setup runs twice, with no request and with COUNT, so that start and stop
cancel out: per request = (Ir(COUNT) - Ir(0)) / COUNT. The counts are of user
space only (the kernel's work for the sockets is not in them), so the ratio
is of what the module adds to nginx's own code, not of the request rate.

Usage: bench/nginx/instructions.py --module PATH [--data FILE] [--count N]
The data file as for speed.py (--data, else $UTF8GUARD_BENCH_DATA/urls/).
"""

import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "nginx", "tests"))
sys.path.insert(0, HERE)
import nginx_harness as h  # noqa: E402
import speed  # noqa: E402

SERVER = """
    keepalive_requests 1000000;
    location / {{
        return 200 "ok\\n";
    }}
"""


def lua_headers():
    """The headers requests.lua sends, read from it: one list for both."""
    with open(os.path.join(HERE, "requests.lua")) as f:
        text = f.read()
    block = text[text.index("local headers = {"):text.index("\n}\n")]
    return re.findall(r'\["([^"]+)"\] = "([^"]*)"', block)


def requests(path):
    """The request lines as speed.py's wrk sends them (HEAD as GET)."""
    head = "".join("%s: %s\r\n" % kv for kv in lua_headers())
    out = []
    with open(path) as f:
        for line in f:
            m = re.match(r"^([A-Z]+) (\S+)", line)
            if not m:
                continue
            method, target = m.groups()
            method = "GET" if method == "HEAD" else method
            extra = "Content-Length: 0\r\n" if method == "POST" else ""
            out.append(("%s %s HTTP/1.1\r\n%s%s\r\n" % (method, target, head, extra)).encode())
    return out


def send(n, reqs, count, batch=32):
    """COUNT requests pipelined BATCH at a time; every answer must be 200."""
    with n.connect(timeout=120) as s:
        done = 0
        while done < count:
            k = min(batch, count - done)
            s.sendall(b"".join(reqs[(done + i) % len(reqs)] for i in range(k)))
            buf = b""
            while buf.count(b"HTTP/1.1 ") < k:
                data = s.recv(65536)
                if not data:
                    raise RuntimeError("nginx closed the connection")
                buf += data
            if buf.count(b"HTTP/1.1 200") != k:
                raise RuntimeError("an answer was not 200: %r" % buf[:200])
            done += k


def instructions(modules, http, reqs, count):
    """Ir of one nginx process that answered COUNT requests."""
    out = tempfile.NamedTemporaryFile(prefix="utf8guard-callgrind-", delete=False).name
    wrapper = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out]
    n = h.Nginx(http=http, server=SERVER, wrapper=wrapper, modules=modules, start_timeout=120)
    try:
        n.start()
        send(n, reqs, count)
        if n.stop(timeout=120) != 0:
            raise RuntimeError("nginx under callgrind: %s" % n.output())
        with open(out) as f:
            m = re.search(r"^summary: (\d+)", f.read(), re.M)
        return int(m.group(1))
    finally:
        n.__exit__(None, None, None)
        os.unlink(out)


def main():
    parser, _ = speed.arguments(__doc__)
    parser.add_argument("--count", type=int, default=None,
                        help="requests per run (default: one per line of the data)")
    args = speed.parse(parser)
    reqs = requests(args.data)
    count = args.count or len(reqs)
    setups = [("module on", [h.MODULE], "utf8guard on;"), ("module off", [], "")]
    per = {}
    for name, modules, http in setups:
        idle = instructions(modules, http, reqs, 0)
        busy = instructions(modules, http, reqs, count)
        per[name] = (busy - idle) / count
    print("callgrind, nginx %s, %d requests (%d lines of %s), 12 headers each" % (
        speed.nginx_version(args.nginx), count, len(reqs), os.path.basename(args.data)))
    print()
    print("| setup | instructions per request | ratio to module off |")
    print("|---|---:|---:|")
    for name, _, _ in setups:
        print("| %s | %.0f | %.3f |" % (name, per[name], per[name] / per["module off"]))


if __name__ == "__main__":
    main()
