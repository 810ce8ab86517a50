"""The house rule ``dice`` (four to six dice in the cup) against numbers worked out here alone.

The brute force below knows nothing of the engine or the solver: it is the classic turn
written from the rules -- the ship (6), then the captain (5), then the crew (4), set aside in
that order, several from one roll if the roll has them (000.9); the dice left once all three
are held are the cargo, their sum the score (000.3, 001.11, 002.13); with rolls left the cargo
may be rolled again, and the new cargo counts, lower or not (000.14); no crew after the last
roll scores 0.  It walks every ordered roll of the free dice (``6 ** n`` of them, each
``1 / 6 ** n``) in fractions.  Its completion chance and its best expected score must equal
what ``scc odds --exact`` prints, digit for digit; the simulator's two paths and the batched
environment, playing the brute force's own choices, must land within their confidence
intervals of it.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import numpy as np
import pytest
from typer.testing import CliRunner

from shipcaptaincrew.cli.app import app
from shipcaptaincrew.rules import Rules, find_rules

ROLES = (6, 5, 4)
ROLLS = 3
#: Standard errors a sampled figure may stray (a failure by chance once in ~16,000 runs).
Z = 4.0


@cache
def _roll_ends(
    dice: int, held: int, roles: tuple[int, ...] = ROLES
) -> dict[tuple[int, int], Fraction]:
    """Rolling the free dice with ``held`` roles held: (roles held after, cargo sum) -> chance.

    The cargo sum is 0 unless the roll completes the crew."""
    out: Counter[tuple[int, int]] = Counter()
    free = dice - held
    for faces in product(range(1, 7), repeat=free):
        rest = list(faces)
        now = held
        while now < len(roles) and roles[now] in rest:
            rest.remove(roles[now])
            now += 1
        out[(now, sum(rest) if now == len(ROLES) else 0)] += 1
    return {k: Fraction(n, 6**free) for k, n in out.items()}


@cache
def _cargo(dice: int) -> dict[int, Fraction]:
    """A rolled cargo's sum -> chance."""
    n = dice - len(ROLES)
    sums = Counter(sum(f) for f in product(range(1, 7), repeat=n))
    return {s: Fraction(c, 6**n) for s, c in sums.items()}


@cache
def reroll_value(dice: int, left: int) -> Fraction:
    """The best expected score of rolling the cargo again with ``left`` rolls to go (>= 1)."""
    return sum((p * complete_value(dice, s, left - 1) for s, p in _cargo(dice).items()), Fraction())


def complete_value(dice: int, cargo: int, left: int) -> Fraction:
    """A full crew with cargo ``cargo`` and ``left`` rolls: stand, or roll again if better."""
    return max(Fraction(cargo), reroll_value(dice, left)) if left else Fraction(cargo)


def stands(dice: int, cargo: int, left: int) -> bool:
    """The brute force's own choice: stand unless rolling again expects more."""
    return complete_value(dice, cargo, left) == cargo


@cache
def turn_value(
    dice: int, held: int, left: int, roles: tuple[int, ...] = ROLES
) -> tuple[Fraction, Fraction]:
    """(chance of a full crew, best expected score) with ``held`` roles and ``left`` rolls;
    ``roles`` the faces of ship, captain and crew."""
    complete = score = Fraction()
    for (now, cargo), p in _roll_ends(dice, held, roles).items():
        if now == len(roles):
            complete += p
            score += p * complete_value(dice, cargo, left - 1)
        elif left > 1:
            c, s = turn_value(dice, now, left - 1, roles)
            complete += p * c
            score += p * s
    return complete, score


@pytest.mark.parametrize("dice", [4, 5, 6])
def test_scc_odds_exact_equals_the_brute_force(dice: int) -> None:
    result = CliRunner().invoke(
        app, ["odds", "--exact", "--json", "--set", f"dice={dice}", "--lang", "en"]
    )
    assert result.exit_code == 0, result.output
    odds = json.loads(result.stdout)
    complete, score = turn_value(dice, 0, ROLLS)
    assert Fraction(odds["p_complete"]) == complete
    assert Fraction(odds["expected_score"]) == score
    # The highest score is the cargo all sixes: 6, 12 or 18.
    assert max(int(s) for s in odds["distribution"]) == 6 * (dice - len(ROLES))


def _within(sampled: float, se: float, exact: Fraction, what: str) -> None:
    assert abs(sampled - float(exact)) <= Z * se, f"{what}: {sampled} +- {se}, exact {exact}"


@pytest.mark.parametrize("dice", [4, 6])
def test_the_vectorised_simulator_within_its_interval(dice: int) -> None:
    from shipcaptaincrew.sim.run import simulate_turns

    rules = find_rules("classic").replace(dice=dice)
    out = simulate_turns(rules, "ev", 200_000, seed=7)
    complete, score = turn_value(dice, 0, ROLLS)
    _within(out["expected_score"], out["expected_score_se"], score, "expected score")
    _within(out["p_complete"], out["p_complete_se"], complete, "completion")
    assert max(out["distribution"]) == rules.max_score


@pytest.mark.parametrize("dice", [4, 6])
def test_the_engine_loop_within_its_interval(dice: int) -> None:
    from shipcaptaincrew.sim.reference import engine_turns

    n = 6_000
    scores, completed_on = engine_turns(find_rules("classic").replace(dice=dice), "ev", n, seed=3)
    complete, score = turn_value(dice, 0, ROLLS)
    _within(float(scores.mean()), float(scores.std(ddof=1)) / n**0.5, score, "expected score")
    p = float((completed_on > 0).mean())
    _within(p, (p * (1 - p) / n) ** 0.5, complete, "completion")


@pytest.mark.parametrize("dice", [4, 6])
def test_the_batched_environment_within_its_interval(dice: int) -> None:
    """The batched environment plays the brute force's own choices; its turns' mean score is
    the brute force's best expected score, within the interval."""
    from shipcaptaincrew.actions import RerollCargo, Stand
    from shipcaptaincrew.envs.batched import BatchedTurnEnv
    from shipcaptaincrew.envs.encoding import action_index

    rules = find_rules("classic").replace(dice=dice)
    env = BatchedTurnEnv(4096, rules=rules, reward="score")
    choice = np.zeros(len(env.graph), dtype=np.int64)
    for node, state in enumerate(env.graph.states):
        if state.complete and state.rolls_left:
            move = Stand() if stands(dice, sum(state.cargo), state.rolls_left) else RerollCargo()
            choice[node] = action_index(state, move)
    obs, info = env.reset(seed=5)
    scores = [info["undecided_scores"]]
    while sum(len(s) for s in scores) < 60_000:
        obs, _, terminated, _, info = env.step(choice[obs["node"]])
        scores += [info["final_score"][terminated], info["undecided_scores"]]
    # Every turn begun so far is counted, and only those: the turns still open are played to
    # their end (stopping at them would leave out turns with a crew, which take decisions),
    # and the turns dealt after them are not.
    open_ = np.ones(env.num_envs, dtype=bool)
    while open_.any():
        obs, _, terminated, _, info = env.step(choice[obs["node"]])
        ends = terminated & open_
        scores.append(info["final_score"][ends])
        open_ &= ~terminated
    flat = np.concatenate(scores).astype(float)
    complete, score = turn_value(dice, 0, ROLLS)
    _within(float(flat.mean()), float(flat.std(ddof=1)) / len(flat) ** 0.5, score, "score")
    p = float((flat > 0).mean())
    _within(p, (p * (1 - p) / len(flat)) ** 0.5, complete, "completion")


def test_six_dice_play_a_cargo_of_three_through_the_engine() -> None:
    """A turn of six dice: the three dice beside the roles are the cargo and the score."""
    from shipcaptaincrew.actions import Roll
    from shipcaptaincrew.engine import apply, initial_turn

    t = apply(initial_turn(Rules(dice=6)), Roll((6, 5, 4, 1, 2, 6)))
    assert (t.held, t.cargo, t.score) == ((6, 5, 4), (1, 2, 6), 9)
    t = apply(initial_turn(Rules(dice=4)), Roll((6, 5, 4, 3)))
    assert (t.held, t.cargo, t.score) == ((6, 5, 4), (3,), 3)
