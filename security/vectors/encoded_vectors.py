"""encoded_vectors.py - what the checkers of the two encoded-input manifests
share (check_percent_vectors.py for percent.tsv, check_json_vectors.py for
json.tsv): their common header, and the audit of each row's format and
hand-worked report against the expected findings a checker derives in its
own way."""
import re

import check_vectors  # manifest_rows

HEADER = ["id", "encoded", "profile", "kind", "category", "offset", "length", "decoded_offset",
          "decoded_length", "code_point", "errors", "what"]


def check(path, profiles, kinds, required, expected_errors, oracle):
    """Audits the manifest at path: each row's format, its profile (one of
    profiles, a name to denied categories), its kind (one of kinds), and its
    report against expected_errors(encoded, denied), which gives every finding
    in input order as tuples (offset, kind, category, length, decoded_offset,
    decoded_length, code_point) or raises ValueError; oracle names that
    function's means in messages. Every id of required must keep a row.
    Returns (problems, number of rows)."""
    problems = []
    ids = {}
    for where, cols in check_vectors.manifest_rows(path, HEADER, problems, ids):
        vid, encoded, profile, kind, category = cols[:5]
        numbers = [cols[5], cols[6], cols[7], cols[8], cols[10]]  # offsets, lengths, errors
        cp_text, what = cols[9], cols[11]
        if not re.fullmatch(r"[\x21-\x7E]+", encoded):
            problems.append(f"{where}: encoded '{encoded}' is not printable ASCII")
        if profile not in profiles:
            problems.append(f"{where}: profile '{profile}' is not one of {sorted(profiles)}")
            continue
        if kind not in kinds:
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
            errors = expected_errors(encoded, profiles[profile])
        except ValueError as e:  # UnicodeEncodeError too
            problems.append(f"{where}: {vid}: {e}")
            continue
        first = errors[0] if errors else (0, "none", "none", 0, 0, 0, 0)
        cp = 0 if cp_text == "-" else int(cp_text[2:], 16)
        got = (int(numbers[0]), kind, category, int(numbers[1]), int(numbers[2]), int(numbers[3]),
               cp, int(numbers[4]))
        want = first + (len(errors),)
        if got != want:
            problems.append(f"{where}: {vid}: manifest says {got}, {oracle} and docs/design.md say "
                            f"{want} (offset, kind, category, length, decoded offset and length, "
                            f"code point, errors)")
        if (kind == "disallowed") != (cp_text != "-"):
            problems.append(f"{where}: {vid}: a code point goes with kind disallowed alone")
    for vid in required:
        if vid not in ids:
            problems.append(f"{path}: required row {vid} is missing")
    return problems, len(ids)
