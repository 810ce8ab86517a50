"""One script for a page: its entry module and every module it imports, in one file.

A phone on a pub's network pays a round trip for every wave of files it discovers: the page's
module, then the modules it imports, then theirs.  The pages stay plain ES modules under
``static/js/`` (a contributor edits them and restarts the server: there is no build step);
the server joins each page's module graph into one file when it starts (see
:mod:`shipcaptaincrew.web.pages.release`).

Each module keeps its own scope: its text goes, line for line, into an ``async`` function that
the bundle calls once, when the first module that imports it runs, and that returns the
module's exports.  So two modules may use the same top-level names, a module runs once, its
imports run before it (in the order it names them), top-level ``await`` works, and a dynamic
``import("./md.js")`` still loads its module only when it is asked for.

The bundler reads the forms of ``import`` and ``export`` the pages use and refuses every other
one with a :class:`BundleError` that names the file and the line, rather than guessing:

* ``import { a, b as c } from "./x.js";``, ``import * as x from "./x.js";``,
  ``import "./x.js";`` and ``import("./x.js")``, each naming a module of the same folder;
* ``export function``, ``export async function``, ``export const`` and ``export class``.

It refuses ``export let`` and ``export var`` (an importer of the bundle would not see the value
change), default exports, re-exports, ``import.meta``, and a cycle of static imports.  Each
output line of a module is the same line of its source, so a line-by-line source map
(:func:`source_map`) lets the browser's debugger show the file a contributor edited.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

#: The one global name the bundle adds (its module table); a module may not use it.
RUNTIME = "__scc"

_SPEC = r"""(?P<q>["'])\./(?P<name>[\w.-]+\.js)(?P=q)"""
_STATIC_IMPORT = re.compile(
    r"^import\s+(?:(?P<what>\{[^}]*\}|\*\s+as\s+[A-Za-z_$][\w$]*)\s+from\s+)?" + _SPEC + r"\s*;?",
    re.M,
)
_ANY_IMPORT = re.compile(r"^import\b", re.M)
_DYNAMIC_IMPORT = re.compile(r"\bimport\(\s*" + _SPEC + r"\s*\)")
_ANY_DYNAMIC = re.compile(r"\bimport\s*\(|\bimport\.meta\b")
_EXPORT = re.compile(
    r"^export\s+(?P<kind>(?:async\s+)?function\s*\*?|const|class)\s+(?P<name>[A-Za-z_$][\w$]*)",
    re.M,
)
_ANY_EXPORT = re.compile(r"^export\b", re.M)
_NAME = re.compile(r"^[A-Za-z_$][\w$]*$")


class BundleError(ValueError):
    """A module the bundler cannot join safely: the message names the file, the line and why."""


@dataclass(frozen=True)
class Module:
    """A module as the bundle holds it: its imports and exports, and its body, line for line."""

    name: str
    imports: tuple[tuple[str, tuple[str, ...]], ...]  # (module, names it takes), in order
    lazy: tuple[str, ...]  # modules it imports dynamically
    exports: tuple[str, ...]
    prelude: str  # the statements that bind its imports (the wrapper's first line)
    body: str  # the source with import lines blanked and ``export`` dropped


@dataclass(frozen=True)
class Bundle:
    """One page's script: its text, and for each of its lines the module line it came from."""

    entry: str
    text: str
    lines: tuple[tuple[str, int] | None, ...]  # (module, 0-based line) or None: the runtime's

    @property
    def modules(self) -> tuple[str, ...]:
        """The modules in the bundle, each once, in the order they appear."""
        return tuple(dict.fromkeys(src for src, _ in filter(None, self.lines)))


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1


def _bindings(what: str | None, text: str, at: int) -> tuple[tuple[str, ...], str]:
    """The names one import statement takes, and the left side that binds them."""
    if what is None:
        return (), ""
    if what.startswith("*"):
        return (), f"const {what.split()[-1]} = "
    names, pairs = [], []
    for part in filter(None, (p.strip() for p in what.strip("{} \n").split(","))):
        words = part.split()
        if len(words) == 3 and words[1] == "as" and all(_NAME.match(w) for w in words[::2]):
            names.append(words[0])
            pairs.append(f"{words[0]}: {words[2]}")
        elif len(words) == 1 and _NAME.match(words[0]):
            names.append(words[0])
            pairs.append(words[0])
        else:
            raise BundleError(f"line {_line(text, at)}: cannot read the import {part!r}")
    return tuple(names), f"const {{ {', '.join(pairs)} }} = "


def parse(name: str, text: str) -> Module:
    """Read one module (see the module docstring for what it may contain)."""
    try:
        return _parse(name, text)
    except BundleError as e:
        raise BundleError(f"{name}: {e}") from None


def _parse(name: str, text: str) -> Module:
    if re.search(rf"\b{RUNTIME}\b", text):
        raise BundleError(f"uses {RUNTIME}, the bundle's own name")
    imports: list[tuple[str, tuple[str, ...]]] = []
    prelude: list[str] = []
    body = text
    for m in reversed(list(_STATIC_IMPORT.finditer(text))):
        names, bind = _bindings(m["what"], text, m.start())
        imports.insert(0, (m["name"], names))
        prelude.insert(0, f'{bind}await {RUNTIME}.load("{m["name"]}");')
        body = body[: m.start()] + "\n" * m[0].count("\n") + body[m.end() :]
    for m in _ANY_IMPORT.finditer(body):
        raise BundleError(f"line {_line(body, m.start())}: an import the bundler cannot read")
    lazy = [m["name"] for m in _DYNAMIC_IMPORT.finditer(body)]
    body = _DYNAMIC_IMPORT.sub(lambda m: f'{RUNTIME}.load("{m["name"]}")', body)
    for m in _ANY_DYNAMIC.finditer(body):
        raise BundleError(
            f'line {_line(body, m.start())}: only import("./name.js") with a literal name'
        )
    exports = [m["name"] for m in _EXPORT.finditer(body)]
    body = _EXPORT.sub(lambda m: m[0].removeprefix("export").lstrip(), body)
    for m in _ANY_EXPORT.finditer(body):
        raise BundleError(
            f"line {_line(body, m.start())}: write `export function`, `export const` or "
            "`export class` (an `export let` would not follow its changes in the bundle)"
        )
    if len(set(exports)) != len(exports):
        raise BundleError("exports a name twice")
    return Module(name, tuple(imports), tuple(lazy), tuple(exports), " ".join(prelude), body)


def _graph(entry: str, sources: Mapping[str, str]) -> list[Module]:
    """Every module ``entry`` reaches, each after the modules it imports statically; refuses
    a missing module, a name a module does not export, and a cycle of static imports."""
    parsed: dict[str, Module] = {}
    done: list[Module] = []

    def visit(name: str, path: tuple[str, ...], by: str) -> None:
        if name in path:
            cycle = " -> ".join([*path[path.index(name) :], name])
            raise BundleError(f"a cycle of imports: {cycle} (a bundle cannot run it in order)")
        if name in parsed:
            return
        if name not in sources:
            raise BundleError(f"{by} imports ./{name}, which does not exist")
        module = parsed[name] = parse(name, sources[name])
        for dep, names in module.imports:
            visit(dep, (*path, name), name)
            missing = sorted(set(names) - set(parsed[dep].exports))
            if missing:
                raise BundleError(
                    f"{name} imports {', '.join(missing)} from ./{dep}, which does not export it"
                )
        done.append(module)
        for dep in module.lazy:
            visit(dep, (), name)  # loaded later, when asked: a graph of its own

    visit(entry, (), "the page")
    return done


def bundle(entry: str, sources: Mapping[str, str]) -> Bundle:
    """The bundle of ``entry`` (a module name, e.g. ``"room.js"``) from the modules' texts."""
    out: list[str] = [
        f"// {entry} and the modules it imports, joined by shipcaptaincrew.web.pages.bundle "
        "(edit the modules under static/js/, not this file).",
        f"const {RUNTIME} = (() => {{ const defs = new Map(), made = new Map(); return {{ "
        "def(name, make) { defs.set(name, make); }, "
        "load(name) { if (!made.has(name)) made.set(name, defs.get(name)()); "
        "return made.get(name); } }; })();",
    ]
    lines: list[tuple[str, int] | None] = [None, None]
    for m in _graph(entry, sources):
        body = m.body.split("\n")
        body[0] = f'{RUNTIME}.def("{m.name}", async () => {{ {m.prelude} {body[0]}'
        out += body
        lines += [(m.name, i) for i in range(len(body))]
        out.append(f"return {{ {', '.join(m.exports)} }}; }});")
        lines.append(None)
    out.append(f'await {RUNTIME}.load("{entry}");')
    lines.append(None)
    return Bundle(entry, "\n".join(out) + "\n", tuple(lines))


_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _vlq(value: int) -> str:
    v = (-value << 1) | 1 if value < 0 else value << 1
    out = ""
    while True:
        digit, v = v & 31, v >> 5
        out += _B64[digit | (32 if v else 0)]
        if not v:
            return out


def source_map(b: Bundle, file: str, source_url: str) -> str:
    """A source map (version 3) that sends each line of the bundle to its module's line;
    ``source_url`` turns a module name into the URL the debugger loads it from."""
    sources = list(b.modules)
    segments: list[str] = []
    prev_src = prev_line = 0
    for at in b.lines:
        if at is None:
            segments.append("")
            continue
        src, line = sources.index(at[0]), at[1]
        segments.append(_vlq(0) + _vlq(src - prev_src) + _vlq(line - prev_line) + _vlq(0))
        prev_src, prev_line = src, line
    return json.dumps(
        {
            "version": 3,
            "file": file,
            "sources": [source_url.format(name=s) for s in sources],
            "names": [],
            "mappings": ";".join(segments),
        }
    )
