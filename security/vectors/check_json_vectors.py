#!/usr/bin/env python3
"""check_json_vectors.py [json.tsv] - audit the JSON text attack vectors
without utf8guard.

Every expected report in json.tsv was worked out by hand from docs/design.md's
JSON form. This script re-derives each one by means that share nothing with
the library:

- a walk over the input's units (a raw byte; \\" \\\\ \\/ \\b \\f \\n \\r \\t;
  \\uXXXX, a high surrogate escape and the low one right after it as one
  unit; a backslash that starts none of these, a literal byte), each escape
  read by Python's json.loads as the body of a JSON string, which must give
  the character the walk says (a lone surrogate escape: one surrogate
  character, which json.loads keeps);
- findings: each lone surrogate escape (kind surrogate, 3 decoded bytes, its
  generalized UTF-8), each character whose category (tests/support/
  policy_oracle.py, Python's unicodedata) the profile denies, each malformed
  escape's backslash under bad_escape; decoded offsets count each
  character's UTF-8 bytes;
- a row without malformed escapes is JSON text: json.loads must read it.

Each row's report is then held against these findings by encoded_vectors.check,
which also audits the format and the required rows as for percent.tsv. Exit
status: 0 when the manifest is right, else 1 and one line per problem.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests",
                                "support"))
import policy_oracle  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_vectors  # noqa: E402  (main_for)
import encoded_vectors  # noqa: E402  (the header and row audit shared with percent.tsv)

KINDS = {"none", "disallowed", "surrogate"}
SHORT = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
HEX = re.compile(r"[0-9A-Fa-f]{4}")

# The attacks the threat model names; each must keep a row (README.md).
REQUIRED = ["python-json-lone-high-surrogate", "simdjson-1870-lone-low-surrogate",
            "simd-json-481-lone-high-to-nul", "escaped-bidi-override",
            "escaped-nul-postgresql-jsonb"]


def units(text):
    """(offset, width, char, kind) of each unit: kind raw, escape, lone or bad."""
    out = []
    i = 0
    while i < len(text):
        if text[i] != "\\":
            out.append((i, 1, text[i], "raw"))
            i += 1
        elif text[i + 1:i + 2] in SHORT and text[i + 1:i + 2] != "":
            out.append((i, 2, SHORT[text[i + 1]], "escape"))
            i += 2
        elif text[i + 1:i + 2] == "u" and HEX.fullmatch(text[i + 2:i + 6]):
            u = int(text[i + 2:i + 6], 16)
            low = int(text[i + 8:i + 12], 16) if text[i + 6:i + 8] == "\\u" and \
                HEX.fullmatch(text[i + 8:i + 12]) else -1
            if 0xD800 <= u <= 0xDBFF and 0xDC00 <= low <= 0xDFFF:
                out.append((i, 12, chr(0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00)), "escape"))
                i += 12
            else:
                out.append((i, 6, chr(u), "lone" if 0xD800 <= u <= 0xDFFF else "escape"))
                i += 6
        else:
            out.append((i, 1, "\\", "bad"))
            i += 1
    return out


def expected_errors(text, deny):
    """Every finding of text, in input order, as tuples (offset, kind,
    category, length, decoded_offset, decoded_length, code_point)."""
    found = []
    decoded = 0
    for offset, width, char, kind in units(text):
        size = len(char.encode("utf-8", "surrogatepass"))
        if kind in ("escape", "lone"):
            read = json.loads('"' + text[offset:offset + width] + '"')
            if read != char:
                raise ValueError(f"json.loads reads {text[offset:offset + width]} as {read!r}, "
                                 f"the walk as {char!r}")
        cp = ord(char)
        if kind == "lone":
            found.append((offset, "surrogate", "none", width, decoded, size, 0))
        elif kind == "bad":
            if "bad_escape" in deny:
                found.append((offset, "disallowed", "bad_escape", 1, decoded, 1, cp))
        else:
            cat = policy_oracle.category(cp, decoded == 0)
            if cat in deny:
                found.append((offset, "disallowed", cat, width, decoded, size, cp))
        decoded += size
    if not any(u[3] == "bad" for u in units(text)):
        json.loads(text)  # raises ValueError when the row is not JSON text
    return found


def check(path):
    return encoded_vectors.check(path, policy_oracle.PROFILES, KINDS, REQUIRED, expected_errors,
                                 "Python's json")


def main():
    return check_vectors.main_for(check, "json.tsv",
                                  "JSON vectors agree with Python's json and docs/design.md")


if __name__ == "__main__":
    sys.exit(main())
