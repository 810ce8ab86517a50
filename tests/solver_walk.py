"""An exact walk of the engine's own matches under a solved play (shared by the match tests).

``initial_state(rules, n, starter=0)`` (or any state the engine reached) is walked outcome by
outcome: every turn collapsed to the score distribution the solver says the seat plays there
(read off the solution at the engine's own state through ``match_view`` and
:func:`~shipcaptaincrew.solver.match_advice.turn_distribution`), every score posted with
:func:`~shipcaptaincrew.engine.post_score`, every other chance node followed roll by roll.
The same play on both sides, so a walk checks the model's transitions (totals, tie-breaks,
the format's verdict, the rotation), not the play's optimality.

Contest starts that come back (a replayed round, a replayed tie-break, a carried round with
the same totals) are unknowns of a linear system keyed by the engine's
:func:`~shipcaptaincrew.engine.match_position` (or a coarser ``key`` a test justifies),
solved at once.  That mechanism is :class:`Walk`, which ``test_solver_rounds_exact.py`` walks
too (its turns enumerated from the engine's turn instead of read off a solution).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from shipcaptaincrew.actions import NextRound, StopMatch
from shipcaptaincrew.engine import (
    apply,
    chance_outcomes,
    current_player,
    initial_state,
    initial_turn,
    is_chance,
    is_terminal,
    match_position,
    post_score,
)
from shipcaptaincrew.facts import SESSION_ROUNDS
from shipcaptaincrew.rules import Rules
from shipcaptaincrew.solver.match_advice import turn_distribution
from shipcaptaincrew.solver.match_session import call_stops
from shipcaptaincrew.solver.match_solve import MatchSolution
from shipcaptaincrew.solver.match_view import match_view
from shipcaptaincrew.solver.policies import PolicyKind
from shipcaptaincrew.state import MatchState, Phase

#: A win vector as an affine expression: (matches won per seat, {contest start: coefficient}).
Affine = tuple[np.ndarray, dict[MatchState, float]]


class Walk:
    """Each seat's exact chance of winning a match, walked through the engine: turns by
    :meth:`_turn_moves` (a subclass's), every chance node roll by roll, decisions between
    rounds by :meth:`_decision_moves`; contest starts solved as one linear system."""

    def __init__(
        self, rules: Rules, n: int, key: Callable[[MatchState], MatchState] = match_position
    ) -> None:
        self.rules, self.n = rules, n
        self.key = key
        self._memo: dict[MatchState, Affine] = {}
        #: The first state met of every contest start (by its key).
        self._starts: dict[MatchState, MatchState] = {}

    def _turn_moves(self, state: MatchState) -> list[tuple[MatchState, float]]:
        """Where a turn of the match leads (a subclass says how the seat plays it)."""
        raise NotImplementedError

    def _decision_moves(self, state: MatchState) -> list[tuple[MatchState, float]]:
        """A decision outside the turns (none, unless a subclass plays one)."""
        raise AssertionError(f"unexpected decision in phase {state.phase.value}")

    def _moves(self, state: MatchState) -> list[tuple[MatchState, float]]:
        if state.phase is Phase.TURN:
            return self._turn_moves(state)
        if not is_chance(state):
            return self._decision_moves(state)
        merged: dict[MatchState, float] = {}
        for roll, p in chance_outcomes(state):
            after = apply(state, roll)
            merged[after] = merged.get(after, 0.0) + float(p)
        return list(merged.items())

    def _expand(self, state: MatchState) -> Affine:
        won = np.zeros(self.n)
        refs: dict[MatchState, float] = {}
        for child, p in self._moves(state):
            c_won, c_refs = self._value(child)
            won += p * c_won
            for k, q in c_refs.items():
                refs[k] = refs.get(k, 0.0) + p * q
        return won, refs

    @staticmethod
    def is_start(state: MatchState) -> bool:
        """A contest with nothing posted yet: where a replayed round or tie-break comes back."""
        c = state.contest
        return c is not None and not c.scores and state.turn in (None, initial_turn(state.rules))

    def _value(self, state: MatchState) -> Affine:
        if is_terminal(state):
            won = np.zeros(self.n)
            assert state.winner is not None
            won[state.winner] = 1.0
            return won, {}
        key = self.key(state)
        if self.is_start(state):
            self._starts.setdefault(key, state)
            return np.zeros(self.n), {key: 1.0}
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self._expand(state)
        return hit

    def seat_win_probability(self, start: MatchState | None = None) -> np.ndarray:
        """Each seat's chance from ``start`` (a contest's start; default: the match's), solving
        ``(I - P) V = R`` over every contest start the walk reaches."""
        if start is None:
            start = initial_state(self.rules, self.n, starter=0)
        rows: dict[MatchState, Affine] = {}
        todo = [self.key(start)]
        self._starts[todo[0]] = start
        while todo:
            key = todo.pop()
            if key in rows:
                continue
            rows[key] = self._expand(self._starts[key])
            todo.extend(ref for ref in rows[key][1] if ref not in rows)
        keys = list(rows)
        index = {k: i for i, k in enumerate(keys)}
        a = np.eye(len(keys))
        r = np.zeros((len(keys), self.n))
        for i, k in enumerate(keys):
            won, refs = rows[k]
            r[i] = won
            for ref, q in refs.items():
                a[i, index[ref]] -= q
        out: np.ndarray = np.linalg.solve(a, r)[index[self.key(start)]]
        return out


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
