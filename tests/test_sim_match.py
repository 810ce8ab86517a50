"""Whole matches: seat win rates against the solver's equilibrium, against the plain engine
loop, and identical results for a seed however the chunks are spread over workers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.sim.reference import engine_matches
from shipcaptaincrew.sim.run import CHUNK, chunk_plan, simulate, wilson
from shipcaptaincrew.solver import ContestView, contest_view, equilibrium


@pytest.mark.parametrize(
    ("preset", "players", "policy", "matches"),
    [
        ("classic", 3, "optimal", 12_000),
        ("ship-captain-crew", 3, "optimal", 12_000),
        ("classic", 2, "optimal", 6_000),
        ("ship-captain-crew", 2, "ev", 6_000),
        ("classic(wild_captain=true,cargo_rerolls=1)", 2, "optimal", 6_000),
        ("skip-kaptein-mannskap(half_cargo=true,format=single)", 2, "optimal", 6_000),
        ("schiff-kapitaen-crew(format=single)", 3, "optimal", 8_000),
        ("skip-kaptein-mannskap(format=single)", 3, "ev", 6_000),
        ("classic(bow_to_stern=true)", 2, "optimal", 6_000),
        ("classic(same_roll_bonus=3,cargo_rerolls=0)", 2, "optimal", 6_000),
        ("ship-captain-crew(half_cargo=true,wild_captain=true)", 2, "optimal", 6_000),
        ("classic", 8, "optimal", 4_000),
    ],
)
def test_seat_win_rates_match_equilibrium(
    preset: str, players: int, policy: str, matches: int
) -> None:
    """Everyone playing the same policy: simulated seat win rates within 4 SE of the solver.

    starter=chosen puts the starter at seat 0, so seat i is the solver's position i + 1.
    """
    rules = find_rules(preset).replace(starter="chosen")
    result = simulate(rules, [policy] * players, matches, seed=11)
    exact = equilibrium(rules, players, policy).seat_win_probability
    for seat, p in zip(result.summary()["seats"], exact):
        se = math.sqrt(p * (1 - p) / matches)
        assert abs(seat["win_rate"] - p) <= 4 * se, (seat, p)


@pytest.mark.parametrize(
    ("preset", "changes", "bots", "n_plain"),
    [
        (
            "schiff-kapitaen-crew",
            {"drinking": "captain_hands_out", "failed_double": True},
            ["tip", "timid", "ev"],
            1_000,
        ),
        (
            "ship-captain-crew",
            {"format": "rounds:3", "drinking": "last_drinks"},
            ["tip", "threshold:9"],
            1_000,
        ),
        (
            "skip-kaptein-mannskap",
            {"format": "tournament", "stakes": "pot", "starting_chips": 3},
            ["tip", "ev", "timid", "threshold:9"],
            500,
        ),
    ],
)
def test_vectorised_matches_agree_with_plain_engine_loop(
    preset: str, changes: dict[str, object], bots: list[str], n_plain: int
) -> None:
    """Win rates, sips and chips: vectorised turns in the engine's match vs roll by roll."""
    rules = find_rules(preset).replace(**changes)
    n_fast = 5 * n_plain
    plain = engine_matches(rules, bots, n_plain, seed=3)
    fast = simulate(rules, bots, n_fast, seed=3)
    for seat in range(len(bots)):
        a = float((plain["winner"] == seat).mean())
        b = float((fast.winner == seat).mean())
        assert abs(a - b) <= 4 * math.sqrt(b * (1 - b) * (1 / n_plain + 1 / n_fast)), seat
        for name, key in (("sips", "sips"), ("chips", "chips")):
            x = plain[key][:, seat].astype(float)
            y = fast.stat(name)[:, seat].astype(float)
            if key == "chips":
                x = x - (rules.starting_chips if rules.stakes.value == "pot" else 0)
            se = math.sqrt(x.var() / n_plain + y.var() / n_fast)
            assert abs(x.mean() - y.mean()) <= 4 * se + 1e-12, (name, seat)


def test_same_seed_same_result_with_two_workers() -> None:
    """--workers 2 plays the very same matches as one process."""
    rules = find_rules("ship-captain-crew")
    n = 2 * CHUNK + 37
    one = simulate(rules, ["tip", "timid", "ev"], n, seed=42)
    two = simulate(rules, ["tip", "timid", "ev"], n, seed=42, workers=2)
    assert np.array_equal(one.stats, two.stats)
    assert np.array_equal(one.hist, two.hist)
    assert one.summary() == two.summary()


def test_same_seed_same_result_on_dask_local_cluster() -> None:
    """A Dask LocalCluster (in-process workers) plays the very same matches."""
    rules = find_rules("skip").replace(format="single")
    n = CHUNK + 11
    one = simulate(rules, ["tip", "timid"], n, seed=9)
    dask = simulate(rules, ["tip", "timid"], n, seed=9, dask="local-threads")
    assert np.array_equal(one.stats, dask.stats)
    assert one.summary() == dask.summary()


def test_shorter_run_is_a_prefix_and_seeds_differ() -> None:
    """Chunk i always draws from SeedSequence(seed, spawn_key=(i,))."""
    rules = find_rules("classic")
    long = simulate(rules, ["tip", "timid"], CHUNK + 20, seed=5)
    short = simulate(rules, ["tip", "timid"], CHUNK + 5, seed=5)
    other = simulate(rules, ["tip", "timid"], CHUNK + 5, seed=6)
    assert np.array_equal(long.stats[: CHUNK + 5], short.stats)
    assert not np.array_equal(other.stats, short.stats)
    assert chunk_plan(2 * CHUNK + 1) == [(0, CHUNK), (1, CHUNK), (2, 1)]


def test_summary_counts_are_consistent() -> None:
    """One winner per match; per-bot figures pool that bot's seats."""
    rules = find_rules("schiff-kapitaen-crew")
    result = simulate(rules, ["tip", "timid", "tip"], 800, seed=1)
    s = result.summary()
    assert result.stat("won").sum(axis=1).tolist() == [1] * 800
    assert s["bots"]["tip"]["seats"] == [0, 2]
    assert s["bots"]["tip"]["wins"] == s["seats"][0]["wins"] + s["seats"][2]["wins"]
    assert math.isclose(sum(b["win_rate"] for b in s["bots"].values()), 1.0)
    # All but the winner sip (000): exactly players - 1 sips per round.
    assert (result.stat("sips").sum(axis=1) == 2 * result.rounds).all()
    lo, hi = s["bots"]["timid"]["ci95"]
    assert lo < s["bots"]["timid"]["win_rate"] < hi


def test_wilson_interval() -> None:
    assert wilson(0, 10)[0] == 0.0 and math.isclose(wilson(10, 10)[1], 1.0)
    lo, hi = wilson(500, 1000)
    assert math.isclose((lo + hi) / 2, 0.5) and 0.46 < lo < 0.47


def test_contest_view_counts_the_failed_players_as_tied() -> None:
    """posted_max 0 with everyone before failed: tied counts them (the solver's rule), in the
    view the simulator's optimal tables are keyed by."""
    from shipcaptaincrew.actions import Roll
    from shipcaptaincrew.engine import apply, initial_state

    rules = find_rules("classic").replace(starter="chosen")
    s = initial_state(rules, 3, starter=0)
    assert contest_view(s) == ContestView(3, 0, 0, 2)
    for faces in ((1, 1, 1, 1, 1),) * 3:  # seat 0 fails
        s = apply(s, Roll(faces))
    assert contest_view(s) == ContestView(3, 0, 1, 1)


@pytest.mark.parametrize("preset", ["classic", "ship-captain-crew(wild_captain=true)"])
def test_optimal_tables_choose_what_the_optimal_bot_chooses(preset: str) -> None:
    """The table context the simulator derives gives the round-maximiser's own choice,
    everywhere.

    Matches of four players (ties, tie-break replays, all-fail rounds) are walked through the
    engine; at every decision of a turn the simulator's table row must be the bot's choice.
    (``optimal`` itself plays the match there, by the estimate: tests/test_solver_estimate.py.)
    """
    import random

    from shipcaptaincrew.bots import make_bot
    from shipcaptaincrew.engine import (
        apply,
        initial_state,
        is_chance,
        is_terminal,
        legal_actions,
        sample_chance,
    )
    from shipcaptaincrew.rules import Rules
    from shipcaptaincrew.sim.policy import make_policy

    rules = Rules.from_str(preset).replace(format="rounds:3")
    policy = make_policy("optimal:round", rules, 4)
    bot = make_bot("optimal:round")
    rng = random.Random(1)
    checked = 0
    for _ in range(40):
        s = initial_state(rules, 4)
        while not is_terminal(s):
            if is_chance(s):
                s = apply(s, sample_chance(s, rng))
                continue
            acts = legal_actions(s)
            if s.turn is not None:
                ((mine, p),) = policy.decide(s.turn, contest_view(s))
                assert p == 1 and mine == bot.choose(s, rng), (s.turn, contest_view(s))
                checked += 1
            s = apply(s, rng.choice(acts))
    assert checked > 150


@pytest.mark.parametrize(
    ("preset", "bot"),
    [
        ("classic(half_cargo=true)", "tip"),
        ("ship-captain-crew(wild_captain=true)", "timid"),
        ("classic(same_roll_bonus=2,cargo_rerolls=1)", "ev"),
    ],
)
def test_crews_are_the_engines_completed_crews(preset: str, bot: str) -> None:
    """``crews`` counts turns whose done state has a full crew: its rate per turn agrees with
    the table's exact completion odds (a context-free bot plays every turn from one table)."""
    from shipcaptaincrew.rules import Rules
    from shipcaptaincrew.sim.match import table_for
    from shipcaptaincrew.sim.policy import make_policy

    rules = Rules.from_str(preset).replace(format="rounds:3")
    result = simulate(rules, [bot, bot], 2_000, seed=2)
    p = float(table_for(rules, make_policy(bot, rules), 2, None).exact().p_complete)
    turns, crews = int(result.stat("turns").sum()), int(result.stat("crews").sum())
    assert crews <= turns and turns >= 2_000 * 2 * 3
    assert abs(crews / turns - p) <= 4 * math.sqrt(p * (1 - p) / turns)
    s = result.summary()
    assert s["bots"][bot]["crews"] == crews and s["bots"][bot]["turns"] == turns


def test_eight_players_every_option_at_once_runs_and_conserves_chips() -> None:
    """8 seats, wild captain, cargo roll-off ties, carried pots, drinks: no crash, one winner
    per match, chips only change hands."""
    from shipcaptaincrew.rules import Rules

    rules = Rules.from_str("ship-captain-crew(wild_captain=true,cargo_rerolls=1)").replace(
        drinking="captain_hands_out", failed_double=True, format="rounds:2"
    )
    bots = ["optimal", "ev", "tip", "timid", "threshold:8", "random", "ev", "tip"]
    result = simulate(rules, bots, 150, seed=4)
    assert (result.stat("won").sum(axis=1) == 1).all()
    assert (result.stat("chips").sum(axis=1) == 0).all()
    assert (result.stat("sips") >= 0).all() and result.stat("sips").sum() > 0
    assert (result.rounds >= 2).all()
