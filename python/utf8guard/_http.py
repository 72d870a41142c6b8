"""What the ASGI and WSGI middleware share: which parts of a request are
checked under which policy, the body checker, and the 400 answer.

The answer is an RFC 9457 problem (application/problem+json). It names the
part and the finding; the bytes appear only as the hex of Result.message,
never raw, and a header is named only when its name is a plain token.
"""

import json
import logging
import re

from . import _utf8guard

LOGGER = logging.getLogger("utf8guard")

# The policy of each part unless the caller names another: a policy spec
# (profile and category names, '-' removes) or None to leave the part alone.
DEFAULTS = {
    "path": "url",          # the raw path, percent-decoded
    "query": "url",         # the raw query string, percent-decoded
    "headers": "field",     # each header value
    "form": "url,-newline", # application/x-www-form-urlencoded bodies, percent-decoded
    "json": "json",         # application/json and */*+json bodies
    "text": "strict",       # text/* bodies
}

_TOKEN = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}")


class Rejection:
    """A part of a request and its finding (a Result)."""

    __slots__ = ("part", "result", "header")

    def __init__(self, part, result, header=None):
        self.part = part
        self.result = result
        self.header = header

    def problem(self):
        """The RFC 9457 problem document, as bytes."""
        where = self.part if self.header is None else f"header {self.header}"
        doc = {
            "type": "about:blank",
            "title": "Bad Request",
            "status": 400,
            "detail": f"the request's {where} is not acceptable text: {self.result.message}",
            "part": self.part,
            "finding": self.result.as_dict(),
        }
        if self.header is not None:
            doc["header"] = self.header
        return json.dumps(doc, ensure_ascii=True).encode("ascii")

    def log(self, logger):
        where = self.part if self.header is None else f"header {self.header}"
        logger.warning("utf8guard: request %s: %s", where, self.result.message)


class RequestRejected(Exception):
    """Raised inside the application when a chunk of the body it reads is
    rejected; the middleware answers 400 in its place."""

    def __init__(self, rejection):
        super().__init__(rejection.result.message)
        self.rejection = rejection


class BodyChecker:
    """Checks a body chunk by chunk, in constant memory, never holding it."""

    __slots__ = ("_validator",)

    def __init__(self, policy, percent):
        self._validator = _utf8guard.Validator(policy=policy, percent=percent)

    def feed(self, chunk, last):
        """A Rejection for the first finding, or None while the body is clean."""
        result = self._validator.feed(chunk)
        if result and last:
            result = self._validator.finish()
        return None if result else Rejection("body", result)


def _media_type(content_type):
    """(type, charset) of a Content-Type value, lowercase; charset may be None."""
    media, _, params = content_type.partition(b";")
    charset = None
    for param in params.split(b";"):
        name, _, value = param.partition(b"=")
        if name.strip().lower() == b"charset":
            charset = value.strip().strip(b'"').lower()
    return media.strip().lower(), charset


class GuardedApp:
    """What both middleware take: the application, a policy spec (or None) per
    part, detect_only and a logger; see utf8guard.asgi."""

    def __init__(self, app, *, path=DEFAULTS["path"], query=DEFAULTS["query"],
                 headers=DEFAULTS["headers"], form=DEFAULTS["form"], json=DEFAULTS["json"],
                 text=DEFAULTS["text"], detect_only=False, logger=None):
        self.app = app
        self.guard = Guard(path=path, query=query, headers=headers, form=form, json=json,
                           text=text, detect_only=detect_only, logger=logger)


class Guard:
    """The checks of one middleware: a policy per part, and what to do with a
    finding (answer 400, or with detect_only log it and let the request on)."""

    def __init__(self, *, path=DEFAULTS["path"], query=DEFAULTS["query"],
                 headers=DEFAULTS["headers"], form=DEFAULTS["form"], json=DEFAULTS["json"],
                 text=DEFAULTS["text"], detect_only=False, logger=None):
        def bits(spec):
            return None if spec is None else _utf8guard.policy_bits(policy=spec)

        self.path = bits(path)
        self.query = bits(query)
        self.headers = bits(headers)
        self.form = bits(form)
        self.json = bits(json)
        self.text = bits(text)
        self.detect_only = detect_only
        self.logger = logger if logger is not None else LOGGER

    def check_head(self, raw_path, query, headers, path_is_encoded=True):
        """The first Rejection among the path, the query and the header values
        (bytes; headers as (name, value) pairs), or None."""
        if self.path is not None:
            result = (_utf8guard.validate_percent(raw_path, policy=self.path) if path_is_encoded
                      else _utf8guard.validate(raw_path, policy=self.path))
            if not result:
                return Rejection("path", result)
        if self.query is not None and query:
            result = _utf8guard.validate_percent(query, policy=self.query)
            if not result:
                return Rejection("query", result)
        if self.headers is not None:
            for name, value in headers:
                result = _utf8guard.validate(value, policy=self.headers)
                if not result:
                    token = _TOKEN.fullmatch(name)
                    return Rejection("header", result,
                                     token.group().decode("ascii").lower() if token else None)
        return None

    def body_checker(self, content_type):
        """A BodyChecker for a body of this Content-Type (bytes or None), or
        None when the type is not text this guard checks."""
        if not content_type:
            return None
        media, charset = _media_type(content_type)
        if charset not in (None, b"utf-8", b"utf8"):
            return None
        if media == b"application/x-www-form-urlencoded":
            policy, percent = self.form, True
        elif media == b"application/json" or media.endswith(b"+json"):
            policy, percent = self.json, False
        elif media.startswith(b"text/"):
            policy, percent = self.text, False
        else:
            return None
        return None if policy is None else BodyChecker(policy, percent)

    def found(self, rejection):
        """True when the request must be refused; logs it in detect-only mode."""
        if self.detect_only:
            rejection.log(self.logger)
            return False
        return True
