"""Policies as tables: what a bot decides in each turn state, as exact action probabilities.

The vectorised simulator never asks a bot mid-simulation.  It asks once per (turn state,
table context) while the transition tables are built, so a bot's choice becomes a row of a
table.  A *deterministic* bot (``timid``, ``tip``, ``threshold:T``, ``ev``) gives probability
1 to one action; ``random`` spreads it evenly over the legal actions; ``optimal`` depends on
what the player sees of the contest (what has been posted so far): the solver's
:class:`~shipcaptaincrew.solver.ContestView`, read off a match state by
:func:`~shipcaptaincrew.solver.contest_view`.

``optimal`` plays for the match: its turn is not a row of a table but the score distribution
the exact match solver plays at the match position (:class:`MatchPolicy`; the runner samples
a score from it).  ``optimal:round``, and ``optimal`` where the match model has no positions
(one round, chips, ``tie_break=round``), play the round-maximiser's table lookup; at a table
too large for the exact solver ``optimal`` draws from the estimate of
:mod:`shipcaptaincrew.solver.match.estimate`.

Bots are made by :func:`shipcaptaincrew.bots.make_bot`.  The decisions always come from the
bot's own ``choose`` (or, for ``optimal``, the solver's table lookup
:func:`shipcaptaincrew.solver.optimal_action` and the match solver); nothing here decides by a
rule of its own.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

from ..actions import Action
from ..bots import Bot, make_bot
from ..engine import legal_actions
from ..rules import Rules
from ..solver import ContestView, SolverError, optimal_action, policy_action
from ..state import MatchState, TurnState

if TYPE_CHECKING:
    from ..solver.match.solve import MatchSolution

__all__ = [
    "MatchPolicy",
    "Policy",
    "SolverPolicy",
    "make_policy",
]


class Policy(Protocol):
    """A bot's decisions as probabilities over the legal actions of a turn state."""

    name: str
    #: True when decisions depend on the :class:`~shipcaptaincrew.solver.ContestView`.
    contextual: bool

    def decide(
        self, turn: TurnState, context: ContestView | None
    ) -> tuple[tuple[Action, Fraction], ...]:
        """(action, probability) pairs over ``legal_actions(turn)``, summing to 1."""
        ...


class _BotPolicy:
    """A deterministic bot's ``choose`` turned into a table row (probability 1)."""

    contextual = False

    def __init__(self, name: str, bot: Bot) -> None:
        self.name = name
        self._bot = bot

    def decide(
        self, turn: TurnState, context: ContestView | None
    ) -> tuple[tuple[Action, Fraction], ...]:
        # A fixed seed: deterministic bots ignore the rng for turn decisions.
        return ((self._bot.choose(turn, random.Random(0)), Fraction(1)),)


class _UniformPolicy:
    """The ``random`` bot: every legal action equally likely."""

    contextual = False

    def __init__(self, name: str) -> None:
        self.name = name

    def decide(
        self, turn: TurnState, context: ContestView | None
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
        self, turn: TurnState, context: ContestView | None
    ) -> tuple[tuple[Action, Fraction], ...]:
        view = context or ContestView(self._players, 0, 0, self._players - 1)
        return ((optimal_action(self._rules, view, turn), Fraction(1)),)


class MatchPolicy:
    """The match-optimal turn: the score distribution the match solver plays at a state.

    Distributions are cached per match view (the same position and posted scores come back
    all the time in a simulation).
    """

    contextual = True

    def __init__(self, name: str, rules: Rules, players: int) -> None:
        from ..solver import turn_graph
        from ..solver.match.advice import match_solution
        from ..solver.match.estimate import ESTIMATED_FORMATS
        from ..solver.match.model import BeyondExact

        self.name = name
        self._rules = rules
        self._sol: MatchSolution | None
        try:
            self._sol = match_solution(rules, players)  # raises SolverError without a model
        except BeyondExact:
            if rules.format.kind not in ESTIMATED_FORMATS:
                raise  # nor an estimate: the round-maximiser's table plays (make_policy)
            self._sol = None  # too large to solve exactly: the estimate plays
        self.scores = tuple(int(x) for x in turn_graph(rules).scores)
        self._cdf: dict[object, list[float]] = {}

    @property
    def estimated(self) -> bool:
        """The table is beyond the exact solver: the match estimate plays."""
        return self._sol is None

    def cdf(self, state: MatchState) -> list[float]:
        """The cumulative score distribution (over :attr:`scores`) for the turn at ``state``."""
        from ..solver.match.advice import turn_distribution
        from ..solver.match.estimate import estimated_distribution
        from ..solver.match.view import match_view

        view = match_view(state)
        hit = self._cdf.get(view)
        if hit is None:
            acc, hit = 0.0, []
            dist = (
                turn_distribution(self._sol, view)
                if self._sol is not None
                else estimated_distribution(self._rules, view)
            )
            for q in dist.tolist():
                acc += q
                hit.append(acc)
            if len(self._cdf) > 200_000:
                self._cdf.clear()
            self._cdf[view] = hit
        return hit

    def decide(
        self, turn: TurnState, context: ContestView | None
    ) -> tuple[tuple[Action, Fraction], ...]:
        raise SolverError("the match-optimal turn is a score distribution, not a table row")


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
        self, turn: TurnState, context: ContestView | None
    ) -> tuple[tuple[Action, Fraction], ...]:
        return ((policy_action(self._rules, self._policy, turn), Fraction(1)),)


def make_policy(spec: str, rules: Rules, players: int = 2) -> Policy:
    """The table policy of a bot made by :func:`shipcaptaincrew.bots.make_bot`.

    >>> make_policy("medium", Rules()).name
    'tip'
    >>> make_policy("optimal", Rules(), players=3).contextual
    True
    """
    bot = make_bot(spec)
    if bot.name == "random":
        return _UniformPolicy(bot.name)
    if bot.name == "optimal":
        from ..solver.match.advice import has_match

        if has_match(rules):
            try:
                return MatchPolicy(bot.name, rules, players)
            except SolverError:
                pass  # no match model for these rules: the round-maximiser's table
        return _OptimalPolicy(bot.name, rules, players)
    if bot.name == "optimal:round":
        return _OptimalPolicy(bot.name, rules, players)
    return _BotPolicy(bot.name, bot)
