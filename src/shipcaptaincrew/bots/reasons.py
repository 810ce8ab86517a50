"""Why a bot chose what it chose, as messages every front end can translate.

A bot's ``explain(state)`` returns a :class:`~shipcaptaincrew.messages.Message` whose subject
is the bot itself ("expects 7.00 points; standing would expect 6.50."), so a front end puts
the bot's name in front of it in any language.  The message ids are English; their numbers
stay numbers until the very end: a probability is a :class:`Chance`, an expected score
:class:`Points`, and :func:`render_reason` writes them the way the reader's language does
("68,0 %" in German), while dice faces and counts are plain integers.  Each choice the bot
is compared with has a sentence of its own, so every language can word it naturally; none
counts the cargo's dice ("rerolling the cargo"), which are one, two or three (``dice``).

>>> from shipcaptaincrew.actions import Stand
>>> m = compared(Measure.WIN, 0.68, Stand(), 0.658)
>>> render_reason(m)
'wins 68.0\\xa0% of the time; standing would win 65.8\\xa0%.'
>>> str(threshold_reason(cargo=4, threshold=7, can_reroll=True))
'cargo 4 is below 7: worth another try.'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..actions import Action, RerollCargo, Stand, Take
from ..messages import N_, NP_, Message, Translate

__all__ = [
    "Chance",
    "Measure",
    "Points",
    "compared",
    "hand_out_leader",
    "hand_out_random",
    "no_decision",
    "random_choice",
    "render_reason",
    "solo_reason",
    "stops_leading",
    "take_reason",
    "threshold_reason",
]


class Chance(float):
    """A probability in an explanation: a front end writes it as its language's percentage."""

    def __format__(self, spec: str) -> str:
        return f"{100 * float(self):.1f}\u00a0%"


class Points(float):
    """An expected score in an explanation, to two decimals."""

    def __format__(self, spec: str) -> str:
        return f"{float(self):.2f}"


class Measure(StrEnum):
    """What a solver bot compares its choices by."""

    EXPECTED = "expected"  #: the expected score of the turn (the ``ev`` bot)
    WIN = "win"  #: the chance of winning the contest (``optimal:round``)
    MATCH = "match"  #: the chance of winning the match (the ``optimal`` bot)
    #: the estimated chance of winning the match (``optimal`` at a table too large to solve)
    MATCH_ESTIMATE = "match_estimate"


@dataclass(frozen=True)
class _Versus:
    """One measure's sentences: the bot's number against the best other choice of each kind."""

    stand: str
    reroll: str
    keep: str
    take: str
    only: str


_VERSUS = {
    Measure.EXPECTED: _Versus(
        N_("expects {mine} points; standing would expect {theirs}."),
        N_("expects {mine} points; rerolling the cargo would expect {theirs}."),
        N_(
            "expects {mine} points; keeping the {keep} and rerolling the rest of the cargo "
            "would expect {theirs}."
        ),
        N_(
            "expects {mine} points; the best other way to set the dice aside would expect {theirs}."
        ),
        N_("expects {mine} points; there is no other choice."),
    ),
    Measure.WIN: _Versus(
        N_("wins {mine} of the time; standing would win {theirs}."),
        N_("wins {mine} of the time; rerolling the cargo would win {theirs}."),
        N_(
            "wins {mine} of the time; keeping the {keep} and rerolling the rest of the cargo "
            "would win {theirs}."
        ),
        N_("wins {mine} of the time; the best other way to set the dice aside would win {theirs}."),
        N_("wins {mine} of the time; there is no other choice."),
    ),
    Measure.MATCH: _Versus(
        N_("wins the match {mine} of the time; standing would win it {theirs}."),
        N_("wins the match {mine} of the time; rerolling the cargo would win it {theirs}."),
        N_(
            "wins the match {mine} of the time; keeping the {keep} and rerolling the rest of "
            "the cargo would win it {theirs}."
        ),
        N_(
            "wins the match {mine} of the time; the best other way to set the dice aside would "
            "win it {theirs}."
        ),
        N_("wins the match {mine} of the time; there is no other choice."),
    ),
    Measure.MATCH_ESTIMATE: _Versus(
        N_("wins the match about {mine} of the time (an estimate); standing, about {theirs}."),
        N_(
            "wins the match about {mine} of the time (an estimate); rerolling the cargo, "
            "about {theirs}."
        ),
        N_(
            "wins the match about {mine} of the time (an estimate); keeping the {keep} and "
            "rerolling the rest of the cargo, about {theirs}."
        ),
        N_(
            "wins the match about {mine} of the time (an estimate); the best other way to set "
            "the dice aside, about {theirs}."
        ),
        N_("wins the match about {mine} of the time (an estimate); there is no other choice."),
    ),
}


def _number(measure: Measure, value: float) -> float:
    return Points(value) if measure is Measure.EXPECTED else Chance(value)


def compared(
    measure: Measure, mine: float, other: Action | None = None, theirs: float = 0.0
) -> Message:
    """The bot's number for its choice against the best ``other`` choice (None: the only one)."""
    ids = _VERSUS[measure]
    params: dict[str, Any] = {"mine": _number(measure, mine)}
    if other is None:
        return Message(ids.only, params)
    params["theirs"] = _number(measure, theirs)
    if isinstance(other, Stand):
        return Message(ids.stand, params)
    if isinstance(other, RerollCargo):
        if other.keep is None:
            return Message(ids.reroll, params)
        return Message(ids.keep, {**params, "keep": other.keep})
    if isinstance(other, Take):
        return Message(ids.take, params)
    raise ValueError(f"no comparison sentence for {other}")


def solo_reason(win: float, score: float) -> Message:
    """The optimal bot alone with its turn: completing the crew is the win."""
    return Message(
        N_(
            "playing alone, completes the crew {win} of the time, with an expected score of {score}."
        ),
        {"win": Chance(win), "score": Points(score)},
    )


def no_decision() -> Message:
    """Asked where nothing is to be chosen (dice are due, or the game is over)."""
    return Message(N_("has no decision to make here."))


def random_choice(n: int) -> Message:
    """The random bot: how many choices the coin picks among."""
    return Message.of(
        NP_(
            "has only one choice.",
            "picks at random among {n} choices, each with probability 1/{n}.",
        ),
        n=n,
    )


def hand_out_random(n: int) -> Message:
    """A heuristic bot's sip: any of the ``n`` other players, at random."""
    return Message.of(
        NP_(
            "hands this sip to the only other player.",
            "hands this sip to one of the {n} other players at random, each with probability 1/{n}.",
        ),
        n=n,
    )


def hand_out_leader(total: int) -> Message:
    """A solver bot's sip: to the opponent who leads the match."""
    return Message(
        N_("hands this sip to the leader among the others, with a total of {total}."),
        {"total": total},
    )


def another_round(n: int) -> Message:
    """Any bot, asked whether the session goes on: always up for another round (round ``n``)."""
    return Message(N_("is up for another round: on to round {n}."), {"n": n})


def stops_leading(total: int) -> Message:
    """The match-playing bot calls a session to a stop: it alone has the highest total."""
    return Message(
        N_("stops the session: alone on top with {total}, the totals win it the match."),
        {"total": total},
    )


def take_reason(free: Sequence[int]) -> Message:
    """The heuristic assignment: the lowest dice for the roles, the highest left free."""
    return Message(
        N_("sets aside the lowest dice that fill the roles, which leaves {free} free."),
        {"free": " ".join(map(str, free))},
    )


def threshold_reason(*, cargo: int, threshold: int, can_reroll: bool) -> Message:
    """A threshold bot's stand or reroll: the cargo (never the score) against its threshold."""
    params = {"cargo": cargo, "t": threshold}
    if threshold <= 0:
        return Message(N_("stands on any cargo; this one is {cargo}."), params)
    if cargo >= threshold:
        return Message(N_("cargo {cargo} is {t} or more: good enough."), params)
    if can_reroll:
        return Message(N_("cargo {cargo} is below {t}: worth another try."), params)
    return Message(N_("cargo {cargo} is below {t}, but the cargo cannot be rerolled now."), params)


def render_reason(message: Message, translate: Translate | None = None) -> str:
    """An explanation in the language of ``translate``, its numbers written that language's way.

    A catalogue translator (:func:`shipcaptaincrew.i18n.translator`) writes a :class:`Chance`
    with its ``percent`` and :class:`Points` with its ``number``; any other translate function
    (or none) gets the English forms.
    """
    percent = getattr(translate, "percent", None)
    number = getattr(translate, "number", None)
    params: dict[str, Any] = {}
    for key, value in message.params.items():
        if isinstance(value, Chance) and percent is not None:
            value = percent(float(value))
        elif isinstance(value, Points) and number is not None:
            value = number(float(value), 2)
        params[key] = value
    return dataclasses.replace(message, params=params).render(translate)
