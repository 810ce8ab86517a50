"""The round and match rules: the round, stakes and match formats.

Each test cites its sheet sentence by number (000 German, 001 Norwegian, 002 English, 003 English
translation of 000; ``docs/rules.md``), and the engine's own decisions where the sheets are
silent.  Matches are driven with scripted :class:`Roll` outcomes, never randomness: a turn
"scoring 8" is the roll ``6 5 4 2 6`` followed by standing, a failed turn is three rolls without
a 6.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from shipcaptaincrew.actions import HandOut, RerollCargo, Roll, Stand
from shipcaptaincrew.dice import InvalidDiceError
from shipcaptaincrew.engine import (
    CHANCE,
    TERMINAL,
    IllegalActionError,
    InvalidSetupError,
    apply,
    chance_outcomes,
    current_player,
    dice_to_roll,
    initial_state,
    legal_actions,
    opening_chips,
    returns,
    seat_to_act,
)
from shipcaptaincrew.rules import Rules
from shipcaptaincrew.state import MatchState, Method, Phase, Purpose, TurnPhase

CHOSEN = Rules().replace(starter="chosen")


def turn(s: MatchState, score: int) -> MatchState:
    """Play the current seat's whole turn so that it scores ``score`` (0 = no full crew)."""
    assert s.phase is Phase.TURN and s.turn is not None and s.turn.rolls_used == 0
    if score == 0:
        for _ in range(3):
            s = apply(s, Roll((1, 1, 2, 2, 3)))
        return s
    low = max(1, score - 6)
    s = apply(s, Roll((6, 5, 4, low, score - low)))
    if s.turn is not None and s.turn.phase is TurnPhase.DECIDE:
        s = apply(s, Stand())
    return s


def play_round(s: MatchState, scores: dict[int, int] | list[int]) -> MatchState:
    """Every seat of the current round plays one turn with the given score (one pass)."""
    assert s.contest is not None and s.contest.purpose is Purpose.ROUND
    assert not s.contest.scores
    for seat in s.contest.seats:
        assert seat_to_act(s) == seat
        s = turn(s, scores[seat])
    return s


def turns(s: MatchState, scores: dict[int, int]) -> MatchState:
    """Play a turn for each seat named, in whatever order the contest calls them."""
    for _ in range(len(scores)):
        seat = seat_to_act(s)
        assert seat is not None
        s = turn(s, scores[seat])
    return s


def die(s: MatchState, face: int) -> MatchState:
    assert dice_to_roll(s) == 1
    return apply(s, Roll((face,)))


def total_chips(s: MatchState) -> int:
    return sum(s.chips) + s.pot


# -- the table ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 9))
def test_two_to_eight_players_001(players: int) -> None:
    """001.1: two to eight players; seated in order, everyone plays one turn."""
    s = initial_state(CHOSEN, players)
    assert s.round_seats == tuple(range(players))
    s = play_round(s, [2 + seat for seat in range(players)])
    assert s.is_over and s.winner == players - 1
    assert s.results[0].scores == tuple(2 + seat for seat in range(players))
    assert returns(s) == tuple(1.0 if p == players - 1 else 0.0 for p in range(players))


@pytest.mark.parametrize(
    ("players", "kwargs", "message"),
    [
        (0, {}, "players must be 1 .solo practice. or 2..8 .001.1., got 0"),
        (9, {}, "got 9"),
        (True, {}, "got True"),
        (1, {}, "solo practice needs a target score"),
        (1, {"target": 13}, "target must be 2..12, got 13"),
        (1, {"target": 1}, "target must be 2..12, got 1"),
        (2, {"target": 8}, "a target score is only for solo practice"),
        (2, {"starter": 2}, "starter must be a seat 0..1, got 2"),
        (2, {"starter": -1}, "starter must be a seat 0..1, got -1"),
    ],
)
def test_bad_set_ups_are_refused(players: int, kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(InvalidSetupError, match=message):
        initial_state(CHOSEN, players, **kwargs)


def test_set_up_refusals_that_depend_on_the_rules() -> None:
    with pytest.raises(InvalidSetupError, match="decided by the roll-off; set starter=chosen"):
        initial_state(Rules(), 3, starter=1)
    with pytest.raises(InvalidSetupError, match=r"tournament .002.29. needs at least 3 players"):
        initial_state(Rules().replace(format="tournament"), 2)
    with pytest.raises(InvalidSetupError, match="solo practice is for points"):
        initial_state(Rules().replace(stakes="pot"), 1, target=8)
    with pytest.raises(InvalidSetupError, match="solo practice plays format single or rounds:N"):
        initial_state(Rules().replace(format="first_to:20"), 1, target=8)


def test_solo_practice_against_a_target() -> None:
    """Solo practice (an engine decision): one player wins by reaching a target score."""
    s = initial_state(Rules(), 1, target=8)
    assert seat_to_act(s) == 0 and current_player(s) == CHANCE
    won = turn(s, 9)
    assert won.is_over and won.winner == 0 and returns(won) == (1.0,)
    lost = turn(s, 7)
    assert lost.is_over and lost.winner is None and returns(lost) == (0.0,)
    assert turn(s, 8).winner == 0  # reaching the target is enough


def test_solo_practice_rounds_needs_a_majority_of_rounds() -> None:
    s = initial_state(Rules().replace(format="rounds:3"), 1, target=8)
    s = turn(turn(turn(s, 9), 2), 10)
    assert s.is_over and s.winner == 0 and s.wins == (2,)
    s = initial_state(Rules().replace(format="rounds:3"), 1, target=8)
    s = turn(turn(turn(s, 9), 2), 0)
    assert s.is_over and s.winner is None


# -- who starts ---------------------------------------------------------------------------------


def test_rolloff_highest_single_die_starts_ties_roll_again_002_000() -> None:
    """002.7, 000.6: everyone rolls one die, the highest starts, the tied roll again."""
    s = initial_state(Rules(), 3)
    assert s.phase is Phase.ROLL_OFF and current_player(s) == CHANCE
    assert s.contest is not None and s.contest.purpose is Purpose.STARTER
    assert s.contest.method is Method.DIE
    assert dice_to_roll(s) == 1 and legal_actions(s) == ()
    outcomes = chance_outcomes(s)
    assert [r.faces for r, _ in outcomes] == [(f,) for f in range(1, 7)]
    assert all(p == Fraction(1, 6) for _, p in outcomes)
    assert seat_to_act(s) == 0
    s = die(die(die(s, 4), 6), 6)  # seats 1 and 2 tie on 6
    assert s.phase is Phase.ROLL_OFF and s.contest is not None
    assert s.contest.seats == (1, 2) and s.contest.depth == 1
    assert seat_to_act(s) == 1
    s = die(die(s, 5), 5)  # tied again
    assert s.contest is not None and s.contest.seats == (1, 2) and s.contest.depth == 2
    s = die(die(s, 2), 3)
    assert s.phase is Phase.TURN and s.starter == 2 and s.round_no == 1
    assert s.round_seats == (2, 0, 1) and seat_to_act(s) == 2


def test_rolloff_refuses_bad_dice() -> None:
    s = initial_state(Rules(), 3)
    with pytest.raises(InvalidDiceError, match="this roll needs 1 die, got 2"):
        apply(s, Roll((6, 6)))
    with pytest.raises(IllegalActionError, match="roll_off needs dice"):
        apply(s, Stand())


def test_chosen_starter_002_youngest() -> None:
    """002.7 (the youngest starts): the table names the starter; play then goes round in
    order."""
    s = initial_state(CHOSEN, 4, starter=2)
    assert s.starter == 2 and s.round_seats == (2, 3, 0, 1) and seat_to_act(s) == 2
    assert initial_state(CHOSEN, 4).starter == 0


def test_later_players_see_the_scores_posted_before_them() -> None:
    """002.43: a player deciding on a reroll can see the scores posted before them."""
    s = initial_state(CHOSEN, 3, starter=1)
    s = turn(s, 9)
    assert s.posted_scores == {1: 9} and s.players_after == 1 and seat_to_act(s) == 2
    s = turn(s, 4)
    assert s.posted_scores == {1: 9, 2: 4} and s.players_after == 0 and seat_to_act(s) == 0


@pytest.mark.parametrize(
    ("rotation", "starters", "orders"),
    [
        # 000.17/003.17: the previous starter's right-hand neighbour starts the next round;
        # seats run in play order (the cup passes left), so seat i's right neighbour is i - 1.
        ("previous", [1, 0, 3], [(1, 2, 3, 0), (0, 1, 2, 3), (3, 0, 1, 2)]),
        ("right", [1, 0, 3], [(1, 2, 3, 0), (0, 1, 2, 3), (3, 0, 1, 2)]),  # an alias
        ("next", [1, 2, 3], [(1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)]),
        ("left", [1, 2, 3], [(1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)]),  # an alias
        ("none", [1, 1, 1], [(1, 2, 3, 0)] * 3),
    ],
)
def test_rotation_of_the_starter_000_003(
    rotation: str, starters: list[int], orders: list[tuple[int, ...]]
) -> None:
    s = initial_state(CHOSEN.replace(rotation=rotation, format="rounds:3"), 4, starter=1)
    for i in range(3):
        assert s.round_no == i + 1 and s.starter == starters[i] and s.round_seats == orders[i]
        s = play_round(s, [5, 6, 7, 8])
    assert s.is_over and [r.starter for r in s.results] == starters


# -- ties for the round -----------------------------------------------------------------------


def test_tie_break_replay_only_the_tied_play_new_turns_while_tied_000_001() -> None:
    """000.15, 001.17: only the tied players play again, as often as they stay tied."""
    s = initial_state(CHOSEN, 4, starter=1)
    s = play_round(s, {1: 8, 2: 3, 3: 0, 0: 8})
    c = s.contest
    assert c is not None and c.purpose is Purpose.ROUND_TIE and c.method is Method.TURN
    assert c.seats == (1, 0)  # the tied, in play order from the starter
    assert s.phase is Phase.TURN and seat_to_act(s) == 1 and s.round_tie_breaks == 1
    s = turn(turn(s, 6), 6)  # tied again: again
    assert s.contest is not None and s.contest.seats == (1, 0) and s.contest.depth == 1
    assert s.round_tie_breaks == 2
    s = turn(turn(s, 2), 11)
    assert s.is_over and s.winner == 0
    r = s.results[0]
    assert r.winner == 0 and r.tie_breaks == 2
    # The round's scores and totals are those of the round, not of the tie-break turns.
    assert r.scores == (8, 8, 3, 0) and s.totals == (8, 8, 3, 0)


def test_tie_break_cargo_rolloff_tied_roll_two_dice_repeat_while_tied_002() -> None:
    """002.21: the tied players roll two cargo dice each, again while the sums are equal."""
    s = initial_state(CHOSEN.replace(tie_break="cargo_rolloff"), 3, starter=0)
    s = play_round(s, [10, 4, 10])
    c = s.contest
    assert c is not None and c.purpose is Purpose.ROUND_TIE and c.method is Method.CARGO
    assert s.phase is Phase.CARGO_ROLL_OFF and c.seats == (0, 2)
    assert current_player(s) == CHANCE and seat_to_act(s) == 0 and dice_to_roll(s) == 2
    outcomes = chance_outcomes(s)
    assert len(outcomes) == 21 and sum(p for _, p in outcomes) == 1
    s = apply(apply(s, Roll((3, 3))), Roll((2, 4)))  # 6 and 6: tied again
    assert s.phase is Phase.CARGO_ROLL_OFF and s.contest is not None
    assert s.contest.depth == 1 and s.round_tie_breaks == 2
    s = apply(apply(s, Roll((1, 1))), Roll((6, 5)))
    assert s.is_over and s.winner == 2 and s.results[0].scores == (10, 4, 10)


def test_a_single_top_score_needs_no_tie_break() -> None:
    s = play_round(initial_state(CHOSEN, 3), [9, 9, 10])
    assert s.is_over and s.winner == 2 and s.results[0].tie_breaks == 0


# -- everyone fails -----------------------------------------------------------------------------


def test_all_fail_replay_plays_the_round_again_without_a_new_ante_002() -> None:
    """002.20: nobody with 0 can win, so a round where all fail is played again
    (all_fail=replay)."""
    rules = CHOSEN.replace(stakes="pot", ante=2, starting_chips=10)
    s = initial_state(rules, 3)
    assert s.chips == (8, 8, 8) and s.pot == 6
    s = play_round(s, [0, 0, 0])
    assert s.round_no == 1 and s.replays == 1 and s.phase is Phase.TURN
    assert s.round_scores == (None, None, None) and s.pot == 6 and s.chips == (8, 8, 8)
    assert seat_to_act(s) == 0
    s = play_round(s, [0, 7, 0])
    assert s.is_over and s.winner == 1 and s.chips == (8, 14, 8) and s.pot == 0
    assert len(s.results) == 1 and not s.results[0].all_failed


def test_all_fail_carry_pot_leaves_the_pot_for_the_next_round_002() -> None:
    """all_fail=carry_pot: nobody wins, the pot stays; a single-round match plays on until a
    round has a winner (the engine's decision where 002 is silent)."""
    rules = CHOSEN.replace(stakes="pot", all_fail="carry_pot")
    s = initial_state(rules, 3)
    s = play_round(s, [0, 0, 0])
    assert not s.is_over and s.round_no == 2 and s.results[0].all_failed
    assert s.results[0].winner is None and s.results[0].pot_won == 0
    assert s.pot == 6 and s.chips == (8, 8, 8)  # carried 3, and everyone antes again
    s = play_round(s, [4, 0, 0])
    assert s.is_over and s.winner == 0 and s.chips == (14, 8, 8) and s.pot == 0
    assert s.results[1].pot_won == 6


def test_all_fail_carry_pot_for_points_plays_another_round() -> None:
    s = initial_state(CHOSEN.replace(all_fail="carry_pot"), 2)
    s = play_round(s, [0, 0])
    assert not s.is_over and s.round_no == 2


# -- the pot ----------------------------------------------------------------------------------


def test_pot_everyone_antes_winner_takes_the_pot_001_002() -> None:
    """001.16, 002.6, 002.22: everyone antes before the round and the round's winner collects
    the pot."""
    rules = CHOSEN.replace(stakes="pot", ante=2, starting_chips=5, format="rounds:3")
    s = initial_state(rules, 3)
    assert s.chips == (3, 3, 3) and s.pot == 6 and total_chips(s) == 15
    assert opening_chips(rules, 3) == (5, 5, 5)  # the stacks, not the chips left after the ante
    assert opening_chips(CHOSEN, 3) == (0, 0, 0)  # no stakes, no chips
    s = play_round(s, [9, 5, 2])  # seat 0 takes 6: (9, 3, 3), then round 2's ante
    assert s.results[0].pot_won == 6 and s.round_no == 2
    assert s.chips == (7, 1, 1) and s.pot == 6 and total_chips(s) == 15
    s = play_round(s, [9, 5, 2])  # (13, 1, 1): only seat 0 can ante round 3
    assert s.is_over and s.winner == 0 and s.round_no == 2
    assert s.chips == (13, 1, 1) and s.pot == 0 and total_chips(s) == 15


def test_a_player_who_cannot_ante_sits_out_001() -> None:
    """An engine decision under 001.16: a player who cannot ante sits the round out."""
    rules = CHOSEN.replace(stakes="pot", ante=2, starting_chips=6, format="rounds:4")
    s = initial_state(rules, 3)  # (4, 4, 4), pot 6
    s = play_round(s, [9, 5, 2])  # (10, 4, 4), round 2 antes: (8, 2, 2)
    s = play_round(s, [5, 9, 2])  # (8, 8, 2), round 3 antes: (6, 6, 0)
    assert s.round_seats == (2, 0, 1) and s.chips == (6, 6, 0) and s.pot == 6
    s = play_round(s, [5, 9, 2])  # (6, 12, 0): seat 2 cannot ante round 4
    assert s.round_no == 4 and s.starter == 0
    assert s.round_seats == (0, 1) and s.chips == (4, 10, 0) and s.pot == 4
    s = play_round(s, {0: 3, 1: 7})
    assert s.results[3].seats == (0, 1) and s.results[3].scores == (3, 7, None)
    assert s.is_over and s.chips == (4, 14, 0) and total_chips(s) == 18
    assert s.totals == (22, 30, 6) and s.winner == 1


def test_the_broke_table_ends_the_match_with_the_last_player_who_can_ante() -> None:
    rules = CHOSEN.replace(stakes="pot", ante=2, starting_chips=5, format="rounds:5")
    s = initial_state(rules, 2)
    s = play_round(s, [9, 2])  # (3 + 4, 3) = (7, 3), round 2 antes: (5, 1)
    s = play_round(s, [9, 2])  # (5 + 4, 1) = (9, 1): seat 1 cannot ante round 3
    assert s.is_over and s.winner == 0 and s.round_no == 2
    assert s.chips == (9, 1) and s.pot == 0 and total_chips(s) == 10


def test_a_table_where_nobody_can_ante_is_decided_by_chips_then_tie_break() -> None:
    """Everyone broke after a carried pot: the richest win; tied richest play the tie-break,
    and the winner takes what is left on the table."""
    rules = CHOSEN.replace(
        stakes="pot", ante=2, starting_chips=2, all_fail="carry_pot", format="rounds:5"
    )
    s = initial_state(rules, 3)
    s = play_round(s, [0, 0, 0])  # pot 6, chips (0, 0, 0): nobody can ante round 2
    c = s.contest
    assert c is not None and c.purpose is Purpose.MATCH_TIE and set(c.seats) == {0, 1, 2}
    assert s.pot == 6
    s = turns(s, {0: 3, 1: 9, 2: 5})
    assert s.is_over and s.winner == 1 and s.chips == (0, 6, 0) and s.pot == 0


# -- drinking -----------------------------------------------------------------------------------


def test_all_but_the_winner_sip_000() -> None:
    """000.16: everyone but the winner drinks one sip."""
    s = initial_state(CHOSEN.replace(drinking="all_but_winner"), 3)
    s = play_round(s, [8, 5, 0])
    assert s.sips == (0, 1, 1) and s.results[0].sips == (0, 1, 1)


def test_a_failed_ship_drinks_double_002() -> None:
    """002.24: a player without a full crew drinks two sips instead of one."""
    s = initial_state(CHOSEN.replace(drinking="all_but_winner", failed_double=True), 3)
    s = play_round(s, [8, 5, 0])
    assert s.sips == (0, 1, 2)


def test_only_the_last_drinks_all_tied_lowest_drink_000_002() -> None:
    """000.23, 002.24: only the lowest score drinks, and all who tie for it."""
    rules = CHOSEN.replace(drinking="last_drinks")
    assert play_round(initial_state(rules, 4), [8, 5, 3, 6]).sips == (0, 0, 1, 0)
    assert play_round(initial_state(rules, 4), [8, 5, 5, 6]).sips == (0, 1, 1, 0)
    s = play_round(initial_state(rules.replace(failed_double=True), 3), [8, 0, 0])
    assert s.sips == (0, 2, 2)


def test_only_the_last_drinks_the_winner_never_drinks_000() -> None:
    """Two players tied on 8: the tie-break winner does not drink even though 8 is lowest."""
    s = initial_state(CHOSEN.replace(drinking="last_drinks"), 2)
    s = play_round(s, [8, 8])
    s = turns(s, {0: 4, 1: 9})
    assert s.winner == 1 and s.sips == (1, 0)


def test_when_all_fail_and_the_pot_carries_everyone_drinks() -> None:
    for drinking in ("all_but_winner", "last_drinks"):
        rules = CHOSEN.replace(drinking=drinking, all_fail="carry_pot")
        s = play_round(initial_state(rules, 3), [0, 0, 0])
        assert s.results[0].winner is None and s.results[0].sips == (1, 1, 1)


def test_captain_hands_out_sips_000_003() -> None:
    """000.24/003.24: the winner's die (here a 3) sets how many sips they give the other
    players, one at a time."""
    s = initial_state(CHOSEN.replace(drinking="captain_hands_out"), 3)
    s = play_round(s, [4, 10, 7])
    assert s.phase is Phase.HAND_OUT_ROLL and s.round_winner == 1
    assert current_player(s) == CHANCE and seat_to_act(s) == 1 and dice_to_roll(s) == 1
    assert sum(p for _, p in chance_outcomes(s)) == 1 and len(chance_outcomes(s)) == 6
    s = die(s, 3)
    assert s.phase is Phase.HAND_OUT and s.hand_out_left == 3
    assert current_player(s) == 1 and seat_to_act(s) == 1
    assert legal_actions(s) == (HandOut(0), HandOut(2))  # the others, in play order
    assert chance_outcomes(s) == ()
    with pytest.raises(IllegalActionError, match="seat 1 cannot take a sip"):
        apply(s, HandOut(1))  # not to themselves
    with pytest.raises(IllegalActionError, match="seat 5 cannot take a sip"):
        apply(s, HandOut(5))
    with pytest.raises(IllegalActionError, match="the winner hands out sips"):
        apply(s, Stand())
    with pytest.raises(IllegalActionError, match="the winner hands out sips"):
        apply(s, Roll((3,)))
    s = apply(s, HandOut(0))
    assert s.hand_out_left == 2 and not s.is_over
    s = apply(apply(s, HandOut(0)), HandOut(2))
    assert s.is_over and s.sips == (2, 0, 1) and s.results[0].sips == (2, 0, 1)
    assert current_player(s) == TERMINAL


def test_captain_hands_out_double_to_a_failed_ship_002() -> None:
    s = initial_state(CHOSEN.replace(drinking="captain_hands_out", failed_double=True), 2)
    s = die(play_round(s, [6, 0]), 2)
    s = apply(apply(s, HandOut(1)), HandOut(1))
    assert s.sips == (0, 4)


def test_captain_hands_out_nothing_without_a_winner() -> None:
    rules = CHOSEN.replace(drinking="captain_hands_out", all_fail="carry_pot")
    s = play_round(initial_state(rules, 2), [0, 0])
    assert s.phase is Phase.TURN and s.round_no == 2 and s.sips == (0, 0)


def test_drinking_combines_with_the_pot_002() -> None:
    """002.23: drinks can come on top of the pot."""
    rules = CHOSEN.replace(drinking="all_but_winner", stakes="pot")
    s = play_round(initial_state(rules, 2), [3, 9])
    assert s.sips == (1, 0) and s.chips == (9, 11)


# -- match formats ------------------------------------------------------------------------------


def test_single_round_ends_with_the_round() -> None:
    """003.7: one turn each, and the match of a single round ends with it."""
    s = play_round(initial_state(CHOSEN, 2), [5, 3])
    assert s.is_over and s.winner == 0 and len(s.results) == 1
    with pytest.raises(IllegalActionError, match="the match is over"):
        apply(s, Roll((1, 1, 1, 1, 1)))
    assert legal_actions(s) == () and chance_outcomes(s) == () and seat_to_act(s) is None


def test_rounds_cumulative_totals_decide_002() -> None:
    """002.25-002.28: a fixed number of rounds, the highest total wins, and everyone antes in
    every round."""
    rules = CHOSEN.replace(format="rounds:3", rotation="none", stakes="pot")
    s = initial_state(rules, 3)
    s = play_round(s, [12, 2, 11])
    s = play_round(s, [0, 10, 11])
    assert s.totals == (12, 12, 22) and s.round_no == 3 and not s.is_over
    # (12, 9, 9) after round 1, antes (11, 8, 8); (11, 8, 11) after round 2, antes again.
    assert s.chips == (10, 7, 10) and s.pot == 3
    s = play_round(s, [12, 12, 0])  # seat 0 and 1 tie for the round
    s = turns(s, {0: 2, 1: 3})
    assert s.totals == (24, 24, 22) and s.wins == (1, 1, 1)
    c = s.contest
    assert c is not None and c.purpose is Purpose.MATCH_TIE and c.seats == (0, 1)
    s = turns(s, {0: 7, 1: 5})  # the rule set's tie-break (replay) decides the match
    assert s.is_over and s.winner == 0 and total_chips(s) == 30


def test_rounds_highest_total_wins_without_a_tie() -> None:
    s = initial_state(CHOSEN.replace(format="rounds:2"), 2)
    s = play_round(play_round(s, [12, 11]), [2, 12])
    assert s.totals == (14, 23) and s.winner == 1 and [r.winner for r in s.results] == [0, 1]


def test_first_to_several_pass_in_the_same_round_highest_total_wins_001() -> None:
    """001.18: a match to an agreed score; when several pass it in one round the highest total
    wins (an engine decision)."""
    s = initial_state(CHOSEN.replace(format="first_to:20", rotation="none"), 3)
    s = play_round(s, [12, 10, 3])
    assert not s.is_over and s.totals == (12, 10, 3)
    s = play_round(s, [9, 12, 11])  # seat 1 wins the round; seat 0 and 1 pass 20
    assert s.is_over and s.totals == (21, 22, 14) and s.winner == 1
    assert s.results[1].winner == 1


def test_first_to_tied_totals_go_to_the_tie_break_002() -> None:
    rules = CHOSEN.replace(format="first_to:10", tie_break="cargo_rolloff")
    s = play_round(initial_state(rules, 3), [11, 11, 2])
    s = apply(apply(s, Roll((6, 6))), Roll((1, 2)))  # the round's tie (11 v 11)
    assert s.results[0].winner == 0
    c = s.contest
    assert c is not None and c.purpose is Purpose.MATCH_TIE and c.method is Method.CARGO
    assert s.phase is Phase.CARGO_ROLL_OFF
    s = apply(apply(s, Roll((1, 2))), Roll((5, 5)))
    assert s.is_over and s.winner == 1


def test_tournament_two_prelims_top_two_final_winner_takes_all_002() -> None:
    """002.29-002.30: after two qualifying rounds the top two totals play a final, and its
    winner collects the whole pot."""
    rules = CHOSEN.replace(format="tournament", stakes="pot", rotation="none")
    s = initial_state(rules, 6)
    assert s.stage == "prelim"
    s = play_round(s, [12, 3, 9, 0, 5, 7])
    assert s.results[0].winner == 0 and s.results[0].pot_won == 0  # no pay-out yet
    assert s.pot == 12 and s.chips == (8,) * 6  # the pot grows with round 2's antes
    s = play_round(s, [2, 3, 9, 11, 5, 6])
    assert s.totals == (14, 6, 18, 11, 10, 13)
    assert s.finalists == (0, 2) and s.round_seats == (0, 2) and s.stage == "final"
    assert s.pot == 14 and s.chips == (7, 8, 7, 8, 8, 8)
    s = play_round(s, {0: 4, 2: 8})
    assert s.is_over and s.winner == 2 and s.chips == (7, 8, 21, 8, 8, 8) and s.pot == 0
    assert [r.stage for r in s.results] == ["prelim", "prelim", "final"]
    assert [r.pot_won for r in s.results] == [0, 0, 0]


def test_tournament_tie_for_a_final_place_uses_the_tie_break_002() -> None:
    rules = CHOSEN.replace(format="tournament", tie_break="cargo_rolloff", rotation="none")
    s = initial_state(rules, 4)
    s = play_round(play_round(s, [12, 5, 5, 2]), [12, 7, 7, 3])  # totals 24, 12, 12, 5
    c = s.contest
    assert c is not None and c.purpose is Purpose.FINAL_PLACES and c.seats == (1, 2)
    assert c.selected == (0,) and s.phase is Phase.CARGO_ROLL_OFF
    s = apply(apply(s, Roll((2, 2))), Roll((6, 1)))
    assert s.finalists == (0, 2) and s.round_seats == (0, 2)
    s = play_round(s, {0: 0, 2: 2})
    assert s.is_over and s.winner == 2


def test_tournament_final_tie_is_broken_like_any_round() -> None:
    s = initial_state(CHOSEN.replace(format="tournament"), 3)
    s = play_round(play_round(s, [10, 9, 2]), [10, 9, 2])
    s = play_round(s, {0: 7, 1: 7})
    assert s.contest is not None and s.contest.purpose is Purpose.ROUND_TIE
    s = turns(s, {0: 3, 1: 4})
    assert s.is_over and s.winner == 1


def test_tournament_broke_final_is_decided_between_the_finalists() -> None:
    rules = CHOSEN.replace(format="tournament", stakes="pot", starting_chips=2, ante=1)
    s = initial_state(rules, 4)
    s = play_round(play_round(s, [10, 5, 3, 2]), [10, 5, 3, 2])
    assert set(s.finalists) == {0, 1}
    # Nobody can ante the final: the match must still go to one of the two finalists.
    assert s.contest is None or set(s.contest.seats) <= {0, 1}


def test_the_cargo_reroll_decision_happens_inside_a_match() -> None:
    """Sanity: match play exposes the turn's decisions (stand / reroll) at the player's seat."""
    s = initial_state(CHOSEN, 2, starter=1)
    s = apply(s, Roll((6, 5, 4, 1, 1)))
    assert current_player(s) == 1 and legal_actions(s) == (Stand(), RerollCargo())
    s = apply(apply(s, RerollCargo()), Roll((6, 6)))
    s = apply(s, Stand())
    assert s.posted_scores == {1: 12} and seat_to_act(s) == 0


def test_nobody_antes_again_for_a_tie_break() -> None:
    """Engine decision (docs/rules.md): a tie-break belongs to its round; the pot is unchanged."""
    rules = CHOSEN.replace(stakes="pot", tie_break="cargo_rolloff")
    s = play_round(initial_state(rules, 3), [9, 9, 4])
    assert s.phase is Phase.CARGO_ROLL_OFF and s.pot == 3 and s.chips == (9, 9, 9)
    s = apply(apply(s, Roll((2, 2))), Roll((3, 3)))
    assert s.is_over and s.winner == 1 and s.chips == (9, 12, 9) and s.pot == 0


def test_a_carried_round_counts_as_one_of_n_rounds() -> None:
    """Engine decision: under rounds:N an all-fail round with carry_pot is still a round."""
    rules = CHOSEN.replace(stakes="pot", all_fail="carry_pot", format="rounds:2")
    s = play_round(initial_state(rules, 2), [0, 0])
    assert s.round_no == 2 and s.pot == 4
    s = play_round(s, [3, 5])
    assert s.is_over and len(s.results) == 2 and s.winner == 1 and s.chips == (8, 12)


def test_all_fail_replay_has_no_drinks_for_the_void_round() -> None:
    s = play_round(initial_state(CHOSEN.replace(drinking="all_but_winner"), 2), [0, 0])
    assert s.sips == (0, 0) and s.replays == 1 and s.results == ()
    s = play_round(s, [0, 4])
    assert s.sips == (1, 0) and s.results[0].sips == (1, 0)


def test_tournament_final_starts_after_the_usual_rotation_with_or_without_a_place_tie() -> None:
    """The final's starter rotates like any round, whether or not a tie for a final place had to
    be played first (regression: the tie-break path once skipped the rotation)."""
    rules = CHOSEN.replace(format="tournament", rotation="left")
    plain = play_round(play_round(initial_state(rules, 4), [10, 5, 3, 2]), [9, 5, 3, 2])
    tied = play_round(play_round(initial_state(rules, 4), [10, 5, 5, 2]), [9, 5, 5, 2])
    assert tied.contest is not None and tied.contest.purpose is Purpose.FINAL_PLACES
    tied = turns(tied, {1: 9, 2: 3})
    assert plain.starter == tied.starter == 2  # rounds 1 and 2 started at seats 0 and 1
    assert set(plain.finalists) == set(tied.finalists) == {0, 1}
    assert plain.round_seats == tied.round_seats == (0, 1)  # first finalist after seat 2
