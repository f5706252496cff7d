"""The distribution as users get it. scripts/test-sdk-python.sh builds it with ``python -m build`` and checks it with
``twine check --strict`` (MERIDIAN_WHEEL and MERIDIAN_SDIST name the results); here the wheel's contents are
checked, then it is installed into a fresh virtualenv on every Python 3.9–3.13 this machine has (``pyenv``'s, then
``python3.X`` on PATH), and in each the root README's Python example runs against the live server and passes
``mypy --strict`` with the configuration sdk-python/README.md gives (pydantic's plugin, ``init_typed``)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Optional

import pytest

REPO = Path(__file__).resolve().parents[2]
VERSIONS = ["3.9", "3.10", "3.11", "3.12", "3.13"]
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.M | re.S)


def built(name: str) -> Path:
    value = os.environ.get(name)
    if not value:
        pytest.skip(f"{name} is not set: run through scripts/test-sdk-python.sh, which builds the distribution")
    return Path(value)


def interpreter(version: str) -> Optional[str]:
    """A Python of ``version``: pyenv's, else ``python3.X`` on PATH."""
    pyenv = shutil.which("pyenv")
    if pyenv:
        root = subprocess.run([pyenv, "root"], capture_output=True, text=True).stdout.strip()
        found = sorted(Path(root, "versions").glob(f"{version}.*/bin/python{version}"))
        if found:
            return str(found[-1])
    return shutil.which(f"python{version}")


def blocks(readme: Path, language: str) -> list[str]:
    return [body for lang, body in FENCE.findall(readme.read_text(encoding="utf-8")) if lang == language]


def test_the_wheel_holds_one_typed_package_and_its_license() -> None:
    names = zipfile.ZipFile(built("MERIDIAN_WHEEL")).namelist()
    tops = sorted({n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")})
    assert tops == ["meridian"]
    for needed in ("meridian/py.typed", "meridian/_generated/py.typed", "meridian/_generated/resources.py",
                   "meridian/_generated/models/project.py"):
        assert needed in names, needed
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(built("MERIDIAN_WHEEL")).read(metadata).decode()
    assert "Requires-Python: >=3.9" in text and "Version: " in text
    assert built("MERIDIAN_SDIST").name.endswith(".tar.gz")


@pytest.mark.parametrize("version", VERSIONS)
def test_the_wheel_installs_runs_and_type_checks(version: str, tmp_path: Path, base_url: str, api_key: str) -> None:
    python = interpreter(version)
    if python is None:
        pytest.skip(f"no Python {version} on this machine")
    wheel = built("MERIDIAN_WHEEL")
    env_dir = tmp_path / "venv"
    subprocess.run([python, "-m", "venv", str(env_dir)], check=True)
    bin_dir = env_dir / "bin"
    # mypy 2 needs Python 3.10; pip picks the newest mypy that supports the interpreter on 3.9.
    mypy = "mypy==2.4.1" if version != "3.9" else "mypy<2"
    install = subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                              str(wheel), mypy], capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stderr

    program = tmp_path / "readme.py"
    program.write_text("\n\n".join(blocks(REPO / "README.md", "python")), encoding="utf-8")
    env = {**os.environ, "MERIDIAN_BASE_URL": base_url, "MERIDIAN_API_KEY": api_key, "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PYTHONPATH", None)
    ran = subprocess.run([str(bin_dir / "python"), str(program)], env=env, cwd=tmp_path, capture_output=True,
                         text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines()[-1] == "16 HIGH", ran.stdout

    config = tmp_path / "pyproject.toml"
    config.write_text(next(b for b in blocks(REPO / "sdk-python" / "README.md", "toml") if "[tool.mypy]" in b))
    checked = subprocess.run([str(bin_dir / "mypy"), "--strict", "--no-incremental", "--config-file", str(config),
                              str(program)], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    print(f"Python {version}: installed {wheel.name}, ran the README example, mypy --strict: {checked.stdout.strip()}")

