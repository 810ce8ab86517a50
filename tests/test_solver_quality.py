"""Decision quality (solver/quality.py) against the solver's own advice, by other roads.

* a choice's skill is the advice's chance of the choice taken less its first choice's;
* a roll between two choices moves the chance from the first choice's number to the best
  number of the choice after it (both read from :func:`advise`);
* over the last turn of a round the chance ends at 1 or 0 (the turn won or lost the round),
  so skill + luck over that turn is that less the chance at its start;
* where the solver has no exact match chance, every choice is counted unjudged, none judged.
"""

from __future__ import annotations

import random

import pytest

from shipcaptaincrew.actions import Action, Roll
from shipcaptaincrew.engine import (
    apply,
    initial_state,
    is_chance,
    is_terminal,
    legal_actions,
    sample_chance,
    seat_to_act,
)
from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.solver import advise
from shipcaptaincrew.solver.advice import win_chances
from shipcaptaincrew.solver.graph import turn_graph
from shipcaptaincrew.solver.quality import match_quality
from shipcaptaincrew.state import MatchState, Phase

Step = tuple[MatchState, Action, MatchState]


def played(rules_name: str, players: int, seed: int, settings: tuple[str, ...] = ()) -> list[Step]:
    """A match with random choices (bad ones included), step by step."""
    rules = find_rules(rules_name).with_settings(list(settings))
    rng = random.Random(seed)
    s = initial_state(rules, players)
    steps = []
    while not is_terminal(s):
        a = sample_chance(s, rng) if is_chance(s) else rng.choice(legal_actions(s))
        after = apply(s, a)
        steps.append((s, a, after))
        s = after
    return steps


@pytest.mark.parametrize("seed", range(8))
def test_skill_is_the_advice_of_the_choice_taken_less_the_best(seed: int) -> None:
    steps = played("classic", 3, seed)
    quality = match_quality(steps, 3)
    expected = [0.0, 0.0, 0.0]
    judged = [0, 0, 0]
    for before, action, _ in steps:
        if before.phase is Phase.TURN and not is_chance(before):
            choices = advise(before)
            taken = next(c for c in choices if c.action == action)
            seat = seat_to_act(before)
            assert seat is not None
            assert taken.win_probability is not None and choices[0].win_probability is not None
            expected[seat] += taken.win_probability - choices[0].win_probability
            judged[seat] += 1
    assert [q.judged for q in quality] == judged
    assert [q.skill for q in quality] == pytest.approx(expected, abs=1e-12)
    for q in quality:
        assert q.unjudged == 0 and q.skill <= 1e-12
        for d in q.decisions:
            assert d.skill == pytest.approx(d.chance - d.best_chance)


def test_a_roll_between_two_choices_moves_the_chance_from_one_advice_to_the_next() -> None:
    checked = 0
    for seed in range(10):
        steps = played("classic", 2, seed, ("format=rounds:2",))
        for (d, choice, _), (r, roll, after) in zip(steps, steps[1:]):
            if not (d.phase is r.phase is after.phase is Phase.TURN and isinstance(roll, Roll)):
                continue
            if is_chance(d) or is_chance(after) or seat_to_act(d) != seat_to_act(after):
                continue
            chosen = next(c for c in advise(d) if c.action == choice).win_probability
            best_after = advise(after)[0].win_probability
            values = win_chances(r)
            assert values is not None and chosen is not None and best_after is not None
            assert r.turn is not None
            graph = turn_graph(r.rules)
            luck = values[graph.node(apply(r.turn, roll))] - values[graph.node(r.turn)]
            assert luck == pytest.approx(best_after - chosen, abs=1e-12)
            checked += 1
    assert checked >= 3


@pytest.mark.parametrize("seed", range(12))
def test_over_the_match_s_last_turn_skill_and_luck_add_up_to_its_outcome(seed: int) -> None:
    """Two players of one round: the last turn ends the match won (1) or lost (0) unless it
    ties; skill + luck over it is that outcome less the chance at its start."""
    steps = played("classic", 2, seed)
    final = steps[-1][2]
    if final.results[-1].tie_breaks:
        pytest.skip("a tie: the match went on past the turn")
    seat = seat_to_act(steps[-1][0])
    assert seat is not None
    start = max(
        i
        for i, (b, _, _) in enumerate(steps)
        if b.phase is Phase.TURN and b.turn is not None and b.turn.rolls_used == 0
    )
    first = steps[start][0]
    assert first.turn is not None and seat_to_act(first) == seat
    values = win_chances(first)
    assert values is not None
    at_start = values[turn_graph(first.rules).node(first.turn)]
    quality = match_quality(steps[start:], 2)[seat]
    won = 1.0 if final.winner == seat else 0.0
    assert quality.skill + quality.luck == pytest.approx(won - at_start, abs=1e-9)
    assert quality.lowest is not None and quality.lowest <= min(at_start, won) + 1e-12


def test_tables_beyond_the_solver_are_unjudged_never_guessed() -> None:
    steps = played("skip", 4, 5)  # first to 50 at four: beyond the exact match solver
    quality = match_quality(steps, 4)
    assert all(q.judged == 0 and q.skill == 0 and q.luck == 0 for q in quality)
    assert sum(q.unjudged for q in quality) > 0
    assert all(q.lowest is None for q in quality)
