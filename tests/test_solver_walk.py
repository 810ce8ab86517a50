"""The exact walk of any players (:mod:`shipcaptaincrew.solver.walk`) against the match solver.

The solver's ``optimal`` seat best-responds to fixed seats, so a best response walked through
the engine against a bot must give exactly the solver's value; a bot played through its own
``choose`` must give the solver's value of its policy.  A player that reads the totals (none
of the solver's kinds) is then walked: the best response against it is worth at least what
every other play gets, and more than the equilibrium's play.
"""

from __future__ import annotations

import random

import pytest

from shipcaptaincrew.actions import Action, RerollCargo, Stand, StopMatch
from shipcaptaincrew.bots import make_bot
from shipcaptaincrew.engine import legal_actions, seat_to_act
from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.solver import SolverError
from shipcaptaincrew.solver.match.solve import MatchSolution, solve_match
from shipcaptaincrew.solver.policies import PolicyKind, parse_policy
from shipcaptaincrew.solver.walk import BEST, Choosing, Solved, exact_chances
from shipcaptaincrew.state import MatchState

RULES = find_rules("classic").replace(starter="chosen", format="first_to:4")


def solution(*names: str) -> MatchSolution:
    return solve_match(RULES, tuple(parse_policy(n, allow=list(PolicyKind)) for n in names))


def solved(*names: str) -> Solved:
    return Solved(solution(*names))


def bot_player(name: str) -> Choosing:
    """A bot played through its own ``choose`` (it reads nothing of the match it keys on)."""
    bot, rng = make_bot(name), random.Random(0)
    return Choosing(lambda s: bot.choose(s, rng), lambda s, seat: None)


def _lead(state: MatchState, seat: int) -> int:
    others = max(t for s, t in enumerate(state.totals) if s != seat)
    return (state.totals[seat] > others) - (state.totals[seat] < others)


def _cautious_when_ahead(state: MatchState) -> Action:
    """Stands on any cargo while ahead in the totals, rerolls a cargo under 8 otherwise."""
    acts = legal_actions(state)
    seat = seat_to_act(state)
    assert seat is not None and state.turn is not None
    if Stand() in acts and RerollCargo() in acts:
        ahead = _lead(state, seat) > 0
        return Stand() if ahead or sum(state.turn.cargo) >= 8 else RerollCargo()
    return acts[0]


#: A player no policy kind of the solver describes: its play depends on the totals.
CAUTIOUS = Choosing(_cautious_when_ahead, _lead)


def test_a_best_response_to_a_bot_is_the_solvers_optimal_against_it() -> None:
    for opponent in ("ev", "threshold:8"):
        sol = solution("optimal", opponent)
        walked = exact_chances(RULES, [BEST, bot_player(opponent)])
        assert abs(walked.seat_win_probability[0] - sol.seat_win_probability[0]) < 1e-9
        assert abs(sum(walked.seat_win_probability) - 1) < 1e-12
        assert walked.walks >= 2  # the best response's comebacks valued again


def test_a_bot_played_by_its_choices_is_its_policy() -> None:
    walked = exact_chances(RULES, [bot_player("ev"), solved("ev", "optimal:round")])
    sol = solution("ev", "optimal:round")
    assert walked.walks == 1
    assert abs(walked.seat_win_probability[0] - sol.seat_win_probability[0]) < 1e-9


def test_the_best_response_to_a_player_that_reads_the_totals() -> None:
    best = exact_chances(RULES, [BEST, CAUTIOUS]).seat_win_probability[0]
    equilibrium = exact_chances(RULES, [solved("optimal", "optimal"), CAUTIOUS])
    ev = exact_chances(RULES, [bot_player("ev"), CAUTIOUS])
    timid = exact_chances(RULES, [bot_player("timid"), CAUTIOUS])
    others = [r.seat_win_probability[0] for r in (equilibrium, ev, timid)]
    assert all(best >= x - 1e-12 for x in others), (best, others)
    # It exploits the caution (by little: the equilibrium is close to the best anyway).
    assert best > equilibrium.seat_win_probability[0] + 1e-5
    # Seat order does not matter to what the walk computes: the cautious player second.
    second = exact_chances(RULES, [CAUTIOUS, BEST]).seat_win_probability
    assert abs(sum(second) - 1) < 1e-12 and second[1] > 0.5


def test_what_the_walk_refuses_is_named() -> None:
    with pytest.raises(SolverError, match="one best responder"):
        exact_chances(RULES, [BEST, BEST])
    stops = Choosing(lambda s: StopMatch(), lambda s, seat: None)  # no turn's action
    with pytest.raises(SolverError, match="seat 0 chose stop, which is not legal there"):
        exact_chances(RULES, [stops, bot_player("ev")])
