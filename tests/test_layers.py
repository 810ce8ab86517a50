"""The layering (one pure engine, thin shells around it), checked by parsing every import.

The pure core imports only the standard library and itself; nothing imports the command line,
the web app or the learning environments; each consumer imports only the layers below it.
No module imports another that imports it back, however long the loop; and inside web/ and
cli/ the folders are layers too, as docs/architecture.md draws them.
"""

from __future__ import annotations

import ast
import re
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
    "payouts",
    "rotation",
    "between",
    "positions",
    "engine",
    "game",
    "fair",
    "notation",
    "narrate",
    "narrate_round",
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
    "web": {"core", "solver", "bots", "i18n", "web", "provenance"},
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


# -- no import circle ----------------------------------------------------------------------------
#
# Every import counts: at the top of a module, inside a function (an import put there only to
# dodge a circle is still a circle), and under ``TYPE_CHECKING`` (the module names a type of
# the other, so the two still depend on each other; mypy reads both).  What does not count is
# the package a module sits in: importing ``web.table.room`` runs ``web/table/__init__.py``,
# but that is Python's doing, not the module's, and those openings import nothing.


def _module(path: Path) -> str:
    parts = list(path.relative_to(PKG).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(p): p for p in FILES}


def imports_of(path: Path) -> list[tuple[str, int]]:
    """The package's modules a file imports, anywhere in it, with line numbers: ``from pkg
    import name`` is the module ``pkg.name`` when there is one, else the package ``pkg``."""
    package = list(path.relative_to(PKG).parts[:-1])
    out: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            elif node.module and node.module.split(".")[0] == "shipcaptaincrew":
                target = node.module.removeprefix("shipcaptaincrew").lstrip(".")
            else:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}" if target else alias.name
                out.append((sub if sub in MODULES else target, node.lineno))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "shipcaptaincrew":
                    out.append(
                        (alias.name.removeprefix("shipcaptaincrew").lstrip("."), node.lineno)
                    )
    return [(m, line) for m, line in out if m in MODULES]


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of the package it imports."""
    return {m: {t for t, _ in imports_of(p) if t != m} for m, p in MODULES.items() if m != ""}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected group of modules (Tarjan's algorithm, without recursion) as
    one circle through it: ``[a, b, c, a]``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, kids = work[-1]
            w = next(kids, None)
            if w is not None:
                if w not in graph:
                    continue
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    group.append(w)
                    if w == v:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return [_circle_through(graph, set(g), g[0]) for g in groups]


def _circle_through(graph: dict[str, set[str]], group: set[str], start: str) -> list[str]:
    """A shortest path from ``start`` back to itself inside its group (breadth first)."""
    came: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v] & group):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(came[path[-1]])
                    return [*reversed(path), start]
                if w not in came:
                    came[w] = v
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"{start} is in no circle")


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert circles(graph) == [["a", "b", "c", "a"]]


def test_no_import_circle_anywhere_in_the_package() -> None:
    """When two modules need each other, the part both need goes to a third module below
    both (docs/architecture.md); a circle names its modules in import order."""
    found = circles(import_graph())
    assert not found, "import circles:\n" + "\n".join(" -> ".join(c) for c in found)


# -- the folders of web/ and cli/ ----------------------------------------------------------------
#
# Inside each shell the folders are layers too, top first; a module may import its own layer
# and the layers below it, never one above.  The web package's routes sit in the folder of the
# feature they serve (``rooms/routes.py``) but form a layer of their own, above the match
# service they call.  docs/architecture.md draws the same layers (checked below).

#: The web package's layers, top first: each a set of places (a folder, a module at the root,
#: or "routes": every ``routes.py`` and ``*_routes.py``).
WEB_LAYERS: list[set[str]] = [
    {"app", "__init__", "supervisor"},
    {"routes"},
    {"service", "deps"},
    {"rooms", "play", "history", "setup", "crews"},
    {"table"},
    {"display"},
    {"words"},
    {"storage", "connections", "pages", "settings", "heap", "clock"},
]
#: The command line's layers, top first.  The commands register on the app, which loads every
#: module of ``commands/`` when it starts: one layer.
CLI_LAYERS: list[set[str]] = [
    {"commands", "app", "__init__"},
    {"terminal"},
    {"common", "extras", "helptext", "parser_errors", "strategy_match"},
]
SHELL_LAYERS = {"web": WEB_LAYERS, "cli": CLI_LAYERS}


def place(module: str) -> tuple[str, str] | None:
    """The shell and the place in it of a module (``web.rooms.routes`` -> web, routes), or
    None outside web/ and cli/."""
    parts = module.split(".")
    if parts[0] not in SHELL_LAYERS:
        return None
    if len(parts) == 1:
        return parts[0], "__init__"
    if parts[-1] == "routes" or parts[-1].endswith("_routes"):
        return parts[0], "routes"
    return parts[0], parts[1]


def rank(module: str) -> tuple[str, int] | None:
    """The shell of a module and its layer's height in it (0: the bottom)."""
    where = place(module)
    if where is None:
        return None
    shell, spot = where
    layers = SHELL_LAYERS[shell]
    for i, layer in enumerate(layers):
        if spot in layer:
            return shell, len(layers) - 1 - i
    raise AssertionError(f"{module}: {spot!r} is in no layer of {shell}/ (tests/test_layers.py)")


SHELL_FILES = [p for p in FILES if place(_module(p)) is not None]


def _spot(module: str) -> str:
    return (place(module) or ("", ""))[1]


def test_every_folder_of_the_shells_is_in_a_layer() -> None:
    """A new folder or root module of web/ or cli/ is placed in the layers on purpose."""
    for path in SHELL_FILES:
        rank(_module(path))


@pytest.mark.parametrize("path", SHELL_FILES, ids=[str(p.relative_to(PKG)) for p in SHELL_FILES])
def test_no_import_upward_inside_web_and_cli(path: Path) -> None:
    mine = _module(path)
    shell, height = rank(mine) or ("", 0)
    for target, line in imports_of(path):
        theirs = rank(target)
        if theirs is None or theirs[0] != shell:
            continue
        assert theirs[1] <= height, (
            f"{path.relative_to(PKG)}:{line} ({_spot(mine)}) imports {target} "
            f"({_spot(target)}), a layer above it: move what both need below both"
        )


def test_each_folder_opens_with_what_it_holds() -> None:
    """Each folder of web/ and cli/ says in its ``__init__.py`` what lives there and who may
    import it (Alembic's migrations aside)."""
    for init in sorted((PKG / "web").rglob("__init__.py")) + sorted(
        (PKG / "cli").rglob("__init__.py")
    ):
        if "migrations" in init.parts:
            continue
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc) > 80, (
            f"{init.relative_to(PKG)}: say what lives here and who may import it"
        )


def picture(shell: str) -> list[set[str]]:
    """The layers of a shell as docs/architecture.md draws them, top first: the lines after
    ``web/`` in the block under ``<!-- layers: web -->``, each a layer naming its places as
    words that end in ``/`` or ``.py`` (``rooms/`` is rooms, ``app.py`` app, ``*/routes.py``
    the routes); the rest of a line is what the layer holds, in words."""
    doc = (PKG.parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = doc.split(f"<!-- layers: {shell} -->", 1)[1].split("```", 2)[1]
    layers = []
    lines = block.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith(f"{shell}/"))
    for line in lines[head + 1 :]:
        spots = set()
        for word in line.split():
            if re.fullmatch(r"[\w*./]+(/|\.py)", word):
                name = word.rstrip("/").removesuffix(".py").split("/")[-1]
                spots.add("routes" if name == "routes" or name.endswith("_routes") else name)
        if spots:
            layers.append(spots)
    return layers


@pytest.mark.parametrize("shell", sorted(SHELL_LAYERS))
def test_the_architecture_picture_is_the_layers_the_test_keeps(shell: str) -> None:
    assert picture(shell) == SHELL_LAYERS[shell]
