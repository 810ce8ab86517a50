"""The bundler (``web/pages/bundle.py``): a page's modules joined into one script that runs as the
modules did (run by Node here: what the script prints is what the modules did), the forms
it cannot join refused by file and line, and a source map that leads back to each line."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from shipcaptaincrew.web.pages import bundle as B
from shipcaptaincrew.web.pages.bundle import BundleError, bundle, source_map
from shipcaptaincrew.web.pages.release import facts_module, read_sources
from shipcaptaincrew.web.pages.routes import PAGES, STATIC
from tests.need import missing

#: A small app: two modules with the same top-level names, one imported twice, one imported
#: only when asked (and never before), and top-level await in the entry.
APP = {
    "main.js": (
        'import { twice as double, again as log } from "./b.js";\n'
        'import * as c from "./c.js";\n'
        'log("main starts");\n'
        "const secret = 'main';\n"
        "await Promise.resolve();\n"
        "log(`double ${double(21)} ${c.name()} ${secret}`);\n"
        'const { late } = await import("./late.js");\n'
        "log(late());\n"
    ),
    "b.js": (
        'import { name, log } from "./c.js";\n'
        "const secret = 'b';\n"
        "log(`b runs, c is ${name()}`);\n"
        "export function twice(n) { return n * 2; }\n"
        "export const again = log;\n"
    ),
    "c.js": (
        "const secret = 'c';\n"
        "export const lines = [];\n"
        "export function log(line) { lines.push(line); console.log(line); }\n"
        "export function name() { return secret; }\n"
        'log("c runs");\n'
    ),
    "late.js": (
        'import { log } from "./c.js";\nlog("late runs");\nexport const late = () => "late";\n'
    ),
}


def node() -> str:
    path = shutil.which("node")
    if path is None:
        missing("node is not installed (scripts/system-deps.sh)")
    return path


def run(text: str, tmp_path: Path) -> list[str]:
    script = tmp_path / "bundle.mjs"
    script.write_text(text, encoding="utf-8")
    out = subprocess.run([node(), str(script)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


def test_the_bundle_runs_as_the_modules_do(tmp_path: Path) -> None:
    printed = run(bundle("main.js", APP).text, tmp_path)
    # Each module once, after what it imports; its own "secret"; the late one only when asked.
    assert printed == [
        "c runs",
        "b runs, c is c",
        "main starts",
        "double 42 c main",
        "late runs",
        "late",
    ]


def test_every_page_bundles_and_parses(tmp_path: Path) -> None:
    """Each page's script, as the release sends it (comment lines emptied), is valid
    JavaScript (Node parses it as a module)."""
    sources = read_sources(STATIC)
    for spec in PAGES:
        html = (STATIC / spec.file).read_text(encoding="utf-8")
        entry = html.split('<script type="module" src="/static/js/')[1].split('"')[0]
        script = tmp_path / f"{spec.name}.mjs"
        script.write_text(bundle(entry, sources).text, encoding="utf-8")
        out = subprocess.run([node(), "--check", str(script)], capture_output=True, text=True)
        assert out.returncode == 0, f"{spec.name}: {out.stderr}"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"c.js": "export let count = 0;\n"}, ["c.js", "line 1", "export let"]),
        ({"c.js": "const x = 1;\nexport default x;\n"}, ["c.js", "line 2", "export function"]),
        (
            {"c.js": 'import { twice } from "./b.js";\nexport const name = () => twice;\n'},
            ["cycle", "b.js -> c.js -> b.js"],
        ),
        ({"b.js": 'import { nobody } from "./c.js";\n'}, ["b.js imports nobody from ./c.js"]),
        ({"b.js": 'import { log } from "../c.js";\n'}, ["b.js", "line 1", "import"]),
        (
            {"b.js": 'import { log } from "./gone.js";\n'},
            ["b.js imports ./gone.js", "does not exist"],
        ),
        ({"b.js": "const at = import.meta.url;\n"}, ["b.js", "line 1", "import("]),
        ({"b.js": "const m = import(name);\n"}, ["b.js", "line 1", "literal"]),
        ({"b.js": "const __scc = 1;\n"}, ["b.js", "__scc"]),
    ],
)
def test_what_the_bundler_cannot_join_is_refused(change: dict[str, str], words: list[str]) -> None:
    app = {**APP, **change}
    with pytest.raises(BundleError) as caught:
        bundle("main.js", app)
    for word in words:
        assert word in str(caught.value)


def _decode(mappings: str) -> list[tuple[int, int] | None]:
    """Each generated line's (source index, source line) from a version 3 source map."""
    digits = {c: i for i, c in enumerate(B._B64)}
    out: list[tuple[int, int] | None] = []
    src = line = 0
    for group in mappings.split(";"):
        if not group:
            out.append(None)
            continue
        values, value, shift = [], 0, 0
        for ch in group:
            d = digits[ch]
            value += (d & 31) << shift
            shift += 5
            if not d & 32:
                values.append(-(value >> 1) if value & 1 else value >> 1)
                value = shift = 0
        src += values[1]
        line += values[2]
        out.append((src, line))
    return out


def test_the_source_map_leads_back_to_each_line() -> None:
    """In the debugger a line of the bundle shows the very line of the module it came from."""
    sources = {p.name: p.read_text(encoding="utf-8") for p in (STATIC / "js").glob("*.js")}
    sources["facts.js"] = facts_module()
    b = bundle("room.js", sources)
    smap = json.loads(source_map(b, "room.x.js", "/static/js/{name}"))
    names = [s.removeprefix("/static/js/") for s in smap["sources"]]
    out = b.text.split("\n")
    mapped = _decode(smap["mappings"])
    assert len(mapped) == len(b.lines)
    checked = 0
    for at, line in zip(mapped, out):
        if at is None:
            continue
        module, n = names[at[0]], at[1]
        original = sources[module].split("\n")[n]
        if original.startswith(("import ", "export ")) or "import(" in original or n == 0:
            continue  # the lines the bundler rewrites
        assert line == original, (module, n)
        checked += 1
    assert checked > 1000
