"""The Gymnasium adapter and the shared action numbering.

The environment is checked with Gymnasium's own ``check_env``; the rest checks that every rule
option reaches the agent through the masks and observations exactly as the engine has it.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator

import numpy as np
import pytest

from .need import need_module

gym = need_module("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import shipcaptaincrew.envs  # noqa: E402, F401  (registers ShipCaptainCrew-v0)
from shipcaptaincrew import (  # noqa: E402
    HandOut,
    IllegalActionError,
    InvalidSetupError,
    RerollCargo,
    Roll,
    Stand,
    Take,
    apply,
    current_player,
    find_rules,
    initial_state,
    initial_turn,
    legal_actions,
)
from shipcaptaincrew.actions import (  # noqa: E402
    Action,
    HandOutSplit,
    NextRound,
    StopHandOut,
    StopMatch,
)
from shipcaptaincrew.bots import TipBot  # noqa: E402
from shipcaptaincrew.envs.common import resolve_bot  # noqa: E402
from shipcaptaincrew.envs.encoding import (  # noqa: E402
    NUM_ACTIONS,
    TAKE_PATTERNS,
    IllegalIndexError,
    action_index,
    action_label,
    decision_mask,
    flat_bounds,
    flat_observation,
    index_action,
    observation,
)
from shipcaptaincrew.envs.gym_env import ShipCaptainCrewEnv  # noqa: E402
from shipcaptaincrew.rules import Rules  # noqa: E402
from shipcaptaincrew.state import MatchState, Purpose, TurnPhase, TurnState  # noqa: E402

ALL_OPTIONS = (
    "classic(half_cargo=true,wild_captain=true,cargo_rerolls=1,same_roll_bonus=5,"
    "drinking=captain_hands_out,failed_double=true)"
)


# -- the action numbering -----------------------------------------------------------------------


def test_action_ids_cover_every_kind_once() -> None:
    t = initial_turn(find_rules("classic"))
    names = [index_action(t, i) for i in range(NUM_ACTIONS)]
    assert names[:8] == [Stand(), RerollCargo(), *(RerollCargo(keep=f) for f in range(1, 7))]
    # The ids are a published layout: the later decisions were appended, nothing moved.
    assert names[22:30] == [HandOut(s) for s in range(8)]
    assert names[30:33] == [StopHandOut(), NextRound(), StopMatch()]
    # 33: a turn's opening roll, OpenSpiel's move with no engine action (the dice are chance's).
    assert names[33] is None and action_label(t, 33) == "roll"
    assert len(TAKE_PATTERNS) == 14 and NUM_ACTIONS == 34
    assert index_action(t, -1) is None and index_action(t, NUM_ACTIONS) is None
    for i, action in enumerate(names):
        if not isinstance(action, Take) and action is not None:
            assert action_index(t, action) == i


def test_a_split_hand_out_has_no_id() -> None:
    t = initial_turn(find_rules("classic"))
    with pytest.raises(IllegalIndexError, match="one at a time"):
        action_index(t, HandOutSplit(((1, 2), (2, 1))))


def test_half_cargo_keep_choices_are_masked_ids() -> None:
    rules = find_rules("classic").replace(half_cargo=True)
    t = apply(initial_turn(rules), Roll((6, 5, 4, 2, 3)))
    mask = decision_mask(t)
    assert set(np.flatnonzero(mask)) == {0, 1, 3, 4}  # stand, reroll, keep 2, keep 3
    assert index_action(t, 4) == RerollCargo(keep=3)
    plain = apply(initial_turn(find_rules("classic")), Roll((6, 5, 4, 2, 3)))
    assert set(np.flatnonzero(decision_mask(plain))) == {0, 1}


@pytest.mark.parametrize(
    ("rules", "held", "roll"),
    [
        (find_rules("classic").replace(wild_captain=True), (), (6, 5, 1, 1, 2)),
        (find_rules("classic").replace(wild_captain=True), (6,), (1, 4, 5, 2)),
        (find_rules("classic").replace(wild_captain=True, wild_face=2), (6, 5), (2, 4, 3)),
        (Rules(bow_to_stern=True, wild_captain=True, wild_face=6), (), (1, 2, 6, 6, 3)),
    ],
)
def test_wild_assignments_round_trip_through_ids(
    rules: Rules, held: tuple[int, ...], roll: tuple[int, ...]
) -> None:
    t = initial_turn(rules)
    # Reach a position holding `held` by rolling the roles and chaff first.
    if held:
        chaff = (2, 2, 2, 2, 2) if rules.wild_face != 2 else (3, 3, 3, 3, 3)
        first = held + chaff[len(held) :]
        t = apply(t, Roll(first))
        assert t.held == held
    t = apply(t, Roll(roll))
    takes = [a for a in legal_actions(t) if isinstance(a, Take)]
    assert len(takes) >= 2, "the roll should offer a wild choice"
    ids = [action_index(t, a) for a in takes]
    assert len(set(ids)) == len(ids)
    assert [index_action(t, i) for i in ids] == takes
    assert set(np.flatnonzero(decision_mask(t))) == set(ids)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(wild_captain=True),
        Rules(wild_captain=True, wild_face=3),
        Rules(bow_to_stern=True, wild_captain=True, wild_face=6),
    ],
)
def test_every_possible_take_has_its_own_id(rules: Rules) -> None:
    """Every assignment the engine can offer, from any holding and roll, round-trips."""
    from shipcaptaincrew.dice import roll_distribution
    from shipcaptaincrew.turn import assignments

    seen = set()
    for held in range(3):
        holding = rules.required_faces[:held]
        for faces, _ in roll_distribution(5 - held):
            options = assignments(rules, held, faces)
            if len(options) < 2:
                continue
            turn = TurnState(rules, held=holding, pending=faces, phase=TurnPhase.ASSIGN)
            ids = [action_index(turn, Take(o)) for o in options]
            assert len(set(ids)) == len(ids)
            assert [index_action(turn, i) for i in ids] == [Take(o) for o in options]
            seen.update(ids)
    assert seen == set(range(8, 22))  # every one of the 14 take ids is needed


def test_hand_out_ids_are_seats() -> None:
    rules = find_rules("classic").replace(drinking="captain_hands_out", starter="chosen")
    s = apply(initial_state(rules, 3, starter=0), Roll((6, 5, 4, 6, 6)))
    s = apply(s, Stand())  # seat 0 posts 12
    for _ in range(6):  # seats 1 and 2 fail three rolls each
        s = apply(s, Roll((1, 1, 1, 1, 1)))
    s = apply(s, Roll((3,)))  # the captain's die: three sips to hand out
    assert s.round_winner == 0 and s.hand_out_left == 3
    assert set(np.flatnonzero(decision_mask(s))) == {22 + 1, 22 + 2}
    assert index_action(s, 24) == HandOut(2)


def test_observation_fits_its_bounds_and_shows_the_turn() -> None:
    rules = find_rules("classic").replace(same_roll_bonus=7, starter="chosen")
    s = apply(initial_state(rules, 3, starter=1), Roll((6, 5, 4, 3, 3)))
    obs = observation(s, 1)
    # the cargo field is sized for the widest cup (dice=6): the third slot of a cup of 5 is 0
    assert obs["held"] == [6, 5, 4] and obs["cargo"] == [3, 3, 0] and obs["bonus"] == 7
    assert obs["to_act"] == 1 and obs["players_after"] == 2 and obs["posted"] == [-1, -1, -1]
    s = apply(s, Stand())
    obs = observation(s, 2)
    assert obs["posted"] == [-1, 13, -1] and obs["to_act"] == 2 and obs["players_after"] == 1
    flat = flat_observation(s, 2)
    low, high = flat_bounds(3)
    assert all(lo <= v <= hi for v, lo, hi in zip(flat, low, high, strict=True))


def test_bow_to_stern_holds_bow_faces() -> None:
    match = initial_state(Rules(bow_to_stern=True, starter="chosen"), 2, starter=0)
    match = apply(match, Roll((1, 2, 5, 5, 6)))
    assert observation(match, 0)["held"] == [1, 2, 0]


# -- the Gymnasium environment ------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rules": "classic"},
        {"rules": ALL_OPTIONS, "bots": ["tip", "random"], "seat": 2},
        {"rules": "ship-captain-crew", "bots": ["tip"] * 3, "seat": 1, "reward": "pot"},
        {"rules": "classic(format=rounds:2,tie_break=cargo_rolloff)", "match": True},
        {"rules": "schiff-kapitaen-crew", "bots": ["timid", "tip"], "reward": "sips"},
    ],
)
def test_check_env(kwargs: dict[str, object]) -> None:
    env = gym.make("ShipCaptainCrew-v0", render_mode="ansi", **kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []  # passes without a single warning
    env.close()


def walk(env: ShipCaptainCrewEnv, episodes: int, seed: int) -> Iterator[tuple[MatchState, dict]]:
    """Play random legal actions; yield (state, observation) at every stop, and check each."""
    env.action_space.seed(seed)
    for episode in range(episodes):
        obs, _ = env.reset(seed=seed + episode)
        done = False
        while not done:
            state = env.state
            assert env.observation_space.contains(obs)
            mask = obs["action_mask"]
            legal = legal_actions(state)  # every stop is a decision: a turn's start is none
            assert legal and current_player(state) == env.seat
            assert sorted(np.flatnonzero(mask)) == sorted(action_index(state, a) for a in legal)
            yield state, obs
            obs, reward, done, truncated, _ = env.step(env.action_space.sample())
            assert not truncated
            assert reward == 0.0 or done


def kinds(state: MatchState) -> set[str]:
    return {
        type(a).__name__ + (":keep" if getattr(a, "keep", None) else "")
        for a in legal_actions(state)
    }


def test_every_option_reaches_the_agent_as_masked_actions() -> None:
    env = ShipCaptainCrewEnv(rules=ALL_OPTIONS, bots=["tip", "tip"], seat=0)
    seen: set[str] = set()
    bonus = False
    for state, obs in walk(env, 150, seed=3):
        seen |= kinds(state)
        bonus |= int(obs["bonus"]) == 5
        if state.turn is not None:
            assert state.turn.cargo_rerolls <= 1  # cargo_rerolls=1 holds
            if state.turn.cargo_rerolls == 1:
                assert RerollCargo() not in legal_actions(state)
    assert seen >= {"Stand", "RerollCargo", "RerollCargo:keep", "Take", "HandOut"}
    assert bonus, "a same-roll bonus should have been seen in 150 rounds"


def test_cargo_rerolls_zero_offers_no_reroll() -> None:
    env = ShipCaptainCrewEnv(rules="classic(cargo_rerolls=0,wild_captain=true)", bots=["tip"])
    for _state, obs in walk(env, 40, seed=11):
        assert not obs["action_mask"][:8].any()  # only wild assignments are left to decide
        assert int(obs["phase"]) == 1
    # Without the wild captain the agent has nothing to decide, ever: reset says so.
    bare = ShipCaptainCrewEnv(rules="classic(cargo_rerolls=0)", bots=["tip"])
    with pytest.raises(RuntimeError, match="nothing to decide in 1000 episodes in a row"):
        bare.reset(seed=0)


def test_bow_to_stern_and_tie_break_through_env() -> None:
    env = ShipCaptainCrewEnv(
        rules="classic(bow_to_stern=true,tie_break=cargo_rolloff)", bots=["timid"] * 3
    )
    purposes: set[Purpose] = set()
    for state, obs in walk(env, 150, seed=5):
        assert set(obs["held"].tolist()) <= {0, 1, 2, 3}
        if state.contest is not None:
            purposes.add(state.contest.purpose)
    assert Purpose.ROUND in purposes
    # The 002 tie-break rolls cargo dice, which are never the agent's stop.
    assert Purpose.ROUND_TIE not in purposes


def test_replay_tie_break_reaches_the_agent() -> None:
    env = ShipCaptainCrewEnv(rules="classic(tie_break=replay)", bots=["timid"] * 2)
    ties = [obs for state, obs in walk(env, 300, seed=2) if int(obs["contest"]) == 3]
    assert ties, "a tied round should give the agent a replay turn in 300 rounds"


def test_rewards_win_pot_and_sips() -> None:
    for reward, rules in (
        ("win", "classic"),
        ("pot", "ship-captain-crew"),
        ("sips", "classic(drinking=all_but_winner,failed_double=true)"),
    ):
        env = ShipCaptainCrewEnv(rules=rules, bots=["tip", "tip"], reward=reward)
        env.action_space.seed(0)
        totals = []
        for episode in range(30):
            env.reset(seed=episode)
            done, r = False, 0.0
            while not done:
                _, r, done, _, _ = env.step(env.action_space.sample())
            state = env.state
            if reward == "win":
                assert r == (1.0 if state.winner == 0 else 0.0)
            elif reward == "pot":
                assert r == state.chips[0] - state.rules.starting_chips
            else:
                assert r == -state.sips[0] and r in (0.0, -1.0, -2.0)
            totals.append(r)
        assert len(set(totals)) > 1


def test_bad_reward_and_setups_are_refused() -> None:
    with pytest.raises(ValueError, match="stakes=pot"):
        ShipCaptainCrewEnv(rules="classic", reward="pot")
    for bots in ([], ["tip"] * 8):  # the engine's player bounds, with the agent's seat
        with pytest.raises(
            InvalidSetupError, match=rf"seats 2\.\.8 players \(001\.1\), got {len(bots) + 1}"
        ):
            ShipCaptainCrewEnv(bots=bots)
    with pytest.raises(ValueError, match="seat must be"):
        ShipCaptainCrewEnv(bots=["tip"], seat=2)
    for bad_seat in (True, 1.0, "1", np.int64(-1)):
        with pytest.raises(ValueError, match=r"seat must be 0\.\.1"):
            ShipCaptainCrewEnv(bots=["tip"], seat=bad_seat)  # type: ignore[arg-type]
    assert ShipCaptainCrewEnv(bots=["tip"], seat=np.int64(1)).seat == 1  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown bot"):
        resolve_bot("nonsense-bot")
    with pytest.raises(Exception, match="tournament"):
        ShipCaptainCrewEnv(rules="classic(format=tournament)", match=True)


def test_illegal_action_raises_and_leaves_the_match_untouched() -> None:
    env = ShipCaptainCrewEnv(rules="classic(half_cargo=true)", bots=["tip"], illegal="raise")
    env.reset(seed=4)
    before = env.state
    rng_before = env._rng.getstate()
    illegal = int(np.flatnonzero(env.action_mask() == 0)[0])
    with pytest.raises(IllegalActionError, match=f"action id {illegal}"):
        env.step(illegal)
    with pytest.raises(ValueError, match="out of range"):
        env.step(NUM_ACTIONS)
    with pytest.raises(TypeError):
        env.step("stand")
    assert env.state == before and env._rng.getstate() == rng_before
    legal = int(np.flatnonzero(env.action_mask())[0])
    env.step(legal)  # the match goes on normally


def test_illegal_action_loses_by_default() -> None:
    env = ShipCaptainCrewEnv(rules="classic(half_cargo=true)", bots=["tip"])
    env.reset(seed=4)
    before = env.state
    illegal = int(np.flatnonzero(env.action_mask() == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert f"action id {illegal}" in info["illegal"] and not obs["action_mask"].any()
    assert env.state == before and not env.has_stop
    with pytest.raises(RuntimeError, match="over"):
        env.step(0)
    with pytest.raises(ValueError, match="illegal must be one of raise, lose"):
        ShipCaptainCrewEnv(illegal="ignore")


def test_step_after_the_end_and_before_reset() -> None:
    env = ShipCaptainCrewEnv()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    done = False
    while not done:
        _, _, done, _, _ = env.step(env.action_space.sample())
    with pytest.raises(RuntimeError, match="over"):
        env.step(0)


def test_same_seed_same_episode_and_bots_objects() -> None:
    def play(seed: int) -> list[tuple[object, ...]]:
        env = ShipCaptainCrewEnv(
            rules="skip-kaptein-mannskap(stakes=pot)",
            bots=[TipBot(), "random"],
            match=True,
            reward="pot",
        )
        env.action_space.seed(seed)
        obs, _ = env.reset(seed=seed)
        out = [tuple(np.concatenate([np.ravel(v) for v in obs.values()]))]
        done = False
        while not done:
            obs, r, done, _, _ = env.step(env.action_space.sample())
            out.append((*np.concatenate([np.ravel(v) for v in obs.values()]), r))
        return out

    assert play(8) == play(8)
    assert play(8) != play(9)


def test_render_ansi() -> None:
    env = ShipCaptainCrewEnv(rules="ship-captain-crew", bots=["tip"], render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "pot" in text and "seat 0" in text
    with pytest.warns(UserWarning, match="render_mode"):
        assert ShipCaptainCrewEnv().render() is None
    with pytest.raises(ValueError, match="render_mode must be None, 'ansi' or 'human'"):
        ShipCaptainCrewEnv(render_mode="rgb_array")


def test_render_human_prints_at_reset_and_step(capsys: pytest.CaptureFixture[str]) -> None:
    env = gym.make("ShipCaptainCrew-v0", rules="classic", bots=["tip"], render_mode="human")
    check_env(env.unwrapped)
    capsys.readouterr()
    env.reset(seed=2)
    first = capsys.readouterr().out
    assert "seat 0: total 0  (you, at the table)" in first and "your choices" in first
    env.step(0)
    assert "rules: classic" in capsys.readouterr().out
    assert env.render() is None


def test_agent_can_follow_a_bot_policy_through_the_ids() -> None:
    """A bot's choice, turned into an id and back, is the same engine action."""
    env = ShipCaptainCrewEnv(rules=ALL_OPTIONS, bots=["tip"], seat=1)
    bot, rng = TipBot(), random.Random(0)
    for episode in range(20):
        env.reset(seed=episode)
        while not env.state.is_over:
            state = env.state
            action: Action = bot.choose(state, rng)
            i = action_index(state, action)
            assert index_action(state, i) == action
            env.step(i)


def test_all_fail_carry_pot_and_replay_through_env() -> None:
    carried = replayed = False
    env = ShipCaptainCrewEnv(rules="ship-captain-crew(ante=2)", bots=["timid"] * 3)
    for state, obs in walk(env, 200, seed=21):
        # Chips are conserved: the stacks and the pot hold the starting chips.
        assert int(obs["chips"].sum()) + int(obs["pot"][0]) == 4 * state.rules.starting_chips
        if int(obs["round_no"][0]) >= 2:
            carried = True
            assert int(obs["pot"][0]) >= 2 * 4 * 2  # the old pot plus the new antes
    env = ShipCaptainCrewEnv(rules="classic(all_fail=replay)", bots=["timid"] * 3)
    for state, obs in walk(env, 200, seed=21):
        assert int(obs["round_no"][0]) == 1
        replayed |= state.replays > 0
    assert carried and replayed


def test_chosen_starter_and_rotation_through_env() -> None:
    env = ShipCaptainCrewEnv(
        rules="classic(starter=chosen,rotation=right,format=rounds:3)",
        bots=["tip", "tip"],
        match=True,
        starter=1,
        seat=1,
    )
    obs, _ = env.reset(seed=0)
    assert obs["posted"].tolist() == [-1, -1, -1]  # the agent starts: nothing posted yet
    done = False
    while not done:
        obs, _, done, _, _ = env.step(env.action_space.sample())
    starters = [r.starter for r in env.state.results if r.stage == "round"]
    assert starters[:3] == [1, 0, 2]
    assert len({r.round_no for r in env.state.results}) == 3


def test_vector_env_plays_whole_episodes_from_the_masks() -> None:
    """``gym.make_vec`` works; after an episode ends the observation's mask is all zeros (there
    is nothing to do), and the next step's action is ignored while the copy resets itself."""
    envs = gym.make_vec(
        "ShipCaptainCrew-v0",
        num_envs=2,
        vectorization_mode="sync",
        rules="classic(wild_captain=true,half_cargo=true)",
        bots=["tip"],
    )
    obs, _ = envs.reset(seed=5)
    finished, rewards = 0, []
    for _ in range(80):
        masks = obs["action_mask"]
        actions = np.array([int(np.flatnonzero(m)[-1]) if m.any() else 0 for m in masks])
        obs, reward, terminated, truncated, _ = envs.step(actions)
        assert envs.single_observation_space.contains({k: v[0] for k, v in obs.items()})
        for i in np.flatnonzero(terminated):
            assert not obs["action_mask"][i].any()
            rewards.append(float(reward[i]))
        finished += int(terminated.sum())
        assert not truncated.any()
    envs.close()
    assert finished >= 10 and set(rewards) <= {0.0, 1.0} and len(set(rewards)) == 2


@pytest.mark.parametrize(
    ("missing", "module"),
    [
        ("gymnasium", "shipcaptaincrew.envs"),
        ("pettingzoo", "shipcaptaincrew.envs.pettingzoo_env"),
        ("pyspiel", "shipcaptaincrew.envs.openspiel_game"),
    ],
)
def test_missing_extra_names_what_to_install(missing: str, module: str) -> None:
    """Without the rl extra, importing an adapter says which extra to install."""
    import subprocess
    import sys

    code = (
        f"import sys; sys.modules[{missing!r}] = None\n"
        f"try:\n    import {module}\nexcept ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    assert "pip install 'shipcaptaincrew[rl]'" in out and missing in out
