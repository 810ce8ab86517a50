"""Hypothesis strategies for valid rule sets, match set-ups and dice.

Other test modules import these (``from tests.strategies import rule_sets``).  The strategies
only produce what :class:`~shipcaptaincrew.rules.Rules` accepts, by construction rather than by
filtering, so hypothesis wastes no examples:

* a wild face is drawn from the faces that are *not* required (``wild_captain`` with a wild face
  that is also ship, captain or crew is refused by ``Rules``);
* under ``stakes=pot`` the starting stack is at least the ante;
* ``failed_double`` only comes with a drinking mode;
* ``pot_to=match`` only under ``stakes=pot``, ``hand_out=up_to`` only when the captain hands out.

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

from shipcaptaincrew.rules import (
    PRESET_NAMES,
    AllFail,
    Drinking,
    HandOutAmount,
    MatchFormat,
    PotTo,
    Rotation,
    Rules,
    Stakes,
    Starter,
    TieBreak,
)

__all__ = [
    "MatchSetup",
    "dice",
    "match_formats",
    "match_setups",
    "playable_rule_sets",
    "player_counts",
    "random_rules",
    "roll_faces",
    "rule_sets",
]


def match_formats(
    *, max_rounds: int = 1000, max_first_to: int = 10000
) -> st.SearchStrategy[MatchFormat]:
    """Every match format kind, N bounded by the limits (Rules accepts up to 1000 / 10000)."""
    return st.one_of(
        st.just(MatchFormat("single")),
        st.just(MatchFormat("tournament")),
        st.just(MatchFormat("session")),
        st.builds(MatchFormat, st.just("rounds"), st.integers(1, max_rounds)),
        st.builds(MatchFormat, st.just("wins"), st.integers(1, max_rounds)),
        st.builds(MatchFormat, st.just("first_to"), st.integers(1, max_first_to)),
    )


@st.composite
def _rules(
    draw: st.DrawFn,
    *,
    max_bonus: int,
    max_ante: int,
    max_chips: int,
    formats: st.SearchStrategy[MatchFormat],
) -> Rules:
    bow_to_stern = draw(st.booleans())
    wild_captain = draw(st.booleans())
    required = (1, 2, 3) if bow_to_stern else (6, 5, 4)
    # Any face is fine as long as the wild captain is off; with it on, only non-required faces.
    face_pool = [f for f in range(1, 7) if not (wild_captain and f in required)]
    wild_face = draw(st.sampled_from(face_pool))
    stakes = draw(st.sampled_from(list(Stakes)))
    ante = draw(st.integers(1, max_ante))
    low_chips = ante if stakes is Stakes.POT else 0
    starting_chips = draw(st.integers(low_chips, max(low_chips, max_chips)))
    drinking = draw(st.sampled_from(list(Drinking)))
    failed_double = drinking is not Drinking.NONE and draw(st.booleans())
    return Rules(
        name=draw(st.sampled_from(PRESET_NAMES)),
        half_cargo=draw(st.booleans()),
        bow_to_stern=bow_to_stern,
        wild_captain=wild_captain,
        wild_face=wild_face,
        cargo_rerolls=draw(st.sampled_from([None, 0, 1, 2])),
        same_roll_bonus=draw(st.one_of(st.just(0), st.integers(0, max_bonus))),
        tie_break=draw(st.sampled_from(list(TieBreak))),
        all_fail=draw(st.sampled_from(list(AllFail))),
        starter=draw(st.sampled_from(list(Starter))),
        rotation=draw(st.sampled_from(list(Rotation))),
        stakes=stakes,
        ante=ante,
        starting_chips=starting_chips,
        pot_to=draw(st.sampled_from(list(PotTo))) if stakes is Stakes.POT else PotTo.ROUND,
        drinking=drinking,
        hand_out=(
            draw(st.sampled_from(list(HandOutAmount)))
            if drinking is Drinking.CAPTAIN_HANDS_OUT
            else HandOutAmount.EXACT
        ),
        failed_double=failed_double,
        format=draw(formats),
    )


def rule_sets() -> st.SearchStrategy[Rules]:
    """Any valid rule set: every option over the full range ``Rules`` accepts."""
    return _rules(max_bonus=100, max_ante=1000, max_chips=1_000_000, formats=match_formats())


def playable_rule_sets() -> st.SearchStrategy[Rules]:
    """Valid rule sets whose matches end quickly: short formats, small antes and stacks."""
    return _rules(
        max_bonus=5,
        max_ante=3,
        max_chips=12,
        formats=match_formats(max_rounds=4, max_first_to=25),
    )


def player_counts(*, solo: bool = False) -> st.SearchStrategy[int]:
    """Seats at the table: 2..8 (001), or 1..8 when solo practice is allowed."""
    return st.integers(1 if solo else 2, 8)


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
    low = 3 if rules.format.kind == "tournament" else 2
    solo_ok = solo and rules.format.kind in ("single", "rounds")
    players = draw(st.integers(1 if solo_ok else low, 8))
    if players == 1:
        rules = rules.replace(
            stakes=Stakes.POINTS,
            pot_to=PotTo.ROUND,
            drinking=Drinking.NONE,
            hand_out=HandOutAmount.EXACT,
            failed_double=False,
        )
        target = draw(st.integers(2, rules.max_score))
        return MatchSetup(rules, 1, None, target)
    starter = draw(st.integers(0, players - 1)) if rules.starter is Starter.CHOSEN else None
    return MatchSetup(rules, players, starter, None)


def dice(n: int) -> st.SearchStrategy[tuple[int, ...]]:
    """Faces of ``n`` dice, in the order rolled (not sorted)."""
    return st.tuples(*[st.integers(1, 6) for _ in range(n)])


def roll_faces() -> st.SearchStrategy[tuple[int, ...]]:
    """Faces of a roll of 1..5 dice (any count a turn can ask for)."""
    return st.integers(1, 5).flatmap(dice)


def random_rules(rng: random.Random) -> Rules:
    """A valid rule set drawn with a plain ``random.Random`` (for the many-turns test).

    Only the turn options vary (the round options do not affect a single turn).
    """
    bow_to_stern = rng.random() < 0.5
    wild_captain = rng.random() < 0.5
    required = (1, 2, 3) if bow_to_stern else (6, 5, 4)
    wild_face = rng.choice([f for f in range(1, 7) if not (wild_captain and f in required)])
    return Rules(
        name=rng.choice(PRESET_NAMES),
        half_cargo=rng.random() < 0.5,
        bow_to_stern=bow_to_stern,
        wild_captain=wild_captain,
        wild_face=wild_face,
        cargo_rerolls=rng.choice([None, 0, 1, 2]),
        same_roll_bonus=rng.choice([0, 0, 1, 3, 10]),
    )
