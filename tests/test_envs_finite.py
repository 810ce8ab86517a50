"""The finite OpenSpiel variant: ``replay_cap`` ends every repeat at the cap as a draw, and
``max_game_length`` is then a true bound on a match's moves."""

from __future__ import annotations

import random

import pytest

from .need import need_module

pyspiel = need_module("pyspiel")

from shipcaptaincrew import Roll, apply, find_rules  # noqa: E402
from shipcaptaincrew.envs import openspiel_game  # noqa: E402
from shipcaptaincrew.envs.encoding import CHANCE_OUTCOMES, ROLL_ID  # noqa: E402
from shipcaptaincrew.envs.finite import max_moves, repeats  # noqa: E402
from shipcaptaincrew.rules import PRESETS  # noqa: E402

GAME = "python_ship_captain_crew"
FAIL = CHANCE_OUTCOMES.index((1, 1, 1, 1, 1))  # no ship under the classic rules


def long_game(game: pyspiel.Game, rng: random.Random) -> pyspiel.State:
    """A game whose chance leans towards the first outcome (failures, tied roll-offs) by a
    random amount, so repeats pile up; decisions at random."""
    lean = rng.random()
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            pick = outcomes[0] if rng.random() < lean else rng.choice(outcomes)
            state.apply_action(pick[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(
    "rules",
    [
        *sorted(PRESETS),
        "classic(all_fail=carry_pot)",
        "classic(format=rounds:2,tie_break=round)",
        "classic(format=first_to:8,all_fail=carry_pot)",
        "classic(format=wins:2,tie_break=no_winner)",
        "classic(format=tournament,tie_break=cargo_rolloff)",
        "classic(format=session)",
    ],
)
@pytest.mark.parametrize("cap", [0, 2])
def test_every_game_ends_within_the_bound(rules: str, cap: int) -> None:
    game = openspiel_game.load(3, rules, replay_cap=cap)
    rng = random.Random(cap)
    capped = 0
    for _ in range(40):
        state = long_game(game, rng)
        assert len(state.history()) <= game.max_game_length()
        returns = state.returns()
        assert sum(returns) == pytest.approx(1.0)
        if state.capped:
            capped += 1
            assert repeats(state.match) == cap + 1 and not state.match.is_over
            assert returns == [pytest.approx(1 / 3)] * 3
    assert 0 < capped < 40  # the walks reach the cap and also finish by the rules
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def fail(state: pyspiel.State) -> None:
    """The next roll fails: the turn's opening roll first where it is due (``roll_action``)."""
    if not state.is_chance_node():
        assert state.legal_actions() == [ROLL_ID]
        state.apply_action(ROLL_ID)
    state.apply_action(FAIL)


def test_a_round_everyone_fails_replays_up_to_the_cap_then_draws() -> None:
    game = openspiel_game.load(2, "classic(starter=chosen)", replay_cap=1)
    state = game.new_initial_state()
    for _ in range(2 * 3):  # both fail all three rolls: the round is replayed, within the cap
        fail(state)
    assert state.match.replays == 1 and state.legal_actions() == [ROLL_ID] and not state.capped
    for _ in range(2 * 3 - 1):
        fail(state)
    before = state.match
    fail(state)  # a second replay would exceed the cap: the game ends there
    assert state.match == apply(before, Roll(CHANCE_OUTCOMES[FAIL]))
    assert state.match.replays == 2 and state.is_terminal() and state.returns() == [0.5, 0.5]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions() == [] and state.chance_outcomes() == []
    assert len(state.history()) == 12 + 4 <= game.max_game_length()  # 4 turns, 4 opening rolls


def test_without_the_cap_the_replays_go_on() -> None:
    game = openspiel_game.load(2, "classic(starter=chosen)")
    assert game.get_parameters()["replay_cap"] == -1
    assert game.max_game_length() == openspiel_game.MAX_GAME_LENGTH
    state = game.new_initial_state()
    for _ in range(10 * 2 * 3):
        fail(state)
    assert state.match.replays == 10 and not state.is_terminal()


def test_a_tied_roll_off_repeats_up_to_the_cap() -> None:
    game = openspiel_game.load(2, "classic", replay_cap=1)
    state = game.new_initial_state()
    three = CHANCE_OUTCOMES.index((3,))  # the roll-off is chance alone: no opening roll
    for _ in range(3):
        state.apply_action(three)
    assert state.match.contest.depth == 1 and not state.is_terminal()
    state.apply_action(three)  # tied again: depth 2 > 1
    assert state.is_terminal() and state.returns() == [0.5, 0.5]


def test_rounds_without_a_winner_count_towards_the_cap() -> None:
    """Under all_fail=carry_pot a failed round has no winner and another follows."""
    game = openspiel_game.load(2, "classic(starter=chosen,all_fail=carry_pot)", replay_cap=0)
    state = game.new_initial_state()
    for _ in range(2 * 3):
        fail(state)
    assert len(state.match.results) == 1 and state.match.results[0].winner is None
    assert state.is_terminal() and state.returns() == [0.5, 0.5]
    rules = "classic(starter=chosen,all_fail=carry_pot,format=rounds:3)"
    state = openspiel_game.load(2, rules, replay_cap=0).new_initial_state()
    for _ in range(2 * 3):  # under rounds:N such a round counts towards the end: no repeat
        fail(state)
    assert len(state.match.results) == 1 and not state.is_terminal()


def test_the_cap_is_a_parameter_that_round_trips() -> None:
    game = pyspiel.load_game(GAME, {"players": 3, "replay_cap": 4})
    assert game.get_parameters()["replay_cap"] == 4 and "replay_cap=4" in str(game)
    again = pyspiel.load_game(str(game))
    assert again.replay_cap == 4 and again.max_game_length() == game.max_game_length()
    assert game.max_game_length() == max_moves(find_rules("classic"), 3, 4, 5, roll_action=True)


@pytest.mark.parametrize("bad", [-2, -100])
def test_a_bad_cap_is_refused(bad: int) -> None:
    with pytest.raises(ValueError, match=r"replay_cap must be a count 0\.\. or -1"):
        pyspiel.load_game(GAME, {"replay_cap": bad})
