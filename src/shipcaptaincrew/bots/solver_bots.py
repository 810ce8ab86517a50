"""Bots backed by the exact solver: ``ev`` (best expected score) and ``optimal`` (best win odds).

The ``optimal`` bot plays for the match: it reads the match (totals, round, wins, the scores
posted, the seats still to come) and plays the subgame-perfect match-maximising policy of
:mod:`shipcaptaincrew.solver.match.solve` -- match chance first, then round chance, then
expected score, then stand.  ``optimal:round`` keeps the round-maximiser of
:mod:`shipcaptaincrew.solver.rounds` (round chance, then expected score, then stand).  At a
table too large for the exact solver (four or more players of a match) ``optimal`` plays by the
estimate of :mod:`shipcaptaincrew.solver.match.estimate`.  Where the match model has no
positions (chips, ``tie_break=round``) both play the round; in a session ``optimal`` calls
another round or a stop as the solved session does.  In a standalone turn (no table) they
play to complete the crew, then for the best expected score.
"""

from __future__ import annotations

import random

from ..actions import Action, StopMatch
from ..engine import current_player, legal_actions
from ..messages import Message
from ..solver import Choice, Objective, SolverError, advise, policy_action, turn_graph
from ..solver.match.advice import Estimate, match_solution
from ..solver.match.session import call_stops
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
            return hand_out_target(state, rng)
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
    """Maximises its chance of winning the match (difficulty ``perfect``), or the round."""

    def __init__(
        self, objective: Objective = Objective.MATCH, estimate: Estimate = Estimate.BEYOND
    ) -> None:
        self.objective = objective
        self.estimate = estimate
        self.name = "optimal" if objective is Objective.MATCH else "optimal:round"

    def advice(self, state: MatchState | TurnState) -> list[Choice]:
        """Every legal choice with its chances and expected score, best first."""
        return advise(state, objective=self.objective, estimate=self.estimate)

    def choose(self, state: MatchState | TurnState, rng: random.Random) -> Action:
        """The first choice of :meth:`advice` (sips go to the match leader)."""
        _choices(state)
        if _is_hand_out(state):
            assert isinstance(state, MatchState)
            return hand_out_target(state, rng)
        again = between_rounds(state)
        if again is not None:
            return StopMatch() if self._stops(state) else again
        _turn(state)
        ranked = self.advice(state)
        if not ranked:
            raise NoDecisionError("there is no decision to make in this state")
        return ranked[0].action

    def explain(self, state: MatchState | TurnState) -> Message:
        """The exact chance to win of the choice against that of the runner-up.

        The match chance when the bot plays for the match and the format has more than one
        round, else the round's.  A standalone turn has no table to beat: there completing
        the crew is the win, and the expected score decides among the ways to get there.
        """
        if not legal_actions(state):
            return reasons.no_decision()
        if _is_hand_out(state):
            assert isinstance(state, MatchState)
            return _explain_hand_out(state)
        if between_rounds(state) is not None:
            if self._stops(state):
                assert isinstance(state, MatchState)
                return reasons.stops_leading(state.totals[current_player(state)])
            return _another_round(state)
        _turn(state)
        ranked = self.advice(state)
        best = ranked[0]
        if isinstance(state, TurnState):
            return reasons.solo_reason(*best.numbers)
        measure, chance = self._measure(best)
        if len(ranked) == 1:
            return reasons.compared(measure, chance)
        alt = ranked[1]
        return reasons.compared(measure, chance, alt.action, self._measure(alt)[1])

    def _stops(self, state: MatchState | TurnState) -> bool:
        """A session's call, playing for the match: what the solved session plays
        (:func:`~shipcaptaincrew.solver.match.session.call_stops`: stop where that is worth
        more than going on).  Where the session is not solved (a table too large), stop
        when this player alone has the highest total -- the totals then decide, so stopping
        wins for sure; behind, stopping loses for sure; level, another round, as every bot."""
        if self.objective is not Objective.MATCH or not isinstance(state, MatchState):
            return False
        try:
            return call_stops(match_solution(state.rules, state.players), state)
        except SolverError:
            me = current_player(state)
            return all(state.totals[me] > t for s, t in enumerate(state.totals) if s != me)

    def _measure(self, c: Choice) -> tuple[reasons.Measure, float]:
        if self.objective is Objective.MATCH and c.match_win_probability is not None:
            if c.match_estimated:
                return reasons.Measure.MATCH_ESTIMATE, c.match_win_probability
            return reasons.Measure.MATCH, c.match_win_probability
        return reasons.Measure.WIN, c.round_win_probability or c.numbers[0]
