"""Advice and the turn timer's default move for the web table, from the solver and the bots.

The web app never re-implements a rule: the exact advice is :func:`..solver.advise`, the
estimate for positions the solver does not model plays the match out with the engine and a
base bot, and the timer's default is a base bot's choice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..actions import Action
from ..bots.base import TimidBot, TipBot
from ..engine import (
    apply,
    current_player,
    is_chance,
    is_terminal,
    legal_actions,
    sample_chance,
)
from ..solver import PositionNotReachableError, SolverError
from ..solver import advise as exact_advise
from ..state import MatchState


def safe_default(state: MatchState, rng: random.Random) -> Action:
    """What the turn timer plays for an absent person: stand, the soundest wild assignment."""
    return TimidBot().choose(state, rng)


@dataclass(frozen=True)
class Choice:
    """One legal choice with its estimated chance of winning the match."""

    action: str
    win_probability: float
    expected_score: float | None
    method: str


def advise(
    state: MatchState, *, rollouts: int = 300, budget: int = 200_000, seed: int = 0
) -> list[Choice]:
    """Each legal choice's win probability for the player to act.

    Uses ``solver.advise`` (exact: the chance of winning the contest being played) where the
    solver models the position; otherwise (a position it does not model, such as handing out
    sips) plays the match out after each choice with the engine and the tip bot for everyone,
    up to ``rollouts`` times or ``budget`` engine steps in all, and reports the share won (an
    estimate, labelled as such).
    """
    try:
        choices = exact_advise(state)
    except (SolverError, PositionNotReachableError):  # not a position the solver models
        choices = []
    if choices:
        return [
            Choice(str(c.action), c.win_probability, c.expected_score, "exact")
            for c in choices
            if c.win_probability is not None  # a sip hand-out: no chance changes
        ]
    return _estimate(state, rollouts, budget, seed)


def _estimate(state: MatchState, rollouts: int, budget: int, seed: int) -> list[Choice]:
    seat = current_player(state)
    rng = random.Random(seed)
    bot = TipBot()
    actions = legal_actions(state)
    per_choice = budget // max(1, len(actions))
    out = []
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
        out.append(Choice(str(action), share, None, f"estimate:{played}"))
    out.sort(key=lambda c: -c.win_probability)
    return out
