"""An exact walk of the engine's own matches under a solved play (shared by the match tests).

``initial_state(rules, n, starter=0)`` (or any state the engine reached) is walked outcome by
outcome: every turn collapsed to the score distribution the solver says the seat plays there
(read off the solution at the engine's own state through ``match_view`` and
:func:`~shipcaptaincrew.solver.match.advice.turn_distribution`), every score posted with
:func:`~shipcaptaincrew.engine.post_score`, every other chance node followed roll by roll.
The same play on both sides, so a walk checks the model's transitions (totals, tie-breaks,
the format's verdict, the rotation), not the play's optimality.

Contest starts that come back (a replayed round, a replayed tie-break, a carried round with
the same totals) are solved as they close, keyed by the engine's
:func:`~shipcaptaincrew.engine.match_position` (or a coarser ``key`` a test justifies): that
is the package's :class:`~shipcaptaincrew.solver.walk.Walk`, which
``test_solver_rounds_exact.py`` walks too (its turns enumerated from the engine's turn
instead of read off a solution).
"""

from __future__ import annotations

from collections.abc import Callable

from shipcaptaincrew.actions import NextRound, StopMatch
from shipcaptaincrew.engine import apply, current_player, match_position, post_score
from shipcaptaincrew.facts import SESSION_ROUNDS
from shipcaptaincrew.solver.match.advice import turn_distribution
from shipcaptaincrew.solver.match.session import call_stops
from shipcaptaincrew.solver.match.solve import MatchSolution
from shipcaptaincrew.solver.match.view import match_view
from shipcaptaincrew.solver.policies import PolicyKind
from shipcaptaincrew.solver.walk import Walk
from shipcaptaincrew.state import MatchState, Phase


class EngineWalk(Walk):
    """A match walked under a solved play: every turn the score distribution the solution
    gives the seat there, a session's calls as the solved session makes them."""

    def __init__(
        self, sol: MatchSolution, key: Callable[[MatchState], MatchState] = match_position
    ) -> None:
        super().__init__(sol.rules, sol.players, key)
        self.sol = sol
        self.scores = tuple(int(x) for x in sol.model.scores)

    def _turn_moves(self, state: MatchState) -> list[tuple[MatchState, float]]:
        d = turn_distribution(self.sol, match_view(state))
        return [(post_score(state, x), float(q)) for x, q in zip(self.scores, d) if q > 0]

    def _decision_moves(self, state: MatchState) -> list[tuple[MatchState, float]]:
        if state.phase is not Phase.ANOTHER_ROUND:
            return super()._decision_moves(state)
        # A session's call: the solved session's (an optimal caller weighs it; a fixed policy
        # goes on; the programs' last round stops it), as the bot plays it.
        optimal = self.sol.policies[current_player(state)].kind is PolicyKind.OPTIMAL
        stops = self._last(state) or (optimal and call_stops(self.sol, state))
        return [(apply(state, StopMatch() if stops else NextRound()), 1.0)]

    @staticmethod
    def _last(state: MatchState) -> bool:
        return sum(1 for r in state.results if not r.tie_round) >= SESSION_ROUNDS
