#!/usr/bin/env python3
"""check_vectors.py [vectors.tsv] - audit the attack-vector manifest without utf8guard.

Every expected verdict in vectors.tsv was worked out by hand from docs/design.md.
This script re-derives it by two means that share nothing with the library:

- Python 3's own UTF-8 codec: UnicodeDecodeError.start/end give the first
  maximal subpart's offset and length (docs/design.md: the offset equals
  Python's UnicodeDecodeError.start), and bytes.decode('utf-8', 'replace')
  gives the sanitized bytes (docs/design.md: byte-identical to Python 3's);
- the kind table, for the kind.

Both come from the oracle the CLI tests use too, tests/support/utf8_oracle.py.

It also checks the format the fuzz replay and tests/security rely on: the
exact header, one TAB between 7 columns, uppercase hex bytes separated by
single spaces, unique ids, and the required rows (README.md, "Required rows").
Exit 0 when the manifest is right, 1 with one line per problem otherwise.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests",
                                "support"))
import utf8_oracle  # noqa: E402

HEADER = ["id", "hex", "kind", "offset", "length", "sanitized_hex", "what"]
KINDS = {"none", *utf8_oracle.KINDS}
HEX = re.compile(r"^[0-9A-F]{2}( [0-9A-F]{2})*$")

# The attacks the threat model names; each must keep a row with exactly these
# bytes (README.md, "Required rows").
REQUIRED = {
    "iis-cve-2000-0884-c0af": "2E 2E C0 AF 2E 2E",
    "tomcat-cve-2008-2938": "C0 AE C0 AE 2F",
    "java-cve-2008-5351": "C0 80",
    "php-cve-2010-3870": "E0 80 BC",
    "php-cve-2009-4142-c0": "C0 22 3E",
    "php-cve-2009-4142-c3": "61 C3 22 3E",
    "rails-cve-2009-3009": "F0 9F 22 3E",
    "postgresql-cve-2006-2313": "C8 27 3B",
    "glib-u110000": "F4 90 80 80",
    "expat-cve-2022-25235": "3C 61 ED A0 80 3E",
    "cesu8-pair": "ED A0 BD ED B8 80",
    "trojan-source-rlo": "E2 80 AE",
    "fullwidth-solidus": "EF BC 8F",
    "dal-dot-dot": "D8 AF 2E 2E",
}
# ...and these byte strings must appear inside some row (the IIS variants).
REQUIRED_INSIDE = ["C1 9C", "C1 1C"]


def expected_row(data):
    """(kind, offset, length, sanitized) for data, from the oracle."""
    kind, offset, length = utf8_oracle.first_error(data)
    return kind, offset, length, utf8_oracle.sanitized(data)


def hex_bytes(field):
    return bytes(int(tok, 16) for tok in field.split(" ")) if field else b""


def manifest_rows(path, header, problems, ids):
    """Yields (where, cols) for each row of the manifest at path, after its
    exact header line, with at least as many columns. The file must be UTF-8
    without carriage returns, the ids (first column) unique and
    lowercase-dashed; ids maps each id to its line. Problems are appended to
    problems; lines with one are not yielded."""
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")  # the manifest itself must be clean UTF-8
    except UnicodeDecodeError as e:
        problems.append(f"{path}: not UTF-8 at byte {e.start}")
        return
    header_seen = False
    for number, line in enumerate(text.split("\n"), 1):
        where = f"{path}:{number}"
        if line == "" or line.startswith("#"):
            continue
        if "\r" in line:
            problems.append(f"{where}: carriage return")
            continue
        cols = line.split("\t")
        if not header_seen:
            if cols != header:
                problems.append(f"{where}: header must be {' TAB '.join(header)}")
            header_seen = True
            continue
        if len(cols) < len(header):
            problems.append(f"{where}: {len(cols)} columns, want at least {len(header)}")
            continue
        vid = cols[0]
        if vid in ids:
            problems.append(f"{where}: id {vid} already used on line {ids[vid]}")
        ids[vid] = number
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", vid):
            problems.append(f"{where}: id '{vid}' is not lowercase-dashed")
        yield where, cols
    if not header_seen:
        problems.append(f"{path}: no header line")


def check(path):
    problems = []
    ids = {}
    inputs = []
    for where, cols in manifest_rows(path, HEADER, problems, ids):
        vid, hx, kind, off, length, san, what = cols[:7]
        inputs.append(hx)
        for name, field in (("hex", hx), ("sanitized_hex", san)):
            if not HEX.match(field):
                problems.append(f"{where}: {name} '{field}' is not uppercase bytes split by one space")
        if kind not in KINDS:
            problems.append(f"{where}: unknown kind '{kind}'")
        if not (off.isdigit() and length.isdigit()):
            problems.append(f"{where}: offset/length must be decimal")
            continue
        if not what.strip():
            problems.append(f"{where}: empty 'what'")
        if not HEX.match(hx) or not HEX.match(san):
            continue
        data = hex_bytes(hx)
        try:
            want = expected_row(data)
        except ValueError as e:
            problems.append(f"{where}: {vid}: {e}")
            continue
        got = (kind, int(off), int(length), hex_bytes(san))
        if got != want:
            problems.append(
                f"{where}: {vid}: manifest says {got[0]} {got[1]} {got[2]} [{san}], "
                f"Python and docs/design.md say {want[0]} {want[1]} {want[2]} "
                f"[{' '.join(f'{b:02X}' for b in want[3])}]")
        if vid in REQUIRED and hx != REQUIRED[vid]:
            problems.append(f"{where}: {vid} must hold exactly {REQUIRED[vid]}")
    for vid in REQUIRED:
        if vid not in ids:
            problems.append(f"{path}: required row {vid} is missing")
    for needle in REQUIRED_INSIDE:
        if not any(needle in hx for hx in inputs):
            problems.append(f"{path}: no row contains {needle}")
    return problems, len(ids)


def main_for(check_manifest, default_name, agreement):
    """A checker's command line: check the manifest named on it (else
    default_name beside this script) and print its problems, or that its rows
    agree. Returns the exit status."""
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, default_name)
    problems, rows = check_manifest(path)
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"{path}: {rows} {agreement}")
    return 0


def main():
    return main_for(check, "vectors.tsv",
                    "vectors agree with Python's codec and docs/design.md's kind table")


if __name__ == "__main__":
    sys.exit(main())
