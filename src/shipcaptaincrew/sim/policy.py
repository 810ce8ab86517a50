"""Policies as tables: what a bot decides in each turn state, as exact action probabilities.

The vectorised simulator never asks a bot mid-simulation.  It asks once per (turn state,
table context) while the transition tables are built, so a bot's choice becomes a row of a
table.  A *deterministic* bot (``timid``, ``tip``, ``threshold:T``, ``ev``) gives probability
1 to one action; ``random`` spreads it evenly over the legal actions; ``optimal`` depends on the
table context (what has been posted in the contest so far), see :class:`TableContext`.

Bots are made by :func:`shipcaptaincrew.bots.make_bot`.  The decisions always come from the
bot's own ``choose`` (or, for ``optimal``, the solver's table lookup
:func:`shipcaptaincrew.solver.optimal_action`); nothing here decides by a rule of its own.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from ..actions import Action
from ..engine import legal_actions
from ..rules import Rules
from ..state import MatchState, Purpose, TurnState

__all__ = [
    "Policy",
    "SolverPolicy",
    "TableContext",
    "context_of",
    "make_policy",
]


@dataclass(frozen=True)
class TableContext:
    """What a player at the table knows when a turn starts (the ``optimal`` bot's inputs).

    The solver's table convention (:func:`shipcaptaincrew.solver.optimal_action`): the
    contest has ``players`` seats; ``posted_max`` is the best score posted so far and ``tied``
    how many posted it (with ``posted_max = 0``: everyone who has played, all failed);
    ``players_after`` still play after this turn; ``sub`` marks a tie-break contest.
    """

    players: int
    posted_max: int
    tied: int
    players_after: int
    sub: bool = False


def context_of(state: MatchState) -> TableContext:
    """The table context of the player whose turn starts in ``state``."""
    contest = state.contest
    if contest is None:
        raise ValueError("no contest is being played: there is no table context")
    posted = contest.scores
    top = max(posted, default=0)
    tied = sum(1 for p in posted if p == top) if top > 0 else len(posted)
    return TableContext(
        len(contest.seats), top, tied, state.players_after, contest.purpose is not Purpose.ROUND
    )


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
    """The solver's win-maximising decision for each (table context, turn state)."""

    contextual = True

    def __init__(self, name: str, rules: Rules, players: int) -> None:
        self.name = name
        self._rules = rules
        self._players = players

    def decide(
        self, turn: TurnState, context: TableContext | None
    ) -> tuple[tuple[Action, Fraction], ...]:
        from ..solver import optimal_action

        ctx = context or TableContext(self._players, 0, 0, self._players - 1)
        action = optimal_action(
            self._rules, ctx.players, ctx.posted_max, ctx.tied, ctx.players_after, turn, sub=ctx.sub
        )
        return ((action, Fraction(1)),)


class SolverPolicy:
    """A fixed policy of the exact solver (``never``, ``ev``, ``threshold:T``) as a table.

    These are the policies :func:`shipcaptaincrew.solver.turn_odds` and
    :func:`~shipcaptaincrew.solver.equilibrium` answer for, so simulated and exact figures
    can be compared like for like.
    """

    contextual = False

    def __init__(self, rules: Rules, policy: str) -> None:
        self.name = f"solver:{policy}"
        self._rules = rules
        self._policy = policy

    def decide(
        self, turn: TurnState, context: TableContext | None
    ) -> tuple[tuple[Action, Fraction], ...]:
        from ..solver import policy_action

        return ((policy_action(self._rules, self._policy, turn), Fraction(1)),)


def make_policy(spec: str, rules: Rules, players: int = 2) -> Policy:
    """The table policy of a bot made by :func:`shipcaptaincrew.bots.make_bot`.

    >>> make_policy("medium", Rules()).name
    'tip'
    >>> make_policy("optimal", Rules(), players=3).contextual
    True
    """
    from ..bots import make_bot

    bot = make_bot(spec)
    if bot.name == "random":
        return _UniformPolicy(bot.name)
    if bot.name == "optimal":
        return _OptimalPolicy(bot.name, rules, players)
    return _BotPolicy(bot.name, bot)


def make_bot_object(spec: str, rules: Rules) -> Any:
    """The :class:`~shipcaptaincrew.bots.Bot` itself (plain engine loop, sips to hand out)."""
    from ..bots import make_bot

    return make_bot(spec)
