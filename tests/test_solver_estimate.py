"""The match objective where the exact solver does not reach: the estimate for large tables
(solver/match/estimate.py), a session's call, and the sips among equal leaders.

Checked against what is exact: the last player of the last round (nothing left to estimate)
agrees with the exact solver wherever the match cannot end in a tie; the estimate never
prefers fewer points in a points format; the ``optimal`` bot and the simulator play by it at
four players, and say that it is an estimate.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from shipcaptaincrew.actions import Roll
from shipcaptaincrew.bots import hand_out_target, make_bot
from shipcaptaincrew.engine import (
    apply,
    chance_outcomes,
    current_player,
    initial_state,
    legal_actions,
    post_score,
)
from shipcaptaincrew.rules import Rules, find_rules
from shipcaptaincrew.sim.policy import MatchPolicy, make_policy
from shipcaptaincrew.solver import SolverError, position_after_roll, turn_graph
from shipcaptaincrew.solver.advice import Objective, advise
from shipcaptaincrew.solver.match.advice import Estimate, match_solution, turn_rewards
from shipcaptaincrew.solver.match.estimate import estimate_rewards, estimated_distribution
from shipcaptaincrew.solver.match.model import BeyondExact, MatchModel
from shipcaptaincrew.solver.match.view import ContestKind, MatchView, match_view
from shipcaptaincrew.solver.policies import SEAT_KINDS, parse_policy
from shipcaptaincrew.state import Phase

CLASSIC = find_rules("classic")


def _rules(fmt: str) -> Rules:
    return CLASSIC.replace(format=fmt)


@pytest.mark.parametrize(("totals", "posted"), [((10, 4, 7), (6, 9)), ((0, 12, 3), (0, 5))])
def test_the_last_turn_is_exact(totals: tuple[int, ...], posted: tuple[int, ...]) -> None:
    """The last player of the last round: every other score is known, so the estimate is
    the exact chance wherever the match cannot end level (there the tie-break's order
    matters, which the estimate shares evenly)."""
    rules = _rules("rounds:2")
    view = MatchView.of_round(rules.format, totals, posted, played=1)
    exact_match, exact_round = turn_rewards(match_solution(rules, 3), view)
    est_match, est_round = estimate_rewards(rules, view)
    finals = [t + x for t, x in zip(totals, posted)]
    checked = 0
    for j, s in enumerate(turn_graph(rules).scores):
        if totals[2] + s != max(finals) and finals.count(max(finals)) == 1:
            assert est_match[j] == pytest.approx(exact_match[j], abs=1e-12)
            checked += 1
    assert checked >= 10
    assert np.allclose(est_round, exact_round, atol=1e-12)


def test_a_total_past_the_mark_ends_the_race() -> None:
    """first_to:21, four players, the last to play: the first has reached 23 this round."""
    rules = _rules("first_to:21")
    view = MatchView.of_round(rules.format, (18, 16, 12, 15), (5, 0, 3))
    g, _ = estimate_rewards(rules, view)
    want = {s: 1.0 if s >= 9 else 0.5 if s == 8 else 0.0 for s in turn_graph(rules).scores}
    assert g.tolist() == pytest.approx([want[s] for s in turn_graph(rules).scores], abs=1e-12)
    # Nobody past it yet: a total of 21 or more is the match, less goes on racing.
    view = MatchView.of_round(rules.format, (14, 16, 12, 15), (5, 0, 3))
    g, _ = estimate_rewards(rules, view)
    for s, v in zip(turn_graph(rules).scores, g):
        assert bool(v == pytest.approx(1.0, abs=1e-12)) == (s >= 6)


@pytest.mark.parametrize("fmt", ["rounds:4", "first_to:30"])
def test_more_points_never_hurt(fmt: str) -> None:
    rules = _rules(fmt)
    rng = random.Random(4)
    for _ in range(20):
        totals = tuple(rng.randrange(0, 25) for _ in range(5))
        posted = tuple(rng.choice((0, 4, 7, 10)) for _ in range(rng.randrange(0, 5)))
        view = MatchView.of_round(rules.format, totals, posted, played=1)
        g, _ = estimate_rewards(rules, view)
        assert (np.diff(g) >= -1e-12).all(), (totals, posted, g)
        assert ((0.0 <= g) & (g <= 1.0 + 1e-12)).all()


def test_wins_values_the_round_win() -> None:
    rules = _rules("wins:3")
    view = MatchView.of_round(rules.format, (0,) * 5, (8,), wins=(2, 2, 0, 1, 0))
    g, g2 = estimate_rewards(rules, view)
    # Only winning the round counts: the match chance rises with the round chance.
    order = np.argsort(g2, kind="stable")
    assert (np.diff(g[order]) >= -1e-12).all()
    assert g[0] < g[-1]


def test_four_players_are_beyond_the_exact_solver() -> None:
    optimal = parse_policy("optimal", allow=SEAT_KINDS)
    rules = _rules("rounds:3")
    with pytest.raises(BeyondExact):
        MatchModel(rules, (optimal,) * 4)
    tie = MatchView(rules.format, 4, 0, (0,) * 4, (0,) * 4, (), ContestKind.MATCH_TIE, (0, 1))
    with pytest.raises(SolverError):  # a tie-break is all or nothing: nothing to estimate
        estimate_rewards(rules, tie)
    # ... and is played as the round equilibrium's sub-round among the tied.
    assert estimated_distribution(rules, tie).sum() == pytest.approx(1.0)


def test_the_bot_gambles_when_only_a_reroll_wins_the_match() -> None:
    """Four players, last round of rounds:3: the leader has 16 and failed; I have 9 and a
    cargo of 5, last to play, the round already mine.  Standing wins the round for sure and
    loses the match; a new cargo of 8 or more (15 in 36) wins it, one of 7 (6 in 36) ties the
    leader at 16 (a tie-break, which the estimate shares evenly): 1/2 in all."""
    rules = _rules("rounds:3")
    view = MatchView.of_round(rules.format, (16, 2, 2, 9), (0, 3, 2), played=2)
    turn = position_after_roll(rules, 3, (2, 3), 2)
    by_round = advise(turn, match=view, objective=Objective.ROUND)
    assert str(by_round[0].action) == "stand" and by_round[0].round_win_probability == 1.0
    shown = advise(turn, match=view)
    assert all(c.match_win_probability is None for c in shown)  # people see exact numbers only
    played = advise(turn, match=view, estimate=Estimate.BEYOND)
    best = played[0]
    assert str(best.action) == "reroll" and best.match_estimated
    assert best.match_win_probability == pytest.approx(
        float(Fraction(15, 36) + Fraction(6, 36) / 2), abs=1e-12
    )
    stand = next(c for c in played if str(c.action) == "stand")
    assert stand.match_win_probability == pytest.approx(0.0, abs=1e-12)
    assert best.to_json()["match_estimated"] is True


def test_the_bot_and_the_simulator_play_by_the_estimate_at_four() -> None:
    rules = _rules("rounds:3").replace(starter="chosen")
    state = initial_state(rules, 4, starter=0)
    for score in (12, 0, 0):
        state = post_score(state, score)
    view = match_view(state)
    dist = estimated_distribution(rules, view)
    assert dist.sum() == pytest.approx(1.0)
    policy = make_policy("optimal", rules, players=4)
    assert isinstance(policy, MatchPolicy)
    cdf = policy.cdf(state)
    assert cdf[-1] == pytest.approx(1.0) and np.allclose(np.diff([0.0, *cdf]), dist)
    # A crew and a cargo of 5 on the first roll: the bot explains its choice by the estimate.
    state = apply(state, Roll((6, 5, 4, 3, 2)))
    reason = make_bot("optimal").explain(state).render()
    assert "an estimate" in reason, reason
    assert "an estimate" not in make_bot("optimal:round").explain(state).render()


def test_the_match_bot_stops_a_session_it_leads() -> None:
    """A session's call: alone on top, stopping wins for sure (the totals decide); behind or
    level, another round.  The round-maximiser always plays on."""
    rules = find_rules("schiff-kapitaen-crew").replace(starter="chosen")
    state = initial_state(rules, 3, starter=0)
    for score in (9, 4, 0):
        state = post_score(state, score)
    while state.phase is Phase.HAND_OUT:  # the captain's sips, if any
        state = apply(state, legal_actions(state)[0])
    assert state.phase is Phase.ANOTHER_ROUND
    caller = current_player(state)
    bot, rng = make_bot("optimal"), random.Random(0)
    leads = all(state.totals[caller] > t for s, t in enumerate(state.totals) if s != caller)
    assert str(bot.choose(state, rng)) == ("stop" if leads else "next_round")
    assert str(make_bot("optimal:round").choose(state, rng)) == "next_round"
    if leads:
        assert "9" in bot.explain(state).render()


def test_sips_go_to_a_random_one_of_equal_leaders() -> None:
    """Equal leaders are chosen among by the bot's generator, not by seat order."""
    rules = find_rules("schiff-kapitaen-crew").replace(
        starter="chosen", drinking="captain_hands_out", format="rounds:3"
    )
    state = initial_state(rules, 3, starter=0)
    for score in (12, 0, 0):  # the first wins; the other two are level on 0
        state = post_score(state, score)
    state = apply(state, chance_outcomes(state)[-1][0])  # the captain's die
    assert state.phase is Phase.HAND_OUT
    picks = {str(make_bot("ev").choose(state, random.Random(seed))) for seed in range(40)}
    assert picks == {"sip:1", "sip:2"}
    assert str(hand_out_target(state)) == "sip:1"  # without a generator: the first of them


def test_the_tournament_s_preliminaries_are_estimated_by_the_places_in_the_final() -> None:
    """Four players, the second preliminary round, the last to play: the others' totals are
    10, 8 and 5.  Above 8 the final is mine (worth one half: a final of two); level with 8
    the place is shared with its holder; below, two are above me."""
    rules = _rules("tournament")
    view = MatchView.of_round(rules.format, (4, 3, 0, 0), (6, 5, 5), played=1)
    g, _ = estimate_rewards(rules, view)
    for s, v in zip(turn_graph(rules).scores, g):
        want = 0.5 if s > 8 else 0.25 if s == 8 else 0.0
        assert v == pytest.approx(want, abs=1e-12), (s, v)
    policy = make_policy("optimal", rules, players=4)
    assert isinstance(policy, MatchPolicy)  # four of the tournament: beyond the exact solver
