"""A command whose optional library is missing says so in one line, with what to install.

The package installs with a small base (Typer, Rich, NumPy); the web app, the plots, the
simulator's tables and the learning environments each come with an *extra* of
``pyproject.toml`` (``web``, ``plot``, ``sim``, ``rl``).  When a command reaches for a library
of an extra that is not installed, :class:`~.app.SccGroup` catches the import error and
:func:`missing_extra_text` names the library, its extra and the exact command that installs
it: ``bash scripts/setup.sh EXTRA`` in a clone of the repository (the locked versions, as
``scripts/run.sh`` installs the web extra), ``pip install 'shipcaptaincrew[EXTRA]'`` for an
installed package.  Which extra holds which library is read from the package's own metadata
(its ``Requires-Dist`` lines), so it cannot drift from ``pyproject.toml``.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
from functools import lru_cache
from pathlib import Path

from ..i18n import _

__all__ = ["extra_of", "install_command", "missing_extra_text"]

#: Modules whose distribution is named otherwise (or comes with another one's extra).
_MODULE_DISTRIBUTIONS = {"pyspiel": "open-spiel", "distributed": "dask", "yaml": "pyyaml"}
_REQUIREMENT = re.compile(
    r"^\s*([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?[^;]*;\s*extra\s*==\s*['\"](\w+)['\"]"
)


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@lru_cache(maxsize=1)
def _extras() -> dict[str, str]:
    """Distribution -> the smallest extra that installs it (from the package's metadata)."""
    members: dict[str, list[str]] = {}
    base: set[str] = set()
    try:
        requires = importlib.metadata.requires("shipcaptaincrew") or []
    except importlib.metadata.PackageNotFoundError:
        requires = []
    for line in requires:
        m = _REQUIREMENT.match(line)
        if m is None:
            base.add(_normal(re.split(r"[\s\[<>=!~;]", line.strip(), maxsplit=1)[0]))
        elif m.group(2) != "all":
            members.setdefault(m.group(2), []).append(_normal(m.group(1)))
    chosen: dict[str, str] = dict.fromkeys(base, "")
    for extra in sorted(members, key=lambda e: (len(members[e]), e)):
        for dist in members[extra]:
            chosen.setdefault(dist, extra)
    return {dist: extra for dist, extra in chosen.items() if extra}


def extra_of(module: str) -> str | None:
    """The extra that installs ``module`` (a top-level import name), or None.

    >>> extra_of("pyarrow"), extra_of("matplotlib"), extra_of("pyspiel"), extra_of("numpy")
    ('sim', 'plot', 'rl', None)
    """
    top = module.split(".")[0]
    return _extras().get(_normal(_MODULE_DISTRIBUTIONS.get(top, top)))


def _clone_root() -> Path | None:
    """The repository this package runs from, when it is a clone with the set-up script."""
    root = Path(__file__).resolve().parents[3]
    if (root / "scripts" / "setup.sh").is_file() and (root / "pyproject.toml").is_file():
        return root
    return None


def install_command(extra: str) -> str:
    """The command that installs ``extra`` here: the set-up script of a clone, else pip.

    The script's path is written relative to the current directory where it is inside it.
    """
    root = _clone_root()
    if root is None:
        return f"pip install 'shipcaptaincrew[{extra}]'"
    script = root / "scripts" / "setup.sh"
    try:
        shown = os.path.relpath(script)
    except ValueError:  # another drive (Windows)
        shown = str(script)
    if shown.startswith(".."):
        shown = str(script)
    return f"bash {shown} {extra}"


def missing_extra_text(error: ImportError, command: str) -> str | None:
    """The one line for a missing optional library, or None for any other import error."""
    module = error.name or ""
    extra = extra_of(module) if module else None
    if extra is None:
        return None
    return _(
        "{command} needs {module}, from the {extra} extra, which is not installed: {install}"
    ).format(
        command=command, module=module.split(".")[0], extra=extra, install=install_command(extra)
    )
