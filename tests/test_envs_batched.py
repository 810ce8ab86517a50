"""The batched NumPy environment against the engine and the exact solver.

Its tables come from the solver's compiled turn, so the checks are: at sampled states the mask
is the engine's ``legal_actions`` and a step lands where the engine's dice can take it; under a
fixed policy the final scores follow the exact turn odds (within 4 standard errors, seeded);
under the win-maximising policy the mean reward is the exact round win probability.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from .need import need_module

need_module("gymnasium")

from shipcaptaincrew import apply, chance_outcomes, find_rules, legal_actions  # noqa: E402
from shipcaptaincrew.envs.batched import TURN_FIELDS, BatchedTurnEnv  # noqa: E402
from shipcaptaincrew.envs.encoding import NUM_ACTIONS, action_index  # noqa: E402
from shipcaptaincrew.solver import (  # noqa: E402
    ContestView,
    optimal_choices,
    policy_choices,
    turn_odds,
    win_rewards,
)
from shipcaptaincrew.state import TurnPhase, TurnState  # noqa: E402

RULES = ("classic", "classic(half_cargo=true,wild_captain=true,same_roll_bonus=3)")


def policy_ids(env: BatchedTurnEnv, choices: list[int]) -> np.ndarray:
    """The action id a choice list takes at every node (0 where there is nothing to choose)."""
    ids = np.zeros(len(env.graph), dtype=np.int64)
    for node, pick in enumerate(choices):
        if pick >= 0:
            ids[node] = action_index(env.graph.states[node], env.graph.actions[node][pick])
    return ids


def first_turns(env: BatchedTurnEnv, ids: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The scores and rewards of every turn dealt until each table has finished its first
    decided one (the turns a reset plays out included): independent turns, each counted once."""
    obs, info = env.reset(seed=seed)
    scores, rewards = [info["undecided_scores"]], [info["undecided_rewards"]]
    finished = np.zeros(env.num_envs, dtype=bool)
    while not finished.all():
        obs, reward, terminated, truncated, info = env.step(ids[obs["node"]])
        assert not truncated.any()
        first = terminated & ~finished
        finished |= terminated
        scores.append(info["final_score"][first])
        rewards.append(reward[first])
        # The turns dealt after a table's first decided one are not counted: a table still
        # playing its first turn has dealt none yet, so every table stops at the same point.
    return np.concatenate(scores), np.concatenate(rewards)


def reachable(state: TurnState, target: TurnState) -> bool:
    """The engine's dice can take ``state`` (dice due) to ``target``."""
    frontier = {state}
    while frontier:
        if target in frontier:
            return True
        frontier = {
            apply(s, roll)
            for s in frontier
            if s.phase is TurnPhase.ROLL
            for roll, _ in chance_outcomes(s)
        }
    return False


@pytest.mark.parametrize("rules", RULES)
def test_masks_are_the_engines_legal_actions_and_steps_follow_its_dice(rules: str) -> None:
    env = BatchedTurnEnv(64, rules=rules)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(6):
        states = env.states()
        for state, mask in zip(states, obs["action_mask"]):
            assert state.phase in (TurnPhase.DECIDE, TurnPhase.ASSIGN)
            legal = {action_index(state, a) for a in legal_actions(state)}
            assert set(np.flatnonzero(mask).tolist()) == legal
        actions = env.sample_actions()
        assert all(obs["action_mask"][i, a] == 1 for i, a in enumerate(actions))
        obs, _, terminated, _, info = env.step(actions)
        after = env.states()
        for i in rng.choice(env.num_envs, 8, replace=False):
            chosen = next(
                a for a in legal_actions(states[i]) if action_index(states[i], a) == actions[i]
            )
            moved = apply(states[i], chosen)
            if terminated[i]:  # the turn ended (and a new one was dealt)
                assert info["final_score"][i] >= 0
            elif moved.phase is TurnPhase.ROLL:
                assert reachable(moved, after[i])
            else:
                assert moved == after[i]


def test_the_observation_columns_are_the_turn_and_the_contest() -> None:
    view = ContestView(3, 7, 1, 1)
    env = BatchedTurnEnv(16, view=view)
    obs, _ = env.reset(seed=1)
    assert obs["observation"].shape == (16, sum(w for _, w in TURN_FIELDS))
    for row, state in zip(obs["observation"], env.states()):
        assert row[1:4].tolist() == [*state.held, *[0] * (3 - len(state.held))]
        assert row[-3:].tolist() == [7, 1, 1]
    assert obs["action_mask"].shape == (16, NUM_ACTIONS)


@pytest.mark.parametrize("rules", RULES)
def test_final_scores_follow_the_exact_turn_odds(rules: str) -> None:
    env = BatchedTurnEnv(20_000, rules=rules, reward="score")
    scores, _ = first_turns(env, policy_ids(env, policy_choices(env.rules, "ev")), seed=11)
    exact = turn_odds(find_rules(rules), "ev", exact=True).distribution
    n = len(scores)
    seen = Counter(scores.tolist())
    assert set(seen) <= set(exact)
    for score, p in exact.items():
        se = math.sqrt(float(p * (1 - p)) / n)
        assert abs(seen[score] / n - float(p)) <= 4 * se + 1e-12, (score, seen[score] / n, p)


def test_the_win_reward_averages_to_the_exact_round_win_probability() -> None:
    view = ContestView(2, 0, 0, 1)  # the first of two seats
    env = BatchedTurnEnv(20_000, view=view)
    choices = optimal_choices(env.rules, view)
    _, rewards = first_turns(env, policy_ids(env, choices), seed=5)
    values, _, _ = env.graph.evaluate_lex(win_rewards(env.rules, view))
    se = rewards.std(ddof=1) / math.sqrt(len(rewards))
    assert abs(rewards.mean() - values[0]) <= 4 * se, (rewards.mean(), values[0], se)


def test_same_seed_same_play_and_bad_actions_are_refused() -> None:
    a, b = BatchedTurnEnv(32), BatchedTurnEnv(32)
    oa, _ = a.reset(seed=9)
    ob, _ = b.reset(seed=9)
    for _ in range(5):
        assert (oa["node"] == ob["node"]).all()
        actions = a.sample_actions()
        assert (actions == b.sample_actions()).all()
        oa, ra, *_ = a.step(actions)
        ob, rb, *_ = b.step(actions)
        assert (ra == rb).all()
    with pytest.raises(ValueError, match="actions must be 32 integer ids"):
        a.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match=r"action ids are 0\.\.33"):
        a.step(np.full(32, 40))
    with pytest.raises(
        ValueError, match=r"table 0: action id 5 is not legal now; legal ids: \[0, 1\]"
    ):
        a.step(np.full(32, 5))  # keep:4 is no choice without half cargo
    with pytest.raises(ValueError, match="num_envs must be a count from 1"):
        BatchedTurnEnv(0)
    with pytest.raises(ValueError, match="reward must be one of win, score"):
        BatchedTurnEnv(1, reward="chips")
