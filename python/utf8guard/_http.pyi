import logging
import re
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple, TypeVar, Union

from ._types import Result

_Spec = Union[str, int, None]
_Where = Union[str, "re.Pattern[str]"]
_F = TypeVar("_F", bound=Callable[..., Any])

PROBLEM_TYPE: str
PROBLEM_TITLE: str
SHAPE_TYPE: str
BUFFER: int
LOGGER: logging.Logger

class Rejection:
    part: str
    result: Result
    header: Optional[str]
    method: Optional[str]
    path: Optional[str]
    client: Optional[str]
    def __init__(self, part: str, result: Result, header: Optional[str] = ...) -> None: ...
    @property
    def where(self) -> str: ...
    @property
    def detail(self) -> str: ...
    def as_dict(self) -> Dict[str, Any]: ...
    def problem(self) -> bytes: ...

class RequestRejected(Exception):
    rejection: Rejection
    def __init__(self, rejection: Rejection) -> None: ...

class Answer:
    status: int
    headers: List[Tuple[str, str]]
    body: bytes
    def __init__(self, status: int = ..., headers: Iterable[Tuple[str, str]] = ...,
                 body: bytes = ...) -> None: ...

def exempt(view: _F) -> _F: ...
