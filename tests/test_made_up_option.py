"""A house rule nobody taught the fast paths: every shell plays it or refuses it, loudly.

For the length of a test a made-up option joins the option table (in one group of it at a
time) and the rule sets gain a field for it.  Outside the turn no rule of the engine reads it,
so a shell that asks the engine plays it, as the game without it.  A shell that models rules
itself (the round and match solvers, the match estimate, the simulator's step tables, the
environments' encoding, the batched environments) must refuse it -- unless it is an option of
the turn, which every one of them asks of the engine -- with an error that names it, in the
player's language (exit status 2 on the command line); the simulator then plays it through
the engine loop, which asks the engine.

The made-up option of the turn truly changes the turn: on, the crew is a 3 rather than a 4
(the rule sets of the test read it in ``Rules.required_faces``, the turn's shape every shell
reads).  So playing it is not enough: the engine, the exact odds, the simulator and the
batched environment must each play the changed turn, checked against a brute force written
from the rules alone (``tests/test_dice_option.py``) -- a shell that had kept the sheets'
6-5-4 somewhere would be caught by its numbers.
"""

from __future__ import annotations

import importlib
import random
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields, make_dataclass
from typing import Any

import pytest
from typer.testing import CliRunner

from shipcaptaincrew.cli.app import app
from shipcaptaincrew.engine import (
    apply,
    initial_state,
    legal_actions,
    sample_chance,
)
from shipcaptaincrew.errors import GameError, UnmodelledRulesError
from shipcaptaincrew.i18n import translator
from shipcaptaincrew.options import OPTIONS, Group, Option, OptionType
from shipcaptaincrew.rules import PRESETS, Rules, find_rules

from .need import need_module
from .web_table import choose, hosted_with_a_bot, match_pictures

runner = CliRunner()

# The shells that read the option table once, at import, are imported before an option is
# made up (as a real option would be in the table before they load).
for _module in ("shipcaptaincrew.envs.openspiel_game", "shipcaptaincrew.web"):
    try:
        importlib.import_module(_module)
    except ImportError:
        pass
# So is the web's release (its pages' start-up data, the option table among them): a server
# builds it once when it starts, from the table as it then stands.
try:
    from shipcaptaincrew.web.pages.routes import release as _web_release
except ImportError:
    pass
else:
    _web_release()

#: What a refusal says in German ("is not modelled").
GERMAN = "modelliert"


def made_up(name: str, group: Group) -> Option:
    return Option(
        name,
        OptionType.FLAG,
        group,
        False,
        "Made up",
        "a house rule no shell was taught",
        ("house rule: made up by this test",),
        title="made up",
        title_other="not made up",
    )


#: The faces of ship, captain and crew under the turn's made-up option.
LOW_CREW = (6, 5, 3)


def _low_crew(name: str) -> Callable[[Rules], tuple[int, int, int]]:
    def required_faces(rules: Rules) -> tuple[int, int, int]:
        return LOW_CREW if getattr(rules, name) else Rules.required_faces.fget(rules)  # type: ignore[attr-defined]

    return required_faces


@dataclass(frozen=True)
class House:
    """The made-up option's group and name, and classic with it on."""

    group: Group
    name: str
    rules: Rules


@pytest.fixture(params=list(Group), ids=lambda g: str(g.value))
def house(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> Iterator[House]:
    # One name (and rule-set class) per group: no cache keyed by a rule set mixes them up.
    group: Group = request.param
    name = f"made_up_{group.value}"
    # The turn's made-up option changes the turn: with it on, the crew is a 3 (LOW_CREW).
    turn_shape = {"required_faces": property(_low_crew(name))} if group is Group.TURN else {}
    house_rules = make_dataclass(
        f"HouseRules_{group.value}",
        [(name, bool, False)],
        bases=(Rules,),
        frozen=True,
        namespace=turn_shape,
    )
    monkeypatch.setenv("SCC_CACHE_DIR", str(tmp_path))
    monkeypatch.setitem(OPTIONS, name, made_up(name, group))
    for preset_name, preset in list(PRESETS.items()):
        kept = {f.name: getattr(preset, f.name) for f in fields(Rules)}
        monkeypatch.setitem(PRESETS, preset_name, house_rules(**kept))
    rules = find_rules("classic").with_settings([f"{name}=true"])
    assert isinstance(rules, house_rules) and str(rules) == f"classic({name}=true)"
    yield House(group, name, rules)


def outcome(house: House, models: bool, run: Callable[[], Any]) -> str:
    """Run a shell: it must play (``"plays"``) unless it models the rules itself and the option
    is not the turn's, and then it must refuse naming the option in the player's language."""
    refuse = models and house.group is not Group.TURN
    if not refuse:
        run()
        return "plays"
    with pytest.raises(UnmodelledRulesError) as caught:
        run()
    err: GameError = caught.value
    assert house.name in str(err) and "does not model" in str(err)
    german = err.render(translator("de"))
    assert GERMAN in german and house.name in german
    return "refuses"


def play_engine_match(rules: Rules) -> None:
    rng = random.Random(1)
    state = initial_state(rules, 3)
    for _ in range(10_000):
        if state.is_over:
            return
        acts = legal_actions(state)
        state = apply(state, acts[0] if acts else sample_chance(state, rng))
    raise AssertionError("the match did not end")


def test_the_engine_and_the_solvers(house: House) -> None:
    from shipcaptaincrew.solver import equilibrium, turn_odds
    from shipcaptaincrew.solver.estimate_rounds import optimal_round_eq
    from shipcaptaincrew.solver.match.solve import solve_match
    from shipcaptaincrew.solver.policies import SEAT_KINDS, parse_policy

    rules = house.rules
    optimal = parse_policy("optimal", allow=SEAT_KINDS)
    assert outcome(house, False, lambda: play_engine_match(rules)) == "plays"
    assert outcome(house, False, lambda: turn_odds(rules)) == "plays"  # the turn graph
    outcome(house, True, lambda: equilibrium(rules, 2))
    match = rules.replace(format="rounds:2")
    assert getattr(match, house.name) is True
    outcome(house, True, lambda: solve_match(match, (optimal, optimal)))
    outcome(house, True, lambda: optimal_round_eq(rules.replace(format="rounds:9"), 2))


def test_the_simulator_and_the_bots(house: House) -> None:
    from shipcaptaincrew.bots import make_bot
    from shipcaptaincrew.sim.run import simulate
    from shipcaptaincrew.sim.steps import match_table

    rules = house.rules
    outcome(house, True, lambda: match_table(rules, ["ev", "tip"]))
    # The simulator asks the engine where its step tables refuse: every group plays.
    result = simulate(rules, ["ev", "tip"], 20, seed=1)
    assert len(result.winner) == 20
    state = initial_state(rules.replace(starter="chosen"), 2, starter=0)
    rng = random.Random(1)
    while not legal_actions(state):
        state = apply(state, sample_chance(state, rng))

    outcome(house, True, lambda: make_bot("optimal").choose(state, random.Random(1)))


@pytest.mark.parametrize(
    ("args", "models"),
    [
        (["odds"], False),
        (["turn", "65432"], False),
        (["rules", "--plain"], False),
        (["simulate", "--players", "ev,tip", "--matches", "20", "--seed", "1"], False),
        (["strategy"], True),
        (["strategy", "--format", "rounds:2"], True),
        (["advise", "--held", "none", "--roll", "65432", "--rolls-used", "1"], False),
        (
            ["advise", "--held", "none", "--roll", "65432", "--rolls-used", "1"]
            + ["--players-after", "1"],
            True,
        ),
        (["equilibrium", "--players", "2"], True),
        (["evaluate", "--players", "2", "--policy", "optimal"], True),
        (["export", "--table", "round_equilibrium"], True),
    ],
    ids=lambda a: a[0] if isinstance(a, list) else str(a),
)
def test_the_command_line(house: House, args: list[str], models: bool, tmp_path: Any) -> None:
    if args[0] == "export":
        args = [*args, "--out", f"{tmp_path}/"]
    result = runner.invoke(app, [*args, "--set", f"{house.name}=true", "--lang", "de"])
    if models and house.group is not Group.TURN:
        assert result.exit_code == 2, result.output
        assert house.name in result.output and GERMAN in result.output
        assert "Traceback" not in result.output
    else:
        assert result.exit_code == 0, result.output


def test_the_environments(house: House) -> None:
    need_module("gymnasium")
    need_module("pettingzoo")
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    from shipcaptaincrew.envs.batched import BatchedTurnEnv
    from shipcaptaincrew.envs.batched_match import BatchedMatchEnv
    from shipcaptaincrew.envs.gym_env import ShipCaptainCrewEnv
    from shipcaptaincrew.envs.pettingzoo_env import env

    rules = house.rules

    def gym() -> None:
        check_env(ShipCaptainCrewEnv(rules=rules, bots=["tip"]))

    def zoo() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            api_test(env(players=2, rules=rules), num_cycles=20)

    def batched() -> None:
        e = BatchedTurnEnv(4, rules=rules)
        e.reset(seed=1)
        e.step(e.sample_actions())

    def batched_match() -> None:
        e = BatchedMatchEnv(4, rules=rules.replace(format="rounds:2"))
        e.reset(seed=1)

    for shell in (gym, zoo, batched, batched_match):
        outcome(house, True, shell)
    pyspiel = need_module("pyspiel")
    from shipcaptaincrew.envs import openspiel_game

    def spiel() -> None:
        game = openspiel_game.load(2, str(rules))
        pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)

    outcome(house, True, spiel)


def test_the_web_service(house: House, tmp_path: Any) -> None:
    """The create form plays it (the table asks the engine) and a match with a bot ends."""
    settings = [f"{house.name}=true", "starter=chosen"]
    with hosted_with_a_bot(tmp_path, settings, hints=False) as ws:
        room: dict[str, Any] = {}
        for room in match_pictures(ws, 5000):
            assert room["rules"] == str(house.rules.replace(starter="chosen"))
            if room["match"]["over"]:
                break
            if room["match"]["actor"] == 0:
                choose(ws, room, room["match"]["legal"][0])
        assert room["match"]["over"], room


def test_the_made_up_turn_is_played_as_changed(house: House) -> None:
    """The turn's made-up option moves the crew to a 3: the engine sets a 3 aside as the crew,
    and the exact odds, both simulator paths and the batched environment follow the brute
    force of that turn, which differs from the sheets'."""
    if house.group is not Group.TURN:
        pytest.skip("only an option of the turn changes the turn")
    from shipcaptaincrew.actions import Roll
    from shipcaptaincrew.engine import initial_turn
    from shipcaptaincrew.envs.batched import BatchedTurnEnv
    from shipcaptaincrew.sim.reference import engine_turns
    from shipcaptaincrew.sim.run import simulate_turns
    from shipcaptaincrew.solver import turn_odds

    from .test_dice_option import turn_value

    rules = house.rules
    t = apply(initial_turn(rules), Roll((6, 5, 4, 3, 2)))
    assert (t.held, t.cargo, t.score) == (LOW_CREW, (2, 4), 6)  # the sheets': cargo 2 + 3
    _, best = turn_value(5, 0, 3, LOW_CREW)
    assert best != turn_value(5, 0, 3)[1]  # a different game
    assert turn_odds(rules, exact=True).expected_score == best
    out = simulate_turns(rules, "ev", 100_000, seed=3)
    assert abs(out["expected_score"] - float(best)) <= 4 * out["expected_score_se"]
    scores, _ = engine_turns(rules, "ev", 3000, seed=3)
    assert abs(float(scores.mean()) - float(best)) <= 4 * float(scores.std()) / 3000**0.5
    env = BatchedTurnEnv(64, rules=rules, reward="score")
    env.reset(seed=1)
    for _ in range(20):
        env.step(env.sample_actions())
        for state in env.states():
            assert state.held == LOW_CREW[: len(state.held)]
    result = runner.invoke(app, ["turn", "65432", "--json", "--set", f"{house.name}=true"])
    assert result.exit_code == 0, result.output
    assert '"cargo": [2, 4]' in result.output and '"score": 6' in result.output
