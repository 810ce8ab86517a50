"""One fact, one place: the shells hold no second copy of what the core states.

The player bound, the language list, the rule options' values and the rule deciding whose
move it is each live once in the core (``facts.py``, ``options/``, ``engine.seat_to_act``);
the terminal, the web app and its pages, the simulator and the environments import them.  A
copy is how the terminal once explained a bot with a rule the bot did not play, so this test
looks for copies in the code of every shell (comments and docstrings may still name facts).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

from shipcaptaincrew.options import OPTIONS, OptionType

PKG = Path(__file__).resolve().parents[1] / "src" / "shipcaptaincrew"
#: The core states the facts; every other package is a shell.
SHELLS = ("cli", "web", "sim", "envs", "bots", "solver", "plots", "i18n")
STATIC = PKG / "web" / "static"

#: Option values that no shell spells out (booleans and numbers are too common to police).  Left
#: out: words that are also everyday names elsewhere -- "exact" is also how an advice's numbers
#: were found, "rolloff" also the kind of a moment the pages draw.
VALUES = sorted(
    {c.value for o in OPTIONS.values() if o.kind is OptionType.CHOICE for c in o.choices}
    - {"none", "points", "pot", "round", "next", "previous", "replay", "left", "right", "match"}
    - {"exact", "rolloff"}
)
PATTERNS = {
    "the player bound": re.compile(
        r"(?<![\w.])[12]\s*<=\s*[\w.()\[\]]+\s*<=\s*8\b|range\(2,\s*9\)"
    ),
    "the language list": re.compile(r"""["']en["']\s*,\s*["']de["']\s*,\s*["']nb["']"""),
    "the acting seat": re.compile(r"contest\.seats\[len\(\s*\w+\.contest\.scores\s*\)\]"),
    "an option's values": re.compile("|".join(rf"""["']{re.escape(v)}["']""" for v in VALUES)),
}


def _python_code(path: Path) -> str:
    """The file's code without comments and docstrings (where facts may be named)."""
    text = path.read_text(encoding="utf-8")
    docstrings = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(body[0].lineno)
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            continue
        if tok.type == tokenize.STRING and tok.start[0] in docstrings:
            continue
        out.append(tok.string)
    return " ".join(out)


def _files() -> list[Path]:
    py = [p for s in SHELLS for p in (PKG / s).rglob("*.py") if "migrations" not in p.parts]
    web = [p for p in STATIC.rglob("*") if p.suffix in (".js", ".html")]
    return sorted(py + web)


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(PKG)))
def test_no_shell_keeps_a_copy_of_a_core_fact(path: Path) -> None:
    code = _python_code(path) if path.suffix == ".py" else path.read_text(encoding="utf-8")
    found = {what: p.findall(code) for what, p in PATTERNS.items()}
    copies = {what: hits for what, hits in found.items() if hits}
    assert not copies, f"{path.relative_to(PKG)} repeats a core fact: {copies}"
