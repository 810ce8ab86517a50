"""The OpenSpiel game ``python_ship_captain_crew``: ``random_sim_test``, explicit
chance from the engine's exact outcomes, and the game string round trip."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from math import comb

import pytest

from .need import need_module

pyspiel = need_module("pyspiel")

from shipcaptaincrew import (  # noqa: E402
    Roll,
    apply,
    chance_outcomes,
    find_rules,
    initial_turn,
    legal_actions,
    seat_to_act,
)
from shipcaptaincrew.envs import openspiel_game  # noqa: E402
from shipcaptaincrew.envs.encoding import (  # noqa: E402
    CHANCE_OUTCOMES,
    NUM_ACTIONS,
    ROLL_ID,
    action_index,
)
from shipcaptaincrew.errors import GameError  # noqa: E402


@pytest.mark.parametrize(
    ("players", "rules", "sims"),
    [
        (2, "classic", 20),
        (3, "classic(half_cargo=true,wild_captain=true,drinking=captain_hands_out)", 10),
        (4, "ship-captain-crew", 10),
        (3, "classic(format=tournament,tie_break=cargo_rolloff,bow_to_stern=true)", 5),
        (2, "classic(cargo_rerolls=1,same_roll_bonus=10,format=rounds:3)", 5),
    ],
)
def test_random_sim_test(players: int, rules: str, sims: int) -> None:
    game = openspiel_game.load(players, rules)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "params",
    [
        {"players": 3, "half_cargo": True, "format": "rounds:3", "cargo_rerolls": 1},
        {"players": 4, "rules": "ship-captain-crew", "wild_captain": True, "wild_face": 2},
        {"players": 3, "drinking": "captain_hands_out", "failed_double": True, "rotation": "none"},
        {"players": 2, "rules": "classic[bow_to_stern:true]", "tie_break": "cargo_rolloff"},
        {"players": 3, "stakes": "pot", "ante": 2, "starting_chips": 4, "format": "first_to:8"},
    ],
)
def test_random_sim_test_with_option_parameters(params: dict[str, object]) -> None:
    """Games set up by per-option parameters pass the official simulation, serialized too."""
    game = pyspiel.load_game("python_ship_captain_crew", params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_load_by_name_and_game_string_round_trip() -> None:
    game = pyspiel.load_game(
        "python_ship_captain_crew", {"players": 3, "rules": "classic(wild_captain=true)"}
    )
    assert game.num_players() == 3
    reported = game.get_parameters()
    assert reported["rules"] == "classic[wild_captain:true]" and reported["wild_captain"] is True
    assert "rules=classic[wild_captain:true]" in str(game)
    again = pyspiel.load_game(str(game))
    assert again.rules == find_rules("classic").replace(wild_captain=True)
    assert str(again) == str(game)
    # a chance outcome is a roll of one to six dice (the widest cup, dice=6), faces unordered:
    # C(n + 5, 5) rolls of n dice, 461 up to five and 462 of six
    rolls = sum(comb(n + 5, 5) for n in range(1, 7))
    assert game.num_distinct_actions() == NUM_ACTIONS and game.max_chance_outcomes() == rolls == 923


def test_chance_and_decisions_come_from_the_engine() -> None:
    game = openspiel_game.load(3, "classic(wild_captain=true,half_cargo=true)")
    rng = random.Random(0)
    for _ in range(30):
        state = game.new_initial_state()
        while not state.is_terminal():
            match = state.match
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                exact = chance_outcomes(match)
                assert len(outcomes) == len(exact)
                assert [CHANCE_OUTCOMES[a] for a, _ in outcomes] == sorted(
                    r.faces for r, _ in exact
                )
                assert sum(Fraction(p).limit_denominator(6**5) for _, p in outcomes) == 1
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
                expected = apply(match, Roll(CHANCE_OUTCOMES[action]))
            else:
                legal = legal_actions(match)
                if not legal:  # a turn's opening roll: its player's move, then chance
                    assert state.legal_actions() == [ROLL_ID]
                    assert state.current_player() == seat_to_act(match)
                    assert match.turn == initial_turn(match.rules)
                    state.apply_action(ROLL_ID)
                    assert state.match == match and state.is_chance_node()
                    continue
                assert state.legal_actions() == sorted(action_index(match, a) for a in legal)
                choice = rng.choice(legal)
                action = action_index(match, choice)
                expected = apply(match, choice)
            state.apply_action(action)
            assert state.match == expected
        returns = state.returns()
        assert sorted(returns) == [0.0, 0.0, 1.0]
        assert returns[state.match.winner] == 1.0


def test_illegal_action_is_refused() -> None:
    game = openspiel_game.load(2, "classic(starter=chosen)")
    state = game.new_initial_state()
    assert state.legal_actions() == [ROLL_ID]  # seat 0 takes up the cup
    with pytest.raises(ValueError, match="not legal in this state: roll"):
        state.apply_action(0)
    state.apply_action(ROLL_ID)
    state.apply_action(CHANCE_OUTCOMES.index((4, 4, 5, 6, 6)))  # crew, cargo 4 + 6
    assert state.legal_actions() == [0, 1]
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(5)
    assert state.legal_actions() == [0, 1]


def test_bad_chance_outcome_ids_are_refused_and_leave_the_state() -> None:
    """OpenSpiel only rejects -1 itself: a negative id must not roll CHANCE_OUTCOMES[-k]."""
    game = openspiel_game.load(2, "classic(starter=chosen)")
    state = game.new_initial_state()
    state.apply_action(ROLL_ID)
    before = state.match
    for bad in (-2, -5, len(CHANCE_OUTCOMES)):
        with pytest.raises(ValueError, match="out of range"):
            state.apply_action(bad)
        assert state.match == before and state.history() == [ROLL_ID]
    with pytest.raises(ValueError, match="needs 5 dice"):  # a one-die roll at a five-dice node
        state.apply_action(CHANCE_OUTCOMES.index((6,)))
    assert state.match == before


def test_game_string_spelling_round_trips() -> None:
    text = "classic(half_cargo=true,format=rounds:3)"
    assert openspiel_game.from_game_string(openspiel_game.to_game_string(text)) == text
    assert openspiel_game.to_game_string("classic") == "classic"


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"players": 1}, "a table seats 2..8 players (001.1), got 1"),
        ({"players": 9}, "a table seats 2..8 players (001.1), got 9"),
        ({"rules": "classic(colour=red)"}, "unknown option 'colour'"),
        ({"players": 2, "rules": "classic(format=tournament)"}, "at least 3 players"),
        ({"players": 2, "format": "tournament"}, "at least 3 players"),
        ({"cargo_rerolls": 5}, "cargo_rerolls must be 0, 1, 2, 3, 4 or none, got 5"),
        ({"cargo_rerolls": -2}, "cargo_rerolls must be 0, 1, 2, 3, 4 or none, got -2"),
        ({"cargo_rerolls": 3}, "cargo_rerolls=3 is more than a turn of 3 rolls allows"),
        ({"rolls": 6}, "rolls must be 2..5, got 6"),
        ({"wild_face": 7}, "wild_face must be a face 1..6, got 7"),
        ({"tie_break": "coin"}, "tie_break='coin' is not one of: replay, cargo_rolloff"),
        ({"format": "rounds:0"}, "rounds:N needs 1 <= N <= 1000, got 0"),
        ({"stakes": "pot", "ante": 5, "starting_chips": 4}, "starting_chips=4 is less than ante=5"),
        ({"rules": "classic(bow_to_stern=true)", "wild_captain": True}, "wild_face=1 is also"),
    ],
)
def test_bad_parameters_are_refused(params: dict[str, object], message: str) -> None:
    with pytest.raises(GameError, match=re.escape(message)):
        pyspiel.load_game("python_ship_captain_crew", params)
