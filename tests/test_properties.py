"""Invariants of the engine over random rule sets and dice (hypothesis), plus many random turns.

The quality bar: dice conserved, held roles in order, score 0 or within bounds, replay
identical, ``chance_outcomes`` probabilities summing to exactly 1; "at least 100,000 random
turns per CI run with no invariant broken".
"""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shipcaptaincrew.actions import Action, Roll, parse_action
from shipcaptaincrew.engine import (
    CHANCE,
    TERMINAL,
    apply,
    chance_outcomes,
    current_player,
    dice_to_roll,
    initial_state,
    initial_turn,
    is_terminal,
    legal_actions,
    returns,
    sample_chance,
)
from shipcaptaincrew.rules import Drinking, HandOutAmount, Rules, Stakes, TieBreak
from shipcaptaincrew.state import (
    MatchState,
    Phase,
    Purpose,
    RoundResult,
    TurnPhase,
    TurnState,
)
from tests.strategies import MatchSetup, dice, match_setups, playable_rule_sets, random_rules

#: Far more steps than any match of :func:`playable_rule_sets` needs; reaching it means a loop.
MAX_MATCH_STEPS = 50_000

PROPERTY_SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def check_turn(t: TurnState) -> None:
    """Every invariant a turn state must satisfy, whatever the rules and dice."""
    rules = t.rules
    # Dice conserved: the held dice plus the cargo (or the free dice) are always the cup's
    # (five of the sheets, four or six under the house rule).
    assert 0 <= len(t.held) <= 3
    assert t.free_dice == rules.dice - len(t.held)
    if t.complete:
        assert len(t.cargo) == rules.cargo_dice and all(1 <= f <= 6 for f in t.cargo)
    else:
        assert t.cargo == ()
    assert len(t.held) + (len(t.cargo) if t.complete else t.free_dice) == rules.dice
    # Held roles are a prefix of ship, captain, crew, each its face or the wild face.
    assert t.held_roles == ("ship", "captain", "crew")[: len(t.held)]
    for face, need in zip(t.held, rules.required_faces):
        assert face == need or (rules.wild_captain and face == rules.wild_face)
    # Score 0 without a full crew, else between the cargo all ones and the rule set's maximum.
    if t.complete:
        assert rules.cargo_dice <= t.score <= rules.max_score
        assert t.bonus in (0, rules.same_roll_bonus)
    else:
        assert t.score == 0 and t.bonus == 0
    assert 0 <= t.rolls_used <= t.rules.rolls
    assert 0 <= t.cargo_rerolls <= rules.max_cargo_rerolls
    assert t.keep is None or (rules.half_cargo and t.keep in t.cargo)
    # The phase decides who acts.
    player = current_player(t)
    if t.phase is TurnPhase.ROLL:
        assert player == CHANCE and legal_actions(t) == ()
        cargo = rules.cargo_dice
        assert dice_to_roll(t) == (
            cargo - 1 if t.keep is not None else cargo if t.complete else t.free_dice
        )
    elif t.phase is TurnPhase.DONE:
        assert player == TERMINAL and legal_actions(t) == () and chance_outcomes(t) == ()
    else:
        assert player == 0 and legal_actions(t) and chance_outcomes(t) == ()
        if t.phase is TurnPhase.ASSIGN:
            assert len(legal_actions(t)) > 1 and t.pending
        else:
            assert t.complete and t.rolls_used < t.rules.rolls


def check_chance(state: TurnState | MatchState) -> None:
    outcomes = chance_outcomes(state)
    assert outcomes and sum(p for _, p in outcomes) == Fraction(1)
    assert all(p > 0 for _, p in outcomes)
    n = dice_to_roll(state)
    assert all(len(r.faces) == n and r.faces == r.sorted_faces for r, _ in outcomes)
    assert len({r for r, _ in outcomes}) == len(outcomes)


def check_value(state: Any) -> None:
    """States are frozen, hashable values."""
    assert hash(state) == hash(dataclasses.replace(state))
    assert state == dataclasses.replace(state)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.rules = Rules()


# -- turns --------------------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(rules=playable_rule_sets(), data=st.data())
def test_turn_invariants_hold_at_every_step(rules: Rules, data: st.DataObject) -> None:
    t = initial_turn(rules)
    history: list[Action] = []
    while True:
        check_turn(t)
        check_value(t)
        before = repr(t)
        if is_terminal(t):
            break
        if current_player(t) == CHANCE:
            check_chance(t)
            action: Action = Roll(data.draw(dice(dice_to_roll(t))))
        else:
            # Every legal action applies without error and survives its text form (event logs).
            for a in legal_actions(t):
                check_turn(apply(t, a))
                assert parse_action(str(a)) == a
            action = data.draw(st.sampled_from(legal_actions(t)))
        assert parse_action(str(action)) == action
        nxt = apply(t, action)
        assert repr(t) == before  # apply never changes its input
        assert nxt.rolls_used >= t.rolls_used
        history.append(action)
        t = nxt
    assert len([a for a in history if isinstance(a, Roll)]) == t.rolls_used <= t.rules.rolls
    # Replaying the same actions gives the identical state.
    again = initial_turn(rules)
    for a in history:
        again = apply(again, a)
    assert again == t and repr(again) == repr(t)


@PROPERTY_SETTINGS
@given(rules=playable_rule_sets(), data=st.data())
def test_first_roll_sets_aside_what_the_rules_allow(rules: Rules, data: st.DataObject) -> None:
    """Whatever the order of the faces, the same roles are taken (000 'alle gleichzeitig')."""
    faces = data.draw(dice(rules.dice))
    t = apply(initial_turn(rules), Roll(faces))
    u = apply(initial_turn(rules), Roll(tuple(reversed(faces))))
    assert t == u
    ship = rules.required_faces[0]
    can_ship = ship in faces or (rules.wild_captain and rules.wild_face in faces)
    if t.phase is not TurnPhase.ASSIGN:
        assert bool(t.held) == can_ship
    else:
        assert can_ship


@PROPERTY_SETTINGS
@given(rules=playable_rule_sets(), data=st.data())
def test_chance_outcomes_sum_to_one_at_reachable_turn_nodes(
    rules: Rules, data: st.DataObject
) -> None:
    """Walk a turn by drawing each roll from the exact outcome list itself."""
    t = initial_turn(rules)
    while not is_terminal(t):
        if current_player(t) == CHANCE:
            check_chance(t)
            roll = data.draw(st.sampled_from([r for r, _ in chance_outcomes(t)]))
            t = apply(t, roll)
        else:
            t = apply(t, data.draw(st.sampled_from(legal_actions(t))))


# -- matches ------------------------------------------------------------------------------------


def check_match(s: MatchState, setup: MatchSetup, prev: MatchState | None) -> None:
    rules, n = setup.rules, setup.players
    assert len(s.chips) == len(s.sips) == len(s.totals) == len(s.wins) == n
    # Chips are conserved: whatever is not in a stack is in the pot.
    if rules.stakes is Stakes.POT:
        assert sum(s.chips) + s.pot == n * rules.starting_chips
        assert min(s.chips) >= 0 and s.pot >= 0
    else:
        assert s.chips == (0,) * n and s.pot == 0
    assert min(s.sips) >= 0 and min(s.totals) >= 0
    if prev is not None:
        assert all(a >= b for a, b in zip(s.sips, prev.sips))
        assert all(a >= b for a, b in zip(s.totals, prev.totals))
        assert s.round_no >= prev.round_no
    player = current_player(s)
    if s.is_over:
        assert player == TERMINAL and legal_actions(s) == () and chance_outcomes(s) == ()
    elif player == CHANCE:
        check_chance(s)
        assert legal_actions(s) == ()
    else:
        assert 0 <= player < n and legal_actions(s) and chance_outcomes(s) == ()
    if s.turn is not None:
        check_turn(s.turn)
    check_contest(s)
    for r in s.results:
        check_round_result(r, rules, solo=n == 1)


def check_contest(s: MatchState) -> None:
    """Only the right seats take part in each kind of contest."""
    c = s.contest
    if c is None or s.is_over:
        return
    assert len(c.scores) < len(c.seats) and len(set(c.seats)) == len(c.seats)
    if c.purpose is Purpose.ROUND:
        assert c.seats == s.round_seats
    elif c.purpose is Purpose.ROUND_TIE:
        # Only the players tied at the top of the round play the tie-break.
        tied = [s.round_scores[seat] for seat in c.seats]
        assert set(c.seats) <= set(s.round_seats) and len(c.seats) >= 2
        assert len(set(tied)) == 1 and tied[0] == max(sc for sc in s.round_scores if sc is not None)
    elif c.purpose is Purpose.FINAL_PLACES:
        assert len({s.totals[seat] for seat in c.seats}) == 1 and len(c.seats) > c.slots
    elif c.purpose is Purpose.MATCH_TIE:
        # A tie on totals, or on chips when the table went broke.
        assert (
            len({s.totals[seat] for seat in c.seats}) == 1
            or len({s.chips[seat] for seat in c.seats}) == 1
        )


def check_round_result(r: RoundResult, rules: Rules, *, solo: bool) -> None:
    """A finished round names a winner with the top score and the right drinkers."""
    assert all((sc is None) == (seat not in r.seats) for seat, sc in enumerate(r.scores))
    posted = [sc for sc in r.scores if sc is not None]
    assert r.all_failed == (max(posted) == 0)
    top = [seat for seat in r.seats if r.scores[seat] == max(posted)]
    # A tie at the top left undecided (tie_break=round or no_winner): nobody wins, and the
    # tied drink nothing, as a winner would not.
    undecided = not r.all_failed and len(top) > 1 and r.winner is None
    if not solo:
        assert (r.winner is None) == (r.all_failed or undecided)
        if undecided:
            assert rules.tie_break in (TieBreak.ROUND, TieBreak.NO_WINNER)
    if r.winner is not None:
        assert r.winner in r.seats and r.scores[r.winner] == max(posted)
        assert r.sips[r.winner] == 0  # the winner never drinks
    spared = top if undecided else []
    assert all(r.sips[seat] == 0 for seat in spared)
    assert all(r.sips[seat] == 0 for seat in range(len(r.sips)) if seat not in r.seats)
    unit = {seat: 2 if rules.failed_double and r.scores[seat] == 0 else 1 for seat in r.seats}
    others = [seat for seat in r.seats if seat != r.winner and seat not in spared]
    if rules.drinking is Drinking.NONE:
        assert sum(r.sips) == 0
    elif rules.drinking is Drinking.ALL_BUT_WINNER:
        assert all(r.sips[seat] == unit[seat] for seat in others)
    elif rules.drinking is Drinking.LAST_DRINKS and others:
        low = min(r.scores[seat] or 0 for seat in others)
        for seat in others:
            assert r.sips[seat] == (unit[seat] if r.scores[seat] == low else 0)
    elif r.winner is None:  # the captain hands out nothing without a winner
        assert sum(r.sips) == 0
    else:  # 1..6 sips handed out, each counted once or twice
        assert all(r.sips[seat] % unit[seat] == 0 for seat in others)
        least = 0 if rules.hand_out is HandOutAmount.UP_TO else 1  # 000.24: may stop early
        assert least <= sum(r.sips[seat] // unit[seat] for seat in others) <= 6


def check_final(s: MatchState, setup: MatchSetup) -> None:
    rules, n, fmt = setup.rules, setup.players, setup.rules.format
    assert s.is_over
    if n == 1:
        assert s.winner in (0, None)
        return
    assert s.winner is not None and 0 <= s.winner < n
    assert returns(s) == tuple(1.0 if p == s.winner else 0.0 for p in range(n))
    if rules.stakes is Stakes.POT:
        assert s.pot == 0  # whatever was left on the table went to the winner
        return  # a broke table may end the match early: the format checks below do not apply
    if fmt.kind == "single":
        assert len(s.results) >= 1 and s.results[-1].winner == s.winner
    elif fmt.kind == "rounds":
        # Rounds among tied players (tie_break=round) come on top of the N.
        assert len([r for r in s.results if not r.tie_round]) == fmt.n
        assert s.totals[s.winner] == max(s.totals)
    elif fmt.kind == "session":
        assert s.totals[s.winner] == max(s.totals)
    elif fmt.kind == "wins":
        assert s.wins[s.winner] == fmt.n == max(s.wins) and s.results[-1].winner == s.winner
    elif fmt.kind == "first_to":
        assert s.totals[s.winner] == max(s.totals) >= fmt.n
    else:
        assert s.winner in s.finalists and s.results[-1].winner == s.winner
        assert [r.stage for r in s.results][:2] == ["prelim", "prelim"]


@PROPERTY_SETTINGS
@given(setup=match_setups(), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_matches_terminate_with_a_consistent_winner(
    setup: MatchSetup, seed: int, data: st.DataObject
) -> None:
    """Random play of any rule set ends, keeping chips, sips and totals consistent."""
    rng = random.Random(seed)
    s = initial_state(setup.rules, setup.players, **setup.kwargs())
    prev: MatchState | None = None
    for _ in range(MAX_MATCH_STEPS):
        check_match(s, setup, prev)
        if s.is_over:
            break
        before = repr(s)
        if current_player(s) == CHANCE:
            action: Action = sample_chance(s, rng)
        else:
            action = rng.choice(legal_actions(s))
        prev, s = s, apply(s, action)
        assert repr(prev) == before  # apply never changes its input
    else:
        pytest.fail(f"match did not end within {MAX_MATCH_STEPS} steps: {setup}")
    hash(s)
    check_final(s, setup)


@settings(max_examples=40, deadline=None)
@given(setup=match_setups(), seed=st.integers(0, 2**32 - 1))
def test_every_legal_match_action_applies_and_replay_is_identical(
    setup: MatchSetup, seed: int
) -> None:
    rng = random.Random(seed)
    s = initial_state(setup.rules, setup.players, **setup.kwargs())
    history: list[Action] = []
    while not s.is_over and len(history) < MAX_MATCH_STEPS:
        if current_player(s) == CHANCE:
            action: Action = sample_chance(s, rng)
        else:
            for a in legal_actions(s):
                apply(s, a)
                assert parse_action(str(a)) == a
            action = rng.choice(legal_actions(s))
        history.append(action)
        s = apply(s, action)
    again = initial_state(setup.rules, setup.players, **setup.kwargs())
    for a in history:
        again = apply(again, a)
    assert again == s and hash(again) == hash(s)


# -- many random turns --------------------------------------------------------------------------

TURNS = 100_000
TURNS_PER_RULE_SET = 500


def test_one_hundred_thousand_random_turns_break_no_invariant() -> None:
    """At least 100,000 random turns per CI run, spread over random rule sets.

    Plain ``random.Random`` with fixed seeds keeps the run reproducible; a turn-level check
    runs after every step, and every roll's outcome list is checked once per dice count.
    """
    played = 0
    scores: dict[int, int] = {}
    checked_chance: set[tuple[Rules, int, int | None]] = set()
    for block in range(TURNS // TURNS_PER_RULE_SET):
        rng = random.Random(20261130 + block)
        rules = random_rules(rng)
        for _ in range(TURNS_PER_RULE_SET):
            t = initial_turn(rules)
            while t.phase is not TurnPhase.DONE:
                check_turn(t)
                if t.phase is TurnPhase.ROLL:
                    key = (rules, dice_to_roll(t), t.keep)
                    if key not in checked_chance:
                        checked_chance.add(key)
                        check_chance(t)
                    t = apply(t, sample_chance(t, rng))
                else:
                    t = apply(t, rng.choice(legal_actions(t)))
            check_turn(t)
            scores[t.score] = scores.get(t.score, 0) + 1
            played += 1
    assert played >= 100_000
    # Random play over 200 rule sets reaches failures and top scores alike.
    assert scores.get(0, 0) > 0 and max(scores) >= 12
    assert sum(scores.values()) == played


def test_sample_chance_rolls_the_dice_due() -> None:
    s = initial_state(Rules(), 3)
    assert s.phase is Phase.ROLL_OFF
    rng = random.Random(7)
    roll = sample_chance(s, rng)
    assert len(roll.faces) == 1 and 1 <= roll.faces[0] <= 6
    t = initial_turn(Rules())
    assert len(sample_chance(t, rng).faces) == 5
    assert len(sample_chance(initial_turn(Rules(dice=6)), rng).faces) == 6
