"""The house rule ``rolls`` (two to five rolls a turn; the sheets' three, 000.1, 001.4, 002.8):
the engine plays it, and every shell plays it with it, the exact numbers checked.

The exact odds of a turn are checked against a plain enumeration written here, which shares
nothing with the engine or the solver: every ordered roll of the free dice, the roles taken
greedily in order, and the best-expected-score cargo play by backward induction.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any

import pytest
from typer.testing import CliRunner

from shipcaptaincrew.actions import RerollCargo, Roll
from shipcaptaincrew.cli.app import app
from shipcaptaincrew.engine import (
    apply,
    initial_state,
    initial_turn,
    legal_actions,
    sample_chance,
)
from shipcaptaincrew.errors import InvalidRulesError
from shipcaptaincrew.i18n import translator
from shipcaptaincrew.i18n.rules_text import rules_text
from shipcaptaincrew.options import OPTIONS
from shipcaptaincrew.rules import TURN_LIMITS, Rules, find_rules
from shipcaptaincrew.solver import equilibrium, turn_odds
from shipcaptaincrew.solver.table import decision_table
from shipcaptaincrew.state import TurnPhase

from .need import need_module
from .test_sim_fast import _agree as agree
from .web_table import choose, hosted_with_a_bot, match_pictures

runner = CliRunner()
ROLLS = range(OPTIONS["rolls"].bounds[0], OPTIONS["rolls"].bounds[1] + 1)
#: The rule sets whose odds are checked: two, four and five rolls (three is every sheet's).
CHECKED = (2, 4, 5)


# -- a plain enumeration of the turn ---------------------------------------------------------

NEED = (6, 5, 4)  # the sheets' ship, captain and crew, in order (000.2)


def _take(held: int, faces: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """Roles taken greedily in order from a roll; (roles held after, the dice left over)."""
    rest = list(faces)
    while held < 3 and NEED[held] in rest:
        rest.remove(NEED[held])
        held += 1
    return held, tuple(rest)


@cache
def _completion(held: int, left: int) -> dict[tuple[int, int], Fraction]:
    """(rolls used from here when the crew completes, its cargo) -> chance; (0, 0): never."""
    out: dict[tuple[int, int], Fraction] = {}
    if left == 0:
        return {(0, 0): Fraction(1)}
    outcomes = list(product(range(1, 7), repeat=5 - held))
    for faces in outcomes:
        now, rest = _take(held, faces)
        p = Fraction(1, len(outcomes))
        if now == 3:
            out[(1, sum(rest))] = out.get((1, sum(rest)), Fraction(0)) + p
            continue
        for (k, cargo), q in _completion(now, left - 1).items():
            key = (k + 1 if k else 0, cargo)
            out[key] = out.get(key, Fraction(0)) + p * q
    return out


@cache
def _best(cargo: int, left: int) -> Fraction:
    """The best expected cargo from here: stand, or reroll both dice while rolls are left."""
    if left == 0:
        return Fraction(cargo)
    again = sum(_best(a + b, left - 1) for a, b in product(range(1, 7), repeat=2)) / 36
    return max(Fraction(cargo), again)


def test_the_enumeration_agrees_with_the_sheets_own_three_rolls() -> None:
    """The plain enumeration reproduces the solver's three-roll figure (and checks itself)."""
    done = _completion(0, 3)
    assert 1 - done[(0, 0)] == turn_odds(Rules(), "never", exact=True).p_complete


@pytest.mark.parametrize("rolls", CHECKED)
def test_exact_odds_of_a_turn_agree_with_a_plain_enumeration(rolls: int) -> None:
    rules = Rules(rolls=rolls)
    plain = _completion(0, rolls)
    never = turn_odds(rules, "never", exact=True)
    # Completion by roll, and the score of standing on the first cargo.
    assert never.p_complete_by_roll == tuple(
        sum((p for (k, _), p in plain.items() if k == roll), Fraction(0))
        for roll in range(1, rolls + 1)
    )
    scores: dict[int, Fraction] = {}
    for (_, cargo), p in plain.items():
        scores[cargo] = scores.get(cargo, Fraction(0)) + p
    assert never.distribution == {x: p for x, p in sorted(scores.items()) if p}
    # The best expected score: every roll left after the crew may go on the cargo.
    ev = turn_odds(rules, "ev", exact=True)
    assert ev.expected_score == sum(
        p * _best(cargo, rolls - k) for (k, cargo), p in plain.items() if k
    )


# -- the rule itself -------------------------------------------------------------------------


@pytest.mark.parametrize("rolls", ROLLS)
def test_a_turn_has_the_rule_sets_rolls_and_the_cargo_the_rest(rolls: int) -> None:
    """000.1/001.4/002.8 give three rolls; the house rule gives two to five.  With no crew
    the turn ends after the last (a score of 0); a crew on the first roll leaves every other
    roll for the cargo (002.17)."""
    rules = Rules(rolls=rolls)
    t = initial_turn(rules)
    for _ in range(rolls):
        assert t.phase is TurnPhase.ROLL and t.rolls_left == rolls - t.rolls_used
        t = apply(t, Roll((1, 1, 1, 1, 1)))
    assert t.phase is TurnPhase.DONE and t.score == 0 and t.rolls_used == rolls
    t = apply(initial_turn(rules), Roll((6, 5, 4, 1, 1)))
    for left in range(rolls - 1, 0, -1):
        assert t.phase is TurnPhase.DECIDE and t.rolls_left == left
        t = apply(apply(t, RerollCargo()), Roll((2, 2)))
    assert t.phase is TurnPhase.DONE and t.score == 4 and t.cargo_rerolls == rolls - 1
    assert rules.max_cargo_rerolls == rolls - 1


def test_the_cargo_rerolls_limit_is_bounded_by_the_rolls() -> None:
    assert OPTIONS["cargo_rerolls"].bounds == (0, TURN_LIMITS.rolls - 1)
    assert Rules(rolls=5, cargo_rerolls=4).max_cargo_rerolls == 4
    with pytest.raises(InvalidRulesError, match=r"a turn of 2 rolls allows \(at most 1\)"):
        Rules(rolls=2, cargo_rerolls=2)
    assert str(find_rules("classic").with_settings(["rolls=4"])) == "classic(rolls=4)"


# -- every shell -----------------------------------------------------------------------------


def _scc(*args: str) -> Any:
    result = runner.invoke(app, ["--lang", "en", *args])
    return result


@pytest.mark.parametrize("rolls", ROLLS)
def test_scc_odds_advise_turn_and_strategy_count_the_rules_rolls(rolls: int) -> None:
    odds = _scc("odds", "--set", f"rolls={rolls}")
    assert odds.exit_code == 0, odds.output
    assert f"crew completed within {rolls} rolls" in odds.output
    assert f"on roll {rolls}" in odds.output and f"on roll {rolls + 1}" not in odds.output
    data = json.loads(_scc("odds", "--set", f"rolls={rolls}", "--json").stdout)
    assert len(data["p_complete_by_roll"]) == rolls
    # The last roll is advised on, the one after it refused with the rule set's number.
    ok = _scc(

        "advise", "--set", f"rolls={rolls}", "--held", "none", "--roll", "65431",
        "--rolls-used", str(rolls), "--json",
    )  # fmt: skip
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.stdout)["position"]["rolls_left"] == 0
    past = _scc(
        "advise", "--set", f"rolls={rolls}", "--held", "none", "--roll", "65431",
        "--rolls-used", str(rolls + 1),
    )  # fmt: skip
    assert past.exit_code == 2 and f"1..{rolls}" in past.stderr
    # scc turn: every roll a turn has, and not one more.
    fails = ["11111"] * rolls
    turn = _scc("turn", "--set", f"rolls={rolls}", "--json", *fails)
    assert turn.exit_code == 0 and json.loads(turn.stdout)["rolls_used"] == rolls
    more = _scc("turn", "--set", f"rolls={rolls}", *fails, "11111")
    assert more.exit_code == 2 and f"at most {rolls} rolls" in more.stderr
    # The decision tables have a row for every number of rolls left after a crew.
    table = json.loads(_scc("strategy", "--set", f"rolls={rolls}", "--json").stdout)
    assert {r["rolls_left"] for r in table["rows"]} == set(range(1, rolls))
    match = _scc("strategy", "--set", f"rolls={rolls}", "--format", "rounds:2", "--json")
    assert match.exit_code == 0, match.output
    assert {r["rolls_left"] for r in json.loads(match.stdout)["rows"]} == set(range(1, rolls))


@pytest.mark.parametrize("rolls", ROLLS)
def test_the_rules_text_says_the_rolls_in_every_language(rolls: int) -> None:
    rules = Rules(rolls=rolls)
    assert f"You have up to {rolls} rolls." in rules_text(rules)
    assert f"Without a full crew after {rolls} rolls you score 0." in rules_text(rules)
    assert f"Du hast bis zu {rolls} Würfe." in rules_text(rules, translator("de"))
    assert f"Du har opptil {rolls} kast." in rules_text(rules, translator("nb"))
    title = "2 rolls per turn" if rolls == 2 else f"{rolls} rolls per turn"
    assert rules == Rules() or title in rules_text(rules).splitlines()[0]


@pytest.mark.parametrize("rolls", ROLLS)
def test_the_solver_notes_cover_every_number_of_rolls_left(rolls: int) -> None:
    from shipcaptaincrew.cli.commands.rules import solver_notes

    notes = solver_notes(Rules(rolls=rolls))
    assert [left for left, _ in notes.reroll_up_to] == list(range(1, rolls))
    # More rolls left make a higher cargo worth rerolling, never a lower one (ev).
    limits = [cargo for _, cargo in notes.reroll_up_to]
    assert limits == sorted(limits)
    rows = decision_table(Rules(rolls=rolls), objective="ev")
    assert [r.rolls_left for r in rows] == list(range(1, rolls))


@pytest.mark.parametrize("rolls", (2, 5))
def test_the_simulator_plays_the_rolls_the_solver_counts(rolls: int) -> None:
    from shipcaptaincrew.sim.run import simulate, simulate_turns

    rules = Rules(rolls=rolls)
    exact = turn_odds(rules, "never", exact=True)
    got = simulate_turns(rules, "timid", 20_000, seed=3)
    assert len(got["p_complete_by_roll"]) == rolls
    for p, q in zip(got["p_complete_by_roll"], exact.p_complete_by_roll, strict=True):
        assert abs(p - float(q)) < 5 * (float(q) * (1 - float(q)) / 20_000) ** 0.5 + 1e-9
    # Whole matches on the step tables and through the engine loop agree.
    bots = ["ev", "tip", "threshold:7"]
    tables = simulate(rules.replace(format="rounds:2"), bots, 3_000, seed=5)
    loop = simulate(rules.replace(format="rounds:2"), bots, 1_000, seed=6, engine_loop=True)
    assert tables.path == "tables" and loop.path.startswith("engine loop")
    agree(tables, loop)
    assert len(equilibrium(rules, 3).seat_win_probability) == 3


@pytest.mark.parametrize("rolls", (2, 5))
def test_the_environments_stay_inside_their_spaces(rolls: int) -> None:
    """At five rolls the environments once showed rolls_used beyond their observation space,
    and OpenSpiel's max_game_length was no longer a bound."""
    need_module("gymnasium")
    pyspiel = need_module("pyspiel")
    from gymnasium.utils.env_checker import check_env

    from shipcaptaincrew.envs import openspiel_game
    from shipcaptaincrew.envs.batched import BatchedTurnEnv
    from shipcaptaincrew.envs.gym_env import ShipCaptainCrewEnv

    rules = Rules(rolls=rolls, wild_captain=True, wild_face=2)
    env = ShipCaptainCrewEnv(rules=rules, bots=["timid"])
    check_env(env, skip_render_check=True)
    rng = random.Random(rolls)
    seen = set()
    obs, _ = env.reset(seed=rolls)
    for _ in range(3000):
        assert env.observation_space.contains(obs)
        seen.add(int(obs["rolls_used"]))
        legal = [i for i, m in enumerate(obs["action_mask"]) if m]
        obs, _, done, cut, _ = env.step(rng.choice(legal))
        if done or cut:
            obs, _ = env.reset()
    assert max(seen) <= rolls and max(seen) >= rolls - 1
    batched = BatchedTurnEnv(16, rules=rules)
    batched.reset(seed=1)
    assert batched.graph.states[0].rules.rolls == rolls
    game = openspiel_game.load(8, str(rules.replace(format="session")), session_rounds=1000)
    assert game.max_game_length() >= openspiel_game.round_moves(rules) * 1000 + 8
    capped = openspiel_game.load(3, str(rules), replay_cap=1)
    pyspiel.random_sim_test(capped, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("rolls", ROLLS)
def test_every_bot_plays_only_legal_moves(rolls: int) -> None:
    from shipcaptaincrew.bots import DIFFICULTIES, make_bot

    rules = Rules(rolls=rolls, format="rounds:2", drinking="captain_hands_out")
    rng = random.Random(rolls)
    for level in DIFFICULTIES:
        bot = make_bot(level)
        state = initial_state(rules, 3)
        while not state.is_over:
            acts = legal_actions(state)
            if not acts:
                state = apply(state, sample_chance(state, rng))
                continue
            choice = bot.choose(state, rng)
            assert choice in acts
            state = apply(state, choice)


def test_the_web_table_shows_the_rules_rolls(tmp_path: Any) -> None:
    """The picture the pages draw counts the rule set's rolls left (four here)."""
    with hosted_with_a_bot(tmp_path, ["rolls=4", "starter=chosen"]) as ws:
        lefts: list[int] = []
        for room in match_pictures(ws, 200):
            match, turn = room["match"], room["match"]["turn"]
            if match["over"] or (lefts and match["actor"] != 0):
                break  # the host's turn is over
            if match["actor"] == 0 and turn is not None:
                lefts.append(turn["rolls_left"])
                if match["legal"] != ["roll"] or turn["rolls_left"] == 0:
                    break
                choose(ws, room, "roll")
        assert lefts[0] == 4 and lefts == sorted(lefts, reverse=True)
