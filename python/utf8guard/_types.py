"""The objects that carry a finding: Result, Hint, DecodeError, StreamError."""

from typing import NamedTuple, Optional

__all__ = ["Result", "Hint", "DecodeError", "StreamError"]


class Hint(NamedTuple):
    """What probably wrote an ill-formed subpart, and the value it meant.

    ``name`` is one of utf16_bom, modified_utf8_nul, overlong_form, cesu8_pair,
    surrogate_code_point, beyond_unicode, windows1252; ``value`` is the code
    point the bytes carry (above U+10FFFF only for beyond_unicode), or None.
    """

    name: str
    value: Optional[int]

    def __str__(self) -> str:
        return self.name if self.value is None else f"{self.name} U+{self.value:04X}"


class Result:
    """The first finding in an input, or none: true when the input is clean.

    ``kind``: None when clean, else an ill-formed subpart's kind
    (unexpected_continuation, overlong, surrogate, too_large, invalid_byte,
    truncated, incomplete) or ``disallowed`` for a character the policy denies.
    ``offset``, ``length``: where, in bytes of the input (encoded bytes for
    percent-encoded input; ``decoded_offset`` and ``decoded_length`` then place
    it in the decoded bytes). For ``disallowed``: ``category`` and
    ``code_point``. ``hint``: a Hint for an ill-formed subpart, or None.
    ``message``: the text ``utf8guard check --hints`` prints after
    ``PATH:LINE:COLUMN: ``, such as ``overlong at byte 3 (C0 AF 2E 2E) [overlong_form U+002F]``;
    the bytes appear as hex, never raw.

    A Result cannot be changed: setting or deleting a field raises
    AttributeError.
    """

    __slots__ = ("kind", "offset", "length", "category", "code_point", "hint", "message",
                 "decoded_offset", "decoded_length")

    def __init__(self, kind=None, offset=None, length=None, category=None, code_point=None,
                 hint=None, message=None, decoded_offset=None, decoded_length=None):
        init = object.__setattr__
        init(self, "kind", kind)
        init(self, "offset", offset)
        init(self, "length", length)
        init(self, "category", category)
        init(self, "code_point", code_point)
        init(self, "hint", hint)
        init(self, "message", message)
        init(self, "decoded_offset", decoded_offset)
        init(self, "decoded_length", decoded_length)

    def __setattr__(self, name, value):
        raise AttributeError(f"Result is read-only: cannot set {name!r}")

    def __delattr__(self, name):
        raise AttributeError(f"Result is read-only: cannot delete {name!r}")

    def __reduce__(self):
        return (Result, tuple(getattr(self, n) for n in self.__slots__))

    def __bool__(self) -> bool:
        return self.kind is None

    @property
    def ok(self) -> bool:
        """True when the input is clean (the same as ``bool(result)``)."""
        return self.kind is None

    def as_dict(self) -> dict:
        """The finding as a dict of JSON-ready values (code points as "U+XXXX")."""
        if self.kind is None:
            return {}
        d = {"kind": self.kind}
        if self.offset is not None:  # the middleware's findings about a request's shape have none
            d["offset"] = self.offset
            d["length"] = self.length
        if self.category is not None:
            d["category"] = self.category
            d["code_point"] = f"U+{self.code_point:04X}"
        if self.hint is not None:
            d["hint"] = self.hint.name
            if self.hint.value is not None:
                d["hint_value"] = f"U+{self.hint.value:04X}"
        if self.decoded_offset is not None:
            d["decoded_offset"] = self.decoded_offset
            d["decoded_length"] = self.decoded_length
        d["message"] = self.message
        return d

    def __eq__(self, other):
        if not isinstance(other, Result):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.__slots__)

    def __hash__(self):
        return hash(tuple(getattr(self, n) for n in self.__slots__))

    def __repr__(self) -> str:
        """Result(kind=None) when clean, else every field that is set."""
        if self.kind is None:
            return "Result(kind=None)"
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__
                           if getattr(self, n) is not None)
        return f"Result({fields})"


class DecodeError(UnicodeDecodeError):
    """Raised by decode(): a UnicodeDecodeError whose ``start`` and ``end`` are
    those Python's own UTF-8 decoder gives (for a denied character: the
    character's bytes), carrying the same finding as validate() in ``result``."""

    def __init__(self, encoding, obj, start, end, reason, result=None):
        super().__init__(encoding, obj, start, end, reason)
        self.result = result


class StreamError(ValueError):
    """A Validator used out of turn: feed() after finish(), any call after close()."""
