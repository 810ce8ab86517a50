"""The layering (one pure engine, thin shells around it), checked by parsing every import.

The pure core imports only the standard library and itself; nothing imports the command line,
the web app or the learning environments; each consumer imports only the layers below it.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "src" / "shipcaptaincrew"
CORE = {
    "facts",
    "messages",
    "errors",
    "formats",
    "options",
    "rules",
    "presets",
    "dice",
    "actions",
    "state",
    "turn",
    "match",
    "rotation",
    "between",
    "positions",
    "engine",
    "game",
    "fair",
    "notation",
    "narrate",
    "version",
}
#: layer -> the project layers it may import (besides itself).
ALLOWED = {
    "core": {"core"},
    # Where an output comes from (provenance.py): every layer that writes a file or a figure
    # writes the same record; it reads the version from the core and Parquet through pyarrow.
    "provenance": {"core", "provenance"},
    "i18n": {"core", "i18n"},
    "solver": {"core", "solver", "provenance"},
    "bots": {"core", "solver", "bots"},
    "sim": {"core", "solver", "bots", "sim", "provenance", "plots"},
    "plots": {"core", "solver", "plots", "provenance"},
    # The batched match environment plays between the agent's decisions on the simulator's
    # step tables (the engine's steps, resolved once); the simulator imports no environment.
    "envs": {"core", "solver", "bots", "sim", "envs", "i18n", "provenance"},
    "web": {"core", "solver", "bots", "i18n", "web"},
    "cli": {"core", "solver", "bots", "i18n", "sim", "envs", "web", "plots", "cli", "provenance"},
}


def layer_of(module: str) -> str:
    """The layer of a module path relative to the package (``solver.turn_dag`` -> ``solver``)."""
    top = module.split(".")[0]
    if top in ALLOWED:
        return top
    if top == "__main__":  # ``python -m shipcaptaincrew`` is the command line
        return "cli"
    # Core modules, and names imported from the package's __init__ (``from .. import __version__``).
    return "core"


def project_imports(path: Path) -> list[tuple[str, int]]:
    """Project modules imported by a file (resolved to package-relative names), with line numbers."""
    rel = path.relative_to(PKG).with_suffix("")
    parts = list(rel.parts)
    package = parts[:-1]  # the package a relative import starts from (same for __init__)
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                mod = ".".join([*base, *(node.module.split(".") if node.module else [])])
                if not node.module:
                    for alias in node.names:
                        out.append((".".join([*base, alias.name]), node.lineno))
                    continue
                out.append((mod, node.lineno))
            elif node.module and node.module.startswith("shipcaptaincrew"):
                out.append((node.module.removeprefix("shipcaptaincrew").lstrip("."), node.lineno))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("shipcaptaincrew"):
                    out.append(
                        (alias.name.removeprefix("shipcaptaincrew").lstrip("."), node.lineno)
                    )
    return out


FILES = sorted(p for p in PKG.rglob("*.py") if "alembic" not in p.parts or p.name != "env.py")


def test_every_module_belongs_to_a_named_layer() -> None:
    """A new top-level module is placed in the plan on purpose, not by default as core."""
    tops = {p.relative_to(PKG).parts[0].removesuffix(".py") for p in FILES}
    unplaced = tops - CORE - set(ALLOWED) - {"__init__", "__main__"}
    assert not unplaced, f"put these in CORE or in ALLOWED: {sorted(unplaced)}"


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(PKG)) for p in FILES])
def test_layering(path: Path) -> None:
    rel = ".".join(path.relative_to(PKG).with_suffix("").parts)
    mine = layer_of(rel)
    for target, line in project_imports(path):
        theirs = layer_of(target)
        assert theirs in ALLOWED.get(mine, {mine}), (
            f"{rel}:{line} ({mine}) imports {target} ({theirs}), which the house plan forbids"
        )


@pytest.mark.parametrize(
    "path",
    [p for p in FILES if layer_of(".".join(p.relative_to(PKG).with_suffix("").parts)) == "core"],
    ids=str,
)
def test_core_uses_only_the_standard_library(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [node.module]
        for name in names:
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names or top == "shipcaptaincrew", (
                f"{path.name}:{node.lineno} imports {name}, but the core is standard library only"
            )
