import logging
from typing import Any, Callable, Dict, Iterable, Mapping, Optional, Union

from ._http import Answer as Answer
from ._http import Rejection as Rejection
from ._http import RequestRejected as RequestRejected
from ._http import _Spec, _Where
from ._http import exempt as exempt

_Environ = Dict[str, Any]
_StartResponse = Callable[..., Callable[[bytes], object]]
_WSGIApp = Callable[[_Environ, _StartResponse], Iterable[bytes]]

class Utf8GuardWSGIMiddleware:
    app: _WSGIApp
    def __init__(self, app: _WSGIApp, *, path: _Spec = ..., query: _Spec = ...,
                 headers: _Spec = ..., form: _Spec = ..., json: _Spec = ..., text: _Spec = ...,
                 other: _Spec = ..., none: _Spec = ..., file: _Spec = ...,
                 text_charset: str = ..., content_encoding: str = ..., detect_only: bool = ...,
                 logger: Union[logging.Logger, logging.LoggerAdapter[Any], None] = ...,
                 log_level: Union[int, str] = ...,
                 exempt: Union[_Where, Iterable[_Where]] = ...,
                 routes: Optional[Mapping[_Where, Mapping[str, _Spec]]] = ...,
                 on_reject: Optional[Callable[[Rejection], Optional[Answer]]] = ...,
                 buffer: int = ...) -> None: ...
    def __call__(self, environ: _Environ, start_response: _StartResponse) -> Iterable[bytes]: ...
