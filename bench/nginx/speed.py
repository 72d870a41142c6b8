#!/usr/bin/env python3
"""speed.py - requests per second of Debian's nginx (one worker, loopback,
wrk) with ngx_http_utf8guard_module on, without it, and with ModSecurity and
the OWASP CRS (nginx/compare_modsecurity.py's "CRS" setup), side by side.

  targets   the request lines of the data file, each with a dozen ordinary
            headers (requests.lua), answered by `return 200`: the module's
            target and header checks against the bare nginx
  form      a 10 MiB application/x-www-form-urlencoded POST (the data's
            queries), read into memory (client_body_buffer_size) and passed
            to a second server by proxy_pass: the module's body check
  form-text the same with a text's lines form-encoded (--form-text FILE,
            else the data folder's lipsum/Latin-Lipsum.utf8.txt when it is
            there): a mostly ASCII form
  multipart a browser's multipart/form-data upload, a 1 MiB binary file
            (--multipart-bytes) and three text fields in several scripts,
            the body bench/multipart_bench.cpp times, passed on the same
            way: the module's multipart checker, whose boundary search runs
            over the file's bytes

The setups alternate, ROUNDS times each, DURATION seconds a run, each round
on freshly started nginx processes, in an order that rotates; the tables
give each setup's median requests per second and the worker's median CPU time
per request (user + system, from /proc: on a shared machine the steadier
figure), the ratios of the medians to "module off", and the medians of the
rounds' ratios.

Usage: bench/nginx/speed.py --module PATH [--data FILE] [--form-text FILE]
       [--rounds N] [--duration S] [--connections C] [--together]
       [--tables targets,form,form-text,multipart]
The request lines ("METHOD TARGET HTTP/1.1", one a line): --data FILE, else
$UTF8GUARD_BENCH_DATA/urls/requests_1MiB.txt (the benchmarks' data folder).
"""

import argparse
import os
import platform
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "nginx"))
sys.path.insert(0, os.path.join(ROOT, "nginx", "tests"))
import compare_modsecurity as modsec  # noqa: E402
import nginx_harness as h  # noqa: E402

TARGETS_SERVER = """
    location / {{
        return 200 "ok\\n";
    }}
"""
FORM_SERVER = """
    client_body_buffer_size 12m;
    location / {{
        proxy_pass http://127.0.0.1:{sink}/;
    }}
}}
server {{
    listen 127.0.0.1:{sink};
    {off}
    location / {{
        return 200 "ok\\n";
    }}
"""


def cpu_name():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor()


def cpu_seconds(pid):
    """User + system CPU time of a process, in seconds."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wrk_start(n, args, env):
    """Starts one wrk run against n: (wrk's process, the worker, its CPU time)."""
    worker = n.worker_pids()[0]
    cmd = ["wrk", "-t1", "-c%d" % args.connections, "-d%ds" % args.duration,
           "-s", os.path.join(HERE, "requests.lua"), "http://127.0.0.1:%d/" % n.port]
    cpu0 = cpu_seconds(worker)
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT), \
        worker, cpu0


def wrk_finish(run, args):
    """The end of a wrk run: (requests per second, worker CPU microseconds per
    request)."""
    proc, worker, cpu0 = run
    out = proc.communicate(timeout=args.duration + 60)[0].decode()
    cpu = cpu_seconds(worker) - cpu0
    m = re.search(r"Requests/sec:\s+([\d.]+)", out)
    total = re.search(r"(\d+) requests in", out)
    if not m or not total or int(total.group(1)) == 0 or "Non-2xx" in out:
        raise RuntimeError("wrk: " + out)
    return float(m.group(1)), cpu * 1e6 / int(total.group(1))


def wrk(n, args, env):
    """One wrk run: (requests per second, worker CPU microseconds per request)."""
    return wrk_finish(wrk_start(n, args, env), args)


def measure(setups, args, env, form):
    """ROUNDS rounds: each starts every setup afresh, then runs wrk on each in
    turn, in an order that rotates from round to round. Two nginx processes
    with the same configuration differ by several per cent in CPU time a
    request, whichever starts first, so no setup keeps one process (or one
    place in the order) through all the rounds."""
    results = {name: [] for name, _ in setups}
    for r in range(args.rounds):
        k = r % len(setups)
        order = setups[k:] + setups[:k]
        running = []
        try:
            for name, conf in order:
                conf = dict(conf)
                if form:
                    sink = h.free_port()
                    conf["server"] = FORM_SERVER.replace("{sink}", str(sink)).replace(
                        "{off}", conf.pop("off"))
                else:
                    conf.pop("off")
                    conf["server"] = TARGETS_SERVER
                n = h.Nginx(start_timeout=60, **conf)
                running.append((name, n))
                n.start()
            if args.together:
                # One wrk a setup, all at once: a slow second of the machine
                # slows every setup alike, and the scheduler shares the cores
                # out evenly, so each setup's rate follows its cost a request.
                runs = [(name, wrk_start(n, args, env)) for name, n in running]
                for name, run in runs:
                    results[name].append(wrk_finish(run, args))
            else:
                for name, n in running:
                    results[name].append(wrk(n, args, env))
        finally:
            for _, n in running:
                n.__exit__(None, None, None)
    return results


def table(title, results, base):
    """Each setup's medians and their ratios to |base|, and the median of the
    rounds' ratios: a round's runs are neighbours in time, so a slow minute of
    the machine slows all of them."""
    lines = ["| %s | median req/s | runs | ratio | rounds' ratio | worker CPU µs/request | ratio "
             "| rounds' ratio |" % title,
             "|---|---:|---|---:|---:|---:|---:|---:|"]
    rate = {name: statistics.median(r for r, _ in runs) for name, runs in results.items()}
    cpu = {name: statistics.median(c for _, c in runs) for name, runs in results.items()}
    for name, runs in results.items():
        pairs = list(zip(runs, results[base]))
        lines.append("| %s | %.0f | %s | %.3f | %.3f | %.1f | %.3f | %.3f |" % (
            name, rate[name], " ".join("%.0f" % r for r, _ in runs), rate[name] / rate[base],
            statistics.median(a[0] / b[0] for a, b in pairs), cpu[name], cpu[base] / cpu[name],
            statistics.median(b[1] / a[1] for a, b in pairs)))
    return "\n".join(lines)


class Tables(list):
    """The tables measured so far, each printed as it comes."""

    def append(self, item):
        title, result = item
        print()
        print(table(title, result, "module off"), flush=True)
        super().append(item)


def arguments(doc):
    """A parser with the options every nginx benchmark takes (--nginx,
    --module, --data) and the data folder, $UTF8GUARD_BENCH_DATA."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--nginx", default="/usr/sbin/nginx")
    parser.add_argument("--module", required=True)
    folder = os.environ.get("UTF8GUARD_BENCH_DATA")
    parser.add_argument("--data", default=folder and os.path.join(folder, "urls",
                                                                  "requests_1MiB.txt"))
    return parser, folder


def parse(parser):
    """The arguments, checked; points the harness at the nginx and module."""
    args = parser.parse_args()
    if not args.data or not os.path.isfile(args.data):
        parser.error("no request lines: give --data FILE or UTF8GUARD_BENCH_DATA=FOLDER")
    h.NGINX, h.MODULE = args.nginx, os.path.abspath(args.module)
    return args


def nginx_version(nginx):
    return subprocess.run([nginx, "-v"], stderr=subprocess.PIPE).stderr.decode().strip() \
        .split("/")[-1]


def main():
    parser, folder = arguments(__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--duration", type=int, default=4)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--form-bytes", type=int, default=10 << 20)
    latin = folder and os.path.join(folder, "lipsum", "Latin-Lipsum.utf8.txt")
    parser.add_argument("--form-text", default=latin if latin and os.path.isfile(latin) else None)
    parser.add_argument("--multipart-bytes", type=int, default=1 << 20)
    parser.add_argument("--together", action="store_true",
                        help="run the setups' wrk at the same time, not in turns")
    parser.add_argument("--tables", default="targets,form,form-text,multipart",
                        help="the tables to measure, comma-separated")
    args = parse(parser)
    tables = set(args.tables.split(","))
    env = dict(os.environ, UTF8GUARD_BENCH_REQUESTS=os.path.abspath(args.data))

    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            stdout=subprocess.PIPE).stdout.decode().strip()
    print("commit %s, %s, %d CPUs; wrk -t1 -c%d -d%ds, %d rounds; nginx %s, 1 worker" %
          (commit, cpu_name(), os.cpu_count(), args.connections, args.duration, args.rounds,
           nginx_version(args.nginx)))
    print("Ratios are to \"module off\" (the CPU ratio as off/on: above 1 is cheaper).")
    scratch = h.Nginx(modules=[])  # a prefix for ModSecurity's rules file
    try:
        crs = dict(modsec.setups(scratch.prefix))["CRS"]
        on = dict(modules=[h.MODULE], http="utf8guard on;", off="utf8guard off;")
        bare = dict(modules=[], http="", off="")
        crs = dict(modules=crs["modules"], http=crs["http"], off="modsecurity off;")
        results = Tables()
        if "targets" in tables:
            results.append(("targets + 12 headers", measure(
                [("module on", on), ("module off", bare), ("ModSecurity+CRS", crs)], args, env,
                form=False)))
        form_env = dict(env, UTF8GUARD_BENCH_FORM=str(args.form_bytes))
        if "form" in tables:
            results.append(("10 MiB form POST", measure([("module on", on), ("module off", bare)],
                                                         args, form_env, form=True)))
        if args.form_text and "form-text" in tables:
            text_env = dict(form_env, UTF8GUARD_BENCH_FORM_TEXT=os.path.abspath(args.form_text))
            results.append(("10 MiB form POST, %s form-encoded" % os.path.basename(args.form_text),
                            measure([("module on", on), ("module off", bare)], args, text_env,
                                    form=True)))
        if "multipart" in tables:
            upload_env = dict(env, UTF8GUARD_BENCH_MULTIPART=str(args.multipart_bytes))
            results.append(("multipart upload, %d KiB file + 3 text fields" %
                            (args.multipart_bytes >> 10),
                            measure([("module on", on), ("module off", bare)], args, upload_env,
                                    form=True)))
    finally:
        scratch.__exit__(None, None, None)


if __name__ == "__main__":
    main()
