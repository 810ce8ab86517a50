"""Playing for the match: the advice's two chances, the bots' objectives and their tie order.

The positions are built with the engine (scores posted through ``post_score``, dice rolled
with ``Roll``), so every test reads the solver at a state a real match reaches.
"""

from __future__ import annotations

import random

import pytest

from shipcaptaincrew.actions import RerollCargo, Roll, Stand
from shipcaptaincrew.bots import OptimalBot, make_bot
from shipcaptaincrew.engine import (
    apply,
    initial_state,
    is_chance,
    is_terminal,
    legal_actions,
    post_score,
    sample_chance,
)
from shipcaptaincrew.rules import Rules, find_rules
from shipcaptaincrew.solver import HAND_OUT_NOTE, Objective, advise
from shipcaptaincrew.solver.match.advice import match_rates, match_solution, turn_distribution
from shipcaptaincrew.solver.match.view import locate, match_view, node_of
from shipcaptaincrew.state import MatchState, Phase

CLASSIC = find_rules("classic").replace(starter="chosen")


def at_cargo(rules: Rules, scores: list[int], cargo: tuple[int, int]) -> MatchState:
    """Two players, starter seat 0: post ``scores`` in order, then roll 6-5-4 and ``cargo``."""
    s = initial_state(rules, 2, starter=0)
    for x in scores:
        s = post_score(s, x)
    return apply(s, Roll((6, 5, 4, *cargo)))


def test_trailing_in_the_last_round_the_match_bot_rerolls_what_the_round_bot_stands_on() -> None:
    # rounds:3: 9 and 5 in round 1, 6 and 5 in round 2 (seat 1 starts it), so seat 1 trails
    # by 3; round 3 starts with seat 0 again, which posts 5: 19 against 11, and a cargo
    # of 7 wins the round and loses the match.
    rules = CLASSIC.replace(format="rounds:3")
    s = at_cargo(rules, [9, 5, 6, 5, 5], (3, 4))
    view = match_view(s)
    assert view.played == 2 and view.posted == (5,)
    me = view.place
    assert view.totals[me] + 7 < view.totals[1 - me] + 5  # standing loses the match
    match = advise(s)
    by_action = {c.action: c for c in match}
    assert by_action[Stand()].match_win_probability == 0.0
    assert by_action[Stand()].round_win_probability == 1.0
    assert match[0].action == RerollCargo()
    assert match[0].win_probability == match[0].match_win_probability > 0
    round_first = advise(s, objective=Objective.ROUND)
    assert round_first[0].action == Stand()
    assert make_bot("optimal").choose(s, random.Random(0)) == RerollCargo()
    assert make_bot("optimal:round").choose(s, random.Random(0)) == Stand()
    assert "match" in make_bot("optimal").explain(s).render()


def test_equal_match_chances_go_to_the_round_chance_then_the_score() -> None:
    # Far ahead in the last round: every choice wins the match; the round chance decides,
    # and between equal round chances the expected score.
    rules = CLASSIC.replace(format="rounds:2")
    s = at_cargo(rules, [12, 0, 0], (3, 4))  # round 2: seat 1 failed, seat 0 leads by 12
    ranked = advise(s)
    assert all(c.match_win_probability == 1.0 for c in ranked)
    assert all(c.round_win_probability == 1.0 for c in ranked)
    scores = [c.expected_score or 0.0 for c in ranked]
    assert scores == sorted(scores, reverse=True)
    assert ranked[0].action == RerollCargo()


def test_a_single_round_is_advised_by_the_round() -> None:
    s = at_cargo(CLASSIC, [6], (3, 4))
    ranked = advise(s)
    assert all(c.match_win_probability is None for c in ranked)
    assert ranked[0].win_probability == ranked[0].round_win_probability


@pytest.mark.parametrize("fmt", ["first_to:21", "rounds:3", "wins:2"])
def test_the_advice_plays_what_the_solver_plays(fmt: str) -> None:
    # The advice's plan, evaluated on the whole turn graph, is worth at the turn's start
    # exactly what the solver's round tree says the seat's turn is worth there, and its
    # expected score is the mean of the score distribution the solver plays.
    rules = CLASSIC.replace(format=fmt)
    s = initial_state(rules, 2, starter=0)
    for x in (9, 12, 7):
        s = post_score(s, x)
    sol = match_solution(rules, 2)
    view = match_view(s)
    rates = match_rates(rules, view)
    assert rates is not None
    tree = sol.tree(locate(sol.model, view))
    node = node_of(view.posted, tuple(int(x) for x in sol.model.scores))
    here = tree.values[len(view.posted)][0, node]
    assert rates.match[0] == pytest.approx(here[view.place], abs=1e-12)
    assert rates.round[0] == pytest.approx(here[2 + view.place], abs=1e-12)
    dist = turn_distribution(sol, view)
    assert rates.score[0] == pytest.approx(float(dist @ sol.model.scores), abs=1e-12)


def test_a_sip_hand_out_changes_nobodys_chance() -> None:
    rules = CLASSIC.replace(format="rounds:3", drinking="captain_hands_out")
    rng = random.Random(3)
    bot = make_bot("optimal")
    s = initial_state(rules, 3)
    while s.phase is not Phase.HAND_OUT:
        if is_terminal(s):
            s = initial_state(rules, 3)
        s = apply(s, sample_chance(s, rng) if is_chance(s) else bot.choose(s, rng))
    ranked = advise(s)
    assert len(ranked) == len(legal_actions(s))
    for c in ranked:
        assert c.win_probability is None and c.match_win_probability is None
        assert c.note == HAND_OUT_NOTE
        assert c.to_json()["note"] == HAND_OUT_NOTE.render()


def test_a_pot_game_shows_the_chips_a_choice_is_expected_to_bring() -> None:
    rules = CLASSIC.replace(stakes="pot", all_fail="carry_pot")
    s = initial_state(rules, 2, starter=0)
    s = post_score(s, 6)
    s = apply(s, Roll((6, 5, 4, 3, 4)))
    assert s.pot > 0
    for c in advise(s):
        assert c.expected_chips == pytest.approx((c.round_win_probability or 0.0) * s.pot)


def test_the_optimal_bot_names() -> None:
    assert isinstance(make_bot("perfect"), OptimalBot)
    assert make_bot("perfect").name == "optimal"
    assert make_bot("optimal:round").name == "optimal:round"


def test_the_terminal_shows_both_chances_labelled() -> None:
    from rich.console import Console

    from shipcaptaincrew.cli.terminal.view import advice_table

    rules = CLASSIC.replace(format="rounds:3")
    s = at_cargo(rules, [9, 5, 6, 5, 5], (3, 4))  # the trailing example above
    con = Console(record=True, width=200)
    con.print(advice_table(advise(s), s, ["Ann", "Bo"]))
    text = con.export_text()
    assert "chance to win the match" in text and "chance to win the round" in text
    assert "0.0" in text and "100.0" in text  # standing: no match, the whole round
