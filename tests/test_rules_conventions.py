"""The conventions docs/rules.md names under "Conventions the numbers depend on": each one as
the engine and the solver make it, and what it changes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shipcaptaincrew.engine import initial_state
from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.solver import equilibrium
from shipcaptaincrew.solver.evaluate import evaluate
from shipcaptaincrew.solver.match import model as match_model
from shipcaptaincrew.solver.match import solve as match_solve
from shipcaptaincrew.solver.match.play import tie_shares
from shipcaptaincrew.solver.policies import SEAT_KINDS, PolicyKind, parse_policy
from shipcaptaincrew.state import Purpose
from tests.test_match import play_round

DOC = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
EV = parse_policy("ev", allow=SEAT_KINDS)
OPTIMAL = parse_policy("optimal", allow=SEAT_KINDS)


@pytest.fixture(autouse=True)
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCC_CACHE_DIR", str(tmp_path / "cache"))
    match_solve.clear_match_cache()


def test_a_tie_on_the_totals_is_played_in_the_last_rounds_order() -> None:
    rules = find_rules("classic").replace(format="rounds:2", starter="chosen")
    s = initial_state(rules, 3, starter=0)
    s = play_round(s, {0: 8, 1: 5, 2: 0})  # round 1, seats 0, 1, 2
    assert s.starter == 1  # rotation=next: round 2 opens with seat 1
    s = play_round(s, {1: 8, 2: 0, 0: 5})  # totals 13, 13, 0
    c = s.contest
    assert c is not None and c.purpose is Purpose.MATCH_TIE
    # From the last round's starter (seat 1): 1 then 0; the next round's order (from seat 2)
    # would have put seat 0 first.
    assert c.seats == (1, 0)


def test_the_second_to_play_a_tie_break_wins_more_often() -> None:
    rules = find_rules("classic")
    first, second = tie_shares(rules, (OPTIMAL, OPTIMAL))
    assert second > first and first + second == pytest.approx(1, abs=1e-12)
    assert (first, second) == equilibrium(rules, 2, "optimal", sub=True).seat_win_probability
    assert f"wins {100 * second:.4f} %" in DOC  # the figure docs/rules.md gives


def test_a_round_everyone_fails_is_replayed_and_not_one_of_the_n() -> None:
    rules = find_rules("classic").replace(format="rounds:2", starter="chosen")
    s = initial_state(rules, 2, starter=0)
    s = play_round(s, {0: 0, 1: 0})  # everyone fails: played again, not counted
    assert s.replays == 1 and s.results == () and s.starter == 0
    s = play_round(s, {0: 6, 1: 4})
    s = play_round(s, {1: 0, 0: 0})
    s = play_round(s, {1: 7, 0: 3})
    assert len(s.results) == 2 and s.is_over and s.replays == 1
    assert s.totals == (9, 11) and s.winner == 1
    carried = initial_state(rules.replace(all_fail="carry_pot"), 2, starter=0)
    carried = play_round(carried, {0: 0, 1: 0})
    assert len(carried.results) == 1 and carried.results[0].all_failed  # one of the N
    p = equilibrium(find_rules("classic"), 2, "optimal").p_all_fail_per_round
    assert f"{100 * p:.1f} % of rounds are played again" in DOC


def test_an_optimal_seat_plays_its_tie_break_turns_to_win_them(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The same line-up, its optimal seat's round tie-breaks played like ev instead: the match
    chances do not move (a round's tie-break winner gets nothing first_to:N counts), the
    optimal seat's round chance drops."""
    rules = find_rules("classic").replace(format="first_to:5")
    lineup = (EV, EV, OPTIMAL)
    to_win = evaluate(rules, lineup)

    original = match_model.MatchModel._share_table
    real = match_model.tie_shares

    def ev_in_round_ties(self: match_model.MatchModel, *, round_tie: bool) -> object:
        if not round_tie:
            return original(self, round_tie=False)
        monkeypatch.setattr(
            match_model,
            "tie_shares",
            lambda r, pols: real(r, tuple(EV if p.kind is PolicyKind.OPTIMAL else p for p in pols)),
        )
        try:
            return original(self, round_tie=True)
        finally:
            monkeypatch.setattr(match_model, "tie_shares", real)

    monkeypatch.setattr(match_model.MatchModel, "_share_table", ev_in_round_ties)
    monkeypatch.setenv("SCC_CACHE_DIR", str(tmp_path / "other"))
    match_solve.clear_match_cache()
    like_ev = evaluate(rules, lineup)
    assert like_ev.seat_win_probability == pytest.approx(to_win.seat_win_probability, abs=1e-12)
    assert like_ev.round_win_probability[2] < to_win.round_win_probability[2] - 1e-4
    assert re.search(r"An `optimal` seat plays its tie-break turns to win them", DOC)
