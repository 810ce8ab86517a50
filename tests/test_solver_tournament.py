"""The tournament (:mod:`shipcaptaincrew.solver.match.tournament`) against the engine and first
principles.

* Two players both reach the final, so under a fixed rotation the tournament is the final --
  a ``single`` match between them -- started by the seat the two rotations of the preliminaries
  give (for two seats: the first round's starter again).  Under ``rotation=loser`` the second
  round's loser starts the final, so the preliminaries are played for that: an independent
  calculation here (the turn and the tie-break contest of ``test_solver_match_exact.py``,
  written from first principles) gives the same chances.
* Three players: the engine's own tournaments walked exactly (:mod:`tests.solver_walk`) from
  starts of the second round through the selection of the finalists, the contests for a place
  and the final, under several rule readings and line-ups.
* The ``optimal`` bot playing the engine's tournaments wins as often as the solver says.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from shipcaptaincrew.bots import make_bot
from shipcaptaincrew.cli.app import app
from shipcaptaincrew.engine import (
    apply,
    chance_outcomes,
    initial_state,
    is_chance,
    is_terminal,
    match_position,
    post_score,
)
from shipcaptaincrew.rules import Rules, find_rules
from shipcaptaincrew.solver import SolverError
from shipcaptaincrew.solver.match.solve import MatchSolution, solve_match
from shipcaptaincrew.solver.match.tournament import TournamentModel, model_for
from shipcaptaincrew.solver.match.view import locate, match_view
from shipcaptaincrew.solver.policies import SEAT_KINDS, Policy, parse_policy
from shipcaptaincrew.state import MatchState, Phase, Purpose, evolve
from tests.solver_walk import EngineWalk
from tests.test_solver_match_exact import settle, tie_break, turn_value

CLASSIC = find_rules("classic").replace(starter="chosen")


def policies(text: str) -> tuple[Policy, ...]:
    return tuple(parse_policy(p, allow=SEAT_KINDS) for p in text.split(","))


def tournament(rules: Rules) -> Rules:
    return rules.replace(format="tournament", stakes="points", starter="chosen")


FIXED_ROTATIONS = [
    find_rules("classic"),  # next
    find_rules("schiff-kapitaen-crew"),  # previous, a session played as a tournament
    find_rules("ship-captain-crew"),  # cargo roll-off ties, a carried round (for points)
    find_rules("classic").replace(rotation="none", tie_break="no_winner"),
]


@pytest.mark.parametrize("rules", FIXED_ROTATIONS, ids=lambda r: str(r))
@pytest.mark.parametrize("table", ["optimal,optimal", "optimal,ev", "optimal:round,optimal"])
def test_two_players_play_the_final_the_first_starter_opens(rules: Rules, table: str) -> None:
    rules = tournament(rules)
    sol = solve_match(rules, policies(table), use_disk=False)
    final = solve_match(rules.replace(format="single"), policies(table), use_disk=False)
    assert np.allclose(sol.seat_win_probability, final.seat_win_probability, atol=1e-12, rtol=0)


def test_two_players_under_rotation_loser_play_the_second_round_for_the_start() -> None:
    """Classic ties and all-fail (both replayed), the loser of a round starting the next."""

    def final_first() -> float:
        """The final's first player's chance: a round, ties to a tie-break, all-fail replayed."""

        def value(again: float) -> float:
            def first(x: int) -> float:
                def second(y: int) -> float:
                    if x == y == 0:
                        return 1 - again
                    return 1.0 if y > x else 1 - tie_break() if y == x else 0.0

                return 1 - turn_value(second)

            return turn_value(first)

        return settle(value)

    def lose_to_start(start_value: float) -> float:
        """A round whose loser (the lower score; level: the first player) starts what follows,
        worth ``start_value`` to its first player; the round's first player's chance."""

        def value(again: float) -> float:
            def first(x: int) -> float:
                def second(y: int) -> float:
                    if x == y == 0:
                        return 1 - again
                    return 1 - start_value if y >= x else start_value

                return 1 - turn_value(second)

            return turn_value(first)

        return settle(value)

    rules = tournament(CLASSIC.replace(rotation="loser"))
    expected = lose_to_start(lose_to_start(final_first()))
    sol = solve_match(rules, policies("optimal,optimal"), use_disk=False)
    assert abs(sol.seat_win_probability[0] - expected) < 1e-12
    single = solve_match(rules.replace(format="single"), policies("optimal,optimal"))
    assert abs(single.seat_win_probability[0] - final_first()) < 1e-12
    assert abs(expected - final_first()) > 1e-3  # the preliminaries matter here


def after_the_preliminaries(state: MatchState) -> MatchState:
    """The engine's position, coarser once the finalists are being chosen or play.

    The totals are read only to select the finalists (``match.after_round``); the second
    round's scores, while its places are contested, only through the finished rounds
    (``rotation._loser`` reads the last of them); in the final only its own rounds count (a final
    without a winner appends its own result, which the rotation reads).
    """
    pos = match_position(state)
    zeros = (0,) * state.players
    if state.finalists:
        return evolve(pos, totals=zeros, results=())
    if state.contest is not None and state.contest.purpose is Purpose.FINAL_PLACES:
        return evolve(pos, totals=zeros, round_scores=(None,) * state.players)
    return pos


def reach(rules: Rules, scores: Sequence[int]) -> MatchState:
    """The contest start the engine reaches from the first round's start once ``scores`` are
    posted in turn; a cargo roll-off (or a tie for a round after the last score) is settled by
    outcomes taken in turn from the list of each roll's outcomes (so the seats differ)."""
    state = initial_state(rules, 3, starter=0)
    todo = list(scores)
    rolls = 0
    while todo or not (state.phase is Phase.TURN or state.contest.purpose is Purpose.FINAL_PLACES):
        if state.phase is Phase.TURN:
            state = post_score(state, todo.pop(0))
        else:
            assert is_chance(state), state.phase
            outcomes = chance_outcomes(state)
            state = apply(state, outcomes[rolls % len(outcomes)][0])
            rolls += 1
    assert state.contest is not None and not state.contest.scores
    return state


def solved(sol: MatchSolution, state: MatchState) -> np.ndarray:
    """Each seat's chance the solver gives at a contest start: a preliminary round's, the
    final's, or the contest for the final's places."""
    model = sol.model
    assert isinstance(model, TournamentModel)
    n, s = state.players, state.starter
    c = state.contest
    assert c is not None
    out = np.zeros(n)
    if state.finalists:
        a, b = state.finalists if state.finalists[0] < state.finalists[1] else state.finalists[::-1]
        out[[a, b]] = model.final(a, b).values[s]
        return out
    if c.purpose is Purpose.FINAL_PLACES:
        totals = [state.totals[(s + j) % n] for j in range(n)]
        ranks = tuple(sum(1 for u in totals if u > t) for t in totals)
        scores = tuple(state.round_scores[(s + j) % n] or 0 for j in range(n))
        by_place = model.selected(s % model.period, model.final_starter(scores), ranks)
    else:
        by_place = sol.at(locate(model, match_view(state)))
    return np.array([by_place[(seat - s) % n] for seat in range(n)])


NEXT_CARRY = CLASSIC.replace(tie_break="no_winner", all_fail="carry_pot")

#: Rule readings (tie-breaks, all-fail, rotation), line-ups and the scores that lead to where
#: the walk starts: a second round opening with the totals level (every order of the totals
#: comes up at its end), a final (finals without a winner: the start moves on over all three
#: seats), a contest for both places (of turns; of cargo dice).  The two second rounds take
#: about 25 s each here, the rest a few seconds.
WALKS: list[tuple[Rules, str, tuple[int, ...]]] = [
    (CLASSIC, "optimal,ev,optimal:round", (8, 8, 8, 5, 3, 2)),
    (
        CLASSIC.replace(rotation="loser", tie_break="no_winner", all_fail="carry_pot"),
        "optimal,threshold:7,optimal",
        (0, 0, 0),
    ),
    (NEXT_CARRY, "threshold:7,ev,never", (9, 0, 5, 4, 7, 2)),
    (NEXT_CARRY.replace(rotation="previous"), "optimal,optimal,ev", (9, 0, 5, 4, 7, 2)),
    (CLASSIC, "threshold:7,ev,never", (8, 8, 8, 5, 3, 2, 6, 6, 6, 4, 3, 2)),
    (tournament(find_rules("ship-captain-crew")), "optimal,never,optimal", (7, 7, 7, 5, 5, 5)),
]


@pytest.mark.parametrize(("rules", "table", "scores"), WALKS, ids=lambda x: str(x))
def test_three_players_are_the_engines_tournament(
    rules: Rules, table: str, scores: tuple[int, ...]
) -> None:
    rules = tournament(rules)
    sol = solve_match(rules, policies(table), use_disk=False)
    start = reach(rules, scores)
    walked = EngineWalk(sol, after_the_preliminaries).seat_win_probability(start)
    expected = solved(sol, start)
    assert abs(walked.sum() - 1) < 1e-12
    assert np.abs(walked - expected).max() < 1e-9, (walked, expected)


def test_the_optimal_bot_wins_the_engines_tournaments_as_often_as_solved() -> None:
    rules = tournament(CLASSIC)
    sol = solve_match(rules, policies("optimal,optimal,optimal"))
    bot = make_bot("optimal")
    rng = random.Random(15)
    matches = 1500
    wins = np.zeros(3)
    for _ in range(matches):
        state = initial_state(rules, 3, starter=0)
        while not is_terminal(state):
            if is_chance(state):
                outcomes = chance_outcomes(state)
                pick = rng.choices(range(len(outcomes)), [float(p) for _, p in outcomes])[0]
                state = apply(state, outcomes[pick][0])
            else:
                state = apply(state, bot.choose(state, rng))
        assert state.winner is not None
        wins[state.winner] += 1
    p = np.array(sol.seat_win_probability)
    se = np.sqrt(p * (1 - p) / matches)
    assert (np.abs(wins / matches - p) < 4 * se).all(), (wins / matches, p)


def test_equilibrium_answers_the_tournament_for_the_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCC_CACHE_DIR", str(tmp_path))
    r = CliRunner().invoke(
        app, ["equilibrium", "--players", "3", "--format", "tournament", "--json"]
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["objective"] == "match" and data["format"] == "tournament"
    assert abs(sum(data["seat_win_probability"]) - 1) < 1e-12
    assert data["seat_win_probability"] != [1 / 3] * 3


def test_advise_plays_the_second_round_for_a_place_in_the_final(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Last to play in round 2 with 5 against 12 and 3, who posted 8 and 6: standing on a
    # cargo of 5 makes 10 and a place in the final for sure; rerolling it for the round (only
    # beating 8 wins it) leaves 7, 8 or 9 -- out, or level for the place -- a time in six.
    monkeypatch.setenv("SCC_CACHE_DIR", str(tmp_path))
    args = ["advise", "--format", "tournament", "--round", "2", "--totals", "12,3,5"]
    args += ["--posted", "8,6", "--held", "none", "--roll", "65423", "--rolls-used", "1"]
    r = CliRunner().invoke(app, [*args, "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["best"] == "stand"
    by = {c["action"]: c for c in data["choices"]}
    stand, reroll = by["stand"], by["reroll"]
    assert stand["win_probability"] == stand["match_win_probability"]
    assert stand["match_win_probability"] > reroll["match_win_probability"] > 0
    assert reroll["round_win_probability"] > stand["round_win_probability"] == 0


def test_what_the_tournament_model_refuses_is_named() -> None:
    for change, name in (({"stakes": "pot"}, "stakes=pot"), ({"tie_break": "round"}, "round")):
        with pytest.raises(SolverError, match=name):
            model_for(tournament(CLASSIC).replace(**change), policies("optimal,optimal,optimal"))
