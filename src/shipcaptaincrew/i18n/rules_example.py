"""The rules text's worked example, played by the engine in the rule set's cup.

The sheets' example (000 and 003: a ship and a captain in the first roll, the crew in the
second, the other dice of it the cargo) is rebuilt for every rule set -- the cup's dice, bow
to stern's mirrored faces, a wild face kept clear of -- and then played through
:func:`~shipcaptaincrew.engine.apply`, so the example can never say a turn the engine would
not play.  Apart from :mod:`.rules_text` because it is the one part of the text that plays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..actions import Roll
from ..engine import apply, initial_turn
from ..facts import FACES
from ..messages import NP_, Message, Plural
from ..rules import Rules

__all__ = ["counted", "worked_example"]


def counted(
    ids: Plural, count: int, tr: Callable[[str], str], params: dict[str, Any] | None = None
) -> str:
    """A plural pair counted by ``count`` (its ``{n}``), with the other ``params``."""
    return Message.of(ids, **{**(params or {}), "n": count}).render(tr)


def worked_example(rules: Rules, tr: Callable[[str], str]) -> str:
    """The worked example of 000/003 (or its bow-to-stern mirror) in the rule set's cup, played
    by the engine: the first roll holds the ship and the captain and no crew, the second
    completes the crew, the other dice of it are the cargo; then what the rolls left allow."""
    ship, captain, crew = rules.required_faces
    # The sheets' example (6 5 3 3 1, then 4 2 6) as far as the cup's dice go; the faces that
    # fill it hold no role, so what is set aside is the same in a cup of four or six.
    filler, cargo = ((5, 5, 6, 4), (4, 6, 5)) if rules.bow_to_stern else ((3, 3, 1, 2), (2, 6, 1))
    # A wild face (wild captain) would fill a role too; the example's dice stay clear of it.
    wild = {rules.wild_face} if rules.wild_captain else set()
    first = (ship, captain, *avoiding(filler[: rules.dice - 2], {crew} | wild))
    second = (crew, *avoiding(cargo[: rules.cargo_dice], wild))
    turn = initial_turn(rules)
    for faces in (first, second):
        turn = apply(turn, Roll(faces))
    # The engine plays it: the roles held, the cargo the dice beside the crew (said as rolled).
    assert turn.held == rules.required_faces and turn.rolls_used == EXAMPLE_ROLLS
    assert turn.score == sum(second[1:])
    params = {
        "first": " ".join(map(str, first)),
        "second": " ".join(map(str, second)),
        "ship": ship,
        "captain": captain,
        "crew": crew,
        "sum": " + ".join(map(str, second[1:])),
        "score": turn.score,
    }
    if rules.cargo_dice == 1:
        ids = NP_(
            "Example: you roll {first} and keep the {ship} and the {captain}. Your second roll, "
            "with one die, shows {second}: the {crew} completes the crew and the cargo is "
            "{score}.",
            "Example: you roll {first} and keep the {ship} and the {captain}. Your second roll, "
            "with {n} dice, shows {second}: the {crew} completes the crew and the cargo is "
            "{score}.",
        )
    else:
        ids = NP_(
            "Example: you roll {first} and keep the {ship} and the {captain}. Your second roll, "
            "with one die, shows {second}: the {crew} completes the crew and the cargo is "
            "{sum} = {score}.",
            "Example: you roll {first} and keep the {ship} and the {captain}. Your second roll, "
            "with {n} dice, shows {second}: the {crew} completes the crew and the cargo is "
            "{sum} = {score}.",
        )
    text = counted(ids, len(second), tr, params)
    left = rules.rolls - EXAMPLE_ROLLS
    if left == 0:
        then = tr("No roll is left, so the cargo stands.")
    else:
        gamble = NP_(
            "With {n} roll left you could gamble on the cargo.",
            "With {n} rolls left you could gamble on the cargo.",
        )
        then = Message.of(gamble, n=left).render(tr)
    return text + " " + then


#: The rolls the worked example takes to complete its crew.
EXAMPLE_ROLLS = 2


def avoiding(faces: tuple[int, ...], avoid: set[int]) -> tuple[int, ...]:
    """``faces`` with each face in ``avoid`` replaced by the nearest face above it that is not
    (wrapping round): the example's dice, clear of a face that would fill a role."""
    return tuple(
        next(g for g in (*FACES[f:], *FACES[:f]) if g not in avoid) if f in avoid else f
        for f in faces
    )
