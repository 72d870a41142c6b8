"""The rule core's own table of what each Content-Type means
(nginx/tests/request_check_test.c, test_media), run through the Python
middleware: the nginx module and the middleware answer the same table."""

import ast
import re
from pathlib import Path

import pytest

from one_post import asgi_status, wsgi_status
from utf8guard import _utf8guard

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
    body = b"a\xc0\xaf"
    assert asgi_status([(b"content-type", v) for v in values], body) == expected, ctype
    fields = {} if ctype is None else {"CONTENT_TYPE": ctype.decode("latin-1")}
    assert wsgi_status(fields, body) == expected, ctype
