"""policy_oracle.py - the categories and profiles of docs/design.md's policy
tables, written from the table and Python's unicodedata (Cc, Co), with no
utf8guard code involved. Used by the CLI tests (tests/cli/test_policy.py) and
the Python package's tests (python/tests/oracle.py); each adds this folder to
sys.path."""

import unicodedata

CATEGORIES = ["nul", "control", "newline", "c1", "bidi", "noncharacter", "private_use", "bom",
              "replacement", "bad_escape", "double_encoding"]
PROFILES = {
    "strict": set(),
    "source": {"nul", "control", "c1", "bidi", "bom"},
    "field": {"nul", "control", "newline", "c1", "bidi", "bom", "noncharacter"},
    "json": {"noncharacter"},
    "url": {"nul", "control", "newline", "c1", "bidi", "bad_escape", "double_encoding"},
}
BIDI = {0x061C, 0x200E, 0x200F} | set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))
NEWLINE = {0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029}


def category(cp, at_start):
    """The category of code point cp (at_start: the input's first character), or None."""
    if cp == 0:
        return "nul"
    if cp in NEWLINE:
        return "newline"
    if cp in BIDI:
        return "bidi"
    if 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE:
        return "noncharacter"
    if cp == 0xFEFF:
        return None if at_start else "bom"
    if cp == 0xFFFD:
        return "replacement"
    gc = unicodedata.category(chr(cp))
    if gc == "Cc" and cp != 0x09:
        return "control" if cp < 0x80 else "c1"
    if gc == "Co":
        return "private_use"
    return None
