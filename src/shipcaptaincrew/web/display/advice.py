"""Advice for the web table, from the solver and the bots.

The web app never re-implements a rule: the exact advice is :func:`...solver.advise`, and the
estimate for positions the solver does not model plays the match out with the engine and a
base bot.  (A person's turn played for them is a bot's: see :mod:`.absence`.)
"""

from __future__ import annotations

import random
from dataclasses import fields, is_dataclass
from typing import Any

from ...actions import Action
from ...bots.base import TipBot
from ...engine import (
    apply,
    current_player,
    is_chance,
    is_terminal,
    legal_actions,
    sample_chance,
)
from ...solver import PositionNotReachableError, SolverError
from ...solver import advise as exact_advise
from ...state import MatchState, Phase

#: An advice entry as the page gets it: the choice's canonical text (``action``), how its
#: numbers were found (``method``) and the numbers themselves, under the solver's own names.
Entry = dict[str, Any]


def advise(
    state: MatchState, *, rollouts: int = 300, budget: int = 200_000, seed: int = 0
) -> list[Entry]:
    """Each legal choice with its numbers, for the player to act.

    Uses ``solver.advise`` (exact) where the solver models the position, and passes on every
    number its entries carry (whatever the solver gives: the page shows what it gets).  A sip
    hand-out gets no number at all: a sip decides nobody's win, so every choice is as good as
    any other (``method = "hand_out"``; the advice says so in words).  Any other position the
    solver does not model is played out after each choice with the engine and the tip bot for
    everyone, up to ``rollouts`` times or ``budget`` engine steps in all, and reports the
    share won (an estimate, labelled as such).
    """
    if state.phase is Phase.HAND_OUT:
        return [{"action": str(a), "method": HAND_OUT} for a in legal_actions(state)]
    try:
        choices = exact_advise(state)
    except (SolverError, PositionNotReachableError):  # not a position the solver models
        choices = []
    if choices:
        return [{**_numbers(c), "method": "exact"} for c in choices]
    return _estimate(state, rollouts, budget, seed)


#: The method of a hand-out's advice: no numbers, every choice alike.
HAND_OUT = "hand_out"


def _numbers(choice: object) -> Entry:
    """A solver entry's every field, the action as its canonical text."""
    assert is_dataclass(choice)
    entry = {f.name: getattr(choice, f.name) for f in fields(choice)}
    return {k: str(v) if isinstance(v, Action) else v for k, v in entry.items()}


def _estimate(state: MatchState, rollouts: int, budget: int, seed: int) -> list[Entry]:
    seat = current_player(state)
    rng = random.Random(seed)
    bot = TipBot()
    actions = legal_actions(state)
    per_choice = budget // max(1, len(actions))
    out: list[Entry] = []
    for action in actions:
        wins = played = steps = 0
        while played < rollouts and steps < per_choice:
            s = apply(state, action)
            while not is_terminal(s) and steps < per_choice:
                s = apply(s, sample_chance(s, rng) if is_chance(s) else bot.choose(s, rng))
                steps += 1
            if not is_terminal(s):
                break  # out of budget mid-match: that playout does not count
            played += 1
            wins += s.winner == seat
        share = wins / played if played else 0.0
        out.append(
            {
                "action": str(action),
                "win_probability": share,
                "expected_score": None,
                "method": f"estimate:{played}",
            }
        )
    out.sort(key=lambda c: -float(c["win_probability"]))
    return out
