"""Observation views: raw, seat-relative and one-hot, in OpenSpiel (observation parameter
``view``), Gymnasium and PettingZoo (``view=``), all cut from one list of fields."""

from __future__ import annotations

import random

import numpy as np
import pytest

from .need import need_module

pyspiel = need_module("pyspiel")
observation = need_module("open_spiel.python.observation")
env_checker = need_module("gymnasium.utils.env_checker")
pz_test = need_module("pettingzoo.test")

from shipcaptaincrew.envs import openspiel_game, shipcaptaincrew_v0  # noqa: E402
from shipcaptaincrew.envs.encoding import flat_observation, observation_bounds  # noqa: E402
from shipcaptaincrew.envs.gym_env import ShipCaptainCrewEnv  # noqa: E402
from shipcaptaincrew.envs.views import (  # noqa: E402
    PER_SEAT,
    VIEWS,
    View,
    view_bounds,
    view_fields,
    view_observation,
    view_vector,
)

RULES = "classic(wild_captain=true,half_cargo=true,stakes=pot,format=rounds:3)"


def states(players: int = 3, games: int = 4) -> list[pyspiel.State]:
    """States of random games (every kind of node)."""
    game = openspiel_game.load(players, RULES)
    rng = random.Random(2)
    out = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            out.append(state.clone())
            if state.is_chance_node():
                ids, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(ids, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        out.append(state)
    return out


@pytest.mark.parametrize("view", VIEWS)
def test_the_openspiel_observer_gives_each_view_with_named_fields(view: str) -> None:
    game = openspiel_game.load(3, RULES)
    params = pyspiel.game_parameters_from_string(f"(view={view})")
    obs = observation.make_observation(game, None, params)
    named = observation.make_observation(game, None, pyspiel.game_parameters_from_string(view))
    assert named.view is obs.view is View(view)
    fields = view_fields(View(view), 3, game.rules)
    assert [(n, a.shape) for n, a in obs.dict.items()] == fields
    low, high = view_bounds(View(view), 3, game.rules)
    for state in states()[::7]:
        for player in range(3):
            obs.set_from(state, player)
            assert obs.tensor.tolist() == view_vector(state.match, player, View(view))
            assert (np.array(low) <= obs.tensor).all() and (obs.tensor <= np.array(high)).all()
    default = observation.make_observation(game)
    assert len(default.tensor) == len(flat_observation(state.match, 0))


def test_the_relative_view_counts_seats_from_the_viewer() -> None:
    for state in states()[::5]:
        match = state.match
        for seat in range(3):
            raw = view_observation(match, seat, View.RAW)
            rel = view_observation(match, seat, View.RELATIVE)
            assert rel["seat"] == 0
            for name in PER_SEAT:
                assert rel[name] == [raw[name][(seat + k) % 3] for k in range(3)]
            assert rel["to_act"] == (3 if raw["to_act"] == 3 else (raw["to_act"] - seat) % 3)
            assert rel["held"] == raw["held"] and rel["pot"] == raw["pot"]


def test_the_onehot_view_has_one_hot_categories() -> None:
    game = openspiel_game.load(3, RULES)
    obs = observation.make_observation(game, None, {"view": "onehot"})
    counters = {"totals", "chips", "sips", "pot", "round_no", "wins", "bonus", "format_n"}
    for state in states()[::5]:
        obs.set_from(state, 1)
        rel = view_observation(state.match, 1, View.RELATIVE)
        for name, piece in obs.dict.items():
            if name in counters:
                continue
            assert (piece.sum(axis=-1) == 1).all(), name  # exactly one category per entry
        low = observation_bounds(3)["posted"][1]
        assert obs.dict["posted"].argmax(axis=-1).tolist() == [p - low for p in rel["posted"]]
        assert obs.dict["to_act"].argmax() == rel["to_act"]
        assert obs.dict["totals"].tolist() == rel["totals"]
        assert obs.dict["format_kind"].argmax() == rel["format_kind"]
        assert obs.dict["format_n"].tolist() == [rel["format_n"]] == [state.match.rules.format.n]


def test_bad_observation_parameters_are_refused() -> None:
    game = openspiel_game.load(2)
    with pytest.raises(ValueError, match="view must be one of raw, relative, onehot"):
        observation.make_observation(game, None, {"view": "pixels"})
    with pytest.raises(ValueError, match="unknown observation parameter 'colour'"):
        observation.make_observation(game, None, {"colour": "red"})
    with pytest.raises(ValueError, match="view must be one of"):
        ShipCaptainCrewEnv(view="pixels")
    with pytest.raises(ValueError, match="view must be one of"):
        shipcaptaincrew_v0.raw_env(view="pixels")


@pytest.mark.parametrize("view", VIEWS)
def test_gymnasium_checks_every_view(view: str) -> None:
    env = ShipCaptainCrewEnv(rules=RULES, bots=["tip", "ev"], seat=1, match=True, view=view)
    env_checker.check_env(env, skip_render_check=True)
    env.action_space.seed(1)
    obs, _ = env.reset(seed=1)
    done = False
    while not done:
        assert env.observation_space.contains(obs)
        if view != "onehot":
            expected = view_observation(env.state, 1, View(view))
            assert obs["totals"].tolist() == expected["totals"]
        else:
            assert obs["phase"].dtype == np.float32 and obs["phase"].sum() == 1
        # What an exact walk asks of it: the same observation for the same state.
        again = env.observe(env.state)
        assert again.keys() == obs.keys()
        assert all(np.array_equal(again[k], obs[k]) for k in obs)
        obs, _, done, _, _ = env.step(env.action_space.sample())


@pytest.mark.parametrize("view", VIEWS)
def test_pettingzoo_checks_every_view(view: str) -> None:
    aec = shipcaptaincrew_v0.env(players=3, rules=RULES, match=True, view=view)
    pz_test.api_test(aec, num_cycles=100)
    aec.reset(seed=2)
    for agent in aec.agent_iter():
        obs, _, terminated, truncated, _ = aec.last()
        seat = int(agent.split("_")[1])
        assert obs["observation"].tolist() == view_vector(
            aec.unwrapped.state_value, seat, View(view)
        )
        aec.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
