"""Expected answers from outside utf8guard: Python's own UTF-8 decoder and
urllib.parse, the security vectors' verdicts, and the categories of
docs/design.md's policy table (tests/support/policy_oracle.py)."""

import sys
import urllib.parse
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]

sys.path.insert(0, str(REPOSITORY / "tests/support"))
from policy_oracle import PROFILES, category  # noqa: E402,F401  (re-exported)


def first_error(data):
    """(start, end) of the first ill-formed subpart by Python's decoder, or None."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start, e.end
    return None


def denied(text, categories):
    """Whether the str holds a character of one of the categories."""
    return any(category(ord(ch), i == 0) in categories for i, ch in enumerate(text))


def vectors():
    """The rows of security/vectors/vectors.tsv as (id, bytes, kind)."""
    rows = []
    lines = (REPOSITORY / "security/vectors/vectors.tsv").read_text().splitlines()
    header = None
    for line in lines:
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        if header is None:
            header = cols
            continue
        row = dict(zip(header, cols))
        rows.append((row["id"], bytes.fromhex(row["hex"]), row["kind"]))
    return rows


def lipsum():
    """The multilingual samples of the repository's sanitize corpus."""
    folder = REPOSITORY / "corpus/sanitize"
    return {p.name[len("lipsum_"):]: p.read_bytes()
            for p in sorted(folder.glob("lipsum_*")) if "err" not in p.name}


def percent_encode_all(data):
    return "".join(f"%{b:02X}" for b in data).encode("ascii")


def unquote_strict(encoded):
    """urllib's decode of %XX, then Python's strict UTF-8 decoder: None when
    it decodes, else the decoded bytes' (start, end)."""
    return first_error(urllib.parse.unquote_to_bytes(encoded))
