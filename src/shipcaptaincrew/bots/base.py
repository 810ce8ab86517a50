"""The one interface every bot implements, and the simple heuristic bots.

A bot is anything with ``name`` and ``choose(state, rng) -> action``: the terminal game, the
web app, the simulator and the learning environments all drive bots through it.  Bots only
*choose* among :func:`~shipcaptaincrew.engine.legal_actions`; they never roll dice and never
re-implement a rule.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ..actions import Action, RerollCargo, Stand, Take
from ..engine import legal_actions
from ..state import MatchState, TurnState

__all__ = ["Bot", "NoDecisionError", "RandomBot", "ThresholdBot", "TimidBot", "TipBot"]


class NoDecisionError(ValueError):
    """A bot was asked to choose where no choice exists (a chance node or a finished game)."""


@runtime_checkable
class Bot(Protocol):
    """Chooses an action for the player to act."""

    name: str

    def choose(self, state: MatchState | TurnState, rng: random.Random) -> Action:
        """One of ``legal_actions(state)``."""
        ...


def _choices(state: MatchState | TurnState) -> tuple[Action, ...]:
    acts = legal_actions(state)
    if not acts:
        raise NoDecisionError("there is no decision to make in this state")
    return acts


def best_take(acts: tuple[Action, ...]) -> Action:
    """Among wild-captain assignments, the one leaving the highest free dice (a sound default)."""
    takes = [a for a in acts if isinstance(a, Take)]
    # Taking lower faces for the roles leaves higher faces free: prefer the smallest take.
    return min(takes, key=lambda t: (sum(t.faces), t.faces))


def _turn(state: MatchState | TurnState) -> TurnState:
    t = state if isinstance(state, TurnState) else state.turn
    if t is None:
        raise NoDecisionError("this bot only decides during a turn")
    return t


class RandomBot:
    """Picks uniformly among the legal actions (the ``random`` bot, difficulty ``easy``)."""

    name = "random"

    def choose(self, state: MatchState | TurnState, rng: random.Random) -> Action:
        """A uniformly random legal action."""
        return rng.choice(_choices(state))


class ThresholdBot:
    """Rerolls both cargo dice while the cargo is below ``threshold`` (``threshold:T``).

    Any other decision (a wild assignment, handing out sips) takes a sound default.
    """

    def __init__(self, threshold: int, name: str | None = None) -> None:
        self.threshold = threshold
        self.name = name or f"threshold:{threshold}"

    def choose(self, state: MatchState | TurnState, rng: random.Random) -> Action:
        """Stand at or above the threshold, else reroll both cargo dice."""
        acts = _choices(state)
        if any(isinstance(a, Take) for a in acts):
            return best_take(acts)
        if Stand() not in acts:
            return rng.choice(acts)  # handing out sips: any recipient
        t = _turn(state)
        return RerollCargo() if sum(t.cargo) < self.threshold else Stand()


class TimidBot(ThresholdBot):
    """Stands on any cargo (the ``timid`` bot)."""

    def __init__(self) -> None:
        super().__init__(0, "timid")


class TipBot(ThresholdBot):
    """Rerolls the cargo at six or less, the sheets' tip (000/003 "bei sechs Punkten oder weniger")."""

    def __init__(self) -> None:
        super().__init__(7, "tip")
