"""The lock files (requirements/*.txt) against what is installed and against pyproject.toml.

``scripts/setup.sh`` builds ``.venv`` from ``requirements/all.txt`` (every extra and the dev
group, which is what the test suite needs).  A virtual environment made here from nothing
and filled from the lock the way setup.sh fills it must ``pip freeze`` to exactly the lock:
that catches a lock that does not install what it says (a pin missing for this platform, a
dependency left out).  Comparing the lock with what the running interpreter has installed
catches a package installed beside it; comparing it with ``pyproject.toml`` catches a
dependency changed there without ``scripts/lock.sh``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.version import Version

from shipcaptaincrew.version import RELEASE
from tests.need import missing

ROOT = Path(__file__).resolve().parents[1]
LOCKS = ROOT / "requirements"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = "shipcaptaincrew"
#: Installed by ``python -m venv`` (pip, and setuptools on older Pythons) or by setup.sh to
#: install the rest (uv, at the version pyproject.toml requires: checked below).
BOOTSTRAP = {"pip", "setuptools", "uv"}
EXTRAS = [e for e in PYPROJECT["project"]["optional-dependencies"] if e != "all"]


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(path: Path) -> list[tuple[str, str, Marker | None]]:
    """(name, version, marker) of every pin in a lock file (``name==version ; marker``)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^ ;\\]+)(?: ; ([^\\]+?))?\s*\\?$", line)
        if m:
            marker = Marker(m[3]) if m[3] else None
            out.append((_norm(m[1]), m[2], marker))
    assert out, f"no pins in {path}"
    return out


def here(path: Path) -> dict[str, str]:
    """{name: version} a lock file installs on this interpreter and platform."""
    chosen: dict[str, str] = {}
    for name, version, marker in pins(path):
        if marker is None or marker.evaluate():
            assert chosen.setdefault(name, version) == version, f"{name} pinned twice in {path}"
    return chosen


def installed() -> dict[str, str]:
    """{name: version} of the distributions this interpreter sees (``pip freeze``'s list)."""
    found: dict[str, str] = {}
    for dist in metadata.distributions():
        name = _norm(dist.metadata["Name"])
        assert found.setdefault(name, dist.version) == dist.version, f"{name} installed twice"
    return found


def test_the_environment_is_exactly_the_lock() -> None:
    want = here(LOCKS / "all.txt")
    have = installed()
    # The project itself, installed editable: a build of the release being prepared (its
    # version names the commit it was installed from: tests/test_version.py).
    assert Version(have.pop(PROJECT)).base_version == RELEASE
    extra = {n: v for n, v in have.items() if n not in want and n not in BOOTSTRAP}
    missing = {n: v for n, v in want.items() if n not in have}
    wrong = {n: (have[n], v) for n, v in want.items() if n in have and have[n] != v}
    assert not missing, f"locked but not installed (run scripts/setup.sh): {missing}"
    assert not wrong, f"installed version differs from the lock (installed, locked): {wrong}"
    assert not extra, f"installed but not in the lock: {extra}"


def test_a_fresh_venv_from_the_lock_freezes_to_exactly_the_lock(tmp_path: Path) -> None:
    """``python -m venv``, then the lock installed as setup.sh installs it (``uv pip sync``,
    every file checked against its hash): ``pip freeze`` lists exactly the locked versions,
    nothing else but the venv's own pip and setuptools, and ``pip check`` finds every
    dependency satisfied."""
    uv = Path(sys.executable).parent / "uv"
    if not uv.exists():
        missing(f"uv is not installed beside {sys.executable} (bash scripts/setup.sh)")
    venv = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    python = str(venv / "bin" / "python")
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never"}
    env.pop("VIRTUAL_ENV", None)
    sync = [str(uv), "pip", "sync", "--quiet", "--python", python, str(LOCKS / "all.txt")]
    done = subprocess.run(sync, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    freeze = subprocess.run(
        [python, "-m", "pip", "freeze", "--all", "--disable-pip-version-check"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    frozen: dict[str, str] = {}
    for line in freeze:
        name, sep, version = line.partition("==")
        assert sep, f"pip freeze lists something not installed from an index: {line}"
        frozen[_norm(name)] = version
    want = here(LOCKS / "all.txt")
    venv_own = {n: v for n, v in frozen.items() if n in BOOTSTRAP and n not in want}
    assert {n: v for n, v in frozen.items() if n not in venv_own} == want
    assert set(venv_own) <= {"pip", "setuptools"}, venv_own
    # sync installs what the lock lists and nothing more: every dependency of every locked
    # package must therefore be locked too, at a version it accepts.
    check = [python, "-m", "pip", "check", "--disable-pip-version-check"]
    checked = subprocess.run(check, env=env, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_uv_is_the_version_the_project_requires() -> None:
    required = PYPROJECT["tool"]["uv"]["required-version"].removeprefix("==")
    assert installed().get("uv") == required, "setup.sh installs uv at [tool.uv] required-version"


def _declared(extra: str | None) -> list[Requirement]:
    """The requirements pyproject.toml declares for one extra (None: every extra and dev)."""
    project = PYPROJECT["project"]
    reqs = list(project["dependencies"])
    for name, deps in project["optional-dependencies"].items():
        if extra is None or name == extra:
            reqs += [d for d in deps if not d.startswith(PROJECT)]
    if extra is None:
        reqs += PYPROJECT["dependency-groups"]["dev"]
    return [Requirement(r) for r in reqs]


@pytest.mark.parametrize("extra", [None, *EXTRAS], ids=["all", *EXTRAS])
def test_each_lock_file_pins_what_pyproject_declares(extra: str | None) -> None:
    """Every declared requirement is pinned, at a version its bounds allow, and each extra's
    file agrees with all.txt: so pyproject.toml cannot change without scripts/lock.sh."""
    path = LOCKS / f"{extra or 'all'}.txt"
    locked: dict[str, set[str]] = {}
    for name, version, _ in pins(path):
        locked.setdefault(name, set()).add(version)
    for req in _declared(extra):
        name = _norm(req.name)
        assert name in locked, f"{path.name}: {req} is not locked (run scripts/lock.sh)"
        bad = {v for v in locked[name] if not req.specifier.contains(v, prereleases=True)}
        assert not bad, f"{path.name}: {name} {bad} outside {req} (run scripts/lock.sh)"
    everything = {(n, v) for n, v, _ in pins(LOCKS / "all.txt")}
    assert {(n, v) for n, v, _ in pins(path)} <= everything, f"{path.name} differs from all.txt"


def test_the_build_is_locked_too() -> None:
    """The editable install builds with these, not with the newest setuptools of the day."""
    locked = {n: v for n, v, _ in pins(LOCKS / "build.txt")}
    for req in map(Requirement, PYPROJECT["build-system"]["requires"]):
        assert req.specifier.contains(locked[_norm(req.name)]), req
