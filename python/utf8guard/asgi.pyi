import logging
from typing import Any, Awaitable, Callable, Iterable, Mapping, MutableMapping, Optional, Union

from ._http import Answer as Answer
from ._http import Rejection as Rejection
from ._http import RequestRejected as RequestRejected
from ._http import _Spec, _Where
from ._http import exempt as exempt

_Scope = MutableMapping[str, Any]
_Message = MutableMapping[str, Any]
_Receive = Callable[[], Awaitable[_Message]]
_Send = Callable[[_Message], Awaitable[None]]
_ASGIApp = Callable[[_Scope, _Receive, _Send], Awaitable[None]]

class Utf8GuardMiddleware:
    app: _ASGIApp
    def __init__(self, app: _ASGIApp, *, path: _Spec = ..., query: _Spec = ...,
                 headers: _Spec = ..., form: _Spec = ..., json: _Spec = ..., text: _Spec = ...,
                 other: _Spec = ..., none: _Spec = ..., file: _Spec = ...,
                 text_charset: str = ..., content_encoding: str = ..., detect_only: bool = ...,
                 logger: Union[logging.Logger, logging.LoggerAdapter[Any], None] = ...,
                 log_level: Union[int, str] = ...,
                 exempt: Union[_Where, Iterable[_Where]] = ...,
                 routes: Optional[Mapping[_Where, Mapping[str, _Spec]]] = ...,
                 on_reject: Optional[Callable[[Rejection], Optional[Answer]]] = ...,
                 buffer: int = ...) -> None: ...
    async def __call__(self, scope: _Scope, receive: _Receive, send: _Send) -> None: ...
