from typing import Any, Dict, NamedTuple, Optional

class Hint(NamedTuple):
    name: str
    value: Optional[int]

class Result:
    kind: Optional[str]
    offset: Optional[int]
    length: Optional[int]
    category: Optional[str]
    code_point: Optional[int]
    hint: Optional[Hint]
    message: Optional[str]
    decoded_offset: Optional[int]
    decoded_length: Optional[int]
    def __init__(self, kind: Optional[str] = ..., offset: Optional[int] = ...,
                 length: Optional[int] = ..., category: Optional[str] = ...,
                 code_point: Optional[int] = ..., hint: Optional[Hint] = ...,
                 message: Optional[str] = ..., decoded_offset: Optional[int] = ...,
                 decoded_length: Optional[int] = ...) -> None: ...
    def __bool__(self) -> bool: ...
    @property
    def ok(self) -> bool: ...
    def as_dict(self) -> Dict[str, Any]: ...

class DecodeError(UnicodeDecodeError):
    result: Optional[Result]
    def __init__(self, encoding: str, obj: bytes, start: int, end: int, reason: str,
                 result: Optional[Result] = ...) -> None: ...

class StreamError(ValueError): ...
