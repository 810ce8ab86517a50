"""The OpenSpiel game's parameters come from the option table: one typed parameter per option,
the table's defaults, and the rule set they make is the one the rules text makes."""

from __future__ import annotations

import random

from hypothesis import given, settings

from .need import need_module

pyspiel = need_module("pyspiel")

from shipcaptaincrew.envs import openspiel_game  # noqa: E402
from shipcaptaincrew.envs.common import SESSION_ROUNDS  # noqa: E402
from shipcaptaincrew.envs.openspiel_params import game_parameters  # noqa: E402
from shipcaptaincrew.formats import MatchFormat  # noqa: E402
from shipcaptaincrew.options import OPTIONS, OptionType  # noqa: E402
from shipcaptaincrew.rules import Rules  # noqa: E402
from tests.strategies import rule_sets  # noqa: E402

GAME = "python_ship_captain_crew"

#: The parameter type each option kind must have (OpenSpiel has bool, int, float and str).
EXPECTED_TYPES = {
    OptionType.FLAG: bool,
    OptionType.NUMBER: int,
    OptionType.CHOICE: str,
    OptionType.FORMAT: str,
}


def test_every_option_is_a_parameter_with_its_type_and_default() -> None:
    spec = pyspiel.load_game(GAME).get_type().parameter_specification
    assert set(spec) == {
        "players",
        "rules",
        "session_rounds",
        "replay_cap",
        "roll_action",
        *OPTIONS,
    }
    assert spec["players"] == 2 and Rules.from_str(spec["rules"]) == Rules()
    assert spec["session_rounds"] == SESSION_ROUNDS and spec["replay_cap"] == -1
    for name, option in OPTIONS.items():
        value = spec[name]
        assert type(value) is EXPECTED_TYPES[option.kind], name
        if option.kind is OptionType.FORMAT:
            assert MatchFormat.parse(value) == option.default
        elif option.kind is OptionType.CHOICE:
            assert value == option.default.value
        elif option.default is None:
            assert option.unlimited and value == -1, name
        else:
            assert value == option.default, name


def play(game: pyspiel.Game, seed: int) -> tuple[list[int], list[float]]:
    """One game of random play: its history and returns."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.history(), state.returns()


def test_option_parameters_play_the_rules_text_they_spell() -> None:
    game = pyspiel.load_game(
        GAME, {"players": 3, "half_cargo": True, "format": "rounds:3", "cargo_rerolls": 1}
    )
    text = "classic(half_cargo=true,cargo_rerolls=1,format=rounds:3)"
    assert game.rules == Rules.from_str(text)
    by_text = openspiel_game.load(3, text)
    assert str(game) == str(by_text)
    for seed in range(5):
        history, returns = play(game, seed)
        assert (history, returns) == play(by_text, seed)
        assert len(history) > 10 and sorted(returns) == [0.0, 0.0, 1.0]


def test_option_parameters_change_the_rules_given() -> None:
    def rules(params: dict[str, object]) -> str:
        return str(pyspiel.load_game(GAME, {"players": 3, **params}).rules)

    assert rules({"rules": "ship-captain-crew", "half_cargo": True}) == (
        "ship-captain-crew(half_cargo=true)"
    )
    # The escaped spelling of the rules text stays accepted, and an option on top changes it.
    assert rules({"rules": "classic[half_cargo:true;cargo_rerolls:1]", "cargo_rerolls": 0}) == (
        "classic(half_cargo=true,cargo_rerolls=0)"
    )
    assert rules({"rules": "6-5-4", "cargo_rerolls": -1}) == "classic"
    # A parameter at the table's default is one OpenSpiel filled in: the rules keep theirs.
    assert rules({"rules": "classic(half_cargo=true)", "half_cargo": False}) == (
        "classic(half_cargo=true)"
    )
    assert rules({"rules": "ship-captain-crew", "stakes": "points"}) == "ship-captain-crew"
    assert (
        rules({"rules": "ship-captain-crew(stakes=points)"}) == "ship-captain-crew(stakes=points)"
    )


@settings(max_examples=60, deadline=None)
@given(rule_sets())
def test_any_rule_set_as_option_parameters(rules: Rules) -> None:
    """Every rule set is reachable by the option parameters alone, and a game's own
    parameters (what ``str(game)`` writes) load the same game again."""
    options = {k: v for k, v in game_parameters(3, rules).items() if k in OPTIONS}
    game = pyspiel.load_game(GAME, {"players": 3, **options})
    assert game.rules.options() == rules.options()
    again = pyspiel.load_game(GAME, game_parameters(3, rules))
    assert again.rules == rules
    assert pyspiel.load_game(str(again)).rules == rules
