"""The engine's seams for solvers: match positions, posting a score, the scores a turn can end with.

``match_position`` must commute with the engine: the position of a state after any action is
the position after that action applied to the state's position.  Then the same continuation
from a state and from its position is legal step by step and ends with the same winner, which
is what a solver memoising on positions relies on.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shipcaptaincrew.actions import Action, Roll
from shipcaptaincrew.engine import (
    IllegalActionError,
    apply,
    initial_state,
    is_chance,
    is_terminal,
    legal_actions,
    match_position,
    post_score,
    sample_chance,
    turn_scores,
)
from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.sim.tables import score_paths
from shipcaptaincrew.solver import turn_graph
from shipcaptaincrew.state import MatchState, Phase
from tests.strategies import MatchSetup, match_setups

#: Steps of a random continuation (sessions and long formats are cut there).
STEPS = 400


def _step(state: MatchState, rng: random.Random) -> Action:
    if is_chance(state):
        return sample_chance(state, rng)
    return rng.choice(legal_actions(state))


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(match_setups(), st.integers(0, 2**32 - 1), st.integers(0, 60))
def test_positions_commute_with_the_engine(setup: MatchSetup, seed: int, prefix: int) -> None:
    rng = random.Random(seed)
    s = initial_state(setup.rules, setup.players, **setup.kwargs())
    for _ in range(prefix):
        if is_terminal(s):
            return
        s = apply(s, _step(s, rng))
    p = match_position(s)
    assert match_position(p) == p
    for _ in range(STEPS):
        if is_terminal(s):
            break
        assert legal_actions(p) == legal_actions(s)
        a = _step(s, rng)
        s, p = apply(s, a), apply(p, a)
        assert match_position(p) == match_position(s)
    assert p.winner == s.winner and is_terminal(p) == is_terminal(s)


def test_a_replayed_round_is_the_same_position() -> None:
    s = initial_state(find_rules("classic").replace(starter="chosen"), 3)
    again = post_score(post_score(post_score(s, 0), 0), 0)
    assert again != s and again.replays == 1
    assert match_position(again) == match_position(s)


def test_totals_stay_where_the_format_reads_them() -> None:
    rules = find_rules("classic").replace(starter="chosen")
    for fmt, kept in (("wins:2", False), ("rounds:3", True), ("first_to:20", True)):
        s = initial_state(rules.replace(format=fmt), 2)
        s = post_score(post_score(s, 9), 5)
        assert s.phase is Phase.TURN and s.totals == (9, 5)
        assert (match_position(s).totals == (9, 5)) is kept, fmt


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(match_setups(solo=False), st.integers(0, 2**32 - 1))
def test_posting_a_score_is_playing_a_turn_that_ends_with_it(setup: MatchSetup, seed: int) -> None:
    rng = random.Random(seed)
    s = initial_state(setup.rules, setup.players, **setup.kwargs())
    while not is_terminal(s) and not (s.phase is Phase.TURN and s.turn and s.turn.rolls_used == 0):
        s = apply(s, _step(s, rng))
    if is_terminal(s) or s.contest is None or s.contest.method.value != "turn":
        return
    assert turn_scores(setup.rules) == turn_graph(setup.rules).scores
    for score, path in score_paths(setup.rules).items():
        played = s
        for a in path:
            played = apply(played, a)
        assert post_score(s, score) == played


def test_post_score_refuses_a_turn_begun_and_impossible_scores() -> None:
    s = initial_state(find_rules("classic").replace(starter="chosen"), 2)
    for bad in (1, 13, -2, True):
        with pytest.raises(IllegalActionError, match="no turn ends"):
            post_score(s, bad)  # type: ignore[arg-type]
    begun = apply(s, Roll((6, 5, 4, 3, 3)))
    with pytest.raises(IllegalActionError, match="not yet begun"):
        post_score(begun, 6)
    rolloff = initial_state(find_rules("classic"), 2)
    assert rolloff.phase is Phase.ROLL_OFF
    with pytest.raises(IllegalActionError, match="not yet begun"):
        post_score(rolloff, 6)
