"""Bots backed by the exact solver: ``ev`` (best expected score) and ``optimal`` (best win odds).

The ``optimal`` bot reads the contest -- the scores posted, how many are tied at the top, how
many play after it, and the contest size -- and plays the subgame-perfect win-maximising policy
of :mod:`shipcaptaincrew.solver.rounds`.  In a standalone turn (no table) it plays to complete
the crew, then for the best expected score.
"""

from __future__ import annotations

import random

from ..actions import Action
from ..engine import legal_actions
from ..messages import Message
from ..solver import Choice, advise, policy_action, turn_graph
from ..state import MatchState, TurnState
from . import reasons
from .base import (
    NoDecisionError,
    _another_round,
    _choices,
    _explain_hand_out,
    _is_hand_out,
    _turn,
    between_rounds,
    hand_out_target,
)

__all__ = ["EVBot", "OptimalBot"]


class EVBot:
    """Maximises the expected score of its own turn (difficulty ``hard``)."""

    name = "ev"

    def choose(self, state: MatchState | TurnState, rng: random.Random) -> Action:
        """The expected-score-maximising action (exact; ties stand)."""
        _choices(state)
        if _is_hand_out(state):
            assert isinstance(state, MatchState)
            return hand_out_target(state)
        again = between_rounds(state)
        if again is not None:
            return again
        t = _turn(state)
        return policy_action(t.rules, "ev", t)

    def _values(self, t: TurnState) -> list[tuple[Action, float]]:
        graph = turn_graph(t.rules)
        from ..solver import policy_choices

        choice = policy_choices(t.rules, "ev")
        e, _ = graph.evaluate([float(x) for x in graph.scores], choice)
        node = graph.node(t)
        return [(a, e[c]) for a, c in zip(graph.actions[node], graph.kids[node])]

    def explain(self, state: MatchState | TurnState) -> Message:
        """The expected score of the choice against that of the best other choice."""
        if not legal_actions(state):
            return reasons.no_decision()
        if _is_hand_out(state):
            assert isinstance(state, MatchState)
            return _explain_hand_out(state)
        if between_rounds(state) is not None:
            return _another_round(state)
        t = _turn(state)
        best = self.choose(state, random.Random(0))
        vals = self._values(t)
        mine = dict(vals)[best]
        others = [(a, v) for a, v in vals if a != best]
        if not others:
            return reasons.compared(reasons.Measure.EXPECTED, mine)
        other, theirs = max(others, key=lambda av: av[1])
        return reasons.compared(reasons.Measure.EXPECTED, mine, other, theirs)


class OptimalBot:
    """Maximises its chance of winning the contest being played (difficulty ``perfect``)."""

    name = "optimal"

    def advice(self, state: MatchState | TurnState) -> list[Choice]:
        """Every legal choice with win probability and expected score, best first."""
        return advise(state)

    def choose(self, state: MatchState | TurnState, rng: random.Random) -> Action:
        """The first choice of :meth:`advice` (sips go to the match leader)."""
        _choices(state)
        if _is_hand_out(state):
            assert isinstance(state, MatchState)
            return hand_out_target(state)
        again = between_rounds(state)
        if again is not None:
            return again
        _turn(state)
        ranked = self.advice(state)
        if not ranked:
            raise NoDecisionError("there is no decision to make in this state")
        return ranked[0].action

    def explain(self, state: MatchState | TurnState) -> Message:
        """The exact chance to win of the choice against that of the runner-up.

        A standalone turn has no table to beat: there completing the crew is the win, and
        the expected score decides among the ways to get there.
        """
        if not legal_actions(state):
            return reasons.no_decision()
        if _is_hand_out(state):
            assert isinstance(state, MatchState)
            return _explain_hand_out(state)
        if between_rounds(state) is not None:
            return _another_round(state)
        _turn(state)
        ranked = self.advice(state)
        best = ranked[0]
        if isinstance(state, TurnState):
            return reasons.solo_reason(best.win_probability, best.expected_score)
        if len(ranked) == 1:
            return reasons.compared(reasons.Measure.WIN, best.win_probability)
        alt = ranked[1]
        return reasons.compared(
            reasons.Measure.WIN, best.win_probability, alt.action, alt.win_probability
        )
