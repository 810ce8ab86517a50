"""The match model of :mod:`shipcaptaincrew.solver.match.model` against the engine's matches.

The solver never plays a match: it is a model of how the engine ends rounds and matches.  Here
the engine itself is walked exactly (:class:`tests.solver_walk.EngineWalk`: every turn
collapsed to the score distribution the solver plays there, every other chance node followed
outcome by outcome) and each seat's exact chance of winning the match must equal the solver's
to 1e-9.  The same play on both sides, so this checks the model's transitions (the totals, the
tie-breaks, the format's verdict, the rotation), not the play's optimality, which
``test_solver_match_exact.py`` checks against an independent backward induction.
"""

from __future__ import annotations

import numpy as np
import pytest

from shipcaptaincrew.rules import Rules, find_rules
from shipcaptaincrew.solver import SolverError, equilibrium
from shipcaptaincrew.solver.match.model import MatchModel
from shipcaptaincrew.solver.match.play import tie_shares
from shipcaptaincrew.solver.match.solve import solve_match
from shipcaptaincrew.solver.policies import SEAT_KINDS, Policy, parse_policy
from tests.solver_walk import EngineWalk

CLASSIC = find_rules("classic").replace(starter="chosen")


def policies(text: str) -> tuple[Policy, ...]:
    return tuple(parse_policy(p, allow=SEAT_KINDS) for p in text.split(","))


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
