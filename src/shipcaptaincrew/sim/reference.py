"""The plain engine loop: one turn or match at a time, every die from ``random.Random``.

This is the straightforward simulator the vectorised one is checked against (tests) and
measured against (benchmarks): it calls :func:`~shipcaptaincrew.engine.sample_chance`,
:func:`~shipcaptaincrew.engine.apply` and the bot's ``choose`` for every roll and decision.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ..bots import make_bot, session_call
from ..engine import (
    apply,
    current_player,
    initial_state,
    initial_turn,
    is_chance,
    is_terminal,
    sample_chance,
)
from ..rules import Rules

__all__ = ["engine_matches", "engine_turns"]


def engine_turns(rules: Rules, bot: str, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` turns played through the engine: (scores, roll that completed the crew or 0)."""
    rng = random.Random(seed)
    player = make_bot(bot)
    scores = np.zeros(n, dtype=np.int16)
    completed_on = np.zeros(n, dtype=np.int8)
    for i in range(n):
        t = initial_turn(rules)
        while not is_terminal(t):
            if is_chance(t):
                t = apply(t, sample_chance(t, rng))
            else:  # a wild assignment can complete the crew too
                t = apply(t, player.choose(t, rng))
            if t.complete and not completed_on[i]:
                completed_on[i] = t.rolls_used
        scores[i] = t.score
    return scores, completed_on


def engine_matches(rules: Rules, bots: list[str], n: int, seed: int) -> dict[str, Any]:
    """``n`` matches played roll by roll through the engine: winners and seat statistics."""
    rng = random.Random(seed)
    players = [make_bot(b) for b in bots]
    winners = np.full(n, -1, dtype=np.int64)
    sips = np.zeros((n, len(bots)), dtype=np.int64)
    chips = np.zeros((n, len(bots)), dtype=np.int64)
    for i in range(n):
        s = initial_state(rules, len(bots))
        while not is_terminal(s):
            if is_chance(s):
                s = apply(s, sample_chance(s, rng))
            else:
                s = apply(s, session_call(s) or players[current_player(s)].choose(s, rng))
        winners[i] = -1 if s.winner is None else s.winner
        sips[i] = s.sips
        chips[i] = s.chips
    return {"winner": winners, "sips": sips, "chips": chips}
