"""The PettingZoo AEC adapter ``shipcaptaincrew_v0``: the official checkers and the
classic environments' illegal-move convention."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from .need import need_module

need_module("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from shipcaptaincrew import IllegalActionError, InvalidSetupError, legal_actions  # noqa: E402
from shipcaptaincrew.envs.encoding import action_index  # noqa: E402
from shipcaptaincrew.envs.pettingzoo_env import env, raw_env  # noqa: E402

CONFIGS = [
    {"players": 2, "rules": "classic"},
    {
        "players": 3,
        "rules": "classic(half_cargo=true,wild_captain=true,cargo_rerolls=1,"
        "drinking=captain_hands_out,same_roll_bonus=3)",
    },
    {"players": 8, "rules": "ship-captain-crew", "reward": "pot"},
    {"players": 4, "rules": "classic(bow_to_stern=true,format=rounds:2)", "match": True},
    {"players": 6, "rules": "classic(format=tournament,drinking=last_drinks)", "match": True},
]

# The two warnings every classic environment with dict observations gets from api_test.
_EXPECTED = ("Observation is not a NumPy array", "Observation space for each agent probably")


@pytest.mark.parametrize("kwargs", CONFIGS)
def test_api_test(kwargs: dict[str, object]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(render_mode="ansi", **kwargs), num_cycles=1000)
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(_EXPECTED)]
    assert unexpected == []


@pytest.mark.parametrize("kwargs", CONFIGS[:3])
def test_seed_test(kwargs: dict[str, object]) -> None:
    seed_test(lambda: env(**kwargs), num_cycles=500)


def test_masks_are_the_engine_legal_actions() -> None:
    e = raw_env(players=3, rules=CONFIGS[1]["rules"])
    seen = set()
    for seed in range(40):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            state = e.state_value
            mask = obs["action_mask"]
            legal = legal_actions(state)
            if legal:
                assert sorted(np.flatnonzero(mask)) == sorted(action_index(state, a) for a in legal)
                seen |= {type(a).__name__ for a in legal}
            else:
                assert mask.all()  # the agent's turn starts: any id rolls
            for other in e.agents:
                if other != agent:
                    assert not e.observe(other)["action_mask"].any()
            e.step(int(np.flatnonzero(mask)[seed % int(mask.sum())]))
    assert seen >= {"Stand", "RerollCargo", "Take", "HandOut"}


def test_illegal_move_ends_the_game_through_the_wrapper() -> None:
    e = env(players=3, rules="classic")
    e.reset(seed=0)
    # Play to a real decision (stand or reroll), then send a hand-out id.
    while e.unwrapped.observe(e.agent_selection)["action_mask"].all():
        e.step(0)
        if not e.agents:
            e.reset()
    offender = e.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the wrapper warns about the illegal move
        e.step(29)
    assert all(e.terminations.values())
    assert e.rewards[offender] == -1
    assert all(r == 0 for a, r in e.rewards.items() if a != offender)


def test_raw_env_raises_on_illegal_ids_and_keeps_the_state() -> None:
    e = raw_env(players=2, rules="classic")
    e.reset(seed=3)
    while e.observe(e.agent_selection)["action_mask"].all():
        e.step(0)
        if e.state_value.is_over:
            e.reset()
    before = e.state_value
    with pytest.raises(IllegalActionError, match="legal: 0=stand, 1=reroll"):
        e.step(5)
    assert e.state_value == before


def test_bad_setups_are_refused() -> None:
    with pytest.raises(InvalidSetupError, match=r"a table seats 2\.\.8 players"):
        raw_env(players=9)
    for bad in (True, np.bool_(True), 3.0, "3"):
        with pytest.raises(InvalidSetupError, match=r"a table seats 2\.\.8 players"):
            raw_env(players=bad)  # type: ignore[arg-type]
    assert raw_env(players=np.int64(3)).possible_agents[-1] == "player_2"  # type: ignore[arg-type]
    with pytest.raises(InvalidSetupError, match="tournament"):
        raw_env(players=2, rules="classic(format=tournament)", match=True)
    with pytest.raises(ValueError, match="stakes=pot"):
        raw_env(reward="pot")
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")


def test_render_test_ansi_and_human(capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's own render checker: ``ansi`` returns the table, ``human`` prints it."""
    render_test(lambda render_mode=None: env(players=3, render_mode=render_mode))
    printed = capsys.readouterr().out
    assert "seat 2: total" in printed and "rules: classic" in printed


def test_versioned_module_name_like_the_classic_environments() -> None:
    """``from shipcaptaincrew.envs import shipcaptaincrew_v0`` works as
    ``from pettingzoo.classic import tictactoe_v3`` does, with the standard wrappers."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    from shipcaptaincrew.envs import shipcaptaincrew_v0

    aec = shipcaptaincrew_v0.env(players=3, rules="classic(half_cargo=true)")
    assert isinstance(aec, OrderEnforcingWrapper)
    assert aec.metadata["name"] == "shipcaptaincrew_v0"
    assert isinstance(aec.unwrapped, shipcaptaincrew_v0.raw_env)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(aec, num_cycles=200)
    assert [str(w.message) for w in caught if not str(w.message).startswith(_EXPECTED)] == []
