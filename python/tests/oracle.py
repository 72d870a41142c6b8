"""Expected answers from outside utf8guard: Python's own UTF-8 decoder and
urllib.parse, the security vectors' verdicts, and the categories of
docs/design.md's policy table written out as code-point sets."""

import urllib.parse
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]

# docs/design.md, "Policies": each category's scalar values.
CATEGORIES = {
    "nul": {0},
    "control": set(range(1, 9)) | set(range(0x0E, 0x20)) | {0x7F},
    "newline": set(range(0x0A, 0x0E)) | {0x85, 0x2028, 0x2029},
    "c1": set(range(0x80, 0xA0)) - {0x85},
    "bidi": {0x061C, 0x200E, 0x200F} | set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)),
    "noncharacter": set(range(0xFDD0, 0xFDF0)) | {(p << 16) | 0xFFFE for p in range(17)}
    | {(p << 16) | 0xFFFF for p in range(17)},
    "private_use": set(range(0xE000, 0xF900)) | set(range(0xF0000, 0xFFFFE))
    | set(range(0x100000, 0x10FFFE)),
    "replacement": {0xFFFD},
}
PROFILES = {
    "strict": set(),
    "source": {"nul", "control", "c1", "bidi", "bom"},
    "field": {"nul", "control", "newline", "c1", "bidi", "noncharacter", "bom"},
    "json": {"noncharacter"},
    "url": {"nul", "control", "newline", "c1", "bidi", "bad_escape", "double_encoding"},
}


def category_of(text, index):
    """The category of text[index] (text: a str), or None."""
    cp = ord(text[index])
    if cp == 0xFEFF:
        return "bom" if index > 0 else None
    for name, values in CATEGORIES.items():
        if cp in values:
            return name
    return None


def first_error(data):
    """(start, end) of the first ill-formed subpart by Python's decoder, or None."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start, e.end
    return None


def denied(text, categories):
    """Whether the str holds a character of one of the categories."""
    return any(category_of(text, i) in categories for i in range(len(text)))


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
