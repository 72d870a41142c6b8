"""`pip install ./python` with no package index, as the README says, into a
virtual environment that sees Debian's packages; then the installed package
answers from outside the source tree."""

import os
import subprocess
import venv

from oracle import REPOSITORY


def test_pip_install_without_an_index(tmp_path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, system_site_packages=True, with_pip=False)
    python = env_dir / "bin" / "python"
    env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1",
               UTF8GUARD_PYTHON_BUILD=str(tmp_path / "build"))
    env.pop("PYTHONPATH", None)
    subprocess.run([str(python), "-m", "pip", "install", "--no-index", str(REPOSITORY / "python")],
                   check=True, env=env, cwd=tmp_path, timeout=300, stdout=subprocess.PIPE,
                   stderr=subprocess.STDOUT)
    probe = ("import utf8guard, sys; r = utf8guard.validate(b'/..\\xc0\\xaf../');"
             "print(utf8guard.__file__); print(r.message); print(utf8guard.is_valid(b'ok'))")
    out = subprocess.run([str(python), "-c", probe], check=True, env=env, cwd=tmp_path,
                         timeout=60, stdout=subprocess.PIPE, text=True).stdout.splitlines()
    assert out[0].startswith(str(env_dir)), out
    assert out[1:] == ["overlong at byte 3 (C0 AF 2E 2E) [overlong_form U+002F]", "True"]
