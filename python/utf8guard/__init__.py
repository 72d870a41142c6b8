"""utf8guard: strict UTF-8 validation that says where and why input is not UTF-8.

    >>> import utf8guard
    >>> utf8guard.is_valid(b"caf\\xc3\\xa9")
    True
    >>> r = utf8guard.validate(b"/..\\xc0\\xaf../")
    >>> bool(r), r.kind, r.offset, r.length
    (False, 'overlong', 3, 1)
    >>> r.message
    'overlong at byte 3 (C0 AF 2E 2E) [overlong_form U+002F]'
    >>> utf8guard.sanitize(b"a\\xffb")
    b'a\\xef\\xbf\\xbdb'
    >>> utf8guard.validate_percent(b"/a%E2%80%AEb", profile="url").category
    'bidi'

Every function takes any bytes-like object (bytes, bytearray, memoryview,
mmap) and reads it in place; long inputs are checked with the GIL released.
Policies deny well-formed characters by name: ``profile`` is one of PROFILES
(strict, source, field, json, url) and ``deny`` a category name, a
comma-separated string or an iterable of names from CATEGORIES; the two add
up. ``policy`` replaces both with one spec read left to right, each name
added or, after '-', removed: ``policy="url,-newline"``. The offsets agree with Python's own decoder: ``validate(b).offset`` is
``UnicodeDecodeError.start`` and ``sanitize(b)`` is
``b.decode('utf-8', 'replace').encode()``.

Middleware for web servers: utf8guard.asgi (Starlette, FastAPI),
utf8guard.wsgi (Flask) and utf8guard.django (settings.MIDDLEWARE), each
reachable after ``import utf8guard``; utf8guard.exempt marks a view they
leave alone.
"""

from . import _utf8guard
from ._types import DecodeError, Hint, Result, StreamError

_utf8guard.register_types(Result, Hint, DecodeError, StreamError, Result())

_SUBMODULES = ("asgi", "wsgi", "django")


def __getattr__(name):
    """utf8guard.asgi, .wsgi and .django, imported when first used."""
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

is_valid = _utf8guard.is_valid
validate = _utf8guard.validate
sanitize = _utf8guard.sanitize
decode = _utf8guard.decode
is_valid_percent = _utf8guard.is_valid_percent
validate_percent = _utf8guard.validate_percent
percent_decode = _utf8guard.percent_decode
is_valid_json = _utf8guard.is_valid_json
validate_json = _utf8guard.validate_json
sanitize_json = _utf8guard.sanitize_json
explain = _utf8guard.explain
policy_bits = _utf8guard.policy_bits
active_kernel = _utf8guard.active_kernel
Validator = _utf8guard.Validator
PROFILES = _utf8guard.PROFILES
CATEGORIES = _utf8guard.CATEGORIES
KINDS = _utf8guard.KINDS
LIBRARY_VERSION = _utf8guard.LIBRARY_VERSION
__version__ = LIBRARY_VERSION
from ._http import Answer, Rejection, RequestRejected, exempt  # noqa: E402

__all__ = [
    "is_valid", "validate", "sanitize", "decode", "is_valid_percent", "validate_percent",
    "percent_decode", "is_valid_json", "validate_json", "sanitize_json", "explain", "policy_bits", "active_kernel", "Validator", "Result", "Hint", "DecodeError",
    "StreamError", "PROFILES", "CATEGORIES", "KINDS", "LIBRARY_VERSION", "exempt", "Answer",
    "Rejection", "RequestRejected",
]
