#!/usr/bin/env python3
"""make_seeds.py - regenerate the handcrafted seeds in corpus/<target>/.

    python3 fuzz/make_seeds.py [--lipsum DIR] [--vectors FILE.tsv] [--percent-vectors FILE.tsv]

Writes the same named seeds into every target's folder (the targets read
their controls off the end of the data, so plain text works for all), less
the pct_* seeds, which only percent_differential reads as more than ASCII:

  t37_*      both ends of every row of Unicode Table 3-7, and the byte just
             outside each narrowed second-byte range (E0, ED, F0, F4)
  kind_*     every error kind of docs/design.md, in each of its shapes
  legacy_*   5/6-byte leads, CESU-8, Modified UTF-8, WTF-8, BOM, NUL
  cat_*      the policy categories' characters at both ends of each range,
             one step outside, in text, split across a 64-byte block, and
             the hint rules' byte patterns (Windows-1252 among ASCII, UTF-16)
  blk_*      inputs of 15-17, 31-33, 63-65 and 127-129 bytes with the
             error (or a valid sequence) ending on, or straddling, the
             16/32/64/128-byte block boundary, after ASCII and after
             multi-byte padding (SIMD kernels have ASCII fast paths)
  lipsum_*   excerpts of the lipsum texts, whole and with an error injected
             on a 64-byte boundary
  pct_*      percent-encoded forms (docs/design.md 2.3): the URL attacks
             (%c0%af, %C0%AE, %255c, %00, an encoded bidi override), every
             malformed escape (%, %X, %XG, %%41), double encoding, the kind
             seeds with every byte escaped, escapes across a 64-byte block
             and request lines; each also as *_url, with controls at its end
             for the policy targets: the url profile and one split inside it,
             and as *_url_window, after a decoding window of escapes; and
             pct_vec_*, the rows of security/vectors/percent.tsv under their
             profiles
  json_*     JSON text (docs/design.md, the JSON form), for json_differential
             only: the escape attacks (lone, swapped and cut surrogate escapes,
             \\u202e, \\u0000, \\uffff), every short escape, pairs in both
             cases, malformed escapes (\\x, \\u12G4, \\u12 at the end, a
             backslash at the end), raw bytes next to escapes, a lone
             surrogate escape across a 64-byte block at each shift, JSON
             bodies; each also as *_field (controls: field and bad_escape,
             one split inside) and *_field_window (after a window of
             escapes); and json_vec_*, the rows of security/vectors/json.tsv
             under their profiles
  vec_*      the security vectors, when security/vectors/vectors.tsv exists
  mp_*       multipart/form-data bodies (only for the multipart target, which
             gets no other seed: a body must begin with its boundary): clean
             browser forms, the file name and text field attacks, every
             malformed shapes nginx/tests/multipart_test.c lists, with the
             controls fuzz/multipart.cpp reads: the rules, a split, the
             boundary "XyZ" or one in the controls
  ct_*       Content-Type values (only for the content_type target, which
             reads its whole input as one): every kind, charsets under
             their aliases, quoted values with quoted-pairs, boundaries, and
             the malformed shapes nginx/tests/request_check_test.c lists
  regress_*  inputs that once made an implementation disagree (fuzz/README.md)

Files found by fuzzing (named by their SHA-1) sit beside these; the campaign
script merges them in (fuzz/run.sh --merge). Rerunning this script rewrites
only its own files.
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "security", "vectors"))
import check_vectors  # noqa: E402  (vectors.tsv's header)
import encoded_vectors  # noqa: E402  (percent.tsv's and json.tsv's header)
with open(os.path.join(ROOT, "fuzz", "targets.txt")) as targets_file:
    TARGETS = [line.split()[0] for line in targets_file
               if line.strip() and not line.startswith("#")]


def enc(cp):
    return chr(cp).encode("utf-8", "surrogatepass")


def table37_seeds():
    rows = [  # (name, first, last) - the rows of Table 3-7
        ("r1_ascii", 0x0000, 0x007F),
        ("r2_c2_df", 0x0080, 0x07FF),
        ("r3_e0", 0x0800, 0x0FFF),
        ("r4_e1_ec", 0x1000, 0xCFFF),
        ("r5_ed", 0xD000, 0xD7FF),
        ("r6_ee_ef", 0xE000, 0xFFFF),
        ("r7_f0", 0x10000, 0x3FFFF),
        ("r8_f1_f3", 0x40000, 0xFFFFF),
        ("r9_f4", 0x100000, 0x10FFFF),
    ]
    seeds = {}
    every = b""
    for name, lo, hi in rows:
        seeds["t37_%s_min" % name] = enc(lo)
        seeds["t37_%s_max" % name] = enc(hi)
        every += enc(lo) + enc(hi)
    seeds["t37_all_edges"] = every
    # One step outside each narrowed range, and the lone leads that are never valid.
    seeds.update({
        "t37_e0_9f_overlong": bytes.fromhex("E0 9F BF"),
        "t37_e0_a0_first": bytes.fromhex("E0 A0 80"),
        "t37_ed_9f_last": bytes.fromhex("ED 9F BF"),
        "t37_ed_a0_surrogate": bytes.fromhex("ED A0 80"),
        "t37_f0_8f_overlong": bytes.fromhex("F0 8F BF BF"),
        "t37_f0_90_first": bytes.fromhex("F0 90 80 80"),
        "t37_f4_8f_last": bytes.fromhex("F4 8F BF BF"),
        "t37_f4_90_too_large": bytes.fromhex("F4 90 80 80"),
        "t37_c1_bf_overlong": bytes.fromhex("C1 BF"),
        "t37_c2_80_first": bytes.fromhex("C2 80"),
        "t37_f5_invalid": bytes.fromhex("F5 80 80 80"),
    })
    return seeds


# Every error kind of docs/design.md, in each of its shapes.
KINDS = {
    "unexpected_continuation": ["80", "BF", "41 80 41", "C2 80 80", "E1 80 80 80"],
    "overlong": ["C0 AF", "C1 BF", "E0 80 AF", "E0 9F BF", "F0 80 80 AF", "F0 8F BF BF",
                 "C0 80"],
    "surrogate": ["ED A0 80", "ED BF BF", "ED AD BF", "ED B0 80"],
    "too_large": ["F4 90 80 80", "F4 BF BF BF", "F7 BF BF BF"],
    "invalid_byte": ["F5", "F8", "FC", "FE", "FF", "FE FF", "FF FE"],
    "truncated": ["C2 41", "E1 80 41", "F1 80 80 41", "E0 A0 41", "F4 8F 41", "E1 41",
                  "F0 90 C2 80"],
    "incomplete": ["C2", "E1 80", "F1 80 80", "F4 8F BF", "E0", "F0 90", "41 ED 9F"],
}


def kind_seeds(kinds):
    seeds = {}
    for kind, shapes in kinds.items():
        for i, shape in enumerate(shapes):
            seeds["kind_%s_%d" % (kind, i)] = bytes.fromhex(shape)
    # Every kind in one input, so each target meets them in sequence too.
    seeds["kind_all_in_one"] = b"a".join(bytes.fromhex(s[0]) for s in kinds.values())
    return seeds


def legacy_seeds():
    return {
        "legacy_5byte": bytes.fromhex("F8 88 80 80 80"),
        "legacy_6byte": bytes.fromhex("FC 84 80 80 80 80"),
        "legacy_6byte_max": bytes.fromhex("FD BF BF BF BF BF"),
        "legacy_cesu8_pair": bytes.fromhex("ED A0 BD ED B2 A9"),  # U+1F4A9 as CESU-8
        "legacy_modified_utf8_nul": bytes.fromhex("61 C0 80 62"),
        "legacy_wtf8_lone_high": bytes.fromhex("61 ED A0 80 62"),
        "legacy_wtf8_lone_low": bytes.fromhex("61 ED B0 80 62"),
        "legacy_bom": bytes.fromhex("EF BB BF"),
        "legacy_bom_text": bytes.fromhex("EF BB BF") + "héllo".encode(),
        "legacy_bom_twice": bytes.fromhex("EF BB BF EF BB BF"),
        "legacy_nul": b"\x00",
        "legacy_nuls": b"a\x00b\x00\x00",
        "legacy_replacement_char": bytes.fromhex("EF BF BD"),
        "legacy_noncharacters": enc(0xFFFE) + enc(0xFFFF) + enc(0x1FFFE) + enc(0x10FFFE),
        "legacy_empty": b"",
    }


def category_seeds():
    edges = {  # (name, first, last): the scalar ranges of the policy categories
        "nul": (0x0, 0x0), "control_c0": (0x1, 0x8), "control_c0_hi": (0xE, 0x1F),
        "control_del": (0x7F, 0x7F), "newline": (0xA, 0xD), "newline_nel": (0x85, 0x85),
        "newline_ls_ps": (0x2028, 0x2029), "c1": (0x80, 0x9F), "bidi_alm": (0x61C, 0x61C),
        "bidi_marks": (0x200E, 0x200F), "bidi_embed": (0x202A, 0x202E),
        "bidi_isolate": (0x2066, 0x2069), "nonchar_fdd0": (0xFDD0, 0xFDEF),
        "nonchar_fffe": (0xFFFE, 0xFFFF), "nonchar_plane16": (0x10FFFE, 0x10FFFF),
        "pua_bmp": (0xE000, 0xF8FF), "pua_plane15": (0xF0000, 0xFFFFD),
        "pua_plane16": (0x100000, 0x10FFFD), "bom": (0xFEFF, 0xFEFF),
        "replacement": (0xFFFD, 0xFFFD),
    }
    seeds = {}
    every = b""
    for name, (lo, hi) in edges.items():
        outside = [cp for cp in (lo - 1, hi + 1) if 0 <= cp <= 0x10FFFF and not 0xD800 <= cp <= 0xDFFF]
        seeds["cat_%s" % name] = b"a" + enc(lo) + b"b" + enc(hi) + b"c" + b"".join(map(enc, outside))
        every += enc(lo) + enc(hi)
    seeds["cat_all"] = every
    seeds["cat_trojan_source"] = "if (isAdmin\u202e \u2066// check\u2069 \u2066) {\n".encode()
    seeds["cat_header_injection"] = b"value\r\nSet-Cookie: x=1\x1b[2J\xc2\x9b31m"
    seeds["cat_bom_then_bom"] = enc(0xFEFF) + b"text" + enc(0xFEFF)
    for k, cp in enumerate((0x202E, 0x2028, 0x10FFFF, 0xFDD0, 0x85)):
        c = enc(cp)
        for shift in range(len(c)):  # the character across the 64-byte boundary
            seeds["cat_block_%d_%d" % (k, shift)] = b"q" * (64 - shift) + c + b"q" * 8
    seeds["hint_windows1252"] = b"caf\xe9 \x93quoted\x94 \x80 \x81"
    seeds["hint_utf16le_bom"] = "\ufeffhi".encode("utf-16-le")
    seeds["hint_utf16be_bom"] = "\ufeffhi".encode("utf-16-be")
    seeds["hint_overlong_slash"] = b"..\xc0\xaf..\xe0\x80\xaf..\xf0\x80\x80\xaf"
    seeds["hint_beyond"] = bytes.fromhex("F4 90 80 80 F7 BF BF BF FB BF BF BF BF FD BF BF BF BF BF")
    return seeds


def padding(n, multibyte):
    """n bytes of well-formed text: ASCII, or 3- and 2-byte characters."""
    if not multibyte:
        return b"a" * n
    out = b""
    while n - len(out) >= 3:
        out += enc(0x20AC)  # E2 82 AC
    if n - len(out) == 2:
        out += enc(0xE9)  # C3 A9
    elif n - len(out) == 1:
        out += b"a"
    return out


def block_seeds():
    tails = {  # sequences to put at the end of, or across, a block
        "overlong": "C0 AF",
        "surrogate": "ED A0 80",
        "too_large": "F4 90 80 80",
        "truncated": "C3 28",
        "incomplete3": "E2 82",
        "incomplete4": "F0 9F 98",
        "continuation": "80",
        "valid4": "F0 9F 98 80",
        "invalid": "FF",
    }
    seeds = {}
    for block in (16, 32, 64, 128):
        for length in (block - 1, block, block + 1):
            for name, h in tails.items():
                seq = bytes.fromhex(h)
                for mb in (False, True):
                    tag = "mb" if mb else "ascii"
                    # Ending exactly at the input's end.
                    seeds["blk_%d_%s_end_%s" % (length, tag, name)] = \
                        padding(length - len(seq), mb) + seq
                    # Starting one byte before the block boundary, so it straddles.
                    start = block - 1
                    if start + len(seq) <= length:
                        seeds["blk_%d_%s_straddle_%s" % (length, tag, name)] = (
                            padding(start, mb) + seq + padding(length - start - len(seq), mb))
    return seeds


def lipsum_seeds(lipsum_dir):
    seeds = {}
    if not os.path.isdir(lipsum_dir):
        print("make_seeds: no lipsum folder at %s: skipped" % lipsum_dir, file=sys.stderr)
        return seeds
    for name in sorted(os.listdir(lipsum_dir)):
        if not name.endswith(".txt"):
            continue
        with open(os.path.join(lipsum_dir, name), "rb") as f:
            text = f.read().decode("utf-8")
        lang = name.split("-")[0].lower()
        # About 1 KiB, cut on character boundaries; small enough for max_len.
        excerpt = b""
        for ch in text[:1200]:
            b = ch.encode()
            if len(excerpt) + len(b) > 1024:
                break
            excerpt += b
        seeds["lipsum_%s" % lang] = excerpt
        # The same text with its byte 320 (a 64-byte boundary) turned into a
        # lone continuation byte, or a cut sequence if it already was one.
        broken = bytearray(excerpt)
        broken[320] = 0x80 if broken[320] < 0x80 else 0x41
        seeds["lipsum_%s_err_at_320" % lang] = bytes(broken)
    return seeds


def escaped(data, upper=True):
    """Every byte of data as %XX."""
    return b"".join((b"%%%02X" if upper else b"%%%02x") % b for b in data)


PERCENT_TARGETS = ("percent_differential", "messages")
JSON_TARGETS = ("json_differential",)
URL_PROFILE = 0x61F  # nul control newline c1 bidi bad_escape double_encoding
FIELD_BAD_ESCAPE = 0x2BF  # the field profile and bad_escape
PROFILE_BITS = {"strict": 0, "source": 0x9B, "field": 0xBF, "json": 0x20, "url": URL_PROFILE}


def controls(policy, split=None, pad=0):
    """The control bytes percent_differential reads off the end (policy_differential
    the first ones): in file order the padding byte, the split values, their
    count and the policy bits; the reader takes them from the end, back to front."""
    splits = b"" if split is None else bytes([split >> 8, split & 0xFF])
    return (bytes([pad]) + splits + bytes([0 if split is None else 1]) +
            bytes([policy >> 8, policy & 0xFF]))


def percent_seeds(kinds):
    seeds = {
        "pct_iis_overlong_slash": b"/scripts/..%c0%af../winnt/system32/cmd.exe",
        "pct_tomcat_overlong_dot": b"/%C0%AE%C0%AE/%C0%AE%C0%AE/etc/passwd",
        "pct_iis_double_decode": b"/scripts/..%255c../winnt/system32/cmd.exe",
        "pct_nul_truncation": b"/download?file=report.pdf%00.exe",
        "pct_bidi_override": b"/files/invoice%E2%80%AEfdp.exe",
        "pct_bidi_lower": b"%e2%80%ae",
        "pct_bom": b"%ef%bb%bf%EF%BB%BF",
        "pct_newline": b"a%0ab%0D%0Ac",
        "pct_surrogate": b"%ED%A0%80%ed%b0%80",
        "pct_percent_alone": b"%",
        "pct_percent_end": b"abc%",
        "pct_one_digit_end": b"abc%4",
        "pct_not_hex": b"%XG%4G%G4",
        "pct_percent_percent": b"%%41",
        "pct_percent_twice_at_end": b"%%",
        "pct_escaped_percent": b"%25",
        "pct_double_raw_digits": b"%2541",
        "pct_double_escaped_digits": b"%25%34%31",
        "pct_double_mixed_digits": b"%254%31%25%3441",
        "pct_double_not": b"%25%25%2G%25",
        "pct_mixed_raw_and_escaped": b"%E2\x80%AE\xC3%A9",
        "pct_plus_stays": b"a+b%2Bc",
        "pct_every_byte": escaped(bytes(range(256))),
        "pct_every_byte_lower": escaped(bytes(range(256)), upper=False),
        "pct_emoji": escaped("\U0001F600".encode()),
        "pct_max": escaped("\U0010FFFF".encode()) + escaped(b"\xF4\x90\x80\x80"),
        "pct_request": b"GET /search?q=%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82+%E4%B8%96%E7%95%8C"
                       b"&lang=ru HTTP/1.1\n",
    }
    for kind, shapes in kinds.items():
        for i, shape in enumerate(shapes):
            seeds["pct_kind_%s_%d" % (kind, i)] = escaped(bytes.fromhex(shape), upper=i % 2 == 0)
    # An escaped character whose escapes straddle a 64-byte block, at each shift.
    rlo = escaped("\u202e".encode())
    for shift in range(len(rlo)):
        seeds["pct_block_%d" % shift] = b"q" * (64 - shift) + rlo + b"q" * 8
    # The same with controls at the end for the targets that read them: the
    # url profile and one split inside, alone and after a decoding window.
    for name, data in list(seeds.items()):
        seeds[name + "_url"] = data + controls(URL_PROFILE, len(data) // 2 + 1)
        seeds[name + "_url_window"] = data + controls(URL_PROFILE, len(data) // 2 + 1, pad=1)
    return seeds


def json_seeds():
    r"""JSON text for json_differential: the attacks, every escape form, and
    each with controls for the field profile plus bad_escape."""
    seeds = {
        "json_lone_high": rb'{"a":"x\ud800y"}',
        "json_lone_low": rb'"\uDC00"',
        "json_swapped_pair": rb'{"name":"\udc00\ud800\ugggg"}',
        "json_high_before_pair": rb'["\ud800\ud83d\ude00"]',
        "json_high_then_bmp": rb'["\ud800\u0041"]',
        "json_high_then_escaped_backslash": rb'["\ud800\\udc00"]',
        "json_high_at_end": rb'["x\udbff',
        "json_high_cut_low": rb'\ud800\udc0',
        "json_pair_lower": rb'["\ud83d\ude00"]',
        "json_pair_upper": rb'["\uD83D\uDE00"]',
        "json_pair_max": rb'["\udbff\udfff\udbff\udffd"]',
        "json_bidi": rb'{"file":"invoice\u202efdp.exe"}',
        "json_nul": rb'{"name":"admin\u0000.png"}',
        "json_noncharacter": rb'{"a":"x\uffffy\ufdd0"}',
        "json_c1_nel": rb'["\u0085\u0086\u2028"]',
        "json_bom": rb'\ufeff["\ufeff"]',
        "json_short_escapes": rb'["\"\\\/\b\f\n\r\t"]',
        "json_malformed": rb'["\x\U0041\u12G4\'\ "]',
        "json_unicode_cut_end": rb'["\u12',
        "json_backslash_end": b'["\\',
        "json_backslash_raw": b'["\\\xc3\xa9\\\xff"]',
        "json_raw_truncated_before_escape": b'["\xe2\x82\\u00ac"]',
        "json_raw_after_escape": b'["\\u00e9\xa9\xc0\xaf"]',
        "json_raw_surrogate": b'["\xed\xa0\x80\\ud800"]',
        "json_body": (r'{"id": 7, "user": "Zo\u00eb", "comment": "caf\u00e9 \ud83d\ude00 '
                      r'Привет\n日本語", "tags": ["a\\b", "\u202e"]}').encode(),
    }
    lone = rb"\ud800"
    for shift in range(len(lone)):
        seeds["json_block_%d" % shift] = b"q" * (64 - shift) + lone + b"q" * 8
    for name, data in list(seeds.items()):
        seeds[name + "_field"] = data + controls(FIELD_BAD_ESCAPE, len(data) // 2 + 1)
        seeds[name + "_field_window"] = data + controls(FIELD_BAD_ESCAPE, len(data) // 2 + 1,
                                                        pad=1)
    return seeds


def json_vector_seeds(tsv):
    """security/vectors/json.tsv: each JSON text under its row's profile."""
    return {"json_vec_%s" % safe_name(row["id"]):
            row["encoded"].encode() + controls(PROFILE_BITS[row["profile"]])
            for row in tsv_rows(tsv, encoded_vectors.HEADER)}


def tsv_rows(tsv, header):
    """The rows of a vectors TSV as dicts by header, read by the manifest
    checkers' reader; none, said, without the file. A malformed manifest
    stops the script."""
    if not os.path.isfile(tsv):
        print("make_seeds: no security vectors at %s: skipped" % tsv, file=sys.stderr)
        return []
    problems = []
    rows = [dict(zip(header, cols))
            for _, cols in check_vectors.manifest_rows(tsv, header, problems, {})]
    if problems:
        sys.exit("make_seeds: " + "; ".join(problems))
    return rows


def safe_name(row_id):
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in row_id)


def vector_seeds(tsv):
    return {"vec_%s" % safe_name(row["id"]): bytes.fromhex(row["hex"])
            for row in tsv_rows(tsv, check_vectors.HEADER)}


def percent_vector_seeds(tsv):
    """security/vectors/percent.tsv: each encoded input under its row's profile."""
    profiles = {"strict": 0, "url": URL_PROFILE}
    return {"pct_vec_%s" % safe_name(row["id"]):
            row["encoded"].encode() + controls(profiles[row["profile"]])
            for row in tsv_rows(tsv, encoded_vectors.HEADER) if row["profile"] in profiles}


MULTIPART_TARGET = "multipart"
CONTENT_TYPE_TARGET = "content_type"
# The targets that take only their own seeds, by the seeds' prefix.
OWN_SEEDS = {MULTIPART_TARGET: "mp_", CONTENT_TYPE_TARGET: "ct_"}


def content_type_seeds():
    """Content-Type values, each a seed of its own."""
    values = [
        b"application/json", b"Application/JSON; charset=\"utf-8\"", b"application/json;",
        b"application/json ; ; charset=latin1 ;", b"application/problem+json",
        b"application/x-ndjson", b"application/json-seq", b"text/json; charset=x",
        b"application/x-www-form-urlencoded; charset=UTF-8", b"text/plain; charset=utf_8",
        b"text/plain; charset=cp65001", b"text/plain; charset=iso-8859-1",
        b"text/plain; x=\"a;charset=latin1\"", b"text/plain; x=\"q\\\"; charset=latin1\"",
        b"multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW",
        b"multipart/form-data; BOUNDARY=\"a b\\\"c\"", b"multipart/form-data",
        b"multipart/form-data; boundary=a; boundary=b", b"application/octet-stream",
        b"application/octet-stream, application/x-www-form-urlencoded", b"text/", b"json",
        b"application/json x", b"application/json; charset=\"utf-8",
        b"application/json; a=\"\x01\"", b"appl\xc3\xa9/json", b"", b" \t",
        b"gzip, identity", b"X-\xc0\xaf\xe2\x80\xae",
    ]
    return {"ct_%02d" % i: v for i, v in enumerate(values)}


def multipart_controls(split, rules=0, boundary=None, one_byte=False):
    """The control bytes fuzz/multipart.cpp reads off the end, in file order:
    a split (two bytes) and its count, the boundary reversed and its length
    (bit 6), then the control byte (rules in bits 0-5, 1-byte feeds bit 7)."""
    tail = bytes([split >> 8, split & 0xFF, 1])
    control = rules | (0x80 if one_byte else 0)
    if boundary is not None:
        tail += boundary[::-1] + bytes([len(boundary)])
        control |= 0x40
    return tail + bytes([control])


def multipart_seeds():
    def part(headers, body, b=b"XyZ"):
        return b"--" + b + b"\r\n" + headers + b"\r\n" + body + b"\r\n"

    def disp(params):
        return b"Content-Disposition: form-data; " + params + b"\r\n"

    def field(name, value, b=b"XyZ"):
        return part(disp(b'name="' + name + b'"'), value, b)

    def file(filename, body, b=b"XyZ"):
        return part(disp(b'name="f"; filename="' + filename + b'"') +
                    b"Content-Type: application/octet-stream\r\n", body, b)

    close = b"--XyZ--\r\n"
    binary = bytes(range(256)) + b"\r\n-\r\r\n\n-x--XyZ\r\n--Xy\r-"
    bodies = {
        "form": field(b"title", "Z\u00fcrich \u65e5\u672c".encode()) +
        field(b"text", b"line 1\r\n-- \r\n--X\r\n") + file(b"a.bin", binary) + close,
        "empty_form": close,
        "bidi_filename": file("photo\u202egpj.exe".encode(), b"x") + close,
        "overlong_filename": file(b"..%C0%AF..", b"x") + close,
        "raw_overlong_filename": file(b"..\xC0\xAF..", b"x") + close,
        "nul_filename": file(b"shell.php\x00.jpg", b"x") + close,
        "ext_filename": part(disp(b"name=\"f\"; filename*=UTF-8''photo%E2%80%AEgpj.exe"), b"x") +
        close,
        "ext_latin1": part(disp(b"name=\"f\"; filename*=iso-8859-1''%C0%AF"), b"x") + close,
        "quoted_pairs": file(b'C:\\\\x\\"y\\".txt', b"") + close,
        "field_overlong": field(b"a", b"ok") + field(b"b", b"..\xC0\xAF..") + close,
        "field_bidi": field(b"a", "abc\u202e".encode()) + close,
        "preamble": b"hello\r\n" + field(b"a", b"b") + close,
        "no_close": field(b"a", b"b"),
        "bare_lf": field(b"a", b"b\n--XyZ\r\n" + disp(b'name="c"')) + close,
        "bare_cr": file(b"x", b"b\r--XyZ--") + close,
        "after_boundary": field(b"a", b"b\r\n--XyZx") + close,
        "epilogue": field(b"a", b"b") + close + b"x",
        "folded": part(disp(b'name="a"') + b"X-A: b\r\n\tc\r\n", b"b") + close,
        "two_dispositions": part(disp(b'name="a"') + disp(b'name="b"'), b"b") + close,
        "continuation": part(disp(b"name=\"a\"; filename*0*=UTF-8''%C0; filename*1*=%AF"), b"b") +
        close,
        "utf7_field": part(disp(b'name="a"') + b"Content-Type: text/plain; charset=utf-7\r\n",
                           b"+ICo-") + close,
        "encoded_word": file(b"=?UTF-8?B?4oCuZ3BqLmV4ZQ==?=", b"x") + close,
        "base64": part(disp(b'name="a"') + b"Content-Transfer-Encoding: base64\r\n", b"wK8=") +
        close,
        "header_bare_lf": b"--XyZ\r\n" + disp(b'name="a"')[:-2] + b"\n\r\nb\r\n" + close,
    }
    seeds = {}
    for i, (name, body) in enumerate(sorted(bodies.items())):
        seeds["mp_" + name] = body + multipart_controls(len(body) // 2, rules=(i % 3) << 4)
        seeds["mp_%s_bytes" % name] = body + multipart_controls(i, one_byte=True)
    webkit = b"----WebKitFormBoundary7MA4YWxkTrZu0gW"
    body = field(b"a", b"v", webkit) + file(b"b.bin", binary, webkit) + b"--" + webkit + b"--\r\n"
    seeds["mp_webkit_boundary"] = body + multipart_controls(len(body) // 3, boundary=webkit)
    seeds["mp_bad_boundary"] = body + multipart_controls(0, boundary=webkit + b" ")
    return seeds


def regression_seeds():
    return {
        # F4 then a register's worth of B0: too_large@0 (B0 leaves F4's
        # 80..8F range), not unexpected_continuation@4
        # (tests/kernels/regression_test.cpp).
        "regress_simd_f4_b0_run16": bytes.fromhex("F4" + " B0" * 14 + " 90"),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lipsum", default=os.path.join(os.path.dirname(ROOT), "shared", "data",
                                                         "lipsum"))
    parser.add_argument("--vectors", default=os.path.join(ROOT, "security", "vectors",
                                                          "vectors.tsv"))
    parser.add_argument("--percent-vectors", default=os.path.join(ROOT, "security", "vectors",
                                                                  "percent.tsv"))
    parser.add_argument("--json-vectors", default=os.path.join(ROOT, "security", "vectors",
                                                               "json.tsv"))
    parser.add_argument("--out", default=os.path.join(ROOT, "corpus"))
    args = parser.parse_args()

    seeds = {}
    for part in (table37_seeds(), kind_seeds(KINDS), legacy_seeds(), category_seeds(),
                 block_seeds(), percent_seeds(KINDS), lipsum_seeds(args.lipsum),
                 vector_seeds(args.vectors), percent_vector_seeds(args.percent_vectors),
                 json_seeds(), json_vector_seeds(args.json_vectors), regression_seeds()):
        seeds.update(part)
    seeds.update(multipart_seeds())
    seeds.update(content_type_seeds())
    for target in TARGETS:
        folder = os.path.join(args.out, target)
        os.makedirs(folder, exist_ok=True)
        for name, data in seeds.items():
            if name.startswith("pct_") and target not in PERCENT_TARGETS:
                continue
            own = OWN_SEEDS.get(target)
            keep = name.startswith(own) if own else \
                not any(name.startswith(p) for p in OWN_SEEDS.values())
            if not keep or (name.startswith("json_") and target not in JSON_TARGETS):
                continue
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data)
    pct = sum(name.startswith("pct_") for name in seeds)
    own = {t: sum(name.startswith(p) for name in seeds) for t, p in OWN_SEEDS.items()}
    js = sum(name.startswith("json_") for name in seeds)
    print("make_seeds: %d seeds in each of %s; %d more in %s; %d more in %s; %s" %
          (len(seeds) - pct - js - sum(own.values()),
           ", ".join(t for t in TARGETS if t not in OWN_SEEDS), pct, " and ".join(PERCENT_TARGETS),
           js, " and ".join(JSON_TARGETS),
           ", ".join("%d in %s" % (n, t) for t, n in own.items())))


if __name__ == "__main__":
    main()
