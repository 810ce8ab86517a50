"""Every reading of the sheets the engine offers as an option, played out move by move.

Where a sentence can fairly be read two ways (``docs/rules.md``, "Sentences with two
readings"), each reading is a choice of an option; so is each custom from the wider world that
the sheets do not mention.  Every test cites its sheet sentence by number (or says "not in the
sheets").  Matches are driven with scripted rolls, as in ``tests/test_match.py``.
"""

from __future__ import annotations

import pytest

from shipcaptaincrew.actions import (
    HandOut,
    HandOutSplit,
    NextRound,
    Roll,
    Stand,
    StopHandOut,
    StopMatch,
    parse_action,
)
from shipcaptaincrew.engine import (
    IllegalActionError,
    apply,
    chance_outcomes,
    current_player,
    initial_state,
    legal_actions,
    rotation_step,
    seat_to_act,
)
from shipcaptaincrew.errors import InvalidRulesError
from shipcaptaincrew.rules import PotTo, Rotation, Rules, TieBreak, find_rules
from shipcaptaincrew.state import MatchState, Phase, Purpose
from tests.test_match import die, play_round, total_chips, turns

CHOSEN = Rules().replace(starter="chosen")


def hand_out_phase(rules: Rules, scores: list[int], face: int) -> MatchState:
    """A round played to the captain's hand-out, the captain's die showing ``face``."""
    s = play_round(initial_state(rules, len(scores)), scores)
    return die(s, face)


# -- 001.17: tie-break turns or a real round (tie_break=round) ---------------------------------


def test_tie_round_is_a_real_round_among_the_tied_001_17() -> None:
    """001.17 read as a real round: the tied ante again, their scores count, drinks apply, and
    it is a round of its own in the results that does not use up one of the N rounds."""
    rules = CHOSEN.replace(
        tie_break="round", stakes="pot", drinking="all_but_winner", format="rounds:2"
    )
    s = initial_state(rules, 3)
    s = play_round(s, [8, 8, 3])
    first = s.results[0]
    assert first.winner is None and not first.all_failed and not first.tie_round
    assert first.sips == (0, 0, 1)  # the tied are not beaten: only seat 2 drinks
    assert first.pot_won == 0 and s.round_seats == (0, 1) and s.tie_round
    assert s.chips == (8, 8, 9) and s.pot == 5  # the tied ante again on top of the pot
    assert s.contest is not None and s.contest.purpose is Purpose.ROUND
    s = play_round(s, {0: 4, 1: 9})
    tie = s.results[1]
    assert tie.tie_round and tie.winner == 1 and tie.pot_won == 5 and tie.seats == (0, 1)
    assert tie.scores == (4, 9, None) and tie.sips == (1, 0, 0)
    assert s.totals == (12, 17, 3) and s.round_no == 3 and not s.is_over
    s = play_round(s, [2, 2, 12])  # round 2 of 2 (the tie round came on top)
    assert s.is_over and s.winner == 1 and len(s.results) == 3


def test_tie_round_tied_again_plays_another_round_001_17() -> None:
    """001.17: the tied keep playing rounds among themselves until one wins; a single-round
    match goes on until then."""
    s = initial_state(CHOSEN.replace(tie_break="round"), 3)
    s = play_round(s, [8, 8, 8])
    assert s.round_seats == (0, 1, 2) and s.tie_round
    s = play_round(s, [5, 9, 9])
    assert s.round_seats == (1, 2) and not s.is_over
    s = play_round(s, {1: 3, 2: 4})
    assert s.is_over and s.winner == 2
    assert [r.tie_round for r in s.results] == [False, True, True]
    assert s.totals == (13, 20, 21)


def test_tie_round_needs_two_of_the_tied_who_can_ante_001_17() -> None:
    """001.16/001.17: a tie round is played only by the tied who can ante; with fewer than two
    of them, the tie stands and the pot rides on to the next round of everyone."""
    rules = CHOSEN.replace(tie_break="round", stakes="pot", starting_chips=2, format="rounds:3")
    s = initial_state(rules, 3)
    s = play_round(s, [3, 4, 9])  # seat 2 takes the pot: chips 1, 1, 4
    s = play_round(s, [8, 8, 3])  # seats 0 and 1 tie with no chip left to ante
    assert s.results[1].winner is None and not any(r.tie_round for r in s.results)
    # The tie stands; the next round of everyone has one player who can ante (001.16), so
    # the broke table ends the match and the pot that rode on goes to its winner.
    assert s.is_over and s.winner == 2 and s.chips == (0, 0, 6) and total_chips(s) == 6


def test_tie_round_in_the_tournament_final_is_played_by_the_finalists_001_17() -> None:
    rules = CHOSEN.replace(format="tournament", tie_break="round")
    s = play_round(play_round(initial_state(rules, 3), [10, 9, 2]), [10, 9, 2])
    s = play_round(s, {0: 7, 1: 7})
    assert s.tie_round and s.round_seats == (0, 1) and s.stage == "final"
    s = play_round(s, {0: 3, 1: 4})
    assert s.is_over and s.winner == 1


def test_match_ties_under_tie_round_use_tie_break_turns_001_17() -> None:
    """001.17 speaks of the round; a tie on totals is broken with tie-break turns."""
    s = initial_state(CHOSEN.replace(tie_break="round", format="rounds:2"), 2)
    s = play_round(play_round(s, [5, 9]), [9, 5])  # totals 14 and 14
    assert s.contest is not None and s.contest.purpose is Purpose.MATCH_TIE
    s = turns(s, {0: 9, 1: 2})
    assert s.is_over and s.winner == 0 and s.totals == (14, 14)


def test_a_tie_round_nobody_completes_is_replayed_001_17_002_20() -> None:
    """001.17 with 002.20: a tie round where everyone scores 0 follows all_fail like any round."""
    s = initial_state(CHOSEN.replace(tie_break="round"), 2)
    s = play_round(play_round(s, [6, 6]), [0, 0])
    assert s.round_no == 2 and s.tie_round and s.replays == 1
    s = play_round(s, [7, 7])  # tied once more: a second tie round
    assert s.round_no == 3 and s.tie_round
    s = play_round(s, [9, 2])
    assert s.is_over and s.winner == 0


# -- not in the sheets: one tie, all tie (tie_break=no_winner) ------------------------------------


def test_one_tie_all_tie_nobody_wins_and_the_pot_rides_on_not_in_the_sheets() -> None:
    """Not in the sheets: a tie at the top means nobody wins, the pot waits for the next
    round, and the tied drink nothing."""
    rules = CHOSEN.replace(tie_break="no_winner", stakes="pot", drinking="last_drinks")
    s = initial_state(rules, 3)
    s = play_round(s, [9, 4, 9])
    r = s.results[0]
    assert r.winner is None and not r.all_failed and r.tie_breaks == 0
    assert r.sips == (0, 1, 0) and s.pot == 6  # three antes carried, three new ones
    assert s.round_no == 2 and s.round_seats == (1, 2, 0) and not s.tie_round
    s = play_round(s, {1: 10, 2: 2, 0: 3})
    assert s.is_over and s.winner == 1 and s.chips == (8, 14, 8)


def test_one_tie_all_tie_counts_as_a_round_of_rounds_n_not_in_the_sheets() -> None:
    s = initial_state(CHOSEN.replace(tie_break="no_winner", format="rounds:2"), 2)
    s = play_round(play_round(s, [5, 5]), [3, 4])
    assert s.is_over and s.winner == 1 and len(s.results) == 2


# -- 000.17: next, previous, none, and (not in the sheets) the loser ----------------------------


def test_rotation_spellings_left_and_right_are_aliases_000_17() -> None:
    """000.17: the canonical spellings name play order; left/right stay accepted."""
    assert CHOSEN.replace(rotation="right").rotation is Rotation.PREVIOUS
    assert CHOSEN.replace(rotation="left").rotation is Rotation.NEXT
    assert str(Rules().replace(rotation="right")) == "classic(rotation=previous)"
    assert find_rules("schiff-kapitaen-crew").rotation is Rotation.PREVIOUS
    assert Rules.from_str("classic(rotation=left)") == Rules()


def test_the_loser_starts_the_next_round_not_in_the_sheets() -> None:
    """Not in the sheets: the lowest score starts the next round; of several tied for lowest,
    the one who played first in that round."""
    s = initial_state(CHOSEN.replace(rotation="loser", format="rounds:3"), 4, starter=1)
    s = play_round(s, [5, 6, 2, 7])  # play order 1, 2, 3, 0: seat 2 has the lowest
    assert s.starter == 2 and s.round_seats == (2, 3, 0, 1)
    s = play_round(s, [3, 9, 8, 3])  # 0 and 3 tied lowest; seat 3 played before seat 0
    assert s.starter == 3 and s.round_seats == (3, 0, 1, 2)
    s = play_round(s, [2, 3, 4, 5])
    assert s.is_over and [r.starter for r in s.results] == [1, 2, 3]
    with pytest.raises(InvalidRulesError, match="rotation=loser has no fixed step"):
        rotation_step(s.rules)


def test_a_loser_who_cannot_ante_passes_the_start_on_not_in_the_sheets() -> None:
    """Not in the sheets (rotation=loser) with 001.16: a broke loser sits the next round out,
    which opens with the next seat in play order that can ante."""
    rules = CHOSEN.replace(rotation="loser", stakes="pot", starting_chips=2, format="rounds:3")
    s = initial_state(rules, 3)
    s = play_round(s, [5, 3, 9])  # seat 2 wins 3 chips; chips 1, 1, 4
    s = play_round(s, [2, 4, 6])  # seat 1 lost round 1 and starts; seat 0 loses now
    assert s.chips == (0, 0, 6) and s.is_over  # nobody else can ante


def test_the_loser_of_a_tie_round_is_not_the_rounds_loser_not_in_the_sheets() -> None:
    """Not in the sheets with 001.17: the rotation looks at the round of everyone, not at the
    round among the tied that followed it."""
    rules = CHOSEN.replace(rotation="loser", tie_break="round", format="rounds:2")
    s = initial_state(rules, 3)
    s = play_round(s, [8, 8, 3])
    s = play_round(s, {0: 2, 1: 9})  # the tie round: seat 0 lowest there
    assert s.starter == 2 and s.round_seats == (2, 0, 1)


# -- 002.28: a pot per round, or one growing pot (pot_to=match) ---------------------------------


def test_pot_to_match_the_antes_build_up_and_the_match_winner_takes_them_002_28() -> None:
    """002.28 read as one pot: everyone antes each round, nobody is paid until the end, and
    the match winner (002.27: the highest total) takes it all."""
    rules = CHOSEN.replace(stakes="pot", pot_to="match", format="rounds:3")
    assert rules.pot_to is PotTo.MATCH
    s = initial_state(rules, 3)
    s = play_round(s, [9, 4, 2])
    assert s.results[0].pot_won == 0 and s.pot == 6 and s.chips == (8, 8, 8)
    s = play_round(play_round(s, [2, 12, 3]), [5, 3, 3])
    assert s.is_over and s.winner == 1 and s.match_pot_won == 9
    assert s.chips == (7, 16, 7) and s.pot == 0


def test_pot_to_needs_a_pot_002_28() -> None:
    with pytest.raises(InvalidRulesError, match="pot_to=match needs stakes=pot"):
        CHOSEN.replace(pot_to="match")


def test_first_to_under_a_pot_counts_points_never_chips_001_18() -> None:
    """001.2/001.18: the agreed score counts points; with chips the pot changes hands each
    round (pot_to=round) and the match still ends on points."""
    rules = find_rules("skip-kaptein-mannskap").replace(
        starter="chosen", stakes="pot", format="first_to:15"
    )
    s = initial_state(rules, 2)
    s = play_round(s, [9, 3])
    assert s.chips == (10, 8) and s.pot == 2 and not s.is_over  # round 2's antes are in
    s = play_round(s, [6, 12])  # totals 15 and 15: the tie-break decides
    assert s.contest is not None and s.contest.purpose is Purpose.MATCH_TIE
    assert s.chips == (10, 10)  # 12 is the bigger score: seat 1 took round 2's pot
    s = turns(s, {0: 4, 1: 5})
    assert s.is_over and s.winner == 1 and s.chips == (10, 10)


# -- 000.24: exactly or up to the die's sips (hand_out), and splits ------------------------------


def test_up_to_the_captain_may_stop_early_000_24() -> None:
    """000.24 read with its "may": the die is the most the captain hands out."""
    rules = CHOSEN.replace(drinking="captain_hands_out", hand_out="up_to")
    s = hand_out_phase(rules, [4, 10, 7], 5)
    assert legal_actions(s) == (HandOut(0), HandOut(2), StopHandOut())
    s = apply(s, HandOut(2))
    s = apply(s, StopHandOut())
    assert s.is_over and s.sips == (0, 0, 1)


def test_exact_the_captain_cannot_stop_early_000_24() -> None:
    s = hand_out_phase(CHOSEN.replace(drinking="captain_hands_out"), [4, 10, 7], 2)
    assert StopHandOut() not in legal_actions(s)
    with pytest.raises(IllegalActionError, match="every sip the die shows"):
        apply(s, StopHandOut())


def test_a_split_hands_out_several_sips_in_one_step_000_24() -> None:
    """000.24: "Bo 2, Cy 1" is one step; the split is checked against the die and the seats."""
    s = hand_out_phase(CHOSEN.replace(drinking="captain_hands_out"), [10, 4, 7], 3)
    split = parse_action("sip:2x1,1x2")
    assert split == HandOutSplit(((1, 2), (2, 1))) and str(split) == "sip:1x2,2x1"
    assert parse_action(str(split)) == split and str(parse_action("sip:stop")) == "sip:stop"
    for bad, message in [
        (HandOutSplit(((1, 3), (2, 1))), "hands out 4 sips, and only 3 are left to hand out"),
        (HandOutSplit(((0, 1),)), "seat 0 cannot take a sip"),
        (HandOutSplit(((1, 1), (1, 1))), "names each player once, with a sip at least"),
        (HandOutSplit(((1, 0),)), "names each player once, with a sip at least"),
        (HandOutSplit(()), "names each player once, with a sip at least"),
    ]:
        with pytest.raises(IllegalActionError, match=message):
            apply(s, bad)
    done = apply(s, split)
    assert done.is_over and done.sips == (0, 2, 1)
    part = apply(s, HandOutSplit(((1, 2),)))
    assert part.phase is Phase.HAND_OUT and part.hand_out_left == 1


def test_split_spellings_are_refused_when_malformed_000_24() -> None:
    for text in ("sip:1x", "sip:x2", "sip:1x2,1x1", "sip:1x0", "sip:-1x2"):
        with pytest.raises(ValueError):
            parse_action(text)


@pytest.mark.parametrize(("failed_double", "sips"), [(True, (0, 4, 1)), (False, (0, 2, 1))])
def test_the_die_counts_sips_handed_out_and_failed_double_is_the_other_reading_000_24_002_24(
    failed_double: bool, sips: tuple[int, ...]
) -> None:
    """000.24 with 002.24: with failed_double a sip handed to a failed player is drunk twice
    (the die counts the sips handed out); without it the die is exactly what is drunk."""
    rules = CHOSEN.replace(drinking="captain_hands_out", failed_double=failed_double)
    s = hand_out_phase(rules, [10, 0, 7], 3)
    s = apply(s, HandOutSplit(((1, 2), (2, 1))))
    assert s.is_over and s.sips == sips


def test_hand_out_needs_the_captain_000_24() -> None:
    with pytest.raises(InvalidRulesError, match="hand_out=up_to needs drinking=captain"):
        CHOSEN.replace(drinking="last_drinks", hand_out="up_to")


# -- not in the sheets: first to win N rounds (wins:N) -----------------------------------------


def test_first_to_win_n_rounds_not_in_the_sheets() -> None:
    s = initial_state(CHOSEN.replace(format="wins:2"), 3)
    s = play_round(s, [9, 4, 2])
    s = play_round(s, [3, 12, 2])
    assert not s.is_over and s.wins == (1, 1, 0)
    s = play_round(s, [0, 0, 0])  # nobody completes: replayed, nobody wins
    s = play_round(s, [2, 8, 9])
    assert not s.is_over and s.wins == (1, 1, 1)
    s = play_round(s, [11, 10, 9])
    assert s.is_over and s.winner == 0 and s.wins == (2, 1, 1)


def test_first_to_win_n_rounds_a_tie_without_a_winner_does_not_count_not_in_the_sheets() -> None:
    s = initial_state(CHOSEN.replace(format="wins:1", tie_break="no_winner"), 2)
    s = play_round(s, [6, 6])
    assert not s.is_over and s.wins == (0, 0)
    s = play_round(s, [6, 7])
    assert s.is_over and s.winner == 1


# -- 000.17: one round or a run of rounds (format=session) ---------------------------------------


def test_a_session_asks_for_another_round_or_stop_000_17() -> None:
    """000.17 read as a run of rounds: after each round the next round's first player calls
    another round or stop; stopping lets the totals decide, as in rounds:N (002.27)."""
    s = initial_state(CHOSEN.replace(format="session", rotation="previous"), 3, starter=1)
    s = play_round(s, [4, 9, 7])
    assert s.phase is Phase.ANOTHER_ROUND and s.results[0].winner == 1
    assert s.starter == 0 and current_player(s) == 0 and seat_to_act(s) == 0
    assert legal_actions(s) == (NextRound(), StopMatch()) and chance_outcomes(s) == ()
    assert [str(a) for a in legal_actions(s)] == ["next_round", "stop"]
    with pytest.raises(IllegalActionError, match="another round or stop"):
        apply(s, Stand())
    with pytest.raises(IllegalActionError):
        apply(s, Roll((3,)))
    s = apply(s, NextRound())
    assert s.phase is Phase.TURN and s.round_no == 2 and s.round_seats == (0, 1, 2)
    s = play_round(s, [12, 2, 0])
    assert current_player(s) == 2  # the start passed back again
    s = apply(s, StopMatch())
    assert s.is_over and s.winner == 0 and s.totals == (16, 11, 7)


def test_a_session_stopped_on_equal_totals_goes_to_the_tie_break_000_17() -> None:
    s = initial_state(CHOSEN.replace(format="session"), 2)
    s = play_round(s, [6, 6])  # the round's own tie comes first: tie-break turns
    s = turns(s, {0: 3, 1: 4})  # they decide the round, not the totals (6 and 6)
    assert s.phase is Phase.ANOTHER_ROUND
    s = apply(s, StopMatch())
    assert s.contest is not None and s.contest.purpose is Purpose.MATCH_TIE
    s = turns(s, {0: 5, 1: 2})
    assert s.is_over and s.winner == 0


def test_a_session_call_is_made_by_the_first_seat_that_can_play_000_17() -> None:
    """000.17 with 001.16: when the rotation's seat cannot ante, the next seat in play order
    that can opens the next round, and so makes the call."""
    rules = CHOSEN.replace(format="session", stakes="pot", starting_chips=1)
    s = initial_state(rules, 3)
    s = play_round(s, [9, 2, 3])  # seat 0 wins all three chips; the others are broke
    assert s.is_over and s.winner == 0 and s.results[0].winner == 0


def test_a_session_call_skips_a_broke_seat_000_17() -> None:
    rules = CHOSEN.replace(format="session", stakes="pot", starting_chips=3, rotation="none")
    s = initial_state(rules, 3, starter=2)
    s = play_round(s, {2: 3, 0: 9, 1: 4})  # chips 5, 2, 2
    assert current_player(s) == 2
    s = play_round(apply(s, NextRound()), {2: 3, 0: 4, 1: 9})  # chips 4, 4, 1
    assert current_player(s) == 2
    s = play_round(apply(s, NextRound()), {2: 3, 0: 9, 1: 4})  # chips 6, 3, 0
    assert s.starter == 2 and current_player(s) == 0 and seat_to_act(s) == 0
    s = apply(s, NextRound())
    assert s.round_seats == (0, 1) and s.chips == (5, 2, 0)


def test_the_german_preset_plays_a_session_000_17() -> None:
    rules = find_rules("schiff-kapitaen-crew").replace(starter="chosen")
    s = play_round(initial_state(rules, 2), [5, 8])
    assert s.phase is Phase.ANOTHER_ROUND and s.sips == (1, 0) and current_player(s) == 1
    assert rules.tie_break is TieBreak.REPLAY
