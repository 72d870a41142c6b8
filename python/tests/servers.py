"""Real servers on 127.0.0.1, started and stopped by the tests, and a
raw-socket HTTP/1.1 client that sends exactly the bytes it is given."""

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _command(kind, port):
    if kind.endswith("asgi"):
        return [sys.executable, "-m", "uvicorn", "--host", "127.0.0.1", "--port", str(port),
                "--log-level", "warning", "--no-access-log", "apps:asgi_app"]
    return [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "1",
            "--log-level", "warning", "apps:wsgi_app"]


@contextlib.contextmanager
def server(kind, detect=False, plain=False, log=None):
    """Runs uvicorn + Starlette ("asgi"), gunicorn + Flask ("wsgi"), or Django
    under either ("django-asgi", "django-wsgi") on a free loopback port; yields
    the port; stops the server on the way out."""
    with server_process(kind, detect, plain, log) as (port, _):
        yield port


@contextlib.contextmanager
def server_process(kind, detect=False, plain=False, log=None):
    """server(), yielding (port, the server's process: gunicorn's master or
    uvicorn)."""
    port = free_port()
    env = dict(os.environ, UTF8GUARD_TEST_SERVER=kind, UTF8GUARD_TEST_DETECT="1" if detect else "0",
               UTF8GUARD_TEST_PLAIN="1" if plain else "0",
               PYTHONPATH=os.pathsep.join([str(HERE)] + [os.path.abspath(p) for p in sys.path if p]))
    proc = subprocess.Popen(_command(kind, port), cwd=HERE, env=env, stdin=subprocess.DEVNULL,
                            stdout=log or subprocess.DEVNULL, stderr=log or subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"{kind} server exited with {proc.returncode}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{kind} server did not listen on {port}")
                time.sleep(0.05)
        yield port, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def request(port, target, headers=(), body=None, split=None, timeout=10):
    """Sends one request, exactly these bytes, and returns (status, headers
    dict with lowercase names, body). |split| cuts the body into two writes."""
    head = [b"POST " if body is not None else b"GET ", target, b" HTTP/1.1\r\n",
            b"Host: 127.0.0.1\r\nConnection: close\r\n"]
    for name, value in headers:
        head += [name, b": ", value, b"\r\n"]
    if body is not None:
        head.append(b"Content-Length: %d\r\n" % len(body))
    head.append(b"\r\n")
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if body is None:
            s.sendall(b"".join(head))
        elif split is None:
            s.sendall(b"".join(head) + body)
        else:
            s.sendall(b"".join(head) + body[:split])
            time.sleep(0.002)
            try:
                s.sendall(body[split:])
            except OSError:
                pass  # the server answered and closed after the first part
        chunks = []
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    raw = b"".join(chunks)
    head_bytes, _, rest = raw.partition(b"\r\n\r\n")
    lines = head_bytes.split(b"\r\n")
    status = int(lines[0].split()[1]) if lines and len(lines[0].split()) > 1 else 0
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        fields[name.strip().lower().decode("latin-1")] = value.strip()
    if fields.get("transfer-encoding", b"").lower() == b"chunked":
        rest = _unchunk(rest)
    return status, fields, rest


def _unchunk(data):
    """The body of a chunked answer (RFC 9112 7.1), trailers left out."""
    out = []
    while data:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out.append(data[:size])
        data = data[size + 2:]
    return b"".join(out)
