"""The package's version, read from the git commit it is built or run from.

Why: a figure in a paper must say which code made it.  A fixed number in ``pyproject.toml``
said ``0.1.0`` for every commit, so two runs of different code claimed the same version.  The
version is now the release being prepared (:data:`RELEASE`, which ``CITATION.cff`` names) and
where the code stands from it:

* ``0.1.0`` -- the commit tagged ``v0.1.0``, with no local change;
* ``0.1.0.dev462+g0280aa2`` -- commit ``0280aa2``, the 462nd of the history, on the way to
  0.1.0 (PEP 440: a development release sorts before its release);
* ``0.1.0.dev462+g0280aa2.dirty`` -- the same with uncommitted changes to tracked files.

One function computes it for every way the package is met (:func:`compute`):

* **a git checkout** (a clean clone in CI, an editable install, ``src/`` on the path): git is
  asked at run time, so an editable install that was built three commits ago still reports
  the commit it runs;
* **a build** (``pyproject.toml`` reads :data:`__version__` from this file while building a
  wheel or an sdist): the same, from the checkout being built; a wheel built from an sdist
  (no ``.git``) reads the version the sdist recorded in its ``PKG-INFO``;
* **an installed wheel**: the version its metadata recorded when it was built.

This module uses the standard library only: the build loads it on its own, without the
package.  Every process asks git at most once (the answer is cached).
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

__all__ = ["RELEASE", "Revision", "compute", "revision", "version"]

#: The release being prepared; ``CITATION.cff`` names the same (tests/test_citation.py).
RELEASE = "0.1.0"
#: The distribution's name on PyPI and in the installed metadata.
DISTRIBUTION = "shipcaptaincrew"
#: The checkout's top (``src/shipcaptaincrew/version.py`` -> the folder holding ``src``).
_TOP = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Revision:
    """The commit a checkout stands at: its full hash, its place in the history (commits up
    to and including it), and whether tracked files differ from it."""

    commit: str
    count: int
    dirty: bool


def _git(*args: str) -> str | None:
    """One git command in the checkout, its output stripped (None if git fails or is absent)."""
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}
    try:
        done = subprocess.run(
            ["git", "-C", str(_TOP), *args],
            capture_output=True,
            text=True,
            timeout=10,
            env=env,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _is_checkout() -> bool:
    """This file lies in a git checkout of the project (not in an installed package)."""
    pyproject = _TOP / "pyproject.toml"
    if not (_TOP / ".git").exists() or not pyproject.is_file():
        return False
    return re.search(r'(?m)^name = "shipcaptaincrew"$', pyproject.read_text("utf-8")) is not None


@functools.cache
def revision() -> Revision | None:
    """The commit of the checkout this code runs from (None: an installed package, or no git)."""
    if not _is_checkout():
        return None
    commit = _git("rev-parse", "HEAD")
    count = _git("rev-list", "--count", "HEAD")
    status = _git("status", "--porcelain", "--untracked-files=no")
    if commit is None or count is None or status is None:
        return None
    return Revision(commit, int(count), bool(status))


def compute(rev: Revision | None, tags: list[str]) -> str:
    """The version of a checkout at ``rev`` whose commit carries ``tags``.

    >>> compute(Revision("0280aa2c" + "0" * 32, 462, False), [])
    '0.1.0.dev462+g0280aa2'
    >>> compute(Revision("0280aa2c" + "0" * 32, 462, True), [])
    '0.1.0.dev462+g0280aa2.dirty'
    >>> compute(Revision("0280aa2c" + "0" * 32, 462, False), ["v" + RELEASE])
    '0.1.0'
    """
    if rev is None:
        raise ValueError("no revision: not a git checkout")
    if f"v{RELEASE}" in tags and not rev.dirty:
        return RELEASE
    local = f"g{rev.commit[:7]}" + (".dirty" if rev.dirty else "")
    return f"{RELEASE}.dev{rev.count}+{local}"


def _from_pkg_info() -> str | None:
    """The version an sdist recorded (a wheel built from an unpacked sdist has no ``.git``)."""
    info = _TOP / "PKG-INFO"
    if not info.is_file():
        return None
    found = re.search(r"(?m)^Version: (\S+)$", info.read_text("utf-8"))
    return found.group(1) if found else None


@functools.cache
def version() -> str:
    """The package's version (see the module's docstring for its form)."""
    rev = revision()
    if rev is not None:
        tags = (_git("tag", "--points-at", "HEAD") or "").split()
        return compute(rev, tags)
    recorded = _from_pkg_info()
    if recorded is not None:
        return recorded
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        # Neither git, nor an sdist, nor an install: the release, marked as unknown code.
        return f"{RELEASE}+unknown"


#: The version as the build reads it (``[tool.setuptools.dynamic]`` in pyproject.toml).
__version__ = version()
