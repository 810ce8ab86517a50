"""One fact, one place: the shells hold no second copy of what the core states.

The player bound, the language list, the rule options' values, the faces the roles need, the
dice in the cup and the cargo's dice, and the rule deciding whose move it is each live once in
the core (``facts.py``, ``options/``, ``Rules.required_faces``, ``Rules.dice`` and
``Rules.cargo_dice``, ``engine.seat_to_act``); the terminal, the web app and its pages,
the simulator, the solver and the environments import them.  A copy is how the terminal once
explained a bot with a rule the bot did not play, so this test reads the code of every shell
-- its syntax tree, so that comments and docstrings may still name facts and no spacing or
line break hides a copy -- and names each copy it finds with its line.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from shipcaptaincrew.facts import LANGUAGES, MAX_PLAYERS, MIN_PLAYERS, SOLO_PLAYERS
from shipcaptaincrew.options import OPTIONS, OptionType
from shipcaptaincrew.rules import Rules

PKG = Path(__file__).resolve().parents[1] / "src" / "shipcaptaincrew"
#: The core states the facts; every other package is a shell.
SHELLS = ("cli", "web", "sim", "envs", "bots", "solver", "plots", "i18n")
STATIC = PKG / "web" / "static"

#: Option values that no shell spells out (booleans and numbers are too common to police).  Left
#: out: words that are also everyday names elsewhere -- "exact" is also how an advice's numbers
#: were found, "rolloff" also the kind of a moment the pages draw.
VALUES = frozenset(
    {c.value for o in OPTIONS.values() if o.kind is OptionType.CHOICE for c in o.choices}
    - {"none", "points", "pot", "round", "next", "previous", "replay", "left", "right", "match"}
    - {"exact", "rolloff"}
)
#: The faces the roles need in the sheets' order (a roll that starts with them spells it out).
ROLE_FACES = Rules().required_faces
#: The smallest table a bound may start at (solo practice, or two) and the largest.
LOW_BOUNDS = frozenset({SOLO_PLAYERS, MIN_PLAYERS})
#: The counts of the cup a shell might write: its dice (``dice``'s bounds, the sheets' five
#: among them) and its cargo's dice (those less the three roles).
_DICE = range(OPTIONS["dice"].bounds[0], OPTIONS["dice"].bounds[1] + 1)
CUP = frozenset({*_DICE, *(d - len(Rules().required_faces) for d in _DICE)})


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are docstrings (where facts may be named)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _int(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _strings(nodes: list[ast.expr | None]) -> set[str]:
    return {n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _acting_seat(node: ast.AST) -> bool:
    """``<contest>.seats[len(<contest>.scores)]``: the seat whose turn it is, worked out."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute)):
        return False
    if node.value.attr != "seats":
        return False
    return any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Name)
        and n.func.id == "len"
        and any(isinstance(a, ast.Attribute) and a.attr == "scores" for a in n.args)
        for n in ast.walk(node.slice)
    )


def _player_bound(node: ast.AST) -> bool:
    """``2 <= players <= 8`` (or from 1), and ``range(2, 9)``: the table's bounds, written."""
    if isinstance(node, ast.Compare) and len(node.ops) == 2:
        low, high = _int(node.left), _int(node.comparators[-1])
        return low in LOW_BOUNDS and high in (MAX_PLAYERS, MAX_PLAYERS + 1)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range":
        bounds = [_int(a) for a in node.args[:2]]
        return len(bounds) == 2 and bounds[0] in LOW_BOUNDS and bounds[1] == MAX_PLAYERS + 1
    return False


def _languages(node: ast.AST) -> bool:
    """A collection naming two or more of the catalogue languages."""
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return len(_strings(list(node.elts)) & set(LANGUAGES)) >= 2
    if isinstance(node, ast.Dict):
        return len(_strings(list(node.keys)) & set(LANGUAGES)) >= 2
    return False


def _role_faces(node: ast.AST) -> bool:
    """A tuple or list of faces that starts with the faces the roles need (6, 5, 4)."""
    if not isinstance(node, ast.Tuple | ast.List) or len(node.elts) < len(ROLE_FACES):
        return False
    return tuple(_int(e) for e in node.elts[: len(ROLE_FACES)]) == ROLE_FACES


def _held_count(node: ast.AST) -> bool:
    """``len(<x>.held)`` or ``len(<x>.cargo)``: how many dice a turn has set aside."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "len"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Attribute)
        and node.args[0].attr in ("held", "cargo")
    )


def _cup(node: ast.AST) -> bool:
    """The dice in the cup or the cargo's dice written as a number beside a count of the dice
    set aside (``5 - len(t.held)``, ``len(t.cargo) == 2``)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
        return _int(node.left) in CUP and _held_count(node.right)
    if isinstance(node, ast.Compare) and len(node.comparators) == 1:
        pair = (node.left, node.comparators[0])
        return any(_held_count(a) and _int(b) in CUP for a, b in (pair, pair[::-1]))
    return False


def _cargo_by_position(node: ast.AST) -> bool:
    """``<x>.cargo[0]``: one cargo die by its place, as if the cargo always had two."""
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "cargo"
        and _int(node.slice) is not None
    )


CHECKS = {
    "the acting seat (engine.seat_to_act)": _acting_seat,
    "the player bound (facts.MIN_PLAYERS..MAX_PLAYERS)": _player_bound,
    "the language list (facts.LANGUAGES)": _languages,
    "the faces the roles need (Rules.required_faces)": _role_faces,
    "the dice in the cup (Rules.dice, Rules.cargo_dice)": _cup,
    "the cargo's dice by place (Rules.cargo_dice)": _cargo_by_position,
}


def copies(source: str) -> Iterator[tuple[str, int]]:
    """(what is copied, line) for every copy of a core fact in the Python ``source``."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    for node in ast.walk(tree):
        for what, check in CHECKS.items():
            if check(node):
                yield what, getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and id(node) not in docs and node.value in VALUES:
            yield f"an option's value ({node.value!r}, options/)", node.lineno


#: The same facts as they would be spelled in the pages' JavaScript and HTML.
PAGE_PATTERNS = {
    "the language list": re.compile(r"""["']en["']\s*,\s*["']de["']\s*,\s*["']nb["']"""),
    "an option's values": re.compile("|".join(rf"""["']{re.escape(v)}["']""" for v in VALUES)),
    # The picture says the cup's dice (match.dice) and the cargo's (match.cargo_dice).
    "the dice in the cup": re.compile(
        r"\bDICE\s*=\s*\d|\b[4-6]\s*-\s*[\w.]*held\.length|held\.length\s*[<>=!]=*\s*[4-6]\b"
    ),
    "the cargo's dice": re.compile(
        r"cargo\[[0-2]\]|\[0,\s*1(?:,\s*2)?\]\.map|cargo\.length\s*[<>=!]=*\s*[1-3]\b"
    ),
}


def _files() -> list[Path]:
    py = [p for s in SHELLS for p in (PKG / s).rglob("*.py") if "migrations" not in p.parts]
    web = [p for p in STATIC.rglob("*") if p.suffix in (".js", ".html")]
    return sorted(py + web)


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(PKG)))
def test_no_shell_keeps_a_copy_of_a_core_fact(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        found = sorted(set(copies(text)), key=lambda c: c[1])
    else:
        found = [(what, 0) for what, p in PAGE_PATTERNS.items() if p.search(text)]
    assert not found, f"{path.relative_to(PKG)} repeats a core fact: {found}"


#: Copies as a shell once held them, or could: each must be found, at its line.
PLANTED = {
    "the acting seat (engine.seat_to_act)": (
        "def turn_of(s):\n    seat = s.contest.seats[len(s.contest.scores)]\n    return seat\n"
    ),
    "the player bound (facts.MIN_PLAYERS..MAX_PLAYERS)": (
        "def check(n):\n    if not 2 <= n <= 8:\n        raise ValueError(n)\n"
    ),
    "the language list (facts.LANGUAGES)": (
        "def pick(lang):\n    return lang if lang in (\n        'de', 'en', 'nb',\n    ) else 'en'\n"
    ),
    "the faces the roles need (Rules.required_faces)": (
        "def crew(advise, rules):\n    return advise(rules, 0, (6, 5, 4, 3, 3), 1)\n"
    ),
    "an option's value ('captain_hands_out', options/)": (
        "def sips(rules):\n    return rules.drinking.value == 'captain_hands_out'\n"
    ),
    "the dice in the cup (Rules.dice, Rules.cargo_dice)": (
        "def free(turn):\n    return 5 - len(turn.held)\n"
    ),
    "the cargo's dice by place (Rules.cargo_dice)": ("def story(nt):\n    return nt.cargo[1]\n"),
}


@pytest.mark.parametrize("what", sorted(PLANTED))
def test_a_planted_copy_is_found_at_its_line(what: str) -> None:
    source = PLANTED[what]
    assert [w for w, _ in copies(source)] == [what]
    line = next(i for i, text in enumerate(source.splitlines(), 1) if i > 1 and text.strip())
    assert [n for _, n in copies(source)] == [line]


def test_docstrings_and_comments_may_name_the_facts() -> None:
    source = (
        '"""Whose turn: contest.seats[len(contest.scores)], 2 <= n <= 8, (6, 5, 4)."""\n'
        "# drinking = 'captain_hands_out', languages ('en', 'de', 'nb')\n"
        "def f():\n    '''Also here: \"all_but_winner\".'''\n    return 1\n"
    )
    assert list(copies(source)) == []
