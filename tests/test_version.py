"""The package's version names the git commit it is run or built from (shipcaptaincrew.version).

Three ways a researcher meets the package, each checked for real: this checkout as it runs
(an editable install, or a clean clone in CI), the command line, and a wheel built from the
checkout the way ``uv build`` builds one (an sdist first, then the wheel from the unpacked
sdist, which has no ``.git``), installed into a fresh virtual environment.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import shipcaptaincrew
from shipcaptaincrew.version import RELEASE, compute, revision
from tests.need import missing

ROOT = Path(__file__).resolve().parents[1]


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=True
    ).stdout.strip()


def _expected() -> str:
    """The version this checkout should report, asked of git here, not through the package."""
    commit = _git("rev-parse", "HEAD")
    count = _git("rev-list", "--count", "HEAD")
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    tags = _git("tag", "--points-at", "HEAD").split()
    if f"v{RELEASE}" in tags and not dirty:
        return RELEASE
    return f"{RELEASE}.dev{count}+g{commit[:7]}" + (".dirty" if dirty else "")


def test_a_checkout_reports_the_commit_it_runs() -> None:
    rev = revision()
    assert rev is not None and rev.commit == _git("rev-parse", "HEAD")
    assert shipcaptaincrew.__version__ == _expected()


def test_scc_version_prints_it() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "shipcaptaincrew", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split()[-1] == _expected()


def test_the_forms_of_a_version() -> None:
    rev = revision()
    assert rev is not None
    assert compute(rev, [f"v{RELEASE}"]) == (RELEASE if not rev.dirty else compute(rev, []))
    other = type(rev)("abcdef0" + "1" * 33, 7, False)
    assert compute(other, []) == f"{RELEASE}.dev7+gabcdef0"
    assert compute(other, ["v0.0.9"]) == f"{RELEASE}.dev7+gabcdef0"  # another release's tag


@pytest.mark.slow
def test_a_wheel_built_here_records_the_commit(tmp_path: Path) -> None:
    uv = Path(sys.executable).parent / "uv"
    if not uv.exists():
        missing(f"uv is not installed beside {sys.executable} (bash scripts/setup.sh)")
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never"}
    env.pop("VIRTUAL_ENV", None)
    build = [str(uv), "build", "--quiet", "-o", str(tmp_path / "dist")]
    build += ["--build-constraints", str(ROOT / "requirements" / "build.txt"), str(ROOT)]
    done = subprocess.run(build, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    want = _expected()
    wheels = sorted((tmp_path / "dist").glob("*.whl"))
    sdists = sorted((tmp_path / "dist").glob("*.tar.gz"))
    assert [w.name.split("-")[1] for w in wheels] == [want]
    assert [s.name.removesuffix(".tar.gz").split("-")[1] for s in sdists] == [want]
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    python = venv / "bin" / "python"
    install = [str(uv), "pip", "install", "--quiet", "--no-deps", "--python", str(python)]
    done = subprocess.run([*install, str(wheels[0])], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    # Run from elsewhere, so that the installed copy (no .git beside it) answers.
    ask = [str(python), "-c", "import shipcaptaincrew; print(shipcaptaincrew.__version__)"]
    shown = subprocess.run(ask, cwd=tmp_path, capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == want
