"""A PEP 517 build backend with no build requirements, for the utf8guard package.

It configures the repository with CMake (the library alone, with the Python
package on), builds the extension module, and writes the wheel with the
standard library. pip therefore needs no package index:

    python3 -m pip install ./python

Environment:
  UTF8GUARD_PYTHON_BUILD     a folder to build in, kept for the next build
                             (default: a temporary folder)
  CMAKE_BUILD_PARALLEL_LEVEL jobs for the build (default 2)
"""

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

NAME = "utf8guard"
SUMMARY = "Strict, fast UTF-8 validation, policies and U+FFFD sanitizing, with ASGI and WSGI middleware"
REPOSITORY = Path(__file__).resolve().parents[2]
PACKAGE_FILES = (".py", ".pyi", ".so", "py.typed")
CMAKE_OPTIONS = [
    "-DCMAKE_BUILD_TYPE=Release",
    "-DUTF8GUARD_BUILD_CLI=OFF", "-DUTF8GUARD_BUILD_TESTS=OFF", "-DUTF8GUARD_BUILD_FUZZ=OFF",
    "-DUTF8GUARD_BUILD_BENCH=OFF", "-DUTF8GUARD_BUILD_EXAMPLES=OFF", "-DUTF8GUARD_INSTALL=OFF",
    "-DUTF8GUARD_BUILD_FUZZ_LIB=OFF", "-DUTF8GUARD_BUILD_PYTHON=ON",
]


def _version():
    """The version, set once in the top-level CMakeLists.txt."""
    text = (REPOSITORY / "CMakeLists.txt").read_text()
    return re.search(r"project\(utf8guard VERSION (\d+\.\d+\.\d+)", text).group(1)


def _tag():
    impl = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = re.sub(r"[-.]", "_", sysconfig.get_platform())
    return f"{impl}-{impl}-{platform}"


def _metadata():
    readme = (REPOSITORY / "python" / "README.md")
    body = readme.read_text() if readme.exists() else ""
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\nSummary: {SUMMARY}\n"
            f"Requires-Python: >=3.9\nDescription-Content-Type: text/markdown\n\n{body}")


def _dist_info():
    return f"{NAME}-{_version()}.dist-info"


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    target = Path(metadata_directory) / _dist_info()
    target.mkdir(parents=True, exist_ok=True)
    (target / "METADATA").write_text(_metadata())
    return target.name


def _build(build_dir):
    """Configure and build the module in build_dir; returns the package folder."""
    configure = ["cmake", "-S", str(REPOSITORY), "-B", str(build_dir), *CMAKE_OPTIONS,
                 f"-DPython3_EXECUTABLE={sys.executable}"]
    if shutil.which("ninja") and not (Path(build_dir) / "CMakeCache.txt").exists():
        configure += ["-G", "Ninja"]
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
    for command in (configure,
                    ["cmake", "--build", str(build_dir), "--target", "utf8guard_python", "-j", jobs]):
        # The build's output goes to stderr: pip shows it with -v or on failure.
        subprocess.run(command, check=True, stdout=sys.stderr)
    return Path(build_dir) / "python" / NAME




def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    with tempfile.TemporaryDirectory(prefix="utf8guard-build-") as temp:
        package = _build(os.environ.get("UTF8GUARD_PYTHON_BUILD") or temp)
        files = sorted(p for p in package.iterdir()
                       if p.is_file() and p.name.endswith(PACKAGE_FILES))
        if not any(p.suffix == ".so" for p in files):
            raise RuntimeError(f"no extension module in {package}")
        wheel_name = f"{NAME}-{_version()}-{_tag()}.whl"
        dist_info = _dist_info()
        entries = [(f"{NAME}/{p.name}", p.read_bytes()) for p in files]
        entries.append((f"{dist_info}/METADATA", _metadata().encode()))
        entries.append((f"{dist_info}/WHEEL", (
            f"Wheel-Version: 1.0\nGenerator: utf8guard_build\nRoot-Is-Purelib: false\n"
            f"Tag: {_tag()}\n").encode()))
        record = [_record_line(name, data) for name, data in entries]
        record.append(f"{dist_info}/RECORD,,")
        entries.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode()))
        with zipfile.ZipFile(Path(wheel_directory) / wheel_name, "w",
                             compression=zipfile.ZIP_DEFLATED) as wheel:
            for name, data in entries:
                wheel.writestr(name, data)
    return wheel_name
