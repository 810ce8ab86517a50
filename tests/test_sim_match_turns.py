"""The match-optimal bot on the step tables (sim/steps/match_turns.py) and the batched estimate it
draws from (solver/estimate_rounds.py).

Exact where it can be: the batched estimate equals the one-turn estimate at any position;
the tables' draw (the part no decision changes, then the decided part by key) is exactly the
score distribution the bot plays in the engine's own match loop; clipping a total out of reach
changes nothing.  Statistical where it must be: whole matches agree with the engine loop
within 4 standard errors.
"""

from __future__ import annotations

import numpy as np
import pytest

from shipcaptaincrew.engine import counted_rounds, initial_state, post_score
from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.sim.policy import MatchPolicy, make_policy
from shipcaptaincrew.sim.run import simulate
from shipcaptaincrew.sim.steps import FastRefusal, fast_refusal, match_table
from shipcaptaincrew.sim.steps.fast import fast_matches
from shipcaptaincrew.sim.steps.match_turns import MatchTurns, Positions, plays
from shipcaptaincrew.solver.estimate_rounds import estimate_rounds_batch, later_scores, per_round
from shipcaptaincrew.solver.graph import turn_graph
from shipcaptaincrew.solver.match.estimate import estimate_rewards
from shipcaptaincrew.solver.match.view import MatchView
from shipcaptaincrew.solver.rounds import equilibrium
from shipcaptaincrew.state import evolve
from tests.test_sim_fast import _agree

ROUNDS5 = find_rules("classic(format=rounds:5)")


def _on_top(mine: np.ndarray, others: list[np.ndarray]) -> float:
    """The chance that ``mine`` is the best of independent totals (distributions over 0..L),
    a tie with k others counted 1 / (k + 1): per value of mine, the product over the others of
    (below + z * level) gives the chance of k level in the coefficient of z**k."""
    out = 0.0
    for v, pv in enumerate(mine):
        if pv:
            poly = np.array([1.0])
            for d in others:
                poly = np.convolve(poly, [d[:v].sum(), d[v] if v < len(d) else 0.0])
            out += pv * sum(c / (k + 1) for k, c in enumerate(poly))
    return out


def _reference(
    players: int, left: int, posted: tuple[int, ...], totals: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """The ``rounds:N`` estimate from its definition, written plainly (no clipping, no batch,
    no shared helpers but the model's inputs): each later player of this round scores as the
    round equilibrium plays from the table left, every later round adds an independent score
    of the averaged per-round distribution to every total, and the match goes to the best
    total, a tie shared evenly; the round chance is the equilibrium's."""
    eq = equilibrium(ROUNDS5, players, "optimal")
    step, _ = per_round(ROUNDS5, players)
    me, size = len(posted), max(totals) + (left + 1) * 12 + 1

    def after(table: tuple[int, int], x: int) -> tuple[int, int]:
        m, t = table
        return (x, 1) if x > m else (m, t + 1) if x == m else (m, t)

    table = (0, 0)
    for x in posted:
        table = after(table, x)
    est, rnd = [], []
    for x in turn_graph(ROUNDS5).scores:
        later = later_scores(ROUNDS5, players, me, after(table, x))
        dists = []
        for q in range(players):
            d = np.zeros(size)
            if q < me:
                d[totals[q] + posted[q]] = 1.0
            elif q == me:
                d[totals[q] + x] = 1.0
            else:
                d[totals[q] : totals[q] + len(later[q - me - 1])] = later[q - me - 1]
            for _ in range(left):
                d = np.convolve(d, step)[:size]
            dists.append(d)
        est.append(_on_top(dists[me], dists[:me] + dists[me + 1 :]))
        rnd.append(eq.g(me, *table)[eq.scores.index(x)])
    return np.array(est), np.array(rnd)


@pytest.mark.parametrize("players", [4, 5])
def test_the_batched_estimate_is_the_estimate_by_its_definition(players: int) -> None:
    """At random positions of every round: the batched estimate, the one-turn estimate the
    bot asks and the plain reference agree."""
    rng = np.random.default_rng(7)
    scores = np.array([0, *range(2, 13)])
    for played in range(5):
        for me in range(players):
            posted = rng.choice(scores, size=(3, me))
            totals = rng.integers(0, 12 * played + 1, size=(3, players))
            est, rnd = estimate_rounds_batch(ROUNDS5, players, 4 - played, posted, totals)
            for i in range(3):
                tot, pos = tuple(int(x) for x in totals[i]), tuple(int(x) for x in posted[i])
                ref_est, ref_rnd = _reference(players, 4 - played, pos, tot)
                assert np.allclose(est[i], ref_est, atol=1e-12, rtol=0), (played, me, i)
                assert np.allclose(rnd[i], ref_rnd, atol=1e-12, rtol=0)
                view = MatchView.of_round(ROUNDS5.format, tot, pos, played=played)
                one_est, one_rnd = estimate_rewards(ROUNDS5, view)
                assert np.allclose(est[i], one_est, atol=1e-14, rtol=0)
                assert np.allclose(rnd[i], one_rnd, atol=1e-14, rtol=0)


def test_a_total_out_of_reach_is_clipped_without_changing_the_estimate() -> None:
    """Far ahead is as good as out of reach ahead: the estimate, which clips the points
    ahead it reads, equals the plain reference on the totals as they are."""
    posted = np.array([[7, 9]])
    for totals in ((3, 70, 0, 1), (3, 50, 0, 1), (40, 3, 0, 45)):
        for left in (0, 1, 2):
            est, rnd = estimate_rounds_batch(ROUNDS5, 4, left, posted, np.array([totals]))
            ref_est, ref_rnd = _reference(4, left, (7, 9), totals)
            assert np.allclose(est[0], ref_est, atol=1e-12, rtol=0), (totals, left)
            assert np.allclose(rnd[0], ref_rnd, atol=1e-12, rtol=0)
            if totals[1] > 3 + 7 + 12 * (left + 1):  # seat 1 cannot be caught
                assert not est[0].any()


@pytest.mark.parametrize(
    ("totals", "posted", "played"),
    [((0, 0, 0, 0), (), 0), ((14, 20, 9, 17), (8, 0), 2), ((30, 31, 29, 40), (12, 3, 3), 3)],
)
def test_the_tables_draw_exactly_what_the_bot_plays(
    totals: tuple[int, ...], posted: tuple[int, ...], played: int
) -> None:
    """The part of the turn no decision changes plus the decided part by key is the
    distribution the ``optimal`` bot plays at that state in the engine's own loop."""
    rules = ROUNDS5.replace(starter="chosen")
    state = initial_state(rules, 4, starter=0)
    for x in posted:
        state = post_score(state, x)
    state = evolve(state, totals=totals, results=counted_rounds(played))
    policy = make_policy("optimal", rules, 4)
    assert isinstance(policy, MatchPolicy) and plays(policy, rules, 4)
    want = np.diff(policy.cdf(state), prepend=0.0)
    turns = MatchTurns(rules, 4)
    me = len(posted)
    seat_totals = np.array([totals])
    seat_posted = np.array([[*posted, *([0] * (4 - me))]])
    row = turns._lookup(
        Positions(
            np.array([[0, 1, 2, 3]]), np.array([me]), np.array([played]), seat_totals, seat_posted
        )
    )
    decided = np.diff(turns._cdf[row[0]], prepend=0.0) * (1.0 - turns.p_fixed)
    assert np.allclose(turns.fixed + decided, want, atol=1e-12, rtol=0)
    # Drawn by the uniforms: the fixed part below p_fixed, the decided part above it.
    u = (np.arange(20_000) + 0.5) / 20_000
    n = len(u)
    drawn = turns.draw(
        u,
        Positions(
            np.tile([0, 1, 2, 3], (n, 1)),
            np.full(n, me),
            np.full(n, played),
            np.repeat(seat_totals, n, axis=0),
            np.repeat(seat_posted, n, axis=0),
        ),
    )
    freq = np.array([(drawn == s).mean() for s in turns.scores])
    assert np.abs(freq - want).max() < 2e-3


def test_the_tables_play_the_match_bot_of_a_large_table() -> None:
    """Four and five players of ``rounds:N`` (beyond the exact solver): tabled; two players
    (the exact solver plays them) and other formats: the engine loop, saying why."""
    assert fast_refusal(ROUNDS5, ["optimal"] * 4) is None
    assert (
        fast_refusal(find_rules("classic(format=rounds:3)"), ["optimal", "ev"] * 2 + ["tip"])
        is None
    )
    assert fast_refusal(find_rules("classic(format=rounds:2)"), ["optimal", "tip"]) is (
        FastRefusal.MATCH_OPTIMAL
    )
    assert fast_refusal(find_rules("classic(format=first_to:21)"), ["optimal"] * 4) is (
        FastRefusal.MATCH_OPTIMAL
    )
    t = match_table(ROUNDS5, ["optimal", "ev", "optimal", "tip"])
    assert t.samplers.match_turns is not None


@pytest.mark.parametrize(
    ("spec", "bots", "n_fast", "n_slow"),
    [
        ("classic(format=rounds:3)", ["optimal", "ev", "optimal", "tip"], 6_000, 1_200),
        (
            "classic(format=rounds:2,tie_break=cargo_rolloff,drinking=all_but_winner)",
            ["optimal"] * 5,
            4_000,
            800,
        ),
    ],
)
def test_the_match_bot_on_the_tables_agrees_with_the_engine_loop(
    spec: str, bots: list[str], n_fast: int, n_slow: int
) -> None:
    rules = find_rules(spec)
    fast = simulate(rules, bots, n_fast, seed=11)
    slow = simulate(rules, bots, n_slow, seed=12, engine_loop=True)
    assert fast.path == "tables" and slow.path.startswith("engine loop")
    _agree(fast, slow)


def test_the_match_bot_s_draws_are_keyed_like_every_other() -> None:
    """A match is the same however the run is split, the match bot's turns included."""
    bots = ["optimal", "ev", "optimal", "threshold:7"]
    whole = fast_matches(ROUNDS5, bots, 3, 0, 600)
    part = fast_matches(ROUNDS5, bots, 3, 250, 350)
    assert (whole["stats"][250:] == part["stats"]).all()
