#!/usr/bin/env python3
"""check_percent_vectors.py [percent.tsv] - audit the percent-encoded attack
vectors without utf8guard.

Every expected report in percent.tsv was worked out by hand from
docs/design.md 2.3. This script re-derives each one by means that share
nothing with the library:

- Python's urllib.parse.unquote_to_bytes decodes the input (a '%' without two
  hex digits stays a literal '%', as 2.3 says), and a walk over the input
  places every decoded byte's unit (3 encoded bytes for %XX, 1 otherwise);
  the two must agree on the decoded bytes;
- Python's UTF-8 codec and the kind table (tests/support/utf8_oracle.py) give
  the ill-formed subparts of the decoded bytes;
- the url profile's categories are written out below from docs/design.md's
  table (Bidi_Control from Unicode's PropList.txt), the percent-only ones
  from the walk.

encoded_vectors.check, shared with the json.tsv checker, holds each row's
report against these findings, and checks the format and the required rows.
Exit 0 when the manifest is right, 1 with one line per problem otherwise.
"""
import os
import sys
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests",
                                "support"))
import utf8_oracle  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_vectors  # noqa: E402  (main_for)
import encoded_vectors  # noqa: E402  (the header and row audit shared with json.tsv)

KINDS = {"none", "disallowed", *utf8_oracle.KINDS}
HEX_DIGITS = b"0123456789abcdefABCDEF"

# docs/design.md's policy table, for the categories the profiles here deny.
BIDI_CONTROL = {0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}


def category_of(cp):
    if cp == 0:
        return "nul"
    if 0x0A <= cp <= 0x0D or cp in (0x85, 0x2028, 0x2029):
        return "newline"
    if 0x01 <= cp <= 0x08 or 0x0E <= cp <= 0x1F or cp == 0x7F:
        return "control"
    if 0x80 <= cp <= 0x9F:
        return "c1"
    if cp in BIDI_CONTROL:
        return "bidi"
    return "none"


PROFILES = {
    "strict": set(),
    "url": {"nul", "control", "newline", "c1", "bidi", "bad_escape", "double_encoding"},
}

# The URL attacks the threat model names; each must keep a row (README.md,
# "Required rows").
REQUIRED = ["iis-cve-2000-0884-percent", "tomcat-cve-2008-2938-percent",
            "iis-cve-2001-0333-double-decode", "nul-path-truncation", "encoded-bidi-override"]


def units(data):
    """(offset, width, is_bad_escape) of the unit of each decoded byte."""
    out = []
    i = 0
    while i < len(data):
        if data[i:i + 1] == b"%" and i + 2 < len(data) and data[i + 1] in HEX_DIGITS \
                and data[i + 2] in HEX_DIGITS:
            out.append((i, 3, False))
            i += 3
        else:
            out.append((i, 1, data[i:i + 1] == b"%"))
            i += 1
    return out


def expected_errors(data, deny):
    """Every error of data, percent-decoded, in input order, as tuples
    (offset, kind, category, length, decoded_offset, decoded_length, code_point)."""
    decoded = urllib.parse.unquote_to_bytes(data)
    where = units(data)
    rebuilt = bytes(int(data[o + 1:o + 3], 16) if w == 3 else data[o] for o, w, _ in where)
    if rebuilt != decoded:
        raise ValueError("the unit walk and unquote_to_bytes disagree")

    def mapped(kind, category, first, count, cp):
        last = first + count - 1
        offset = where[first][0]
        return (offset, kind, category, where[last][0] + where[last][1] - offset, first, count, cp)

    found = []
    bad = {start: (end, reason) for start, end, reason in utf8_oracle.subparts(decoded)}
    i = 0
    while i < len(decoded):
        if i in bad:
            end, reason = bad[i]
            found.append(mapped(utf8_oracle.kind_of(decoded, i, end, reason), "none", i, end - i, 0))
            i = end
            continue
        lead = decoded[i]
        n = 1 if lead < 0x80 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
        cp = ord(decoded[i:i + n].decode("utf-8"))
        cat = "bom" if cp == 0xFEFF and i > 0 else category_of(cp)
        if cat in deny:
            found.append(mapped("disallowed", cat, i, n, cp))
        i += n
    for k, (_, width, is_bad) in enumerate(where):
        if is_bad and "bad_escape" in deny:
            found.append(mapped("disallowed", "bad_escape", k, 1, 0x25))
        if width == 3 and decoded[k] == 0x25 and k + 2 < len(decoded) \
                and decoded[k + 1] in HEX_DIGITS and decoded[k + 2] in HEX_DIGITS \
                and "double_encoding" in deny:
            found.append(mapped("disallowed", "double_encoding", k, 1, 0x25))
    return sorted(found)


def check(path):
    return encoded_vectors.check(path, PROFILES, KINDS, REQUIRED,
                                 lambda encoded, deny: expected_errors(encoded.encode("ascii"), deny),
                                 "Python")


def main():
    return check_vectors.main_for(check, "percent.tsv",
                                  "percent vectors agree with Python's decoders and docs/design.md")


if __name__ == "__main__":
    sys.exit(main())
