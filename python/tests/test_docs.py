"""docs/python.md as a user reads it: every python block runs as written, the
400 document it shows is the one the middleware sends, the README's
`import utf8guard` reaches the middleware modules, and the stubs type-check a
small program under Debian's `mypy --strict`."""

import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
DOC = (REPOSITORY / "docs" / "python.md").read_text()
BLOCKS = re.findall(r"^```python\n(.*?)^```", DOC, flags=re.S | re.M)


def test_there_are_blocks():
    assert len(BLOCKS) >= 7


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_block_runs(index):
    exec(compile(BLOCKS[index], f"docs/python.md block {index + 1}", "exec"), {"__name__": "doc"})


def test_the_problem_document_shown_is_the_one_sent():
    shown = json.loads(re.search(r"^```json\n(.*?)^```", DOC, flags=re.S | re.M).group(1))
    from utf8guard.wsgi import Utf8GuardWSGIMiddleware
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": "/files/..\xc0\xaf..",
               "RAW_URI": "/files/..%C0%AF..", "QUERY_STRING": ""}
    body = b"".join(Utf8GuardWSGIMiddleware(None)(environ, lambda s, h, e=None: None))
    assert json.loads(body) == shown


def test_import_utf8guard_reaches_the_middleware():
    code = ("import utf8guard; print(utf8guard.asgi.Utf8GuardMiddleware.__name__, "
            "utf8guard.wsgi.Utf8GuardWSGIMiddleware.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["Utf8GuardMiddleware", "Utf8GuardWSGIMiddleware"]


PROGRAM = '''
import array
import logging
import mmap
import re
from typing import Any, Awaitable, Callable, MutableMapping

import utf8guard
from utf8guard.asgi import Utf8GuardMiddleware
from utf8guard.wsgi import Utf8GuardWSGIMiddleware


def checked(data: bytes, name: str, buf: "array.array[int]", mapped: mmap.mmap) -> bool:
    r: utf8guard.Result = utf8guard.validate(data, policy="url, -newline")
    s: str = utf8guard.sanitize(name, policy="field", remove=True)
    b: bytes = utf8guard.sanitize(data)
    v = utf8guard.Validator(profile="field")
    return bool(r) and v.feed(buf).ok and utf8guard.is_valid(mapped) and s != b.decode()


def on_reject(rejection: utf8guard.Rejection) -> utf8guard.Answer:
    return utf8guard.Answer(400, [("Content-Type", "text/plain")], rejection.where.encode())


Message = MutableMapping[str, Any]


async def app(scope: Message, receive: Callable[[], Awaitable[Message]],
              send: Callable[[Message], Awaitable[None]]) -> None: ...


guarded = Utf8GuardMiddleware(app, exempt=[re.compile("^/hooks/"), "/static/"],
                              on_reject=on_reject, logger=logging.getLogger("x"))
wrapped = Utf8GuardWSGIMiddleware(lambda environ, start: [b"ok"], detect_only=True)
'''


def test_stubs_under_mypy_strict(tmp_path):
    mypy = shutil.which("mypy")
    if mypy is None:
        pytest.skip("mypy is not installed (Debian: mypy)")
    import utf8guard
    program = tmp_path / "user.py"
    program.write_text(PROGRAM)
    package_root = Path(utf8guard.__file__).resolve().parents[1]
    out = subprocess.run([mypy, "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "c"),
                          str(program)], capture_output=True, text=True,
                         env={"MYPYPATH": str(package_root), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stdout + out.stderr
