"""The functions, the Result and the errors, against Python's own decoder."""

import mmap
import pydoc
import threading
import time

import pytest

import utf8guard
from oracle import first_error, lipsum, vectors


@pytest.mark.parametrize("vid,data,kind", vectors())
def test_vectors_agree_with_python(vid, data, kind):
    r = utf8guard.validate(data)
    expected = first_error(data)
    assert utf8guard.is_valid(data) == (expected is None)
    assert bool(r) == (expected is None)
    assert r.kind == (None if kind == "none" else kind)
    if expected is not None:
        assert (r.offset, r.offset + r.length) == expected
        with pytest.raises(UnicodeDecodeError) as info:
            utf8guard.decode(data)
        assert (info.value.start, info.value.end) == expected
        assert info.value.result == r
    else:
        assert utf8guard.decode(data) == data.decode("utf-8")
    assert utf8guard.sanitize(data) == data.decode("utf-8", "replace").encode()


def test_every_buffer_type_without_copy(tmp_path):
    data = b"abc\xe2\x82\xacdef\xc0\xafxyz"
    path = tmp_path / "input"
    path.write_bytes(data)
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        for obj in (data, bytearray(data), memoryview(data), memoryview(data)[0:], mapped):
            assert utf8guard.validate(obj).offset == 9
            assert utf8guard.sanitize(obj) == data.decode("utf-8", "replace").encode()
    # a slice is read in place: offsets count from the slice's start
    assert utf8guard.validate(memoryview(data)[3:]).offset == 6


def test_wrong_types():
    for bad in (3, None, [1, 2], memoryview(b"abcd")[::2]):
        with pytest.raises((TypeError, BufferError, ValueError)):
            utf8guard.is_valid(bad)
    # decode() and the byte-level helpers take bytes only, and say which call refused
    for call in (utf8guard.decode, utf8guard.percent_decode):
        with pytest.raises(TypeError, match=rf"^{call.__name__}\(\): a bytes-like object"):
            call("text")
    with pytest.raises(TypeError):
        utf8guard.is_valid()
    with pytest.raises(TypeError):
        utf8guard.validate(b"", nosuch=1)
    with pytest.raises(ValueError, match="known: strict, source, field, json, url"):
        utf8guard.validate(b"", profile="nosuch")
    with pytest.raises(ValueError, match="nul"):
        utf8guard.validate(b"", deny=["nosuch"])
    with pytest.raises(TypeError):
        utf8guard.validate(b"", deny=[1])
    with pytest.raises(ValueError):
        utf8guard.explain(b"", -1)


def test_policies_by_name():
    rlo = "a\u202eb".encode()
    assert utf8guard.is_valid(rlo)
    for kwargs in ({"profile": "source"}, {"deny": "bidi"}, {"deny": ["nul", "bidi"]},
                   {"policy": "url"}, {"policy": utf8guard.policy_bits(profile="field")}):
        r = utf8guard.validate(rlo, **kwargs)
        assert (r.kind, r.offset, r.length, r.category, r.code_point) == \
            ("disallowed", 1, 3, "bidi", 0x202E), kwargs
        assert r.message == "disallowed bidi U+202E at byte 1 (E2 80 AE 62)"
        assert r.hint is None
    assert utf8guard.is_valid(b"a\nb", policy="url,-newline")
    assert not utf8guard.is_valid(b"a\nb", policy="url")
    with pytest.raises(DecodeErrorType()) as info:
        utf8guard.decode(rlo, profile="field")
    assert (info.value.start, info.value.end) == (1, 4)
    assert utf8guard.sanitize(rlo, deny="bidi") == "a\ufffdb".encode()


def DecodeErrorType():
    assert issubclass(utf8guard.DecodeError, UnicodeDecodeError)
    return utf8guard.DecodeError


def test_message_and_hints():
    r = utf8guard.validate(b"a\xed\xa0\xbd\xed\xb8\x80b")
    assert r.message == "surrogate at byte 1 (ED A0 BD ED) [cesu8_pair U+1F600]"
    assert r.hint == ("cesu8_pair", 0x1F600) and str(r.hint) == "cesu8_pair U+1F600"
    assert utf8guard.explain(b"/\xc0\xaf", 1) == ("overlong_form", 0x2F)
    assert utf8guard.explain(b"abc", 1) is None
    r = utf8guard.validate(b"")
    assert r and r.kind is None and r.message is None and repr(r) == "Result(kind=None)"


def test_percent_against_urllib():
    import urllib.parse
    for encoded in (b"/..%c0%af../", b"/a%E2%80%AEb", b"%41%zz", b"%ED%A0%80", b"caf%C3%A9", b"%C3"):
        r = utf8guard.validate_percent(encoded)
        decoded = urllib.parse.unquote_to_bytes(encoded)
        expected = first_error(decoded)
        assert bool(r) == (expected is None), encoded
        assert utf8guard.percent_decode(encoded) == decoded
        if expected is not None:
            assert (r.decoded_offset, r.decoded_offset + r.decoded_length) == expected
    r = utf8guard.validate_percent(b"/..%c0%af../")
    assert (r.offset, r.length, r.kind) == (3, 3, "overlong")
    assert r.message == "overlong at byte 3 (C0 AF 2E 2E) [overlong_form U+002F]"
    r = utf8guard.validate_percent(b"/%2541", profile="url")
    assert (r.kind, r.category, r.offset, r.length) == ("disallowed", "double_encoding", 1, 3)


def test_validator_misuse():
    v = utf8guard.Validator()
    assert v.feed(b"ab\xe2\x82") and v.position == 4
    assert v.finish().kind == "incomplete"
    assert v.finish().kind == "incomplete"  # finish() again: the same answer
    with pytest.raises(utf8guard.StreamError, match="after finish"):
        v.feed(b"x")
    v.reset()
    assert v.feed(b"\xac") .kind == "unexpected_continuation"
    with v:
        pass
    assert v.closed
    for call in (lambda: v.feed(b""), v.finish, v.reset):
        with pytest.raises(utf8guard.StreamError, match="closed"):
            call()
    with pytest.raises(TypeError):
        utf8guard.Validator().feed("text")
    with pytest.raises(TypeError):
        utf8guard.Validator("field")
    with pytest.raises(ValueError):
        utf8guard.Validator(profile="nosuch")


def test_validator_keeps_first_finding():
    v = utf8guard.Validator(profile="field")
    first = v.feed(b"ok \x00 then more")
    assert (first.kind, first.category, first.offset) == ("disallowed", "nul", 3)
    assert v.feed(b"\xff") is first
    assert v.finish() is first
    # A finding whose message waits for the bytes after it: the feed() that
    # brings them returns it again, final, and from then on that one.
    v = utf8guard.Validator(profile="field")
    early = v.feed(b"ok \x00 th")
    assert (early.kind, early.category, early.offset) == ("disallowed", "nul", 3)
    final = v.feed(b"en\xff")
    assert (final.kind, final.offset) == (early.kind, early.offset)
    assert final.message == utf8guard.validate(b"ok \x00 then\xff", profile="field").message
    assert v.feed(b"more") is final
    assert v.finish() is final


def test_validator_message_is_the_whole_inputs():
    """The library's finding window: wherever the input is cut, the Result
    the Validator settles on (from finish()) has the whole input's message
    and hint, in each form."""
    cases = [({}, b"ab\xed\xa0\xbd\xed\xb8\x80cdefgh"),
             ({"profile": "field"}, b"x\xe2\x80\xaey"),
             ({"form": "percent"}, b"q=%C0%AF%2E%2E%41%42&x=1"),
             ({"form": "json", "policy": "field"}, b'{"a": "photo\\u202egpj.exe"}')]
    for kwargs, data in cases:
        whole = utf8guard.Validator(**kwargs)
        whole.feed(data)
        expected = whole.finish()
        assert not expected
        for cut in range(len(data) + 1):
            v = utf8guard.Validator(**kwargs)
            first = v.feed(data[:cut])
            second = v.feed(data[cut:])
            last = v.finish()
            assert (last.kind, last.offset, last.message, last.hint) == \
                (expected.kind, expected.offset, expected.message, expected.hint), (data, cut)
            for r in (first, second):
                assert r or (r.kind, r.offset) == (expected.kind, expected.offset)
    # The whole input's message is the one-shot one.
    data = cases[0][1]
    v = utf8guard.Validator()
    v.feed(data[:3])
    v.feed(data[3:])
    assert v.finish().message == utf8guard.validate(data).message


def test_gil_released_on_large_inputs():
    """Another thread runs Python code while one call checks a long input:
    with the GIL held it could not run at all between the call's start and end.
    A call takes milliseconds, so on a busy machine the other thread may not be
    scheduled inside one: each call gets a few tries, and one with the GIL held
    never succeeds."""
    data = ("\u00e9" * (1 << 25)).encode()  # 64 MiB
    stamps = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            stamps.append(time.perf_counter())

    t = threading.Thread(target=ticker)
    t.start()
    try:
        inside = []
        for call in (utf8guard.is_valid, utf8guard.validate, lambda d: utf8guard.sanitize(d[:1 << 24])):
            most = 0
            for _ in range(20):
                time.sleep(0.01)
                start = time.perf_counter()
                assert call(data)
                end = time.perf_counter()
                most = max(most, sum(1 for s in list(stamps) if start < s < end))
                if most > 10:
                    break
            inside.append(most)
    finally:
        stop.set()
        t.join()
    assert min(inside) > 10, inside


def test_sanitize_returns_clean_bytes_as_they_are():
    for sample in lipsum().values():
        assert utf8guard.sanitize(sample) is sample
        assert utf8guard.decode(sample) == sample.decode()


def test_help_reads_well():
    text = pydoc.render_doc(utf8guard, renderer=pydoc.plaintext)
    for name in ("is_valid(data, /, *, profile=None, deny=None, policy=None)", "class Validator",
                 "feed(data, /)", "class Result", "class DecodeError", "validate_percent"):
        assert name in text, name
    assert utf8guard.Validator.__doc__.startswith("Validate input that arrives in chunks")


def test_stubs_name_the_whole_api():
    import ast
    from pathlib import Path

    stub = ast.parse((Path(utf8guard.__file__).parent / "__init__.pyi").read_text())
    names = set()
    for node in stub.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            names |= {a.asname or a.name for a in node.names}
    assert set(utf8guard.__all__) <= names
    assert (Path(utf8guard.__file__).parent / "py.typed").exists()


def test_readme_example_prints_what_it_says(capsys):
    """The README's Python example, run: each print's output is the comment
    at the end of its line."""
    from oracle import REPOSITORY

    readme = (REPOSITORY / "README.md").read_text()
    block = readme.split("<!-- python-example -->\n```python\n", 1)[1].split("```", 1)[0]
    assert len(block.splitlines()) == 5
    exec(compile(block, "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    expected = [line.split("  # ", 1)[1] for line in block.splitlines() if line.startswith("print(")]
    assert printed == expected


def test_readme_middleware_block_runs_as_written():
    """The README's middleware lines, run against stand-ins for a Starlette
    app and a Flask app: every name they use is reachable after the block's
    own `import utf8guard`, and each wraps what it says."""
    from oracle import REPOSITORY

    readme = (REPOSITORY / "README.md").read_text()
    section = readme.split("## Python\n", 1)[1].split("\n## ", 1)[0]
    blocks = section.split("```python\n")[1:]
    block = next(b.split("```", 1)[0] for b in blocks if "Utf8GuardMiddleware" in b)
    assert block.startswith("import utf8guard\n")

    class App:
        def __init__(self):
            self.added = []
            self.wsgi_app = lambda environ, start_response: []

        def add_middleware(self, cls, **options):
            self.added.append(cls)

    app = App()
    scope = {"app": app}
    exec(compile(block, "README.md", "exec"), scope)
    import utf8guard.django

    assert app.added == [utf8guard.asgi.Utf8GuardMiddleware]
    assert isinstance(app.wsgi_app, utf8guard.wsgi.Utf8GuardWSGIMiddleware)
    assert scope["MIDDLEWARE"][0] == "utf8guard.django.Utf8GuardMiddleware"
    assert hasattr(utf8guard.django, "Utf8GuardMiddleware")


def test_module_examples():
    import doctest

    assert doctest.testmod(utf8guard).failed == 0


def test_no_reference_leaks():
    """Every call, on its success and its error paths, 20,000 times: the
    memory Python's allocators hold does not grow with the count."""
    import tracemalloc

    bad = b"ab\xed\xa0\xbd\xed\xb8\x80 \xe2\x80\xae"
    calls = [
        lambda: utf8guard.is_valid(bytearray(bad), deny="bidi, nul"),
        lambda: utf8guard.validate(bad),
        lambda: utf8guard.validate(bad, policy="field"),
        lambda: utf8guard.sanitize(memoryview(bad), profile="field"),
        lambda: utf8guard.validate_percent(b"/%C0%AF%zz", policy="url"),
        lambda: utf8guard.percent_decode(b"%41%zz"),
        lambda: utf8guard.explain(bad, 2),
        lambda: utf8guard.Validator(percent=True).feed(b"%E2%80%AE"),
    ]

    def raising():
        for f, exc in ((lambda: utf8guard.decode(bad), UnicodeDecodeError),
                       (lambda: utf8guard.validate(b"", profile="nosuch"), ValueError),
                       (lambda: utf8guard.validate(b"", policy="url,x"), ValueError),
                       (lambda: utf8guard.decode("str"), TypeError)):
            try:
                f()
            except exc:
                pass

    calls.append(raising)

    def run(n):
        for _ in range(n):
            for call in calls:
                call()

    run(2000)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        run(20000)
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert after - before < 64 * 1024, after - before


def test_results_cannot_be_changed():
    clean = utf8guard.validate(b"ok")
    with pytest.raises(AttributeError, match="read-only"):
        clean.kind = "x"
    with pytest.raises(AttributeError):
        del utf8guard.validate(b"\xff").offset
    assert utf8guard.validate(b"fine").kind is None and utf8guard.Validator().feed(b"a").kind is None
    r = utf8guard.validate(b"a\xc0\xaf")
    assert repr(r) == ("Result(kind='overlong', offset=1, length=1, hint=Hint(name='overlong_form',"
                       " value=47), message='overlong at byte 1 (C0 AF) [overlong_form U+002F]')")
    import copy
    import pickle
    assert pickle.loads(pickle.dumps(r)) == r == copy.copy(r) and hash(r) == hash(copy.copy(r))


def test_str_under_a_policy():
    assert utf8guard.is_valid("caf\u00e9") and not utf8guard.is_valid("a\u202eb", profile="field")
    r = utf8guard.validate("a\u202eb", policy="field")
    assert (r.category, r.offset, r.length) == ("bidi", 1, 3)  # offsets in UTF-8 bytes
    r = utf8guard.validate("a\ud800b")  # a lone surrogate: ill-formed under every policy
    assert (r.kind, r.offset, r.hint) == ("surrogate", 1, ("surrogate_code_point", 0xD800))
    assert not utf8guard.is_valid("x\udfff")
    assert utf8guard.validate_percent("/a%E2%80%AE", policy="url").category == "bidi"
    text = "photo\u202egpj.exe\x00"
    assert utf8guard.sanitize(text, policy="field") == "photo\ufffdgpj.exe\ufffd"
    assert utf8guard.sanitize(text, policy="field", remove=True) == "photogpj.exe"
    assert utf8guard.sanitize(text.encode(), policy="field", remove=True) == b"photogpj.exe"
    # ill-formed bytes are still replaced; a BOM after a removed character is not at byte 0
    assert utf8guard.sanitize(b"\x00\xef\xbb\xbfa\xff", policy="field,bom", remove=True) == \
        b"a\xef\xbf\xbd"
    # a lone surrogate is one character of a str: one U+FFFD
    assert utf8guard.sanitize("x\ud800y\u202e", policy="field", remove=True) == "x\ufffdy"
    clean = "already fine"
    assert utf8guard.sanitize(clean, policy="field", remove=True) is clean
    with pytest.raises(TypeError, match="remove: True or False"):
        utf8guard.sanitize(b"", remove=1)


@pytest.mark.parametrize("kwargs,error,words", [
    ({"policy": True}, TypeError, r"^validate\(\): policy: a str"),
    ({"deny": b"bidi"}, TypeError, r"^validate\(\): deny: category names are str, not 'bytes'"),
    ({"policy": "url,nope"}, ValueError, r"^validate\(\): policy 'url,nope': no such name: 'nope'"),
    ({"profile": 3}, TypeError, r"^validate\(\): profile"),
])
def test_argument_errors_name_the_function(kwargs, error, words):
    with pytest.raises(error, match=words):
        utf8guard.validate(b"", **kwargs)


def test_policy_text_as_people_write_it():
    assert utf8guard.policy_bits(policy=" url , -newline ") == utf8guard.policy_bits(policy="url,-newline")
    assert utf8guard.policy_bits(deny="") == utf8guard.policy_bits(policy="") == 0
    assert utf8guard.policy_bits(deny=" bidi, nul ") == utf8guard.policy_bits(deny=["bidi", "nul"])


def test_buffers_of_every_kind():
    import array
    data = "a\u202eb".encode()
    assert utf8guard.validate(array.array("B", data), policy="field").category == "bidi"


def test_validator_from_two_threads_works_or_raises():
    """Two threads share one Validator, each feeding long chunks (checked with
    the GIL released): every call either runs whole or raises RuntimeError;
    the position counts exactly the bytes of the feeds that ran."""
    v = utf8guard.Validator(policy="field")
    chunk = ("é" * (1 << 16)).encode()
    done = []
    refused = []

    def work():
        for _ in range(40):
            try:
                assert v.feed(chunk)
                done.append(len(chunk))
            except RuntimeError as error:
                assert "in use by another thread" in str(error)
                refused.append(1)
            try:
                v.position  # a read needs no lock
            except RuntimeError:
                pass

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert v.position == sum(done) and v.finish()
    assert len(done) + len(refused) == 80


def test_module_state_is_per_module_object():
    """Multi-phase init: a second module object from the same extension has
    its own state, without the registered types, and says so."""
    import importlib.util
    spec = importlib.util.find_spec("utf8guard._utf8guard")
    other = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(other)
    assert other is not utf8guard._utf8guard and other.Validator is not utf8guard.Validator
    with pytest.raises(RuntimeError, match=r"validate\(\): import the utf8guard package"):
        other.validate(b"x")
    assert other.is_valid(b"x")


def test_json_text_form():
    """JSON text with its escapes decoded, named as the percent form is."""
    assert utf8guard.is_valid_json(b'{"a":"caf\\u00e9 \\ud83d\\ude00"}')
    r = utf8guard.validate_json(b'{"a":"\\ud800"}')
    assert (r.kind, r.offset, r.length, r.decoded_offset) == ("surrogate", 6, 6, 6)
    assert r.hint == ("surrogate_code_point", 0xD800)
    r = utf8guard.validate_json('{"a":"x\\u202e"}', policy="field")
    assert (r.category, r.offset, r.length) == ("bidi", 7, 6)
    assert utf8guard.validate_json(b'["\\u0000"]', profile="field").category == "nul"
    assert utf8guard.sanitize_json(b'["\\ud800", "\\u202e", "ok"]', policy="field") == \
        b'["\\ufffd", "\\ufffd", "ok"]'
    clean = b'{"a": 1}'
    assert utf8guard.sanitize_json(clean) is clean
    assert utf8guard.sanitize_json('["\\u202e"]', policy="field") == '["\\ufffd"]'


def test_json_validator_split_anywhere():
    body = b'{"name": "photo\\u202egpj.exe", "ok": "\\ud83d\\ude00"}'
    whole = utf8guard.validate_json(body, policy="field")
    for cut in range(len(body) + 1):
        v = utf8guard.Validator(policy="field", form="json")
        r = v.feed(body[:cut])
        r = r if not r else v.feed(body[cut:])
        r = r if not r else v.finish()
        assert (r.kind, r.offset, r.category) == (whole.kind, whole.offset, whole.category), cut
    assert utf8guard.Validator(form="json").form == "json"
    with pytest.raises(ValueError, match="form"):
        utf8guard.Validator(form="xml")
    with pytest.raises(TypeError, match="not both"):
        utf8guard.Validator(form="json", percent=False)
