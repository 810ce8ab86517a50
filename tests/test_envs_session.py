"""The decisions that are no turn, through the adapters: the captain's early stop of a
hand-out (``hand_out=up_to``) and a session's call for another round or stop
(``format=session``), whose episodes end at the environments' cap."""

from __future__ import annotations

import random

import numpy as np
import pytest

from .need import need_module

need_module("gymnasium")
need_module("pettingzoo")
pyspiel = need_module("pyspiel")

from shipcaptaincrew import Roll, Stand, apply, find_rules, initial_state  # noqa: E402
from shipcaptaincrew.actions import HandOut, NextRound, StopHandOut, StopMatch  # noqa: E402
from shipcaptaincrew.envs import openspiel_game  # noqa: E402
from shipcaptaincrew.envs.common import SESSION_ROUNDS, render_text  # noqa: E402
from shipcaptaincrew.envs.encoding import (  # noqa: E402
    OBS_PHASES,
    ObsPhase,
    action_index,
    decision_mask,
    index_action,
    observation,
)
from shipcaptaincrew.envs.gym_env import ShipCaptainCrewEnv  # noqa: E402
from shipcaptaincrew.envs.pettingzoo_env import raw_env  # noqa: E402
from shipcaptaincrew.facts import MAX_PLAYERS  # noqa: E402
from shipcaptaincrew.formats import FORMAT_KINDS, FormatKind  # noqa: E402
from shipcaptaincrew.state import MatchState, Phase  # noqa: E402

_TABLE = initial_state(find_rules("classic"), 2)
NEXT_ROUND, STOP = action_index(_TABLE, NextRound()), action_index(_TABLE, StopMatch())


def first_round(setting: str) -> MatchState:
    """Seat 0 of two posts 12 and seat 1 fails three rolls: the round is over."""
    rules = find_rules(f"classic(starter=chosen,{setting})")
    s = apply(initial_state(rules, 2, starter=0), Roll((6, 5, 4, 6, 6)))
    s = apply(s, Stand())
    for _ in range(3):
        s = apply(s, Roll((1, 1, 1, 1, 1)))
    return s


# -- the captain's early stop ---------------------------------------------------------------


def test_the_observation_codes_were_appended() -> None:
    assert OBS_PHASES[:6] == ("roll", "assign", "decide", "hand_out", "chance", "over")
    assert OBS_PHASES[ObsPhase.ANOTHER_ROUND] == "another_round"


def test_up_to_offers_the_stop_and_exact_does_not() -> None:
    exact = apply(first_round("drinking=captain_hands_out"), Roll((3,)))
    assert set(np.flatnonzero(decision_mask(exact))) == {22 + 1}
    s = apply(first_round("drinking=captain_hands_out,hand_out=up_to"), Roll((3,)))
    assert s.phase is Phase.HAND_OUT and s.hand_out_left == 3
    assert set(np.flatnonzero(decision_mask(s))) == {22 + 1, 30}
    assert observation(s, 0)["phase"] == ObsPhase.HAND_OUT
    text = render_text(s, 0)
    assert "hand-out: seat 0, sips left 3" in text and "23=sip:1, 30=sip:stop" in text
    assert index_action(s, 30) == StopHandOut()
    s = apply(s, HandOut(1))
    stopped = apply(s, index_action(s, 30))
    assert stopped.is_over and stopped.sips == (0, 1)


def test_an_agent_captain_stops_early_in_the_environment() -> None:
    env = ShipCaptainCrewEnv(
        rules="classic(drinking=captain_hands_out,hand_out=up_to)", bots=["tip"], reward="sips"
    )
    stops = 0
    for episode in range(60):
        obs, _ = env.reset(seed=episode)
        done = False
        while not done:
            mask = obs["action_mask"]
            if int(obs["phase"]) == ObsPhase.HAND_OUT:
                assert mask[30] == 1
                stops += 1
                action = 30
            else:
                action = int(np.flatnonzero(mask)[0])
            obs, reward, done, _, _ = env.step(action)
        state = env.state
        assert reward == -state.sips[0]
        if state.winner == 0:  # the agent stops before its first sip
            assert state.sips == (0, 0)
        else:  # the bot hands out every sip its die shows
            assert state.sips[1] == 0 and state.sips[0] == state.results[-1].sips[0] >= 1
    assert stops > 0


# -- a session ------------------------------------------------------------------------------


def test_a_session_asks_for_another_round() -> None:
    s = first_round("format=session")
    assert s.phase is Phase.ANOTHER_ROUND
    obs = observation(s, 1)
    assert obs["phase"] == ObsPhase.ANOTHER_ROUND and obs["to_act"] == 1
    assert sorted(np.flatnonzero(decision_mask(s))) == [NEXT_ROUND, STOP] == [31, 32]
    text = render_text(s, 1)
    assert "session: rounds played 1; seat 1 calls next_round or stop" in text
    assert "31=next_round, 32=stop" in text
    assert apply(s, index_action(s, STOP)).winner == 0


def play_session(env: ShipCaptainCrewEnv, seed: int, call: int) -> int:
    """Play one episode, answering ``call`` at every session call; how many calls came."""
    env.action_space.seed(seed)
    obs, _ = env.reset(seed=seed)
    calls, done = 0, False
    while not done:
        if int(obs["phase"]) == ObsPhase.ANOTHER_ROUND:
            assert sorted(np.flatnonzero(obs["action_mask"])) == [NEXT_ROUND, STOP]
            calls += 1
            action = call
        else:
            action = int(env.action_space.sample())
        obs, _, done, truncated, _ = env.step(action)
        assert not truncated
    return calls


def test_an_agent_that_always_goes_on_meets_the_cap() -> None:
    env = ShipCaptainCrewEnv(
        rules="classic(format=session,starter=chosen)", bots=["tip"], match=True, session_rounds=4
    )
    for seed in range(5):
        # Two seats take turns to start, so the agent calls after rounds 2 only: the cap
        # stops the table after round 4 without asking.
        assert play_session(env, seed, NEXT_ROUND) == 1
        assert len(env.state.results) == 4 and env.state.winner is not None


def test_an_agent_that_stops_ends_the_match_on_the_totals() -> None:
    env = ShipCaptainCrewEnv(
        rules="classic(format=session,starter=chosen)", bots=["tip"], match=True, session_rounds=9
    )
    for seed in range(5):
        assert play_session(env, seed, STOP) == 1
        state = env.state
        assert len(state.results) == 2 and state.is_over
        assert state.totals[state.winner] == max(state.totals)


def test_a_session_the_bots_call_ends_at_the_default_cap() -> None:
    # rotation=none: seat 1 starts every round, so the bot always calls.
    env = ShipCaptainCrewEnv(
        rules="classic(format=session,starter=chosen,rotation=none)",
        bots=["random"],
        match=True,
        starter=1,
    )
    for seed in range(3):
        assert play_session(env, seed, STOP) == 0
        assert len(env.state.results) == SESSION_ROUNDS


def test_pettingzoo_agents_that_always_go_on_meet_the_cap() -> None:
    aec = raw_env(players=3, rules="classic(format=session)", match=True, session_rounds=3)
    for seed in range(3):
        aec.reset(seed=seed)
        calls = 0
        for _agent in aec.agent_iter():
            obs, _, term, trunc, _ = aec.last()
            if term or trunc:
                aec.step(None)
                continue
            ids = np.flatnonzero(obs["action_mask"])
            if aec.state_value.phase is Phase.ANOTHER_ROUND:
                assert ids.tolist() == [NEXT_ROUND, STOP]
                calls += 1
                aec.step(NEXT_ROUND)
            else:
                aec.step(int(ids[0]))
        assert calls == 2 and len(aec.state_value.results) == 3


def test_openspiel_session_stops_at_its_cap_and_keeps_it_in_the_string() -> None:
    game = openspiel_game.load(3, "classic(format=session)", session_rounds=3)
    assert game.get_parameters()["session_rounds"] == 3
    assert pyspiel.load_game(str(game)).session_rounds == 3
    rng = random.Random(4)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                ids, probs = zip(*outcomes, strict=True)
                state.apply_action(rng.choices(ids, probs)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(NEXT_ROUND if NEXT_ROUND in legal else rng.choice(legal))
        assert len(state.match.results) == 3 and sorted(state.returns()) == [0.0, 0.0, 1.0]


def test_the_game_length_bound_covers_the_longest_capped_session() -> None:
    bounds = FORMAT_KINDS[FormatKind.ROUNDS].bounds
    assert bounds is not None
    game = openspiel_game.load(8, "classic(format=session)", session_rounds=bounds[1])
    # A round of eight turns of the rule set's rolls, then the hand-out; and the roll-off.
    longest = openspiel_game.round_moves(game.rules) * bounds[1] + MAX_PLAYERS
    assert game.max_game_length() >= max(longest, openspiel_game.MAX_GAME_LENGTH)
    # Each of eight turns: a roll, an assignment and a call per roll, and the opening roll.
    assert openspiel_game.round_moves(game.rules) == 8 * (3 * game.rules.rolls + 1) + 9


@pytest.mark.parametrize("bad", [0, 1001, True, 2.0, "3"])
def test_a_bad_cap_is_refused(bad: object) -> None:
    message = r"session_rounds must be 1\.\.1000"
    with pytest.raises(ValueError, match=message):
        ShipCaptainCrewEnv(session_rounds=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message):
        raw_env(session_rounds=bad)  # type: ignore[arg-type]
    if not isinstance(bad, (bool, float, str)):  # OpenSpiel itself refuses a wrong type
        with pytest.raises(ValueError, match=message):
            pyspiel.load_game("python_ship_captain_crew", {"session_rounds": bad})


# -- wins:N ---------------------------------------------------------------------------------


def test_the_agent_sees_the_round_wins() -> None:
    env = ShipCaptainCrewEnv(rules="classic(format=wins:2)", bots=["tip"], match=True)
    for seed in range(5):
        env.action_space.seed(seed)
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            assert obs["wins"].tolist() == list(env.state.wins)
            obs, _, done, _, _ = env.step(env.action_space.sample())
        assert obs["wins"].tolist() == list(env.state.wins)
        assert obs["wins"][env.state.winner] == 2 and obs["wins"].sum() in (2, 3)
