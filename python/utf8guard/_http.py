"""What the ASGI, WSGI and Django middleware share: the settings, which part
of a request is checked under which rule, the body checker, the log line and
the 400 answer.

Which part gets which rule, the defaults, and what a Content-Type selects are
request_check's (nginx/src/request_check.c, compiled into the extension), the
code the nginx module runs: this file asks it and decides none of them.

The answer is an RFC 9457 problem (application/problem+json). It names the
part and the finding; the bytes appear only as the hex of Result.message,
never raw, and a header is named with its bytes outside printable ASCII as
\\xHH.
"""

import json
import logging
import re
from http import HTTPStatus

from . import _utf8guard
from ._types import Result

LOGGER = logging.getLogger("utf8guard")

# The problem document's "type": one URI for every refusal of the guard.
PROBLEM_TYPE = "urn:utf8guard:problem:unacceptable-text"
PROBLEM_TITLE = "Unacceptable text in request"

# The middleware's keywords for the parts of a request, and the core's slot
# each one takes its default and its percent-decoding from.
PART_SLOTS = {
    "path": "target",
    "query": "target",
    "headers": "headers",
    "form": "form",
    "json": "json",
    "text": "text",
    "other": "other",
    "none": "none",
    "file": "file",
}
_SLOT = {name: index for index, name in enumerate(_utf8guard.SLOTS)}
_BODY_PARTS = {_SLOT[PART_SLOTS[part]]: part
               for part in ("form", "json", "text", "other", "none", "file")}
# The findings about a request's shape rather than its text: the kind of
# their Result, and the problem document's type.
SHAPE_KINDS = {"Content-Type": "content_type", "Content-Encoding": "content_encoding"}
SHAPE_TYPE = "urn:utf8guard:problem:unreadable-request"
_SHAPE_RESULT_KINDS = ("content_type", "content_encoding", "header_name")
_UNSET = object()

# WSGI: a body of at most this many bytes is read and checked before the
# application is called, so that its refusal never happens inside it.
BUFFER = 1 << 18

# A request's bytes in a log line: printable ASCII as it is, the rest as \xHH.
_UNPRINTABLE = re.compile(rb"[^\x21-\x5b\x5d-\x7e]")
_LOG_PATH_MAX = 200


def escape(data, limit=_LOG_PATH_MAX):
    """bytes as printable ASCII: bytes outside it (and the backslash) as \\xHH,
    cut after |limit| bytes with '...'."""
    text = _UNPRINTABLE.sub(lambda m: b"\\x%02X" % m.group()[0], data[:limit]).decode("ascii")
    return text + "..." if len(data) > limit else text


class Rejection:
    """A finding in one part of a request: ``part`` (path, query, header or
    body), ``result`` (a Result), ``header`` ("header NAME", names escaped) and
    the request it was found in: ``method``, ``path`` (escaped) and
    ``client``. It holds none of the request's bytes raw."""

    __slots__ = ("part", "result", "header", "method", "path", "client")

    def __init__(self, part, result, header=None):
        self.part = part
        self.result = result
        self.header = header
        self.method = self.path = self.client = None

    @property
    def where(self):
        return self.part if self.header is None else self.header

    @property
    def detail(self):
        return f"the request's {self.where} is not acceptable text: {self.result.message}"

    def as_dict(self):
        """The RFC 9457 problem document, as a dict."""
        doc = {
            "type": SHAPE_TYPE if self.result.kind in _SHAPE_RESULT_KINDS else PROBLEM_TYPE,
            "title": PROBLEM_TITLE,
            "status": 400,
            "detail": self.detail,
            "part": self.part,
            "finding": self.result.as_dict(),
        }
        if self.header is not None:
            doc["header"] = self.header[len("header "):]
        return doc

    def problem(self):
        """The problem document, as ASCII bytes."""
        return json.dumps(self.as_dict(), ensure_ascii=True).encode("ascii")


class RequestRejected(Exception):
    """Raised inside the application when a chunk of the body it reads is
    rejected; the middleware answers 400 in its place."""

    def __init__(self, rejection):
        super().__init__(rejection.detail)
        self.rejection = rejection


class Answer:
    """A refusal's answer: status (int), headers (a list of (str, str)) and
    body (bytes). ``on_reject`` may return one to replace the 400 document."""

    __slots__ = ("status", "headers", "body")

    def __init__(self, status=400, headers=(), body=b""):
        if not isinstance(status, int) or isinstance(status, bool) or not 100 <= status <= 599:
            raise ValueError(f"Answer: status: an int from 100 to 599, not {status!r}")
        if not isinstance(body, bytes):
            raise TypeError(f"Answer: body: bytes, not {type(body).__name__!r}")
        checked = []
        for name, value in headers:
            if not (isinstance(name, str) and _HEADER_NAME.fullmatch(name)):
                raise ValueError(f"Answer: header name {name!r} is not a token")
            if not (isinstance(value, str) and _HEADER_VALUE.fullmatch(value)):
                raise ValueError(f"Answer: the value of {name} must be printable ASCII")
            if name.lower() in ("content-length", "connection", "transfer-encoding"):
                raise ValueError(f"Answer: {name} is set by the middleware")
            checked.append((name, value))
        self.status = status
        self.headers = checked
        self.body = body


_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
# Header names that are all tokens, joined with ',' (a fast "yes"; the core's
# header_name says what a name that is not one holds).
_TOKENS = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:,[!#$%&'*+.^_`|~0-9A-Za-z-]+)*")
_TOKENS_STR = re.compile(_TOKENS.pattern.decode())
_HEADER_VALUE = re.compile(r"[\x20-\x7e]*")


def default_answer(rejection):
    return Answer(400, [("Content-Type", "application/problem+json")], rejection.problem())


class BodyChecker:
    """Checks a body chunk by chunk, in constant memory, never holding it:
    request_check's stream, through utf8guard.Validator."""

    __slots__ = ("_validator",)

    def __init__(self, policy, form):
        self._validator = _utf8guard.Validator(policy=policy, form=form)

    def feed(self, chunk):
        """A Rejection for the first finding, or None while the body is clean."""
        result = self._validator.feed(chunk)
        return None if result.kind is None else Rejection("body", result)

    def finish(self):
        """The body has ended: a Rejection for a sequence it left open, or None."""
        result = self._validator.finish()
        return None if result.kind is None else Rejection("body", result)


class MultipartChecker:
    """A multipart/form-data body checked as it streams, by the rule core:
    each part's header values under the headers rule, the name and filename
    parameters decoded, text fields under the form rule, files under the
    file rule; malformed multipart is a finding."""

    __slots__ = ("_checker",)

    def __init__(self, boundary, header, field, file):
        self._checker = _utf8guard.Multipart(boundary, header, field, file)

    @staticmethod
    def _rejection(found):
        if found is None:
            return None
        part, message = found
        return Rejection("body", Result(kind="multipart", message=f"{part}: {message}"))

    def feed(self, chunk):
        return self._rejection(self._checker.feed(chunk))

    def finish(self):
        return self._rejection(self._checker.finish())


class Rules:
    """A rule per part: None (off) or (policy bits, form): the core's, form
    being how the part is read (None: raw, "percent", or "json": JSON text,
    its escapes meeting the rule as the characters they stand for)."""

    __slots__ = ("path", "query", "headers", "bodies", "head", "empty_clean")

    def __init__(self, func, values, base=None):
        rules = {}
        for part, slot in PART_SLOTS.items():
            value = values.get(part, _UNSET)
            if value is _UNSET:
                rules[part] = (getattr(base, part) if part in ("path", "query", "headers")
                               else base.bodies[_SLOT[slot]]) if base is not None \
                    else _utf8guard.rule_default(_SLOT[slot])
            else:
                if isinstance(value, bool):
                    raise TypeError(f"{func}(): {part}: a policy such as \"field\" (str), an int "
                                    f"from utf8guard.policy_bits(), or None to leave the part "
                                    f"alone; not {value!r}")
                rules[part] = _utf8guard.rule(_SLOT[slot], value, func, part)
        self.path = rules["path"]
        self.query = rules["query"]
        self.headers = rules["headers"]
        self.bodies = [rules.get(_BODY_PARTS.get(i)) if i in _BODY_PARTS else None
                       for i in range(len(_utf8guard.SLOTS))]
        # The path's, the query's and the headers' policy bits (None: off),
        # as the core's one-call check of a request's head takes them.
        self.head = tuple(None if r is None else r[0]
                          for r in (self.path, self.query, self.headers))
        # Per body slot: whether its rule finds nothing in an empty body.
        self.empty_clean = [rule is None or _empty_clean(BodyChecker(*rule))
                            for rule in self.bodies]

    def body_checker(self, slot, boundary=None, has_body=True):
        """A checker for a body the core puts in |slot| (len(SLOTS) for
        multipart/form-data, with its boundary), or None when its rule is
        off, or when the request has no body (not |has_body|) and the rule
        finds nothing in an empty one."""
        if slot < len(self.bodies):
            rule = self.bodies[slot]
            if rule is None or not has_body and self.empty_clean[slot]:
                return None
            return BodyChecker(*rule)
        header = self.headers
        field = self.bodies[_SLOT["form"]]
        file = self.bodies[_SLOT["file"]]
        if header is None and field is None and file is None:
            return None
        return MultipartChecker(boundary, *(None if r is None else r[0]
                                            for r in (header, field, file)))


def _empty_clean(checker):
    return checker.feed(b"") is None and checker.finish() is None


def _shape(found):
    """The Rejection of a core finding about the request's shape."""
    label, message = found
    name = label[len("header "):]
    return Rejection("header", Result(kind=SHAPE_KINDS.get(name, "header_name"), message=message),
                     label)


def _matcher(func, item):
    """A path matcher: a str is a prefix, a compiled regex is searched."""
    if isinstance(item, str):
        return lambda path: path.startswith(item)
    if isinstance(item, re.Pattern):
        return lambda path: item.search(path) is not None
    raise TypeError(f"{func}(): exempt and routes take path prefixes (str) or compiled "
                    f"regular expressions (re.compile), not {type(item).__name__!r}")


def exempt(view):
    """Marks a view (Flask or Django) the middleware leaves alone, as Django's
    csrf_exempt does; returns the view."""
    view.utf8guard_exempt = True
    return view


def is_exempt(view):
    return getattr(view, "utf8guard_exempt", False) is True


class Guard:
    """The checks of one middleware: a rule per part, exemptions and routes,
    and what to do with a finding (answer, or with detect_only log it and let
    the request on). Every setting is checked here, at construction."""

    OPTIONS = ("path", "query", "headers", "form", "json", "text", "other", "none", "file",
               "detect_only",
               "logger", "log_level", "exempt", "routes", "on_reject", "buffer", "text_charset",
               "content_encoding")

    def __init__(self, func="Utf8GuardMiddleware", **options):
        unknown = sorted(set(options) - set(self.OPTIONS))
        if unknown:
            raise TypeError(f"{func}(): unknown keyword {unknown[0]!r} (known: "
                            f"{', '.join(self.OPTIONS)})")
        self.rules = Rules(func, options)
        detect_only = options.get("detect_only", False)
        if not isinstance(detect_only, bool):
            raise TypeError(f"{func}(): detect_only: True or False, not {detect_only!r}")
        self.detect_only = detect_only
        logger = options.get("logger")
        if logger is None:
            logger = LOGGER
        elif not isinstance(logger, (logging.Logger, logging.LoggerAdapter)):
            raise TypeError(f"{func}(): logger: a logging.Logger (logging.getLogger(name)), "
                            f"not {type(logger).__name__!r}")
        self.logger = logger
        level = options.get("log_level", logging.WARNING)
        if isinstance(level, str) and isinstance(logging.getLevelName(level.upper()), int):
            level = logging.getLevelName(level.upper())
        if not isinstance(level, int) or isinstance(level, bool):
            raise TypeError(f"{func}(): log_level: a logging level (logging.WARNING or "
                            f"\"WARNING\"), not {level!r}")
        self.log_level = level
        exempt = options.get("exempt", ())
        if isinstance(exempt, (str, re.Pattern)):
            exempt = (exempt,)
        self.exempt = [_matcher(func, item) for item in exempt]
        routes = options.get("routes") or {}
        if not isinstance(routes, dict):
            raise TypeError(f"{func}(): routes: a dict of path prefix or regex to part settings, "
                            f"not {type(routes).__name__!r}")
        self.routes = []
        for where, parts in routes.items():
            if not isinstance(parts, dict):
                raise TypeError(f"{func}(): routes[{where!r}]: a dict such as {{\"json\": None}}")
            bad = sorted(set(parts) - set(PART_SLOTS))
            if bad:
                raise TypeError(f"{func}(): routes[{where!r}]: unknown part {bad[0]!r} (known: "
                                f"{', '.join(PART_SLOTS)})")
            self.routes.append((_matcher(func, where), Rules(func, parts, self.rules)))
        on_reject = options.get("on_reject")
        if on_reject is not None and not callable(on_reject):
            raise TypeError(f"{func}(): on_reject: a callable taking the Rejection, not "
                            f"{type(on_reject).__name__!r}")
        self.on_reject = on_reject
        buffer = options.get("buffer", BUFFER)
        if not isinstance(buffer, int) or isinstance(buffer, bool) or buffer < 0:
            raise TypeError(f"{func}(): buffer: a number of bytes (int >= 0), not {buffer!r}")
        self.buffer = buffer
        text_charset = options.get("text_charset", "utf-8")
        if text_charset not in ("utf-8", "declared"):
            raise ValueError(f"{func}(): text_charset: \"utf-8\" (text bodies are checked as "
                             f"UTF-8 whatever they declare) or \"declared\" (a declared charset "
                             f"other than UTF-8 takes the other rule), not {text_charset!r}")
        self.text_declared = text_charset == "declared"
        coding = options.get("content_encoding", "refuse")
        if coding not in ("refuse", "pass"):
            raise ValueError(f"{func}(): content_encoding: \"refuse\" (a body in a coding the "
                             f"guard cannot read is refused) or \"pass\", not {coding!r}")
        self.coding_pass = coding == "pass"

    def rules_for(self, path):
        """The Rules of a request to |path| (str, as the application routes
        it), or None when the path is exempt."""
        for match in self.exempt:
            if match(path):
                return None
        for match, rules in self.routes:
            if match(path):
                return rules
        return self.rules

    def check_head(self, rules, raw_path, query, headers, path_is_encoded=True):
        """The first Rejection among the path, the query, the header names and
        values (bytes; headers as (name, value) pairs), or None."""
        return (self.check_target(rules, raw_path, query, path_is_encoded) or
                self.check_headers(rules, headers))

    def check_target(self, rules, raw_path, query, path_is_encoded=True):
        """The first Rejection in the path or the query, or None."""
        rule = rules.path
        if rule is not None:
            result = (_utf8guard.validate_percent(raw_path, policy=rule[0]) if path_is_encoded
                      else _utf8guard.validate(raw_path, policy=rule[0]))
            if not result:
                return Rejection("path", result)
        rule = rules.query
        if rule is not None and query:
            result = _utf8guard.validate_percent(query, policy=rule[0])
            if not result:
                return Rejection("query", result)
        return None

    def headers_clean(self, rules, names, values):
        """Whether headers are clean, from their names joined with ',' and
        their values joined with ' ' (str or bytes): one call for the usual
        request. Joined, clean values stay clean (a space ends nothing and no
        policy denies it); False sends the caller to check_headers, which
        decides."""
        rule = rules.headers
        if rule is None:
            return True
        tokens = _TOKENS if isinstance(names, bytes) else _TOKENS_STR
        return tokens.fullmatch(names) is not None and _utf8guard.is_valid(values, policy=rule[0])

    def check_headers(self, rules, headers):
        """The first Rejection among the header names and values, or None."""
        rule = rules.headers
        if rule is None or not headers:
            return None
        if self.headers_clean(rules, b",".join(n for n, _ in headers),
                              b" ".join(v for _, v in headers)):
            return None
        policy = rule[0]
        for name, value in headers:
            result = _utf8guard.validate(value, policy=policy)
            if not result:
                return Rejection("header", result, _utf8guard.header_label(name))
            found = _utf8guard.header_name(name)
            if found is not None:
                return _shape(found)
        return None

    def body(self, rules, content_types, content_encoding, has_body=True):
        """(a BodyChecker or None, a Rejection or None) for a body with these
        Content-Type values (a tuple of bytes) and Content-Encoding (bytes
        or None), by the core's reading of them; with has_body=False, of a
        request the server frames as having none."""
        slot, found, boundary = _utf8guard.media(content_types, self.text_declared)
        if found is None and content_encoding and not self.coding_pass:
            found = _utf8guard.coding(content_encoding)
        return (rules.body_checker(slot, boundary, has_body),
                None if found is None else _shape(found))

    def found(self, rejection, method, path, client):
        """Logs the finding once, with the request's method, path (escaped)
        and client; True when the request must be refused."""
        rejection.method = method
        rejection.path = escape(path)
        rejection.client = client
        action = "detected" if self.detect_only else "refused"
        self.logger.log(
            self.log_level, "utf8guard: %s %s %s from %s: %s: %s", action, method,
            rejection.path, client or "-", rejection.where, rejection.result.message,
            extra={"utf8guard": {
                "action": action, "method": method, "path": rejection.path, "client": client,
                "part": rejection.part, "header": rejection.header,
                "finding": rejection.result.as_dict()}})
        return not self.detect_only

    def answer(self, rejection):
        """The Answer to a refused request: on_reject's, or the 400 document."""
        if self.on_reject is not None:
            answer = self.on_reject(rejection)
            if answer is not None:
                if not isinstance(answer, Answer):
                    raise TypeError("on_reject must return a utf8guard Answer or None, not "
                                    f"{type(answer).__name__!r}")
                return answer
        return default_answer(rejection)


def status_line(status):
    """"400 Bad Request": a WSGI status line."""
    try:
        return f"{status} {HTTPStatus(status).phrase}"
    except ValueError:
        return f"{status} Refused"
