"""Helpers shared by the examples: the project's ``optimal`` bot and the solver's view of a choice.

:func:`shipcaptaincrew.solver.advise` lists every legal choice of a turn with its exact win
probability under best play (everyone after playing the same way); the ``optimal`` bot of
:func:`shipcaptaincrew.bots.make_bot` plays its first choice.
"""

from __future__ import annotations

from shipcaptaincrew import MatchState
from shipcaptaincrew.actions import Action
from shipcaptaincrew.bots import Bot, make_bot
from shipcaptaincrew.solver import advise


def optimal_bot() -> Bot:
    """The project's ``optimal`` bot."""
    return make_bot("optimal")


def optimal_set(
    state: MatchState, tolerance: float = 1e-9
) -> tuple[set[Action], float, dict[Action, float]]:
    """The choices with the best win probability, that probability, and every choice's."""
    choices = advise(state)
    values = {c.action: c.win_probability for c in choices}
    best = max(values.values())
    return {a for a, v in values.items() if v >= best - tolerance}, best, values
