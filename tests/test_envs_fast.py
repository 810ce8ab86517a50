"""The single-table environments' fast path (envs.table_play) against the engine: the same
observations, the same masks, and the outcomes the exact solvers give."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from .need import need_module

need_module("gymnasium")
need_module("pettingzoo")

from shipcaptaincrew import apply, find_rules, legal_actions  # noqa: E402
from shipcaptaincrew.engine import (  # noqa: E402
    CHANCE,
    TERMINAL,
    current_player,
    initial_state,
    sample_chance,
)
from shipcaptaincrew.envs.encoding import (  # noqa: E402
    decision_mask,
    flat_observation,
    observation,
    observation_bounds,
)
from shipcaptaincrew.envs.gym_env import ShipCaptainCrewEnv  # noqa: E402
from shipcaptaincrew.envs.pettingzoo_env import raw_env  # noqa: E402
from shipcaptaincrew.solver.match.solve import solve_match  # noqa: E402
from shipcaptaincrew.solver.policies import SEAT_KINDS, parse_policy  # noqa: E402


@pytest.mark.parametrize(
    "rules",
    ["classic(format=rounds:2)", "ship-captain-crew(wild_captain=true,drinking=last_drinks)"],
)
def test_the_flat_observation_is_the_observations_fields(rules: str) -> None:
    """flat_observation (built without the dict) is observation() flattened, at every state
    of random matches."""
    rng = random.Random(4)
    r = find_rules(rules)
    for _ in range(20):
        state = initial_state(r, 3)
        while current_player(state) != TERMINAL:
            for seat in range(3):
                obs = observation(state, seat)
                want: list[int] = []
                for name in observation_bounds(3):
                    value = obs[name]
                    want += value if isinstance(value, list) else [value]
                assert flat_observation(state, seat) == want
            if current_player(state) == CHANCE:
                state = apply(state, sample_chance(state, rng))
            else:
                state = apply(state, rng.choice(legal_actions(state)))


def exact_pair(rules_text: str, mine: str, other: str) -> float:
    """Seat 0's exact chance, ``mine`` against ``other``, the starter by roll-off."""
    rules = find_rules(rules_text)
    a, b = parse_policy(mine, allow=SEAT_KINDS), parse_policy(other, allow=SEAT_KINDS)
    return (
        solve_match(rules, (a, b)).seat_win_probability[0]
        + solve_match(rules, (b, a)).seat_win_probability[1]
    ) / 2


@pytest.mark.parametrize(
    ("rules", "fmt", "bot"),
    [("classic", None, "tip"), ("classic(half_cargo=true)", "rounds:2", "ev")],
)
def test_gymnasium_outcomes_are_the_solvers(rules: str, fmt: str | None, bot: str) -> None:
    """Always stand against a bot: the share of matches won over every match dealt (those a
    reset played out included) is the solver's exact value within 4 standard errors, and
    every observed mask is the engine's at the environment's state."""
    env = ShipCaptainCrewEnv(rules=rules, bots=[bot], format=fmt)
    wins = matches = 0.0
    for episode in range(6000):
        obs, info = env.reset(seed=episode)
        matches += 1 + info["undecided_episodes"]
        wins += info["undecided_reward"]
        while True:
            assert np.array_equal(obs["action_mask"], decision_mask(env.state))
            obs, reward, terminated, truncated, _ = env.step(0)  # stand
            if terminated or truncated:
                wins += reward
                break
    exact = exact_pair(str(env.rules), "never", bot)
    se = math.sqrt(exact * (1 - exact) / matches)
    assert abs(wins / matches - exact) < 4 * se, (wins / matches, exact, se)


def test_pettingzoo_outcomes_are_the_solvers() -> None:
    """Two agents, seat 0 always stands and seat 1 rerolls while it may: the solver's value."""
    aec = raw_env(players=2, rules="classic")
    wins = games = 0.0
    for game in range(6000):
        aec.reset(seed=game)
        info = aec.infos["player_0"]
        games += 1 + info["undecided_episodes"]
        wins += info["undecided_reward"]
        for agent in aec.agent_iter():
            obs, reward, term, trunc, _ = aec.last()
            if term or trunc:
                if agent == "player_0":
                    wins += reward
                aec.step(None)
                continue
            assert np.array_equal(obs["action_mask"], decision_mask(aec.state_value))
            legal = np.flatnonzero(obs["action_mask"])
            aec.step(int(legal[0] if agent == "player_0" else legal[-1]))
    exact = exact_pair("classic", "never", "threshold:13")
    se = math.sqrt(exact * (1 - exact) / games)
    assert abs(wins / games - exact) < 4 * se, (wins / games, exact, se)
