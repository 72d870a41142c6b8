"""uvicorn + Starlette, gunicorn + Flask, and Django under both, each on a free loopback port,
with the middleware in front, driven by a raw-socket client: every attack of
security/vectors/vectors.tsv, raw and percent-encoded, in every part is
blocked; the multilingual lipsum samples in every part are not.

UTF8GUARD_TEST_SERVER_KINDS names the servers (servers.py): asgi, wsgi,
django-asgi, django-wsgi."""

import json
import os
import re

import pytest

import servers
from oracle import PROFILES, denied, first_error, lipsum, percent_encode_all, vectors

KINDS = os.environ.get("UTF8GUARD_TEST_SERVER_KINDS", "asgi,wsgi").split(",")
FORM = b"application/x-www-form-urlencoded"
# Bytes a request target carries as they are; the others are escaped
# (space, '%', '?', '#', controls) so that the line stays one request line.
TARGET_SAFE = re.compile(rb"[A-Za-z0-9\-._~!$&'()*+,;=:@/\x80-\xff]")


def raw_in_target(data):
    """data with its non-ASCII bytes raw and the ASCII a target cannot hold escaped."""
    return b"".join(bytes([b]) if TARGET_SAFE.fullmatch(bytes([b])) else b"%%%02X" % b
                    for b in data)


def core_spec(slot):
    """The rule core's default policy for a slot, as a spec of category names."""
    from utf8guard import CATEGORIES, _utf8guard
    bits = _utf8guard.rule_default(_utf8guard.SLOTS.index(slot))[0]
    return ",".join(name for i, name in enumerate(CATEGORIES) if bits >> i & 1) or "strict"


def variants(data):
    """(part, request keyword arguments, the policy's categories, percent-decoded)
    for every place an input can go, under the rule core's default policies."""
    url, field, form, json_, text = (core_spec(slot)
                                     for slot in ("target", "headers", "form", "json", "text"))
    pct = percent_encode_all(data)
    yield "path", {"target": b"/echo/" + raw_in_target(data)}, url
    yield "path", {"target": b"/echo/" + pct}, url
    yield "query", {"target": b"/echo?q=" + raw_in_target(data)}, url
    yield "query", {"target": b"/echo?q=" + pct}, url
    if not re.search(rb"[\r\n]", data):  # a line break would end the header
        yield "header", {"target": b"/echo", "headers": [(b"X-Test", data)]}, field
    yield "body", {"target": b"/echo", "headers": [(b"Content-Type", FORM)],
                   "body": b"q=" + data}, form
    yield "body", {"target": b"/echo", "headers": [(b"Content-Type", FORM)],
                   "body": b"q=" + pct}, form
    yield "body", {"target": b"/echo", "headers": [(b"Content-Type", b"application/json")],
                   "body": b'{"q": "' + data + b'"}'}, json_
    yield "body", {"target": b"/echo", "headers": [(b"Content-Type", b"text/plain; charset=utf-8")],
                   "body": data}, text


def categories(spec):
    names = set()
    for item in spec.split(","):
        if item.startswith("-"):
            names.discard(item[1:])
        else:
            names |= PROFILES.get(item, {item})
    return names


def expect_blocked(data, spec):
    """The oracle's verdict for data in a part under the policy spec."""
    if first_error(data) is not None:
        return True
    return denied(data.decode(), categories(spec))


def check_answer(data, part, status, fields, body, server_kind, blocked_by_server):
    assert status == 400, (part, status, body[:200])
    # Never the hostile bytes raw: the answer is ASCII.
    assert all(b < 0x80 for b in body), body
    if fields.get("content-type") == b"application/problem+json":
        problem = json.loads(body)
        assert problem["status"] == 400 and problem["part"] == part
        assert problem["finding"]["kind"]
    else:
        # The server refused the request line or a header before the application.
        blocked_by_server.append((server_kind, part))
        assert part in ("path", "query", "header"), (part, body)


@pytest.fixture(scope="module", params=KINDS)
def server(request):
    with servers.server(request.param) as port:
        yield request.param, port


def test_every_vector_in_every_part_is_blocked(server):
    kind, port = server
    by_server = []
    checked = 0
    for vid, data, _ in vectors():
        for part, req, spec in variants(data):
            status, fields, body = servers.request(port, **req)
            if expect_blocked(data, spec):
                check_answer(data, part, status, fields, body, kind, by_server)
                checked += 1
            elif status != 200:
                # Well-formed and allowed here: only the server's own rules
                # (a raw byte h11 refuses in a target) may refuse it.
                assert fields.get("content-type") != b"application/problem+json", (vid, part, body)
    assert checked > 400
    # The application's answers came from the middleware for the bodies at least.
    assert all(p in ("path", "query", "header") for _, p in by_server)


def test_lipsum_in_every_part_passes(server):
    kind, port = server
    for lang, text in lipsum().items():
        line = text.split(b"\n")[0][:300]
        line = line.decode("utf-8", "ignore").encode()  # a cut character dropped
        pct = percent_encode_all(line)
        requests = [
            {"target": b"/echo/" + pct},
            {"target": b"/echo?q=" + pct + b"&r=" + pct},
            {"target": b"/echo", "headers": [(b"X-Text", line)]},
            {"target": b"/echo", "headers": [(b"Content-Type", FORM)], "body": b"q=" + percent_encode_all(text)},
            {"target": b"/echo", "headers": [(b"Content-Type", FORM)], "body": b"q=" + text},
            {"target": b"/echo", "headers": [(b"Content-Type", b"application/json")],
             "body": json.dumps({"q": text.decode()}, ensure_ascii=False).encode()},
            {"target": b"/echo", "headers": [(b"Content-Type", b"application/json")],
             "body": json.dumps({"q": text.decode()}, ensure_ascii=True).encode()},
            {"target": b"/echo", "headers": [(b"Content-Type", b"multipart/form-data; boundary=b")],
             "body": b"--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\""
                     + line[:60].decode("utf-8", "ignore").lstrip("\ufeff").encode()
                     + b".txt\"\r\n\r\n"
                     + bytes(range(256)) + b"\r\n--b\r\nContent-Disposition: form-data; "
                     b"name=\"q\"\r\n\r\n" + text + b"\r\n--b--\r\n"},
            {"target": b"/echo", "headers": [(b"Content-Type", b"text/plain")], "body": text},
        ]
        if kind.endswith("wsgi"):  # gunicorn takes raw UTF-8 in the target; h11 refuses it
            requests.append({"target": b"/echo/" + raw_in_target(line) + b"?q=" + raw_in_target(line)})
        for req in requests:
            status, _, body = servers.request(port, **req)
            assert status == 200, (lang, req["target"][:40], body[:300])
            assert body == b"ok %d" % len(req.get("body", b""))


def test_bodies_split_at_every_byte(server):
    kind, port = server
    rows = [(vid, data) for vid, data, k in vectors() if k != "none"]
    for vid, data in rows:
        body = b"text " + data + b" end"
        for cut in range(len(body) + 1):
            status, fields, answer = servers.request(
                port, b"/echo", [(b"Content-Type", b"text/plain")], body, split=cut)
            assert status == 400 and fields["content-type"] == b"application/problem+json", \
                (vid, cut, answer)
    sample = lipsum()["japanese"][:64].decode("utf-8", "ignore").encode()
    for cut in range(len(sample) + 1):
        status, _, answer = servers.request(
            port, b"/echo", [(b"Content-Type", b"text/plain")], sample, split=cut)
        assert (status, answer) == (200, b"ok %d" % len(sample)), cut


def test_detect_only_logs_and_lets_through(tmp_path):
    for kind in KINDS:
        log_path = tmp_path / f"{kind}.log"
        with open(log_path, "wb") as log, servers.server(kind, detect=True, log=log) as port:
            status, _, answer = servers.request(port, b"/echo/%C0%AF", [(b"X-Test", b"\xe2\x80\xae")],
                                                b"a\xff", )
            assert status == 200
        text = log_path.read_text("utf-8", "replace")
        assert "utf8guard: detected POST /echo/%C0%AF from 127.0.0.1: path: overlong at byte 6" in text, text
