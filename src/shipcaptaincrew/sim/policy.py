"""Policies as tables: what a bot decides in each turn state, as exact action probabilities.

The vectorised simulator never asks a bot mid-simulation.  It asks once per (turn state,
table context) while the transition tables are built, so a bot's choice becomes a row of a
table.  A *deterministic* bot (``timid``, ``tip``, ``threshold:T``, ``ev``) gives probability
1 to one action; ``random`` spreads it evenly over the legal actions; ``optimal`` depends on the
table context (what has been posted in the contest so far), see :class:`TableContext`.

Bots are made by :func:`shipcaptaincrew.bots.make_bot` when the solver package provides it;
the heuristic bots of :mod:`shipcaptaincrew.bots.base` are used directly otherwise.  The
decisions always come from the bot's own ``choose`` (or the solver's table); nothing here
decides by a rule of its own.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from ..actions import Action
from ..engine import legal_actions
from ..rules import Rules
from ..state import MatchState, TurnState

__all__ = [
    "BOT_SPECS",
    "InvalidBotError",
    "Policy",
    "TableContext",
    "context_of",
    "make_policy",
]

#: The bot specifications the simulator understands (``threshold:T`` takes T in 0..13).
BOT_SPECS = ("random", "timid", "tip", "threshold:T", "ev", "optimal",
             "easy", "medium", "hard", "perfect")

_THRESHOLD = re.compile(r"^threshold:(\d+)$")


class InvalidBotError(ValueError):
    """A bot specification that names no bot the simulator can play."""


@dataclass(frozen=True)
class TableContext:
    """What a player at the table knows when a turn starts (the ``optimal`` bot's inputs).

    ``posted_max`` is the best number posted so far in the contest (0 when nobody has posted
    or all failed), ``tied`` how many posted it, ``players_after`` how many still play after
    this turn.
    """

    posted_max: int
    tied: int
    players_after: int


def context_of(state: MatchState) -> TableContext:
    """The table context of the player whose turn starts in ``state``."""
    posted = list(state.posted_scores.values())
    top = max(posted, default=0)
    tied = sum(1 for p in posted if p == top) if top > 0 else 0
    return TableContext(top, tied, state.players_after)


class Policy(Protocol):
    """A bot's decisions as probabilities over the legal actions of a turn state."""

    name: str
    #: True when decisions depend on the :class:`TableContext` (``optimal``).
    contextual: bool

    def decide(
        self, turn: TurnState, context: TableContext | None
    ) -> tuple[tuple[Action, Fraction], ...]:
        """(action, probability) pairs over ``legal_actions(turn)``, summing to 1."""
        ...


class _BotPolicy:
    """A deterministic bot's ``choose`` turned into a table row (probability 1)."""

    contextual = False

    def __init__(self, name: str, bot: Any) -> None:
        self.name = name
        self._bot = bot

    def decide(
        self, turn: TurnState, context: TableContext | None
    ) -> tuple[tuple[Action, Fraction], ...]:
        # A fixed seed: deterministic bots ignore the rng for turn decisions.
        return ((self._bot.choose(turn, random.Random(0)), Fraction(1)),)


class _UniformPolicy:
    """The ``random`` bot: every legal action equally likely."""

    contextual = False

    def __init__(self, name: str) -> None:
        self.name = name

    def decide(
        self, turn: TurnState, context: TableContext | None
    ) -> tuple[tuple[Action, Fraction], ...]:
        acts = legal_actions(turn)
        return tuple((a, Fraction(1, len(acts))) for a in acts)


class _OptimalPolicy:
    """The solver's optimal decision for each (table context, turn state)."""

    contextual = True

    def __init__(self, name: str, rules: Rules, players: int, lookup: Any) -> None:
        self.name = name
        self._rules = rules
        self._players = players
        self._lookup = lookup

    def decide(
        self, turn: TurnState, context: TableContext | None
    ) -> tuple[tuple[Action, Fraction], ...]:
        ctx = context or TableContext(0, 0, self._players - 1)
        action = self._lookup(self._rules, ctx.posted_max, ctx.tied, ctx.players_after, turn)
        return ((action, Fraction(1)),)


def _solver_make_bot() -> Any:
    try:
        from ..bots import make_bot  # type: ignore[attr-defined]
    except ImportError:
        return None
    return make_bot


def _solver_lookup() -> Any:
    try:
        from .. import solver
    except ImportError:
        return None
    for name in ("optimal_action", "optimal_decision", "best_action"):
        fn = getattr(solver, name, None)
        if fn is not None:
            return fn
    return None


_ALIASES = {"easy": "random", "medium": "tip", "hard": "ev", "perfect": "optimal"}


def make_policy(spec: str, rules: Rules, players: int = 2) -> Policy:
    """The policy of a bot specification (see :data:`BOT_SPECS`) under ``rules``.

    >>> make_policy("tip", Rules()).name
    'tip'
    >>> make_policy("threshold:99", Rules())
    Traceback (most recent call last):
    ...
    shipcaptaincrew.sim.policy.InvalidBotError: threshold:99: the threshold must be 0..13
    """
    from ..bots.base import ThresholdBot, TimidBot, TipBot

    text = spec.strip().lower()
    base = _ALIASES.get(text, text)
    m = _THRESHOLD.match(base)
    if m:
        t = int(m.group(1))
        if not 0 <= t <= 13 + rules.same_roll_bonus:
            raise InvalidBotError(f"{spec}: the threshold must be 0..{13 + rules.same_roll_bonus}")
        return _BotPolicy(text, ThresholdBot(t))
    if base == "random":
        return _UniformPolicy(text)
    if base == "timid":
        return _BotPolicy(text, TimidBot())
    if base == "tip":
        return _BotPolicy(text, TipBot())
    if base == "ev":
        make_bot = _solver_make_bot()
        if make_bot is not None:
            return _BotPolicy(text, make_bot("ev"))
        from .tables import ExpectedScoreBot

        return _BotPolicy(text, ExpectedScoreBot(rules))
    if base == "optimal":
        lookup = _solver_lookup()
        if lookup is None:
            raise InvalidBotError(
                f"{spec}: the optimal bot needs the exact solver's tables (shipcaptaincrew.solver)"
            )
        return _OptimalPolicy(text, rules, players, lookup)
    raise InvalidBotError(
        f"unknown bot {spec!r}; known: random, timid, tip, threshold:T, ev, optimal "
        "(or easy, medium, hard, perfect)"
    )
