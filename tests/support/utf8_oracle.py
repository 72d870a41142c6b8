"""utf8_oracle.py - what utf8guard must report for a byte string, worked out
from Python's own UTF-8 decoder and the kind table of docs/design.md, with
no utf8guard code involved.

Python's decoder reports each maximal subpart (Unicode 3.9) to an error
handler as exc.start/exc.end, and bytes.decode('utf-8', 'replace') is the
sanitized form. The kind of a subpart is decided here by its first offending
byte, row by row as the kind table lists them; Python's reason string only
cross-checks the truncated/incomplete split.

Used by the CLI tests (tests/cli/harness.py) and the attack-vector audits
(security/vectors/check_vectors.py and check_percent_vectors.py); each adds
this folder to sys.path.
"""

import codecs

# The error kinds, in the order of the kind table (and of the CLI's summary).
KINDS = ["unexpected_continuation", "overlong", "surrogate", "too_large",
         "invalid_byte", "truncated", "incomplete"]

# Python's reason for each of the two kinds that a valid prefix can end in.
_REASONS = {"incomplete": "unexpected end of data", "truncated": "invalid continuation byte"}

_recorded = []


def _record(exc):
    _recorded.append((exc.start, exc.end, exc.reason))
    return ("\ufffd", exc.end)


codecs.register_error("utf8_oracle_record", _record)


def subparts(data):
    """The maximal subparts of data, as (start, end, reason), in order."""
    _recorded.clear()
    data.decode("utf-8", "utf8_oracle_record")
    found = list(_recorded)
    _recorded.clear()
    return found


def kind_of(data, start, end, reason=None):
    """The kind of the maximal subpart data[start:end]. With Python's reason
    for it, raises ValueError when the reason contradicts a truncated or
    incomplete verdict (the oracle's own consistency check)."""
    b0 = data[start]
    b1 = data[start + 1] if start + 1 < len(data) else None
    if 0x80 <= b0 <= 0xBF:
        return "unexpected_continuation"
    if b0 in (0xC0, 0xC1):
        return "overlong"
    if b0 >= 0xF5:
        return "invalid_byte"
    if b1 is not None:
        if b0 == 0xE0 and 0x80 <= b1 <= 0x9F:
            return "overlong"
        if b0 == 0xF0 and 0x80 <= b1 <= 0x8F:
            return "overlong"
        if b0 == 0xED and 0xA0 <= b1 <= 0xBF:
            return "surrogate"
        if b0 == 0xF4 and 0x90 <= b1 <= 0xBF:
            return "too_large"
    # A valid lead C2..F4 with a valid prefix: cut by a byte, or by the end.
    kind = "incomplete" if end == len(data) else "truncated"
    if reason is not None and reason != _REASONS[kind]:
        raise ValueError("Python says '%s' for a %s subpart" % (reason, kind))
    return kind


def first_error(data):
    """(kind, offset, length) of data's first error, ("none", 0, 0) if none."""
    for start, end, reason in subparts(data):
        return kind_of(data, start, end, reason), start, end - start
    return "none", 0, 0


def sanitized(data):
    """data with U+FFFD for each maximal subpart."""
    return data.decode("utf-8", "replace").encode("utf-8")


def code_points(data, start, end):
    """Code points in data[start:end] (unit boundaries): well-formed sequences
    and maximal subparts, each counted once - what decode-replace yields."""
    return len(data[start:end].decode("utf-8", "replace"))


def expected_errors(data):
    """Every error of data as a dict: offset, length, kind, line, column and
    hex (the subpart's first bytes, at most 4), as the CLI reports them."""
    out = []
    line, line_start = 1, 0
    col, col_at = 1, 0  # column of byte offset col_at
    for start, end, reason in subparts(data):
        lfs = data.count(b"\n", col_at, start)
        if lfs:
            line += lfs
            line_start = data.rfind(b"\n", 0, start) + 1
            col, col_at = 1, line_start
        col += code_points(data, col_at, start)
        col_at = start
        out.append({
            "offset": start,
            "length": end - start,
            "kind": kind_of(data, start, end, reason),
            "line": line,
            "column": col,
            "hex": " ".join("%02X" % b for b in data[start:start + 4]),
        })
    return out
