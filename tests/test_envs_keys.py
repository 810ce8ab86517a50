"""State keys that identify positions: OpenSpiel's observation and information-state strings
and tensors depend on the position, not on the way there."""

from __future__ import annotations

import random

import pytest

from .need import need_module

pyspiel = need_module("pyspiel")
observation = need_module("open_spiel.python.observation")

from shipcaptaincrew import Roll, apply, find_rules, initial_state  # noqa: E402
from shipcaptaincrew.envs import openspiel_game  # noqa: E402
from shipcaptaincrew.envs.encoding import CHANCE_OUTCOMES, ROLL_ID  # noqa: E402
from shipcaptaincrew.envs.views import VIEWS, position_key  # noqa: E402


def views(game: pyspiel.Game, state: pyspiel.State) -> list[object]:
    """Everything a learner can see of ``state``, for every seat and every view."""
    seen: list[object] = [state.information_state_string(p) for p in range(game.num_players())]
    for name in VIEWS:
        obs = observation.make_observation(game, None, {"view": name})
        for player in range(game.num_players()):
            obs.set_from(state, player)
            seen += [obs.string_from(state, player), obs.tensor.tolist()]
    return seen


def test_two_first_rolls_that_hold_the_ship_give_one_key() -> None:
    """``66321`` and ``63211`` both hold the ship and nothing else, with two rolls left."""
    game = openspiel_game.load(2, "classic(starter=chosen)")
    a, b = game.new_initial_state(), game.new_initial_state()
    for state in (a, b):
        state.apply_action(ROLL_ID)  # seat 0 takes up the cup
    a.apply_action(CHANCE_OUTCOMES.index((1, 2, 3, 6, 6)))
    b.apply_action(CHANCE_OUTCOMES.index((1, 1, 2, 3, 6)))
    assert a.history() != b.history() and a.match.turn.last_roll != b.match.turn.last_roll
    assert views(game, a) == views(game, b)
    c = game.new_initial_state()
    c.apply_action(ROLL_ID)
    c.apply_action(CHANCE_OUTCOMES.index((1, 2, 3, 5, 6)))  # ship and captain: another place
    assert c.information_state_string(0) != a.information_state_string(0)
    assert c.observation_string(0) != a.observation_string(0)


def test_the_order_the_faces_fell_in_does_not_matter() -> None:
    start = initial_state(find_rules("classic").replace(starter="chosen"), 2, starter=0)
    keys = {position_key(apply(start, Roll(f))) for f in [(6, 6, 3, 2, 1), (1, 2, 3, 6, 6)]}
    assert len(keys) == 1


@pytest.mark.parametrize(
    "rules",
    [
        "classic(wild_captain=true,half_cargo=true,format=rounds:2)",
        "classic(tie_break=round,rotation=loser,all_fail=carry_pot,format=first_to:6)",
        "ship-captain-crew(drinking=captain_hands_out,hand_out=up_to,format=rounds:2)",
        "classic(format=tournament,tie_break=cargo_rolloff)",
        "classic(format=session)",
    ],
)
def test_states_with_one_key_have_one_future(rules: str) -> None:
    """Whenever random play reaches a key again by another way, both states offer the same
    moves with the same odds, look the same to everyone, and lead to the same keys."""
    game = openspiel_game.load(3, rules, session_rounds=3)
    rng = random.Random(5)
    first: dict[str, pyspiel.State] = {}
    merged = 0
    for _ in range(60):
        state = game.new_initial_state()
        while not state.is_terminal():
            key = state.information_state_string(0)
            seen = first.setdefault(key, state.clone())
            if seen.history() != state.history():
                merged += 1
                assert_same_future(game, seen, state, rng)
            if state.is_chance_node():
                ids, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(ids, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert merged > 50  # the test met the same position by different ways often


def assert_same_future(
    game: pyspiel.Game, a: pyspiel.State, b: pyspiel.State, rng: random.Random
) -> None:
    assert a.current_player() == b.current_player() and a.returns() == b.returns()
    assert views(game, a) == views(game, b)
    if a.is_chance_node():
        assert a.chance_outcomes() == b.chance_outcomes()
        moves = rng.sample([o for o, _ in a.chance_outcomes()], 1)
    else:
        assert a.legal_actions() == b.legal_actions()
        moves = a.legal_actions()
    for move in moves:
        x, y = a.child(move), b.child(move)
        assert x.information_state_string(0) == y.information_state_string(0)
        assert x.is_terminal() == y.is_terminal() and x.returns() == y.returns()
