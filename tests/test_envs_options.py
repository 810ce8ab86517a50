"""Every value of every rule option through all three adapters.

For each setting, the official checkers pass (Gymnasium's ``check_env``, PettingZoo's
``api_test``, OpenSpiel's ``random_sim_test`` with serialization), and the Gymnasium
environment, the PettingZoo environment and the OpenSpiel game play a few random games; at
every decision the mask (or OpenSpiel's legal actions) must be exactly the engine's
``legal_actions`` under the shared ids, and every observation must lie in its space.  The walks
are short: the point is that no option breaks an adapter, not statistics.
"""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

from .need import need_module

gym = need_module("gymnasium")
need_module("pettingzoo")
pyspiel = need_module("pyspiel")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from shipcaptaincrew import find_rules, legal_actions  # noqa: E402
from shipcaptaincrew.envs import GYM_ID, openspiel_game  # noqa: E402
from shipcaptaincrew.envs.encoding import ROLL_ID, action_index  # noqa: E402
from shipcaptaincrew.envs.gym_env import ShipCaptainCrewEnv  # noqa: E402
from shipcaptaincrew.envs.pettingzoo_env import env, raw_env  # noqa: E402
from shipcaptaincrew.rules import Rules, option_names  # noqa: E402
from shipcaptaincrew.state import MatchState  # noqa: E402

#: One setting per non-default value of each option of classic (plus the pot preset's
#: options on top of pot stakes, which they need).
SETTINGS = [
    "dice=4",
    "dice=6",
    "dice=6,half_cargo=true,tie_break=cargo_rolloff",
    "dice=4,tie_break=cargo_rolloff,wild_captain=true",
    "rolls=2",
    "rolls=5,cargo_rerolls=4",
    "half_cargo=true",
    "bow_to_stern=true",
    "wild_captain=true",
    "wild_captain=true,wild_face=3",
    "cargo_rerolls=0",
    "cargo_rerolls=1",
    "cargo_rerolls=2",
    "same_roll_bonus=5",
    "tie_break=cargo_rolloff",
    "stakes=pot,all_fail=carry_pot",
    "starter=chosen",
    "rotation=previous",
    "rotation=none",
    "stakes=pot",
    "stakes=pot,ante=3,starting_chips=6",
    "drinking=all_but_winner",
    "drinking=last_drinks",
    "drinking=captain_hands_out",
    "drinking=all_but_winner,failed_double=true",
    "format=rounds:2",
    "format=first_to:6",
    "format=tournament",
    "stakes=pot,pot_to=match",
    "stakes=pot,pot_to=match,format=rounds:2",
    "drinking=captain_hands_out,hand_out=up_to",
    "drinking=captain_hands_out,hand_out=up_to,failed_double=true",
    "tie_break=round",
    "tie_break=round,stakes=pot,format=rounds:2",
    "tie_break=no_winner",
    "tie_break=no_winner,stakes=pot",
    "rotation=loser",
    "rotation=loser,format=rounds:3",
    "format=wins:2",
    "format=session",
    "format=session,drinking=captain_hands_out,hand_out=up_to",
]


#: Settings under which no seat ever has a decision (no reroll, no wild face, no hand-out).
NO_DECISIONS = {"cargo_rerolls=0"}

# The two warnings every classic environment with dict observations gets from api_test.
_EXPECTED = ("Observation is not a NumPy array", "Observation space for each agent probably")


def test_the_settings_cover_every_option() -> None:
    named = {s.split("=")[0] for setting in SETTINGS for s in setting.split(",")}
    assert named == set(option_names())


def engine_ids(state: MatchState) -> list[int]:
    return sorted(action_index(state, a) for a in legal_actions(state))


@pytest.mark.parametrize("setting", SETTINGS)
def test_option_through_all_three_adapters(setting: str) -> None:
    rules = find_rules(f"classic({setting})")
    assert isinstance(rules, Rules)
    seed = sum(map(ord, setting))

    if setting in NO_DECISIONS:
        # Nobody ever has anything to decide: the environments say so instead of dealing
        # episodes for ever; OpenSpiel plays them as chance alone.
        with pytest.raises(RuntimeError, match="nothing to decide in 1000 episodes in a row"):
            ShipCaptainCrewEnv(rules=rules, bots=["tip", "random"], seat=1).reset(seed=seed)
        with pytest.raises(RuntimeError, match="nothing to decide in 1000 episodes in a row"):
            raw_env(players=3, rules=rules).reset(seed=seed)
    else:
        check_gymnasium_and_pettingzoo(rules, seed)
    check_openspiel(rules, seed)


def check_gymnasium_and_pettingzoo(rules: Rules, seed: int) -> None:
    # Gymnasium: one agent (seat 1) against two bots, the whole match.
    made = gym.make(
        GYM_ID, rules=rules, bots=["tip", "random"], seat=1, match=True, render_mode="ansi"
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(made.unwrapped)
    assert [str(w.message) for w in caught] == []
    gym_env = ShipCaptainCrewEnv(rules=rules, bots=["tip", "random"], seat=1, match=True)
    gym_env.action_space.seed(seed)
    for episode in range(4):
        obs, _ = gym_env.reset(seed=seed + episode)
        done = False
        while not done:
            assert gym_env.observation_space.contains(obs)
            state, mask = gym_env.state, obs["action_mask"]
            assert sorted(np.flatnonzero(mask)) == engine_ids(state)  # always a decision
            obs, reward, done, _, _ = gym_env.step(gym_env.action_space.sample())
        assert reward == (1.0 if gym_env.state.winner == 1 else 0.0)

    # PettingZoo: three agents.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(players=3, rules=rules, match=True, render_mode="ansi"), num_cycles=300)
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(_EXPECTED)]
    assert unexpected == []
    aec = raw_env(players=3, rules=rules, match=True)
    for episode in range(2):
        aec.reset(seed=seed + episode)
        for agent in aec.agent_iter():
            obs, _, term, trunc, _ = aec.last()
            if term or trunc:
                aec.step(None)
                continue
            assert aec.observation_space(agent).contains(obs)
            state, mask = aec.state_value, obs["action_mask"]
            if legal_actions(state):
                assert sorted(np.flatnonzero(mask)) == engine_ids(state)
            ids = np.flatnonzero(mask)
            aec.step(int(ids[(seed + episode) % len(ids)]))


def check_openspiel(rules: Rules, seed: int) -> None:
    # OpenSpiel: three players, the official random simulation plus a checked walk.
    game = openspiel_game.load(3, rules)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        elif not legal_actions(state.match):  # a turn's opening roll (roll_action)
            assert state.legal_actions() == [ROLL_ID]
            state.apply_action(ROLL_ID)
        else:
            assert state.legal_actions() == engine_ids(state.match)
            state.apply_action(rng.choice(state.legal_actions()))
    assert sorted(state.returns()) == [0.0, 0.0, 1.0]
