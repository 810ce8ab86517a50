"""Bots and advice for the web table, through the bots and solver layers' public APIs.

``make_bot(spec)`` and ``solver.advise(state)`` come from their own layers (issue 3); while a
layer does not offer them yet, the fallbacks here use only the base bots and the engine, so
no rule is ever re-implemented in the web app.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..actions import Action
from ..bots.base import Bot, RandomBot, ThresholdBot, TimidBot, TipBot
from ..engine import (
    apply,
    current_player,
    is_chance,
    is_terminal,
    legal_actions,
    sample_chance,
)
from ..state import MatchState

#: Difficulty -> bot used when ``bots.make_bot`` is not available.
_FALLBACK_LEVELS = {
    "easy": "random",
    "medium": "tip",
    "hard": "threshold:8",
    "perfect": "threshold:8",
}


def make_bot(spec: str) -> Bot:
    """A bot for ``spec`` (a difficulty or a bot name); unknown specs raise ``ValueError``."""
    try:
        from .. import bots

        factory = getattr(bots, "make_bot", None)
    except ImportError:  # pragma: no cover - the bots layer always exists
        factory = None
    if factory is not None:
        bot: Bot = factory(spec)
        return bot
    name = _FALLBACK_LEVELS.get(spec, spec)
    if name == "random":
        return RandomBot()
    if name == "timid":
        return TimidBot()
    if name == "tip":
        return TipBot()
    if name.startswith("threshold:"):
        try:
            return ThresholdBot(int(name.split(":", 1)[1]))
        except ValueError:
            pass
    raise ValueError(f"unknown bot {spec!r}; try easy, medium, hard or perfect")


def safe_default(state: MatchState, rng: random.Random) -> Action:
    """What the turn timer plays for an absent person: stand, the soundest wild assignment."""
    return TimidBot().choose(state, rng)


@dataclass(frozen=True)
class Choice:
    """One legal choice with its estimated chance of winning the match."""

    action: str
    win_probability: float
    exact: str | None
    expected_score: float | None
    method: str


def advise(
    state: MatchState, *, rollouts: int = 300, budget: int = 200_000, seed: int = 0
) -> list[Choice]:
    """Each legal choice's win probability for the player to act.

    Uses ``solver.advise`` (exact: the chance of winning the contest being played) when the
    solver layer offers it for this position; otherwise (a position the solver does not model,
    such as handing out sips) plays the match out after each choice with the engine and the tip
    bot for everyone, up to ``rollouts`` times or ``budget`` engine steps in all, and reports
    the share won (an estimate, labelled as such).
    """
    try:
        from .. import solver

        exact_advise: Any = getattr(solver, "advise", None)
    except ImportError:  # pragma: no cover
        exact_advise = None
    if exact_advise is not None:
        try:
            choices = exact_advise(state)
        except ValueError:  # SolverError: not a position the solver models
            choices = None
        if choices:
            out = []
            for c in choices:
                p = c.win_probability
                out.append(
                    Choice(
                        str(c.action),
                        float(p),
                        str(p) if isinstance(p, Fraction) else None,
                        None if c.expected_score is None else float(c.expected_score),
                        "exact",
                    )
                )
            return out
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
        out.append(Choice(str(action), share, None, None, f"estimate:{played}"))
    out.sort(key=lambda c: -c.win_probability)
    return out
