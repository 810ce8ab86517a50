"""The match model of :mod:`shipcaptaincrew.solver.match_model` against the engine's matches.

The solver never plays a match: it is a model of how the engine ends rounds and matches.  Here
the engine itself is walked exactly -- ``initial_state(rules, n, starter=0)`` under
``starter=chosen``, every turn collapsed to the score distribution the solver says the seat
plays there (read off the solution at the engine's own state through ``match_view``), every
score posted with :func:`~shipcaptaincrew.engine.post_score`, every other chance node
followed outcome by outcome -- and each seat's exact chance of winning the match must equal the
solver's to 1e-9.  The same play on both sides, so this checks the model's transitions (the
totals, the tie-breaks, the format's verdict, the rotation), not the play's optimality, which
``test_solver_match_exact.py`` checks against an independent backward induction.

Contest starts that come back (a replayed round, a replayed tie-break, a carried round with
the same totals) are unknowns of a linear system keyed by the engine's
:func:`~shipcaptaincrew.engine.match_position`, solved at once, as in
``test_solver_rounds_exact.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from shipcaptaincrew.engine import (
    apply,
    chance_outcomes,
    initial_state,
    initial_turn,
    is_chance,
    is_terminal,
    match_position,
    post_score,
)
from shipcaptaincrew.rules import Rules, find_rules
from shipcaptaincrew.solver import SolverError, equilibrium
from shipcaptaincrew.solver.match_model import MatchModel
from shipcaptaincrew.solver.match_play import tie_contest, tie_shares
from shipcaptaincrew.solver.match_solve import MatchSolution, solve_match
from shipcaptaincrew.solver.match_view import ContestKind, locate, match_view, node_of
from shipcaptaincrew.solver.policies import SEAT_KINDS, Policy, parse_policy
from shipcaptaincrew.state import MatchState, Phase

CLASSIC = find_rules("classic").replace(starter="chosen")


def policies(text: str) -> tuple[Policy, ...]:
    return tuple(parse_policy(p, allow=SEAT_KINDS) for p in text.split(","))


Affine = tuple[np.ndarray, dict[MatchState, float]]


class EngineWalk:
    """Each seat's exact chance of winning a match, walked through the engine."""

    def __init__(self, sol: MatchSolution) -> None:
        self.sol = sol
        self.rules, self.n = sol.rules, sol.players
        self.scores = tuple(int(x) for x in sol.model.scores)
        self._memo: dict[MatchState, Affine] = {}
        self._starts: dict[MatchState, MatchState] = {}

    def _dist(self, state: MatchState) -> np.ndarray:
        view = match_view(state)
        p = len(view.posted)
        node = node_of(view.posted, self.scores)
        if view.contest is ContestKind.ROUND:
            return self.sol.tree(locate(self.sol.model, view)).dists[p][0, node]
        assert view.contest in (ContestKind.ROUND_TIE, ContestKind.MATCH_TIE)
        pols = tuple(self.sol.policies[(view.starter + q) % self.n] for q in view.seats)
        return tie_contest(self.rules, pols).dists[p][0, node]

    def _moves(self, state: MatchState) -> list[tuple[MatchState, float]]:
        if state.phase is Phase.TURN:
            d = self._dist(state)
            return [(post_score(state, x), float(q)) for x, q in zip(self.scores, d) if q > 0]
        assert is_chance(state), state.phase
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

    def _start(self, state: MatchState) -> bool:
        c = state.contest
        return c is not None and not c.scores and state.turn in (None, initial_turn(state.rules))

    def _value(self, state: MatchState) -> Affine:
        if is_terminal(state):
            won = np.zeros(self.n)
            assert state.winner is not None
            won[state.winner] = 1.0
            return won, {}
        key = match_position(state)
        if self._start(state):
            self._starts.setdefault(key, state)
            return np.zeros(self.n), {key: 1.0}
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self._expand(state)
        return hit

    def seat_win_probability(self) -> np.ndarray:
        start = initial_state(self.rules, self.n, starter=0)
        rows: dict[MatchState, Affine] = {}
        todo = [match_position(start)]
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
        return np.linalg.solve(a, r)[index[match_position(start)]]


#: Small formats (the walk posts every score through the engine, about 40 us each, and keeps
#: the totals of every tie-break it meets), each rule reading once, and mixed tables.  Larger
#: ones agree too (three players of first_to:3: 3 minutes here).
CASES: list[tuple[Rules, str]] = [
    (CLASSIC.replace(format="single"), "optimal,optimal"),
    (CLASSIC.replace(format="rounds:2"), "optimal,optimal"),
    (CLASSIC.replace(format="first_to:6"), "optimal,optimal"),
    (CLASSIC.replace(format="wins:2"), "optimal,optimal"),
    (CLASSIC.replace(format="first_to:4", tie_break="cargo_rolloff"), "optimal,optimal"),
    (CLASSIC.replace(format="first_to:6", tie_break="no_winner"), "optimal,optimal"),
    (
        CLASSIC.replace(format="wins:2", tie_break="no_winner", all_fail="carry_pot"),
        "optimal,optimal",
    ),
    (
        CLASSIC.replace(format="first_to:6", all_fail="carry_pot", rotation="previous"),
        "optimal,optimal",
    ),
    (CLASSIC.replace(format="first_to:4", rotation="loser"), "optimal,optimal"),
    (CLASSIC.replace(format="wins:2", rotation="none"), "optimal,optimal"),
    (CLASSIC.replace(format="first_to:4", half_cargo=True), "optimal,optimal"),
    (CLASSIC.replace(format="first_to:6"), "optimal,ev"),
    (CLASSIC.replace(format="rounds:1"), "ev,optimal:round"),
    (CLASSIC.replace(format="wins:2", tie_break="cargo_rolloff"), "optimal,threshold:7"),
    (CLASSIC.replace(format="single", all_fail="carry_pot"), "optimal,ev"),
    (CLASSIC.replace(format="rounds:1"), "optimal,optimal,optimal"),
    (
        CLASSIC.replace(format="first_to:2", all_fail="carry_pot", rotation="previous"),
        "optimal,ev,optimal:round",
    ),
]


@pytest.mark.parametrize(("rules", "table"), CASES, ids=lambda x: str(x))
def test_the_model_is_the_engines_match(rules: Rules, table: str) -> None:
    sol = solve_match(rules, policies(table), use_disk=False)
    engine = EngineWalk(sol).seat_win_probability()
    assert abs(engine.sum() - 1) < 1e-12
    assert np.abs(engine - np.array(sol.seat_win_probability)).max() < 1e-9, (
        engine,
        sol.seat_win_probability,
    )


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("tie_break", ["replay", "no_winner"])
def test_a_single_round_is_the_round_equilibrium(players: int, tie_break: str) -> None:
    rules = CLASSIC.replace(tie_break=tie_break)
    sol = solve_match(rules, policies(",".join(["optimal"] * players)), use_disk=False)
    eq = equilibrium(rules, players, use_disk=False)
    assert np.allclose(sol.seat_win_probability, eq.seat_win_probability, atol=1e-12)
    assert np.allclose(sol.round_win_probability, eq.seat_win_probability, atol=1e-12)


@pytest.mark.parametrize("players", [2, 3])
def test_tie_breaks_played_alike_are_the_round_models_sub_round(players: int) -> None:
    for policy in ("optimal", "ev", "optimal:round"):
        shares = tie_shares(CLASSIC, policies(",".join([policy] * players)))
        name = "optimal" if policy == "optimal:round" else policy
        sub = equilibrium(CLASSIC, players, name, sub=True, use_disk=False)
        assert np.allclose(shares, sub.seat_win_probability, atol=1e-12), policy


def test_what_the_model_refuses_is_named() -> None:
    pols = policies("optimal,optimal")
    for change, name in (
        ({"stakes": "pot", "format": "rounds:3"}, "stakes=pot"),
        ({"tie_break": "round", "format": "rounds:3"}, "tie_break=round"),
        ({"format": "tournament"}, "tournament"),
        ({"format": "session"}, "session"),
    ):
        with pytest.raises(SolverError, match=name):
            MatchModel(CLASSIC.replace(**change), pols)
