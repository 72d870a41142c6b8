"""Properties over generated inputs: utf8guard agrees with Python's decoder
and with urllib.parse, one-shot and in chunks cut anywhere."""

import urllib.parse

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import utf8guard
from oracle import first_error

settings.register_profile("utf8guard", max_examples=300, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("utf8guard")

# Bytes that reach every row of Unicode Table 3-7 and every kind of error
# often: leads, continuations and ASCII, mixed with arbitrary bytes and text.
INTERESTING = [0x00, 0x2F, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2,
               0xDF, 0xE0, 0xE1, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF]
utf8ish = st.one_of(
    st.binary(max_size=64),
    st.lists(st.sampled_from(INTERESTING), max_size=40).map(bytes),
    st.lists(st.one_of(st.text(max_size=8).map(lambda s: s.encode("utf-8", "surrogatepass")),
                       st.sampled_from(INTERESTING).map(lambda b: bytes([b]))),
             max_size=12).map(b"".join),
)


@given(utf8ish)
def test_is_valid_is_pythons_decode(data):
    assert utf8guard.is_valid(data) == (first_error(data) is None)


@given(utf8ish)
def test_validate_offset_is_unicode_decode_error_start(data):
    r = utf8guard.validate(data)
    expected = first_error(data)
    if expected is None:
        assert r and r.kind is None
        assert utf8guard.decode(data) == data.decode("utf-8")
    else:
        assert not r
        assert (r.offset, r.offset + r.length) == expected
        try:
            utf8guard.decode(bytearray(data))
        except UnicodeDecodeError as e:
            assert (e.start, e.end) == expected and e.result == r
        else:
            raise AssertionError("decode accepted ill-formed input")


@given(utf8ish)
def test_sanitize_is_pythons_replace(data):
    assert utf8guard.sanitize(data) == data.decode("utf-8", "replace").encode()


def _split_result(data, cuts, **kwargs):
    v = utf8guard.Validator(**kwargs)
    start = 0
    result = None
    for cut in sorted(cuts) + [len(data)]:
        result = v.feed(memoryview(data)[start:cut])
        start = cut
    return v.finish() if result else result


def _fields(r):
    return (r.kind, r.offset, r.length, r.category, r.code_point, r.decoded_offset,
            r.decoded_length)


@given(utf8ish, st.data())
def test_stream_split_anywhere_is_one_shot(data, draw):
    cuts = draw.draw(st.lists(st.integers(0, len(data)), max_size=4))
    for profile in ("strict", "field"):
        assert _fields(_split_result(data, cuts, profile=profile)) == \
            _fields(utf8guard.validate(data, profile=profile))


def test_stream_every_single_cut():
    data = "a\u00e9\u20ac\U0001F600".encode() + b"\xed\xa0\x80\xf0\x9f\x98"
    for cut in range(len(data) + 1):
        assert _fields(_split_result(data, [cut])) == _fields(utf8guard.validate(data))


percent_text = st.lists(st.one_of(
    st.sampled_from(INTERESTING).map(lambda b: f"%{b:02X}".encode()),
    st.sampled_from(INTERESTING).map(lambda b: f"%{b:02x}".encode()),
    st.sampled_from([b"%", b"%4", b"%g1", b"+", b"/", b"a", b"%25", b"41"]),
    st.text(max_size=4).map(lambda s: s.encode("utf-8", "surrogatepass")),
), max_size=16).map(b"".join)


@given(percent_text)
def test_percent_agrees_with_urllib(encoded):
    decoded = urllib.parse.unquote_to_bytes(encoded)
    expected = first_error(decoded)
    r = utf8guard.validate_percent(encoded)
    assert utf8guard.percent_decode(encoded) == decoded
    assert utf8guard.is_valid_percent(encoded) == (expected is None)
    if expected is None:
        assert r
    else:
        assert (r.decoded_offset, r.decoded_offset + r.decoded_length) == expected
        # the encoded offset is where that decoded byte comes from
        assert urllib.parse.unquote_to_bytes(encoded[:r.offset]) == decoded[:r.decoded_offset]


@given(percent_text, st.data())
def test_percent_stream_split_anywhere_is_one_shot(encoded, draw):
    cuts = draw.draw(st.lists(st.integers(0, len(encoded)), max_size=3))
    assert _fields(_split_result(encoded, cuts, policy="url", percent=True)) == \
        _fields(utf8guard.validate_percent(encoded, policy="url"))


def test_stream_message_and_hint_are_one_shots():
    """A stream that has the bytes around a finding describes it as one call
    does (a chunk that ends right after it may hide the next byte's hint)."""
    from oracle import percent_encode_all, vectors

    for vid, data, kind in vectors():
        if kind == "none":
            continue
        for encoded, percent in ((b"x" * 40 + data + b"tail..", False),
                                 (b"x" * 40 + percent_encode_all(data) + b"tail..", True)):
            whole = (utf8guard.validate_percent if percent else utf8guard.validate)(encoded)
            for cut in range(len(encoded) + 1):
                if whole.offset < cut < whole.offset + whole.length + (18 if percent else 6):
                    continue
                r = _split_result(encoded, [cut], percent=percent)
                assert (r.message, r.hint) == (whole.message, whole.hint), (vid, percent, cut)
