"""The environment running the tests is exactly uv.lock: same packages, same versions.

``scripts/setup.sh`` builds ``.venv`` from the lock (every extra and the dev group, which is
what the test suite needs); in CI that is a fresh environment of a fresh clone.  Reading the
lock here, independently of uv, and comparing it with what is installed (what ``pip freeze``
lists) catches a lock that does not install what it says, a package installed beside it, and
a ``pyproject.toml`` whose extras drifted from the lock.
"""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path
from typing import Any

from packaging.markers import Marker

ROOT = Path(__file__).resolve().parents[1]
PROJECT = "shipcaptaincrew"
#: Installed by ``python -m venv`` (pip, and setuptools on older Pythons) or by setup.sh to
#: install the rest (uv, at the version pyproject.toml requires: checked below).
BOOTSTRAP = {"pip", "setuptools", "uv"}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _applies(dep: dict[str, Any]) -> bool:
    return "marker" not in dep or Marker(dep["marker"]).evaluate()


def locked_for_this_interpreter(lock: dict[str, Any]) -> dict[str, str]:
    """{name: version} of every package the lock installs here with every extra and group."""
    by_name: dict[str, list[dict[str, Any]]] = {}
    for pkg in lock["package"]:
        by_name.setdefault(pkg["name"], []).append(pkg)

    def entry(dep: dict[str, Any]) -> dict[str, Any]:
        candidates = by_name[dep["name"]]
        if "version" in dep:  # a name locked at two versions (split by markers) says which
            candidates = [p for p in candidates if p["version"] == dep["version"]]
        assert len(candidates) == 1, f"cannot tell which {dep['name']} the lock means: {dep}"
        return candidates[0]

    project = by_name[PROJECT][0]
    todo = list(project.get("dependencies", []))
    for deps in project.get("optional-dependencies", {}).values():
        todo += deps
    for deps in project.get("dev-dependencies", {}).values():
        todo += deps
    chosen: dict[str, str] = {}
    seen: set[tuple[str, str, str]] = set()
    while todo:
        dep = todo.pop()
        if not _applies(dep):
            continue
        pkg = entry(dep)
        for extra in ["", *dep.get("extra", [])]:
            if (pkg["name"], pkg["version"], extra) in seen:
                continue
            seen.add((pkg["name"], pkg["version"], extra))
            optional = pkg.get("optional-dependencies", {})
            todo += optional.get(extra, []) if extra else pkg.get("dependencies", [])
        assert chosen.setdefault(pkg["name"], pkg["version"]) == pkg["version"], pkg["name"]
    return chosen


def installed() -> dict[str, str]:
    """{name: version} of the distributions this interpreter sees (``pip freeze``'s list)."""
    found: dict[str, str] = {}
    for dist in metadata.distributions():
        name = _norm(dist.metadata["Name"])
        assert found.setdefault(name, dist.version) == dist.version, f"{name} installed twice"
    return found


def test_the_environment_is_exactly_the_lock() -> None:
    lock = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))
    want = locked_for_this_interpreter(lock)
    have = installed()
    assert have.pop(PROJECT) == next(p["version"] for p in lock["package"] if p["name"] == PROJECT)
    extra = {n: v for n, v in have.items() if n not in want and n not in BOOTSTRAP}
    missing = {n: v for n, v in want.items() if n not in have}
    wrong = {n: (have[n], v) for n, v in want.items() if n in have and have[n] != v}
    assert not missing, f"locked but not installed (run scripts/setup.sh): {missing}"
    assert not wrong, f"installed version differs from the lock (installed, locked): {wrong}"
    assert not extra, f"installed but not in the lock: {extra}"
    assert len(want) > 50  # every extra and the dev tools, not a partial walk


def test_uv_is_the_version_the_project_requires() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    required = pyproject["tool"]["uv"]["required-version"].removeprefix("==")
    assert installed().get("uv") == required, "setup.sh installs uv at [tool.uv] required-version"
