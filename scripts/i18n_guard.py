"""The two checks ``scripts/i18n.sh`` runs around a catalogue update, so that none loses a word.

``glued``: a message id must be one literal the extractor can read.  A translate call whose id
is built at run time -- a conditional between two literals inside ``tr()``, a sum of strings,
an f-string -- is invisible to ``pybabel extract``, so its translations are dropped at the next
update and the sentence falls back to English in German and Norwegian.  Each such call is
named with its file and line.  A choice between whole messages is written with each branch
marked (``tr(N_("a") if x else N_("b"))``) or as two calls; a count takes a plural pair.  The
pages' scripts are held to the same: ``t()`` takes a literal id, or a variable holding one.

``dropped OLD NEW``: the translated messages of the catalogues in ``OLD`` (a copy taken before
the update) that the catalogues in ``NEW`` no longer hold, named with their language and
domain.  A message changed or removed on purpose is dropped with ``scripts/i18n.sh --drop``.

    python scripts/i18n_guard.py glued
    python scripts/i18n_guard.py dropped OLD_LOCALES NEW_LOCALES
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "src" / "shipcaptaincrew"
#: The translate calls of the Python code (the keywords ``scripts/i18n.sh`` extracts).
KEYWORDS = frozenset({"_", "N_", "NP_", "tr", "gettext", "ngettext"})


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _marked(node: ast.expr) -> set[int]:
    """The ids of the string literals that are themselves a marked message (``N_("...")``)."""
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and _name(n.func) in KEYWORDS:
            out |= {id(a) for a in n.args if isinstance(a, ast.Constant)}
        if isinstance(n, ast.Subscript):
            # a key that picks a marked message from a table (``NAMES[row["kind"]]``) is no
            # part of the message id
            out |= {id(k) for k in ast.walk(n.slice) if isinstance(k, ast.Constant)}
    return out


def glued_python(source: str) -> Iterator[tuple[int, str]]:
    """(line, call) for each translate call whose message id is built at run time.

    >>> list(glued_python('tr("Roll {n} dice")\\ntr(N_("a") if x else N_("b"))\\ntr(words[r["k"]])'))
    []
    >>> [line for line, _ in glued_python('tr("a" if x else "b")\\n_("a " + w)\\n_(f"x {y}")')]
    [1, 2, 3]
    """
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and _name(node.func) in KEYWORDS and node.args):
            continue
        for arg in node.args[:2] if _name(node.func) in ("NP_", "ngettext") else node.args[:1]:
            if isinstance(arg, ast.Constant):
                continue
            marked = _marked(arg)
            parts = [
                n
                for n in ast.walk(arg)
                if (
                    isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in marked
                )
                or isinstance(n, ast.JoinedStr)
            ]
            if parts:
                yield node.lineno, ast.unparse(node)[:100]


#: ``t(`` of the pages' scripts (not ``x.t(`` nor ``at(``).
_JS_CALL = re.compile(r"(?<![\w.$])t\(")
_JS_LITERAL = re.compile(r"""^(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')$""")
_JS_NAME = re.compile(r"[\w.$\[\]]+")


def _first_argument(source: str, start: int) -> str:
    """The text of a call's first argument from ``start``: up to its comma or closing bracket
    at the top level, reading over strings and nested brackets."""
    depth, i, quote = 0, start, ""
    while i < len(source):
        c = source[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'`":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            break
        i += 1
    return source[start:i].strip()


def glued_js(source: str) -> Iterator[tuple[int, str]]:
    """(line, call) for each ``t()`` of a page script whose id is not one literal (or a
    variable): a conditional, a sum or a template between the quotes.

    >>> list(glued_js('t("Roll (now), {n}", {n});\\nt(label, {n});\\nt(\\'Stand\\')'))
    []
    >>> [line for line, _ in glued_js('t(n === 1 ? "a die" : "dice")\\nt("Roll " + n)\\nt(`x`)')]
    [1, 2, 3]
    """
    for m in _JS_CALL.finditer(source):
        arg = _first_argument(source, m.end())
        if not arg or _JS_LITERAL.match(arg) or _JS_NAME.fullmatch(arg):
            continue
        if any(q in arg for q in "\"'`"):
            yield source.count("\n", 0, m.start()) + 1, f"t({arg[:90]}"


def glued() -> list[str]:
    """Every glued message id in the package and the pages' scripts, as ``file:line: call``."""
    out = []
    for path in sorted(PKG.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for line, call in glued_python(path.read_text(encoding="utf-8")):
            out.append(f"{path.relative_to(ROOT)}:{line}: {call}")
    for path in sorted((PKG / "web" / "static").rglob("*.js")):
        for line, call in glued_js(path.read_text(encoding="utf-8")):
            out.append(f"{path.relative_to(ROOT)}:{line}: {call}")
    return out


def _translated(locales: Path) -> dict[tuple[str, str], set[str]]:
    """(language, domain) -> the message ids with a translation."""
    from babel.messages.pofile import read_po

    out: dict[tuple[str, str], set[str]] = {}
    for po in sorted(locales.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as f:
            catalog = read_po(f)
        ids = set()
        for m in catalog:
            strings = m.string if isinstance(m.string, (list, tuple)) else [m.string]
            if m.id and any(strings):
                ids.add(m.id if isinstance(m.id, str) else m.id[0])
        out[(po.parts[-3], po.stem)] = ids
    return out


def dropped(old: Path, new: Path) -> list[str]:
    """The translations the catalogues in ``old`` have and those in ``new`` lost."""
    before, after = _translated(old), _translated(new)
    out = []
    for (lang, domain), ids in sorted(before.items()):
        for msgid in sorted(ids - after.get((lang, domain), set())):
            out.append(f"{lang}/{domain}.po: {msgid!r}")
    return out


def main(argv: list[str]) -> int:
    if argv[:1] == ["glued"]:
        found = glued()
        for line in found:
            print(f"glued message id (the extractor cannot see it): {line}", file=sys.stderr)
        if found:
            print(
                "write one literal per message (a plural pair for a count, each branch of a "
                "choice marked with N_)",
                file=sys.stderr,
            )
        return 1 if found else 0
    if argv[:1] == ["dropped"] and len(argv) == 3:
        lost = dropped(Path(argv[1]), Path(argv[2]))
        for line in lost:
            print(f"the update would drop the translation of {line}", file=sys.stderr)
        return 1 if lost else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
