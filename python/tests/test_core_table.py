"""The rule core's own table of what each Content-Type means
(nginx/tests/request_check_test.c, test_media), run through the Python
middleware: the nginx module and the middleware answer the same table."""

import ast
import asyncio
import io
import re
from pathlib import Path

import pytest

from utf8guard import _utf8guard
from utf8guard.asgi import Utf8GuardMiddleware
from utf8guard.wsgi import Utf8GuardWSGIMiddleware

TABLE = Path(__file__).resolve().parents[2] / "nginx" / "tests" / "request_check_test.c"
TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*|\d+|[{},]')
SLOT = {"F": "form", "J": "json", "T": "text", "O": "other", "N": "none"}


def media_table():
    """(Content-Type bytes or None, kind, slot, slot with declared charsets)."""
    source = TABLE.read_text()
    body = source[source.index("static void test_media"):]
    body = body[body.index("cases[] = {") + len("cases[] = {"):]
    body = body[:body.index("};")]
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    rows, row, depth, literal = [], [], 0, None
    for token in TOKEN.findall(body):
        if token.startswith('"'):
            value = ast.literal_eval("b" + token)
            literal = value if literal is None else literal + value
            continue
        if literal is not None:
            row.append(literal)
            literal = None
        if token == "{":
            depth += 1
            row = []
        elif token == "}":
            depth -= 1
            rows.append(row)
        elif token != ",":
            row.append(token)
    out = []
    for cells in rows:
        ctype = None if cells[0] == "NO_CT" else cells[0]
        out.append((ctype, cells[1], cells[4], cells[5]))
    return out


def slot_index(letter):
    return len(_utf8guard.SLOTS) if letter == "M" else _utf8guard.SLOTS.index(SLOT[letter])


ROWS = media_table()


def test_the_table_is_read():
    assert len(ROWS) > 40 and any(r[0] is None for r in ROWS)


@pytest.mark.parametrize("ctype,kind,slot,declared", ROWS)
def test_media_as_the_core_reads_it(ctype, kind, slot, declared):
    values = () if ctype is None else (ctype,)
    assert _utf8guard.media(values, False)[0] == slot_index(slot)
    assert _utf8guard.media(values, True)[0] == slot_index(declared)
    malformed = _utf8guard.media(values, False)[1] is not None
    assert malformed == (kind == "UG_MEDIA_MALFORMED")
    # The middleware's answer to an overlong '/' in such a body: refused
    # unless its rule is off by default (other types); for multipart, the
    # bytes are no multipart body, which is a finding too.
    expected = 200 if slot == "O" and not malformed else 400
    assert asgi_status(values) == expected, ctype
    assert wsgi_status(ctype) == expected, ctype


LOOP = asyncio.new_event_loop()


async def _app(scope, receive, send):
    await receive()
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


def asgi_status(values):
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"a\xc0\xaf", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/", "raw_path": b"/", "query_string": b"",
             "headers": [(b"content-type", v) for v in values]}
    LOOP.run_until_complete(Utf8GuardMiddleware(_app)(scope, receive, send))
    return sent[0]["status"]


def wsgi_status(ctype):
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/", "QUERY_STRING": "",
               "CONTENT_LENGTH": "3", "wsgi.input": io.BytesIO(b"a\xc0\xaf")}
    if ctype is not None:
        environ["CONTENT_TYPE"] = ctype.decode("latin-1")
    started = []
    b"".join(Utf8GuardWSGIMiddleware(lambda e, s: s("200 OK", []) or [b"ok"])(
        environ, lambda s, h, e=None: started.append(s)))
    return int(started[0][:3])
