"""The batched match environment against the exact match solver and the engine.

Its matches are the simulator's step tables (the engine's own steps) around the agent's
compiled turn, so the checks are: under a fixed policy at the agent's seat, the agent's match
win rate is the solver's exact value (within 4 standard errors, seeded) in several formats;
at every table after every step the agent has a decision, and its mask, contest and totals
are what the engine's state says; bad input is refused, naming what is wrong.
"""

from __future__ import annotations

import numpy as np
import pytest

from .need import need_module

need_module("gymnasium")

from shipcaptaincrew import legal_actions  # noqa: E402
from shipcaptaincrew.envs.batched_match import BatchedMatchEnv, match_fields  # noqa: E402
from shipcaptaincrew.envs.encoding import FORMAT_CODES, action_index, decision_mask  # noqa: E402
from shipcaptaincrew.solver import contest_view, policy_choices  # noqa: E402
from shipcaptaincrew.solver.evaluate import evaluate  # noqa: E402
from shipcaptaincrew.solver.policies import Policy, parse_policy  # noqa: E402


def policy_ids(env: BatchedMatchEnv, policy: str) -> np.ndarray:
    """The action id a fixed policy takes at every node of the agent's turn."""
    g = env.turn.graph
    ids = np.zeros(len(g), dtype=np.int64)
    for node, pick in enumerate(policy_choices(env.rules, policy)):
        if pick >= 0:
            ids[node] = action_index(g.states[node], g.actions[node][pick])
    return ids


def win_rate(env: BatchedMatchEnv, policy: str, steps: int, seed: int) -> tuple[float, int]:
    """The agent's share of matches won under ``policy`` over ``steps`` steps: every match
    that ends counted once (those ended without a decision of the agent included)."""
    ids = policy_ids(env, policy)
    obs, info = env.reset(seed=seed)
    won, n = float(info["undecided_rewards"].sum()), len(info["undecided_rewards"])
    for _ in range(steps):
        obs, reward, terminated, truncated, info = env.step(ids[obs["node"]])
        assert not truncated.any()
        won += float(reward[terminated].sum() + info["undecided_rewards"].sum())
        n += int(terminated.sum()) + len(info["undecided_rewards"])
    return won / n, n


@pytest.mark.parametrize(
    ("fmt", "policy", "opponents", "seat"),
    [
        ("rounds:3", "never", ["ev"], 0),
        ("first_to:11", "threshold:7", ["ev"], 1),
        ("wins:2", "ev", ["threshold:8"], 0),
        ("single", "threshold:6", ["ev", "threshold:8"], 2),
    ],
)
def test_a_fixed_policy_wins_as_often_as_the_solver_says(
    fmt: str, policy: str, opponents: list[str], seat: int
) -> None:
    env = BatchedMatchEnv(2048, "classic", fmt, opponents, seat=seat)
    rate, n = win_rate(env, policy, 150, seed=11)
    lineup = [parse_policy(b) for b in opponents]
    lineup.insert(seat, parse_policy(policy))
    # The solver's seats are the first round's play order; who opens is the rules' roll-off,
    # fair among the seats: the agent's chance is the mean over who opens.
    expected = float(np.mean([opening_at(env, lineup, seat, k) for k in range(len(lineup))]))
    se = (expected * (1 - expected) / n) ** 0.5
    assert abs(rate - expected) <= 4 * se, (rate, expected, se, n)


def opening_at(env: BatchedMatchEnv, lineup: list[Policy], seat: int, first: int) -> float:
    """The exact chance of ``seat`` when seat ``first`` opens the match."""
    order = [(first + k) % len(lineup) for k in range(len(lineup))]
    value = evaluate(env.rules, tuple(lineup[s] for s in order))
    return float(value.seat_win_probability[order.index(seat)])


def test_every_table_waits_at_a_decision_the_engine_agrees_with() -> None:
    env = BatchedMatchEnv(256, "classic", "rounds:3", ["ev", "tip"], seat=1)
    width = env.observation_width
    assert width == sum(w for _, w in match_fields(3))
    obs, _ = env.reset(seed=4)
    names = [name for name, w in match_fields(3) for _ in range(w)]
    col = {name: names.index(name) for name in names}
    for _ in range(40):
        assert obs["observation"].shape == (256, width)
        for i in range(0, 256, 17):
            turn = env.turn.graph.states[obs["node"][i]]
            state = env.table.nodes.states[obs["match_node"][i]]
            assert (obs["action_mask"][i] == decision_mask(turn)).all()
            assert len(legal_actions(turn)) >= 2
            view = contest_view(state)
            row = obs["observation"][i]
            assert row[col["posted_max"]] == view.posted_max
            assert row[col["tied"]] == view.tied
            assert row[col["players_after"]] == view.players_after
            # Totals and wins from the agent's seat on.
            tot = row[col["totals"] : col["totals"] + 3].tolist()
            assert tot == [int(env.totals[i, (1 + k) % 3]) for k in range(3)]
            assert row[col["format_kind"]] == FORMAT_CODES.index(env.rules.format.kind)
            assert row[col["format_n"]] == 3
            # Three once the totals are level after the third round: the tie-break's turns.
            assert 0 <= row[col["rounds_played"]] <= 3
        obs, reward, terminated, _, _ = env.step(env.sample_actions())
        assert set(np.unique(reward[terminated]).tolist()) <= {0.0, 1.0}
        assert (reward[~terminated] == 0).all()


def test_the_same_seed_plays_the_same_matches() -> None:
    def run() -> list[np.ndarray]:
        env = BatchedMatchEnv(64, "classic", "first_to:21", ["ev"])
        obs, _ = env.reset(seed=9)
        seen = [obs["observation"]]
        for _ in range(30):
            obs, reward, *_ = env.step(env.sample_actions())
            seen += [obs["observation"], reward]
        return seen

    assert all((a == b).all() for a, b in zip(run(), run()))


def test_bad_input_is_refused_naming_what_is_wrong() -> None:
    env = BatchedMatchEnv(8, "classic", "rounds:2", ["ev"])
    obs, _ = env.reset(seed=1)
    with pytest.raises(ValueError, match="actions must be 8 integer ids"):
        env.step(np.zeros(3, dtype=np.int64))
    illegal = int(np.flatnonzero(obs["action_mask"][0] == 0)[0])
    actions = env.sample_actions()
    actions[0] = illegal
    with pytest.raises(ValueError, match=f"table 0: action id {illegal} is not legal now"):
        env.step(actions)
    with pytest.raises(ValueError, match=r"seat must be 0\.\.1 for 2 players"):
        BatchedMatchEnv(8, "classic", "rounds:2", ["ev"], seat=2)
    with pytest.raises(ValueError, match="opponents must be"):
        BatchedMatchEnv(8, "classic", "rounds:2", [])
    with pytest.raises(ValueError, match="num_envs must be a count from 1"):
        BatchedMatchEnv(0, "classic", "rounds:2", ["ev"])
    with pytest.raises(ValueError, match="cannot play this set-up: the match-optimal bot"):
        BatchedMatchEnv(8, "classic", "rounds:2", ["optimal"])
    with pytest.raises(ValueError, match="cannot play this set-up: stakes=pot"):
        BatchedMatchEnv(8, "ship-captain-crew", None, ["ev"])
