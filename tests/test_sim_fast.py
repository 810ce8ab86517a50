"""The step tables against the engine's own match loop, and their keyed random numbers.

Every preset and every format kind: where the step tables play, their win rates, totals,
chips and sips per seat agree with :class:`~shipcaptaincrew.sim.match.MatchRunner` (the
engine plays every round there) within 4 standard errors of the difference; where they
cannot, the run says it went through the engine loop and why.  Seeded, so deterministic.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from shipcaptaincrew.facts import MAX_PLAYERS
from shipcaptaincrew.options import OPTIONS
from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.sim.match import ROUND_DTYPE
from shipcaptaincrew.sim.result import SimulationResult
from shipcaptaincrew.sim.run import _stack, simulate
from shipcaptaincrew.sim.steps import FastRefusal, fast_refusal, match_table
from shipcaptaincrew.sim.steps.fast import fast_matches
from shipcaptaincrew.state import Phase

MIX = ["ev", "threshold:7", "optimal", "tip"]


def _agree(fast: SimulationResult, slow: SimulationResult) -> None:
    for name in ("won", "total", "chips", "sips", "round_wins"):
        a, b = fast.stat(name).astype(float), slow.stat(name).astype(float)
        diff = a.mean(axis=0) - b.mean(axis=0)
        se = np.sqrt(a.var(axis=0, ddof=1) / len(a) + b.var(axis=0, ddof=1) / len(b))
        for seat in range(a.shape[1]):
            if se[seat] == 0:
                assert diff[seat] == 0, (name, seat)
            else:
                assert abs(diff[seat]) <= 4 * se[seat], (name, seat, diff[seat], se[seat])
    fp, sp = fast.summary()["play_order"], slow.summary()["play_order"]
    for x, y in zip(fp, sp):
        se = math.sqrt(x["win_rate"] * (1 - x["win_rate"]) * (1 / fast.matches + 1 / slow.matches))
        assert abs(x["win_rate"] - y["win_rate"]) <= 4 * se + 1e-12, (x, y)


@pytest.mark.parametrize(
    ("spec", "bots", "n_fast", "n_slow"),
    [
        ("classic", MIX, 6_000, 2_000),
        # optimal:round: four players of rounds:3 play optimal by the match estimate, which
        # reads the totals (the engine loop plays it; see test_solver_estimate.py).
        ("classic(format=rounds:3)", ["ev", "threshold:7", "optimal:round", "tip"], 3_000, 1_000),
        (
            "classic(format=wins:2,drinking=last_drinks,failed_double=true)",
            ["ev", "threshold:7", "optimal:round", "tip"],
            3_000,
            1_000,
        ),
        ("skip-kaptein-mannskap(format=first_to:15)", ["ev", "tip", "threshold:6"], 3_000, 1_000),
        (
            "classic(format=tournament,drinking=all_but_winner)",
            ["ev", "threshold:7", "optimal:round", "tip"],
            2_000,
            1_000,
        ),
        ("classic(tie_break=round,rotation=previous,format=rounds:2)", ["ev", "tip"], 6_000, 2_000),
        ("classic(tie_break=cargo_rolloff,format=rounds:2)", ["ev", "tip", "ev"], 4_000, 1_500),
        ("classic(tie_break=no_winner,drinking=last_drinks)", ["ev", "threshold:8"], 8_000, 3_000),
        ("schiff-kapitaen-crew(format=single)", ["ev", "tip", "timid"], 6_000, 2_000),
    ],
)
def test_step_tables_agree_with_the_engine_loop(
    spec: str, bots: list[str], n_fast: int, n_slow: int
) -> None:
    rules = find_rules(spec)
    assert fast_refusal(rules, bots) is None
    fast = simulate(rules, bots, n_fast, seed=5)
    slow = simulate(rules, bots, n_slow, seed=6, engine_loop=True)
    assert fast.path == "tables" and slow.path.startswith("engine loop")
    _agree(fast, slow)


@pytest.mark.parametrize(
    ("spec", "bots", "why"),
    [
        ("ship-captain-crew", ["ev", "tip"], FastRefusal.POT),
        ("schiff-kapitaen-crew", ["ev", "tip"], FastRefusal.SESSION),
        ("classic(drinking=captain_hands_out)", ["ev", "tip"], FastRefusal.HAND_OUT),
        ("classic(rotation=loser,format=rounds:2)", ["ev", "tip"], FastRefusal.LOSER),
        ("classic(format=rounds:2)", ["optimal", "tip"], FastRefusal.MATCH_OPTIMAL),
    ],
)
def test_what_the_tables_cannot_play_goes_through_the_engine(
    spec: str, bots: list[str], why: FastRefusal
) -> None:
    rules = find_rules(spec)
    assert fast_refusal(rules, bots) is why
    result = simulate(rules, bots, 20, seed=1)
    assert result.path == f"engine loop: {why.value}"
    with pytest.raises(ValueError, match="cannot play"):
        fast_matches(rules, bots, 1, 0, 10)


def test_a_match_is_the_same_however_the_run_is_split() -> None:
    rules = find_rules("classic(format=rounds:2)")
    bots = ["ev", "tip", "ev"]
    whole = fast_matches(rules, bots, 9, 0, 700)
    part = fast_matches(rules, bots, 9, 300, 400)
    assert (whole["stats"][300:] == part["stats"]).all()
    width = part["round_scores"].shape[1]
    assert (whole["round_scores"][300:, :width] == part["round_scores"]).all()
    assert (simulate(rules, bots, 300, seed=9).stats == whole["stats"][:300]).all()


def test_round_records_are_bytes_in_both_paths_and_wide_in_the_table() -> None:
    """Both paths keep a run's per-round records a byte per entry; the tidy table has the
    same 64-bit columns whichever path played (and chunks of unequal width stack padded)."""
    rules = find_rules("classic(format=rounds:2)")
    fast = simulate(rules, ["ev", "tip"], 40_000, seed=2)
    slow = simulate(rules, ["ev", "tip"], 200, seed=2, engine_loop=True)
    for r in (fast, slow):
        assert {a.dtype for a in r.per_round.values()} == {np.dtype(ROUND_DTYPE)}
        scores = r.per_round["round_scores"]
        assert (scores >= -1).all() and (scores <= rules.max_score).all()
    ft, st = fast.table(), slow.table()
    assert list(ft.columns) == list(st.columns)
    assert (ft.dtypes == st.dtypes).all()
    assert ft["r1_score"].dtype == np.int64 and ft["starter"].dtype == np.int64
    # Whatever the option table allows fits a byte: the highest score, every seat.
    bonus = rules.replace(same_roll_bonus=OPTIONS["same_roll_bonus"].bounds[1])
    assert max(bonus.max_score, MAX_PLAYERS - 1) <= np.iinfo(ROUND_DTYPE).max
    top = simulate(bonus, ["ev", "tip"], 20_000, seed=3).per_round["round_scores"]
    assert top.max() == bonus.max_score and top.min() >= -1  # no score wrapped
    a, b = fast_matches(rules, ["ev", "tip"], 2, 0, 3), fast_matches(rules, ["ev", "tip"], 2, 3, 2)
    narrow = b["round_scores"][:, :1]  # a chunk whose matches all ended after one round
    stacked = _stack([a["round_scores"], narrow])
    assert stacked.dtype == ROUND_DTYPE and stacked.shape == (5, 2, 2)
    assert (stacked[:3] == a["round_scores"]).all() and (stacked[3:, :1] == narrow).all()
    assert (stacked[3:, 1:] == -1).all()


def test_cells_that_differ_in_one_bot_share_their_dice() -> None:
    """Same seed, another bot at seat 0: seat 1 (the same bot) rolls the same first turn in
    nearly every match, against about one match in six with another seed; the paired
    difference of seat 0's win rate has a smaller variance than an unpaired one."""
    rules = find_rules("classic(format=rounds:3)")
    a = simulate(rules, ["ev", "tip", "tip"], 5_000, seed=3)
    b = simulate(rules, ["threshold:7", "tip", "tip"], 5_000, seed=3)
    c = simulate(rules, ["threshold:7", "tip", "tip"], 5_000, seed=4)

    def first_of_seat_1(r: SimulationResult) -> np.ndarray:
        return r.per_round["round_scores"][:, 0, 1]

    paired = float((first_of_seat_1(a) == first_of_seat_1(b)).mean())
    unpaired = float((first_of_seat_1(a) == first_of_seat_1(c)).mean())
    assert paired > 0.8 > 0.3 > unpaired, (paired, unpaired)
    wa, wb, wc = (r.stat("total")[:, 0].astype(float) for r in (a, b, c))
    assert np.var(wa - wb) < 0.5 * np.var(wa - wc)


def test_the_rounds_of_a_match_share_their_nodes_and_the_end_is_counted() -> None:
    """A node holds no round number: a round's steps are shared by every round of the match,
    and the steps that count the finished rounds (a round's end) are resolved per count --
    here 0 to 3 rounds before it, so every match of ``rounds:4`` ends after its fourth."""
    rules = find_rules("classic(format=rounds:4)")
    bots = ["ev", "tip", "threshold:7"]
    out = fast_matches(rules, bots, 2, 0, 1_000)
    assert (out["rounds"] == 4).all()
    t = match_table(rules, bots)
    assert np.flatnonzero((t.by_count.ids >= 0).any(axis=0)).tolist() == [0, 1, 2, 3]
    # Every node holds the same unknown count, the start's: none is a copy for one round.
    in_round = [s for s in t.nodes.states if s.phase is Phase.TURN]
    assert in_round and all(s.results == t.nodes.states[t.start].results for s in in_round)
