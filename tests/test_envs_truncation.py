"""Optional truncation: ``max_steps`` ends a Gymnasium or PettingZoo episode with
``truncated`` set (and ``terminated`` not) when the match is still going."""

from __future__ import annotations

import numpy as np
import pytest

from .need import need_module

need_module("gymnasium")
need_module("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from shipcaptaincrew.envs import shipcaptaincrew_v0  # noqa: E402
from shipcaptaincrew.envs.gym_env import ShipCaptainCrewEnv  # noqa: E402

RULES = "classic(format=rounds:3)"


def test_gymnasium_truncates_after_max_steps() -> None:
    env = ShipCaptainCrewEnv(rules=RULES, bots=["tip"], match=True, max_steps=2)
    check_env(env)
    truncated_seen = 0
    for seed in range(30):
        env.action_space.seed(seed)
        obs, _ = env.reset(seed=seed)
        steps, terminated, truncated = 0, False, False
        while not (terminated or truncated):
            obs, reward, terminated, truncated, _ = env.step(env.action_space.sample())
            steps += 1
        assert steps <= 2 and not (terminated and truncated)
        if truncated:
            truncated_seen += 1
            assert steps == 2 and reward == 0.0 and not env.state.is_over
            # The last observation is the state it stopped in, its mask included.
            assert obs["action_mask"].tolist() == env.action_mask().tolist()
            assert obs["action_mask"].any() and not env.has_stop
            with pytest.raises(RuntimeError, match="over"):
                env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert 5 < truncated_seen < 30  # some matches have more than two decisions, some fewer


def test_gymnasium_without_a_limit_never_truncates() -> None:
    env = ShipCaptainCrewEnv(rules=RULES, bots=["tip"], match=True)
    env.reset(seed=0)
    done = truncated = False
    while not done:
        _, _, done, truncated, _ = env.step(env.action_space.sample())
        assert not truncated


def test_pettingzoo_truncates_every_agent_after_max_steps() -> None:
    api_test(shipcaptaincrew_v0.env(players=3, rules=RULES, match=True, max_steps=4), 200)
    aec = shipcaptaincrew_v0.raw_env(players=3, rules=RULES, match=True, max_steps=4)
    truncated_seen = 0
    for seed in range(10):
        aec.reset(seed=seed)
        steps = 0
        ends: dict[str, tuple[bool, bool, float]] = {}
        for agent in aec.agent_iter():
            obs, reward, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                ends[agent] = (terminated, truncated, reward)
                assert not obs["action_mask"].any()
                aec.step(None)
                continue
            aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
            steps += 1
        if aec.state_value.is_over:
            assert steps <= 4 and all(t and not u for t, u, _ in ends.values())
        else:
            truncated_seen += 1
            assert steps == 4
            assert ends == {f"player_{s}": (False, True, 0.0) for s in range(3)}
    assert 0 < truncated_seen < 10


@pytest.mark.parametrize("bad", [0, -3, True, 2.5])
def test_a_bad_limit_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="max_steps must be None or a count from 1"):
        ShipCaptainCrewEnv(max_steps=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_steps must be None or a count from 1"):
        shipcaptaincrew_v0.raw_env(max_steps=bad)  # type: ignore[arg-type]
