"""Hypothesis strategies for valid rule sets, match set-ups and dice, drawn from the option table.

Other test modules import these (``from tests.strategies import rule_sets``).  Every option of
the table is drawn over the values it takes -- a flag either way, a number within its bounds
(or ``none`` where it allows no limit), any of its choices, any match format kind within its
bounds -- so an option added to the table is drawn too, with no change here.  The strategies
only produce what :class:`~shipcaptaincrew.rules.Rules` accepts, by construction rather than
by filtering, so hypothesis wastes no examples: the drawn values are set one option at a time
in the table's order, and a value the rule set refuses with the ones before it (a wild face
that is also a required face, fewer chips than the ante under ``stakes=pot``,
``failed_double`` without drinking, an option whose ``requires`` is not met) is left at its
default, which every rule set accepts.

:func:`rule_sets` covers every option over its whole accepted range (for the rule-text tests);
:func:`playable_rule_sets` keeps the numbers small enough that whole matches finish quickly (for
property tests that play matches).  :func:`match_setups` adds a player count, starter seat and
solo target that :func:`~shipcaptaincrew.engine.initial_state` accepts for those rules.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from shipcaptaincrew.errors import InvalidRulesError
from shipcaptaincrew.facts import (
    FACES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SOLO_PLAYERS,
    TOURNAMENT_MIN_PLAYERS,
)
from shipcaptaincrew.formats import FORMAT_KINDS, FormatKind, MatchFormat
from shipcaptaincrew.options import OPTIONS, Group, Option, OptionType, options_in
from shipcaptaincrew.positions import turn_scores
from shipcaptaincrew.rules import (
    PRESET_NAMES,
    TURN_LIMITS,
    Drinking,
    Rules,
    Stakes,
    Starter,
)

__all__ = [
    "MatchSetup",
    "dice",
    "match_formats",
    "match_setups",
    "option_values",
    "playable_rule_sets",
    "player_counts",
    "random_rules",
    "roll_faces",
    "rule_sets",
]

#: How far above its lowest bound a number of a playable rule set goes (bonus, ante, chips...).
PLAYABLE_SPAN = 12
#: The largest N of a playable match format (rounds, wins, points to reach).
PLAYABLE_N = 5


def match_formats(*, max_n: int | None = None) -> st.SearchStrategy[MatchFormat]:
    """Every match format kind of the format table, N within its bounds (and ``max_n``)."""
    kinds = []
    for kind, spec in FORMAT_KINDS.items():
        if spec.bounds is None:
            kinds.append(st.just(MatchFormat(kind)))
        else:
            lo, hi = spec.bounds
            top = hi if max_n is None else min(hi, max_n)
            kinds.append(st.builds(MatchFormat, st.just(kind), st.integers(lo, top)))
    return st.one_of(*kinds)


def option_values(option: Option, *, span: int | None = None) -> st.SearchStrategy[Any]:
    """Every value ``option`` takes (a number at most ``span`` above its lowest bound)."""
    if option.kind is OptionType.FLAG:
        return st.booleans()
    if option.kind is OptionType.NUMBER:
        lo, hi = option.bounds
        numbers = st.integers(lo, hi if span is None else min(hi, lo + span))
        return st.one_of(st.none(), numbers) if option.unlimited else numbers
    if option.kind is OptionType.CHOICE:
        return st.sampled_from([c.value for c in option.choices])
    return match_formats(max_n=None if span is None else PLAYABLE_N)


def _settle(rules: Rules, drawn: dict[str, Any]) -> Rules:
    """``rules`` with each drawn value set in the table's order, unless it is refused there."""
    for name, value in drawn.items():
        try:
            rules = rules.replace(**{name: value})
        except InvalidRulesError:
            pass  # refused with the values before it: the default stays
    return rules


@st.composite
def _rules(draw: st.DrawFn, *, span: int | None) -> Rules:
    drawn = {name: draw(option_values(o, span=span)) for name, o in OPTIONS.items()}
    return _settle(Rules(name=draw(st.sampled_from(PRESET_NAMES))), drawn)


def rule_sets() -> st.SearchStrategy[Rules]:
    """Any valid rule set: every option over the full range ``Rules`` accepts."""
    return _rules(span=None)


def playable_rule_sets() -> st.SearchStrategy[Rules]:
    """Valid rule sets whose matches end quickly: short formats, small numbers."""
    return _rules(span=PLAYABLE_SPAN)


def player_counts(*, solo: bool = False) -> st.SearchStrategy[int]:
    """Seats at the table (001.1), or from one when solo practice is allowed."""
    return st.integers(SOLO_PLAYERS if solo else MIN_PLAYERS, MAX_PLAYERS)


@dataclass(frozen=True)
class MatchSetup:
    """Arguments :func:`~shipcaptaincrew.engine.initial_state` accepts together."""

    rules: Rules
    players: int
    starter: int | None
    target: int | None

    def kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``initial_state(rules, players, **kwargs)``."""
        return {"starter": self.starter, "target": self.target}


@st.composite
def match_setups(draw: st.DrawFn, *, solo: bool = True) -> MatchSetup:
    """A playable rule set with a player count, starter and (solo) target that fit it.

    The tournament needs three players for a final of two; solo practice plays for points
    (no pot, no drinking) in a single or rounds:N format against a target of 2..max_score.
    """
    rules = draw(playable_rule_sets())
    low = TOURNAMENT_MIN_PLAYERS if rules.format.kind is FormatKind.TOURNAMENT else MIN_PLAYERS
    solo_ok = solo and rules.format.kind in (FormatKind.SINGLE, FormatKind.ROUNDS)
    players = draw(st.integers(SOLO_PLAYERS if solo_ok else low, MAX_PLAYERS))
    if players == 1:
        # Points only: the options that mean something under a pot or a drinking mode (their
        # ``requires``) go back to their defaults with it.
        rules = rules.setting_aside(
            stakes=Stakes.POINTS, drinking=Drinking.NONE, failed_double=False
        )
        lowest = min(s for s in turn_scores(rules) if s > 0)
        target = draw(st.integers(lowest, rules.max_score))
        return MatchSetup(rules, 1, None, target)
    starter = draw(st.integers(0, players - 1)) if rules.starter is Starter.CHOSEN else None
    return MatchSetup(rules, players, starter, None)


def dice(n: int) -> st.SearchStrategy[tuple[int, ...]]:
    """Faces of ``n`` dice, in the order rolled (not sorted)."""
    return st.tuples(*[st.sampled_from(FACES) for _ in range(n)])


def roll_faces() -> st.SearchStrategy[tuple[int, ...]]:
    """Faces of a roll of one to all the dice (any count a turn can ask for)."""
    return st.integers(1, TURN_LIMITS.dice).flatmap(dice)


def random_rules(rng: random.Random) -> Rules:
    """A valid rule set drawn with a plain ``random.Random`` (for the many-turns test).

    Only the turn's options vary (the others do not affect a single turn), each over the
    values the table gives it, numbers at most :data:`PLAYABLE_SPAN` above their lowest bound.
    """
    drawn: dict[str, Any] = {}
    for option in options_in(Group.TURN):
        if option.kind is OptionType.FLAG:
            drawn[option.name] = rng.random() < 0.5
        elif option.kind is OptionType.NUMBER:
            lo, hi = option.bounds
            values: list[Any] = list(range(lo, min(hi, lo + PLAYABLE_SPAN) + 1))
            drawn[option.name] = rng.choice(values + ([None] if option.unlimited else []))
        elif option.kind is OptionType.CHOICE:
            drawn[option.name] = rng.choice(option.choices).value
    return _settle(Rules(name=rng.choice(PRESET_NAMES)), drawn)
