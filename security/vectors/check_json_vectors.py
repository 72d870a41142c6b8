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

It also checks the format (check_vectors.manifest_rows, as for percent.tsv:
the exact header, one TAB between 12 columns, unique lowercase-dashed ids),
printable ASCII inputs, and the required rows (README.md, "Required rows").
Exit 0 when the manifest is right, 1 with one line per problem otherwise.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests",
                                "support"))
import policy_oracle  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_percent_vectors  # noqa: E402  (the same header)
import check_vectors  # noqa: E402  (manifest_rows, main_for)

HEADER = check_percent_vectors.HEADER
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
    problems = []
    ids = {}
    for where, cols in check_vectors.manifest_rows(path, HEADER, problems, ids):
        vid, text, profile, kind, category = cols[:5]
        numbers = [cols[5], cols[6], cols[7], cols[8], cols[10]]
        cp_text, what = cols[9], cols[11]
        if not re.fullmatch(r"[\x21-\x7E]+", text):
            problems.append(f"{where}: encoded '{text}' is not printable ASCII")
        if profile not in policy_oracle.PROFILES:
            problems.append(f"{where}: profile '{profile}' is not one of "
                            f"{sorted(policy_oracle.PROFILES)}")
            continue
        if kind not in KINDS:
            problems.append(f"{where}: unknown kind '{kind}'")
        if not all(n.isdigit() for n in numbers):
            problems.append(f"{where}: offsets, lengths and errors must be decimal")
            continue
        if not re.fullmatch(r"-|U\+[0-9A-F]{4,6}", cp_text):
            problems.append(f"{where}: code_point '{cp_text}' is not '-' or U+XXXX")
            continue
        if not what.strip():
            problems.append(f"{where}: empty 'what'")
        try:
            errors = expected_errors(text, policy_oracle.PROFILES[profile])
        except ValueError as e:
            problems.append(f"{where}: {vid}: {e}")
            continue
        first = errors[0] if errors else (0, "none", "none", 0, 0, 0, 0)
        cp = 0 if cp_text == "-" else int(cp_text[2:], 16)
        got = (int(numbers[0]), kind, category, int(numbers[1]), int(numbers[2]), int(numbers[3]),
               cp, int(numbers[4]))
        want = first + (len(errors),)
        if got != want:
            problems.append(f"{where}: {vid}: manifest says {got}, Python's json and "
                            f"docs/design.md say {want} (offset, kind, category, length, decoded "
                            f"offset and length, code point, errors)")
        if (kind == "disallowed") != (cp_text != "-"):
            problems.append(f"{where}: {vid}: a code point goes with kind disallowed alone")
    for vid in REQUIRED:
        if vid not in ids:
            problems.append(f"{path}: required row {vid} is missing")
    return problems, len(ids)


def main():
    return check_vectors.main_for(check, "json.tsv",
                                  "JSON vectors agree with Python's json and docs/design.md")


if __name__ == "__main__":
    sys.exit(main())
