"""The public evaluation API (shipcaptaincrew.envs.evaluate): exact values of learned policies
checked by hand and against the solver, and the unbiased sample against the exact value."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from .need import need_module

need_module("gymnasium")

from shipcaptaincrew.envs.batched import BatchedTurnEnv  # noqa: E402
from shipcaptaincrew.envs.batched_match import BatchedMatchEnv  # noqa: E402
from shipcaptaincrew.envs.encoding import action_index  # noqa: E402
from shipcaptaincrew.envs.evaluate import exact_value, sampled_value  # noqa: E402
from shipcaptaincrew.envs.gym_env import ShipCaptainCrewEnv  # noqa: E402
from shipcaptaincrew.rules import find_rules  # noqa: E402
from shipcaptaincrew.solver import ContestView  # noqa: E402
from shipcaptaincrew.solver.graph import CHANCE_NODE, DECISION_NODE  # noqa: E402
from shipcaptaincrew.solver.match.solve import solve_match  # noqa: E402
from shipcaptaincrew.solver.policies import (  # noqa: E402
    SEAT_KINDS,
    fixed_choices,
    parse_policy,
)


def learned_table(env: BatchedTurnEnv, seed: int) -> np.ndarray:
    """A 'learned' table: a random legal id at every decision node (fixed by the seed)."""
    rng = np.random.default_rng(seed)
    ids = np.zeros(len(env.graph), dtype=np.int64)
    for node in np.flatnonzero(env.turn.decision):
        legal = np.flatnonzero(env.masks[node])
        ids[node] = legal[rng.integers(len(legal))]
    return ids


def by_hand(env: BatchedTurnEnv, ids: np.ndarray) -> Fraction:
    """The table's mean reward per turn, node by node in exact fractions: a final node pays
    its score's reward, a chance node the mean of its outcomes, a decision node its choice."""
    g = env.graph
    value: dict[int, Fraction] = {}
    for node in reversed(range(len(g))):  # children come after their parents
        kind = g.kind[node]
        if kind == CHANCE_NODE:
            value[node] = sum(
                (Fraction(p) * value[k] for k, p in zip(g.kids[node], g.probs[node])), Fraction(0)
            )
        elif kind == DECISION_NODE:
            acts = [action_index(g.states[node], a) for a in g.actions[node]]
            value[node] = value[g.kids[node][acts.index(int(ids[node]))]]
        else:
            value[node] = Fraction(env.score_reward[g.score_pos[node]])
    return value[0]


@pytest.mark.parametrize(
    ("rules", "view", "reward"),
    [
        ("classic", ContestView(2, 0, 0, 1), "win"),
        ("classic(half_cargo=true,wild_captain=true)", ContestView(3, 7, 1, 1), "win"),
        ("classic(cargo_rerolls=1)", ContestView(2, 0, 0, 0), "score"),
    ],
)
def test_the_turn_value_is_the_hand_built_one(rules: str, view: ContestView, reward: str) -> None:
    env = BatchedTurnEnv(8, rules=rules, view=view, reward=reward)
    ids = learned_table(env, 5)
    exact = exact_value(env, ids)
    assert exact.value == pytest.approx(float(by_hand(env, ids)), abs=1e-12)
    # The best response is the optimal plan: no table does better, and the gap is the
    # exploitability.  A policy given as a function of the batched observation is the same.
    assert exact.best_response is not None and exact.best_response >= exact.value
    assert exact.exploitability == pytest.approx(exact.best_response - exact.value)
    as_function = exact_value(env, lambda obs: ids[obs["node"]], best_response=False)
    assert as_function.value == exact.value and as_function.best_response is None


def test_a_table_of_a_solver_policy_is_the_solvers_value() -> None:
    """A 'learned' match policy that happens to be threshold:8 (by node): its exact value in
    the batched match environment is the match solver's, starters averaged (three seats, one
    round: a walk of seconds; tests/test_solver_walk.py walks rounds:N against the solver)."""
    rules = find_rules("classic")
    env = BatchedMatchEnv(4, rules=rules, match_format="single", opponents=["ev", "ev"], seat=1)
    g = env.turn.graph
    threshold = parse_policy("threshold:8", allow=SEAT_KINDS)
    choice = fixed_choices(rules, threshold)
    ids = np.zeros(len(g), dtype=np.int64)
    for node in np.flatnonzero(env.turn.decision):
        ids[node] = action_index(g.states[node], g.actions[node][choice[node]])
    ev = parse_policy("ev", allow=SEAT_KINDS)
    # Seat 1 opens, plays second or third, each a third of the time (the roll-off).
    lineups = [(ev, threshold, ev), (threshold, ev, ev), (ev, ev, threshold)]
    places = [1, 0, 2]
    solver = (
        sum(
            solve_match(rules, lineup).seat_win_probability[place]
            for lineup, place in zip(lineups, places)
        )
        / 3
    )
    batched = exact_value(env, lambda obs: ids[obs["node"]], best_response=False)
    assert batched.value == pytest.approx(solver, abs=1e-12)


def test_the_gymnasium_and_the_batched_match_walks_agree_and_refuse_what_they_cannot() -> None:
    """'Always stand' against ev in one round, with its best response."""
    stand_gym = ShipCaptainCrewEnv(rules="classic", bots=["ev"])
    stand_batched = BatchedMatchEnv(4, rules="classic", match_format="single", opponents="ev")
    a = exact_value(stand_gym, lambda obs: 0)
    b = exact_value(stand_batched, lambda obs: np.zeros(len(obs["node"]), dtype=np.int64))
    assert a.value == pytest.approx(b.value, abs=1e-12)
    assert a.best_response == pytest.approx(b.best_response, abs=1e-12)
    ev = parse_policy("ev", allow=SEAT_KINDS)
    never = parse_policy("never", allow=SEAT_KINDS)
    rules = stand_gym.rules
    solved = (
        solve_match(rules, (never, ev)).seat_win_probability[0]
        + solve_match(rules, (ev, never)).seat_win_probability[1]
    ) / 2
    assert a.value == pytest.approx(solved, abs=1e-12)
    # The best response to always-stand is the optimal reply: it takes more than a fair share.
    assert a.exploitability is not None and a.exploitability > 0.05
    mixed = ShipCaptainCrewEnv(rules="classic", bots=["ev", "tip"])
    with pytest.raises(Exception, match="one policy name"):
        exact_value(mixed, lambda obs: 0)


def test_the_unbiased_sample_of_ten_million_matches_agrees_with_the_exact_value() -> None:
    """'Always stand' against ev over rounds:3, the case a time-boxed sample got wrong by
    z = -4.4: 10**7 matches, every one started finished, within four standard errors."""
    rules = find_rules("classic").replace(format="rounds:3")
    ev = parse_policy("ev", allow=SEAT_KINDS)
    never = parse_policy("never", allow=SEAT_KINDS)
    exact = (
        solve_match(rules, (never, ev)).seat_win_probability[0]
        + solve_match(rules, (ev, never)).seat_win_probability[1]
    ) / 2
    env = BatchedMatchEnv(1 << 16, rules=rules, opponents=["ev"])
    sample = sampled_value(
        env, lambda obs: np.zeros(len(obs["node"]), dtype=np.int64), 10**7, seed=3
    )
    low, high = sample.ci95
    print(f"exact {exact:.6f}, sampled {sample.mean:.6f} [{low:.6f}, {high:.6f}], "
          f"n = {sample.count}, z = {sample.z(exact):+.2f}")  # fmt: skip
    assert sample.count == 10**7 + (-(10**7) % (1 << 16))  # every table its share, no more
    assert abs(sample.z(exact)) < 4
