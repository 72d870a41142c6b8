"""nginx_harness.py - Debian's nginx with ngx_http_utf8guard_module, started
by the tests themselves, and raw-socket HTTP clients.

Each Nginx runs in a temporary prefix (configuration, pid file, logs and
temporary files inside it) on a free 127.0.0.1 port, in the foreground
(`daemon off`), and is stopped by its context manager also when a test
fails. What the module must report comes from the CLI tests' oracles
(tests/cli/test_policy.py and test_percent.py: Python's own UTF-8 decoder,
unicodedata and the hint rules written from their byte patterns), never from
the module.

Command line (main()): --nginx PATH --module PATH [unittest arguments].
"""

import os
import re
import shutil
import signal
import socket
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tests", "cli"))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
import test_percent  # noqa: E402
import test_policy  # noqa: E402

NGINX = None  # Debian's nginx binary
MODULE = None  # ngx_http_utf8guard_module.so


def rule_defaults():
    """The rules' defaults, from the rule core itself (request_check_test
    --defaults: $UTF8GUARD_REQUEST_CHECK, else build/nginx/ of this tree),
    as {directive: set of denied categories}: the defaults are stated once."""
    program = os.environ.get("UTF8GUARD_REQUEST_CHECK") or \
        os.path.join(ROOT, "build", "nginx", "request_check_test")
    out = subprocess.run([program, "--defaults"], stdout=subprocess.PIPE, check=True,
                         timeout=30).stdout.decode()
    rules = {}
    for line in out.splitlines():
        directive, _, on, categories = line.split()
        rules[directive] = set() if categories == "-" else set(categories.split(","))
    return rules


DEFAULTS = rule_defaults()
TARGET = DEFAULTS["utf8guard_target"]
HEADERS = DEFAULTS["utf8guard_headers"]
FORM = DEFAULTS["utf8guard_body_form"]
# JSON bodies are checked as JSON text (escapes decoded); the raw oracle
# words the same findings for JSON text without a backslash, which is all
# the tests send through it.
JSON = DEFAULTS["utf8guard_body_json"]
TEXT = DEFAULTS["utf8guard_body_text"]
NONE = DEFAULTS["utf8guard_body_none"]
PROFILES = test_policy.PROFILES


def finding(part, data, deny, percent):
    """The module's finding for part's bytes: "PART: MESSAGE", as the CLI
    words it after "PATH:LINE:COLUMN: ", or None."""
    errors = (test_percent.expected if percent else test_policy.expected)(data, deny, hints=True)
    if not errors:
        return None
    line = test_policy.text("-", errors[:1]).decode().rstrip("\n")
    return part + ": " + re.sub(r"^-:\d+:\d+: ", "", line)


def multilingual():
    """The lines of multilingual.txt: well-formed text in nine scripts."""
    with open(os.path.join(HERE, "multilingual.txt"), "rb") as f:
        return [line.rstrip(b"\n") for line in f if not line.startswith(b"#")]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# The test site: every request goes through the module and on to a handler
# that reads the body (proxy_pass, buffering it as nginx does by default,
# into the prefix), here the same server's /sink/, where the module is off.
SITE = """
    location / {{
        proxy_pass http://127.0.0.1:{port}/sink/;
    }}
    location /sink/ {{
        utf8guard off;
        return 200 "ok\\n";
    }}
    location /off/ {{
        utf8guard off;
        proxy_pass http://127.0.0.1:{port}/sink/;
    }}
    location /detect/ {{
        utf8guard_mode detect;
        proxy_pass http://127.0.0.1:{port}/sink/;
    }}
    location /forbidden/ {{
        utf8guard_status 403;
        proxy_pass http://127.0.0.1:{port}/sink/;
    }}
    location /strict/ {{
        utf8guard_target strict;
        utf8guard_body_json off;
        utf8guard_body_other "strict";
        proxy_pass http://127.0.0.1:{port}/sink/;
    }}
    location /return/ {{
        return 200 "ok\\n";
    }}
    location /bom/ {{
        utf8guard_target "url,bom";
        proxy_pass http://127.0.0.1:{port}/sink/;
    }}
"""

CONF = """{load}
daemon off;
master_process {master};
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log info;
events {{ worker_connections 256; }}
http {{
    log_format ug '{log_format}';
    access_log {prefix}/access.log ug;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    client_max_body_size 0;
    {http}
    server {{
        listen 127.0.0.1:{port};
        {server}
    }}
}}
"""


class Nginx:
    """nginx in a temporary prefix. http: directives of the http block;
    server: of the server block (SITE by default, formatted with port).
    modules: the dynamic modules to load (the utf8guard module by default).
    wrapper: a command prefixed to nginx (valgrind), which then runs as one
    process."""

    def __init__(self, http="utf8guard on;", server=None, wrapper=None, modules=None,
                 start_timeout=15, values=None):
        self.prefix = tempfile.mkdtemp(prefix="utf8guard-nginx-")
        # Workers run as an unprivileged user when nginx starts as root: they
        # write the body's temporary files under the prefix.
        os.chmod(self.prefix, 0o755)
        self.port = free_port()
        self.http = http
        self.server = SITE if server is None else server
        self.wrapper = wrapper or []
        self.modules = [MODULE] if modules is None else modules
        self.start_timeout = start_timeout
        self.values = values or {}
        self.proc = None
        self.log_mark = 0
        self.conf = os.path.join(self.prefix, "nginx.conf")
        self.write_conf()

    def write_conf(self, http=None):
        if http is not None:
            self.http = http
        load = "".join("load_module %s;\n" % m for m in self.modules)
        log_format = '$status "$utf8guard"' if MODULE in self.modules else "$status"
        text = CONF.format(load=load, log_format=log_format,
                           master="off" if self.wrapper else "on", prefix=self.prefix,
                           port=self.port, http=self.http,
                           server=self.server.format(port=self.port, prefix=self.prefix,
                                                   **self.values))
        with open(self.conf, "w") as f:
            f.write(text)

    def command(self, *args):
        return [NGINX, "-p", self.prefix, "-c", self.conf] + list(args)

    def test_conf(self):
        """`nginx -t` on the current configuration: (exit status, stderr)."""
        p = subprocess.run(self.command("-t"), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=30)
        return p.returncode, p.stderr.decode(errors="replace")

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        shutil.rmtree(self.prefix, ignore_errors=True)

    def start(self):
        self.stderr = open(os.path.join(self.prefix, "stderr.log"), "wb")
        self.proc = subprocess.Popen(self.wrapper + self.command(), stdout=self.stderr,
                                     stderr=subprocess.STDOUT)
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("nginx exited at start: %s" % self.output())
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
            except OSError:
                time.sleep(0.05)
                continue
            # The master listens before its worker runs.
            if self.wrapper or self.worker_pids():
                return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("nginx did not listen within %d s" % self.start_timeout)

    def stop(self, timeout=30, graceful=None):
        """Graceful stop (SIGQUIT); after `graceful` seconds (default: all of
        timeout) a fast one (SIGTERM), which still exits normally; SIGKILL
        after timeout. Returns the exit status."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            graceful = timeout if graceful is None else graceful
            for sig, wait in ((signal.SIGQUIT, graceful), (signal.SIGTERM, timeout - graceful)):
                self.proc.send_signal(sig)
                try:
                    self.proc.wait(max(wait, 0.1))
                    break
                except subprocess.TimeoutExpired:
                    continue
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
        self.stderr.close()
        status, self.proc = self.proc.returncode, None
        return status

    def output(self):
        with open(os.path.join(self.prefix, "stderr.log"), "rb") as f:
            return f.read().decode(errors="replace")

    def reload(self, timeout=15):
        """`nginx -s reload`: (exit status, stderr). When it succeeds, returns
        once the old workers are gone, so that new connections all meet the
        new configuration."""
        old = set(self.worker_pids())
        p = subprocess.run(self.command("-s", "reload"), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=30)
        deadline = time.monotonic() + timeout
        while p.returncode == 0 and time.monotonic() < deadline:
            now = set(self.worker_pids())
            if now and not now & old:
                break
            time.sleep(0.05)
        return p.returncode, p.stderr.decode(errors="replace")

    def worker_pids(self):
        """The worker processes' pids (children of the master)."""
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(self.proc.pid)],
                             stdout=subprocess.PIPE, timeout=10).stdout.split()
        return [int(p) for p in out]

    def error_log(self):
        with open(os.path.join(self.prefix, "error.log"), "rb") as f:
            return f.read()

    def new_findings(self):
        """The utf8guard lines logged since the last call, as "PART: MESSAGE"."""
        data = self.error_log()
        new, self.log_mark = data[self.log_mark:], len(data)
        out = []
        for line in new.split(b"\n"):
            # nginx may add what it was doing (" while sending request to
            # upstream") before ", client: ".
            m = re.search(rb" utf8guard: (.*?)(?: while [a-z ]+)?, client: ", line)
            if m:
                out.append(m.group(1).decode())
        return out

    def access_log(self):
        with open(os.path.join(self.prefix, "access.log"), "rb") as f:
            return f.read().decode(errors="replace").splitlines()

    def connect(self, timeout=10):
        return socket.create_connection(("127.0.0.1", self.port), timeout=timeout)

    def exchange(self, raw, timeout=10):
        """Sends raw bytes on a new connection and returns the status of the
        response (read until the server closes or one response is whole)."""
        with self.connect(timeout) as s:
            try:
                s.sendall(raw)
            except (BrokenPipeError, ConnectionResetError):
                pass  # answered and closed before the body was all sent
            return read_response(s)[0]


class SiteTest(unittest.TestCase):
    """Tests that share one nginx serving SITE with the module's defaults."""

    @classmethod
    def setUpClass(cls):
        cls.nginx = Nginx().__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.nginx.__exit__(None, None, None)


class UpstreamTest(unittest.TestCase):
    """Tests that share one nginx in `mode` ("block" or "detect") in front of
    one Upstream, `app`: `http` (with %s for the mode) and `server` configure
    it, values() fills `server`, prepare(prefix) lays files before it starts."""

    mode = "block"
    http = "utf8guard on; utf8guard_mode %s;"
    server = None

    @classmethod
    def values(cls):
        return {"app": cls.app.port}

    @classmethod
    def prepare(cls, prefix):
        pass

    @classmethod
    def setUpClass(cls):
        cls.app = Upstream().__enter__()
        cls.nginx = Nginx(http=cls.http % cls.mode, server=cls.server, values=cls.values())
        cls.prepare(cls.nginx.prefix)
        cls.nginx.__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.nginx.__exit__(None, None, None)
        cls.app.__exit__(None, None, None)


class Upstream:
    """An application behind nginx: a threaded HTTP/1.x server on a free
    127.0.0.1 port that reads each request's body to its end (Content-Length
    or chunked), keeps (method, target, headers, body) in `requests`, and
    answers 200 "app". A context manager; stops by itself on exit."""

    def __init__(self):
        self.requests = []
        self.lock = threading.Lock()
        upstream = self

        class Handler(socketserver.StreamRequestHandler):
            def handle(self):
                head = b""
                while not head.endswith(b"\r\n\r\n"):
                    line = self.rfile.readline(65536)
                    if not line:
                        return
                    head += line
                lines = head.split(b"\r\n")
                method, target = lines[0].split(b" ")[:2]
                headers = [tuple(l.split(b":", 1)) for l in lines[1:] if b":" in l]
                fields = {k.strip().lower(): v.strip() for k, v in headers}
                body = b""
                try:
                    if fields.get(b"transfer-encoding", b"").lower() == b"chunked":
                        while True:
                            size = int(self.rfile.readline().split(b";")[0], 16)
                            body += self.rfile.read(size)
                            self.rfile.readline()
                            if size == 0:
                                break
                    elif b"content-length" in fields:
                        length = int(fields[b"content-length"])
                        body = self.rfile.read(length)
                        if len(body) < length:
                            body = None
                except (OSError, ValueError):
                    body = None  # cut off: nginx closed the connection mid-body
                with upstream.lock:
                    upstream.requests.append((method, target, headers, body))
                if body is not None:
                    self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n"
                                     b"Connection: close\r\n\r\napp\n")

        class Server(socketserver.ThreadingTCPServer):
            daemon_threads = True
            allow_reuse_address = True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    def take(self):
        """The requests received since the last call."""
        with self.lock:
            out, self.requests = self.requests, []
        return out


def request(method, target, headers=(), body=None, chunked=False):
    """One HTTP/1.1 request as bytes (target and header values raw)."""
    lines = [method + b" " + target + b" HTTP/1.1", b"Host: localhost"]
    lines += [k + b": " + v for k, v in headers]
    if body is not None:
        lines.append(b"Transfer-Encoding: chunked" if chunked else
                     b"Content-Length: %d" % len(body))
    head = b"\r\n".join(lines) + b"\r\n\r\n"
    if body is None:
        return head
    if chunked:
        return head + b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in body_chunks(body)) + \
            b"0\r\n\r\n"
    return head + body


def body_chunks(body, size=1):
    return [body[i:i + size] for i in range(0, len(body), size)]


def read_response(s, buffered=b""):
    """Reads one response: (status, rest of the bytes read after it).
    Status 0 when the connection closed before a status line."""
    data = buffered
    while b"\r\n\r\n" not in data:
        try:
            more = s.recv(65536)
        except (ConnectionResetError, socket.timeout):
            more = b""
        if not more:
            return 0, b""
        data += more
    head, rest = data.split(b"\r\n\r\n", 1)
    status = int(head.split(b" ", 2)[1])
    m = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
    length = int(m.group(1)) if m else 0
    while len(rest) < length:
        more = s.recv(65536)
        if not more:
            break
        rest += more
    return status, rest[length:]


def main():
    global NGINX, MODULE
    args, rest = sys.argv[1:], [sys.argv[0]]
    while args:
        a = args.pop(0)
        if a == "--nginx":
            NGINX = args.pop(0)
        elif a == "--module":
            MODULE = os.path.abspath(args.pop(0))
        else:
            rest.append(a)
    if not NGINX or not MODULE:
        sys.exit("usage: %s --nginx PATH --module PATH [unittest args]" % sys.argv[0])
    unittest.main(argv=rest, verbosity=2)
