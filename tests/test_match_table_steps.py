"""Two steps a real table makes that are not a turn: the captain's split hand-out as one move
(000.24) and a player leaving the match after the round (not in the sheets).

Both are the engine's: :func:`~shipcaptaincrew.engine.check_choice` says which split the
rules accept, :func:`~shipcaptaincrew.engine.apply` plays a :class:`Leave`; the event log
carries both, and replaying it gives the same match.
"""

from __future__ import annotations

import pytest

from shipcaptaincrew.actions import HandOut, HandOutSplit, Leave, Stand, StopHandOut, parse_action
from shipcaptaincrew.engine import (
    SplitChoice,
    apply,
    check_choice,
    initial_state,
    legal_actions,
    seat_to_act,
    split_choice,
)
from shipcaptaincrew.errors import IllegalActionError
from shipcaptaincrew.narrate import narrate
from shipcaptaincrew.notation import LogError, MatchLog, event_for, replay
from shipcaptaincrew.rules import Rules
from shipcaptaincrew.state import MatchState, Phase

from .test_match import die, play_round

CHOSEN = Rules().replace(starter="chosen")
NAMES = ["Anna", "Bo", "Cy"]


def hand_out_of(face: int, amount: str = "exact") -> MatchState:
    """Bo (seat 1) wins round 1 of three players with 10 and rolls ``face`` for the sips."""
    rules = CHOSEN.replace(drinking="captain_hands_out", hand_out=amount)
    return die(play_round(initial_state(rules, 3), [4, 10, 7]), face)


# -- the split hand-out (000.24) -------------------------------------------------------------


@pytest.mark.parametrize("amount", ["exact", "up_to"])
def test_a_split_is_one_move_the_rules_accept_000_24(amount: str) -> None:
    s = hand_out_of(3, amount)
    assert split_choice(s) == SplitChoice((0, 2), 3)
    split = parse_action("sip:0x2,2x1")
    assert split not in legal_actions(s)  # never listed: one per way of sharing
    check_choice(s, split)  # but a choice all the same
    after = apply(s, split)
    assert after.sips == (2, 0, 1) and after.hand_out_left == 0 and after.is_over
    # Part of the sips in one move, the rest after (exact) or a stop (up to).
    part = apply(s, parse_action("sip:2x2"))
    assert part.hand_out_left == 1 and part.sips == (0, 0, 2) and not part.is_over
    assert split_choice(part) is None  # one sip left: the plain choices say it
    if amount == "up_to":
        assert apply(part, StopHandOut()).sips == (0, 0, 2)
    else:
        with pytest.raises(IllegalActionError):
            check_choice(part, StopHandOut())


def test_a_split_the_rules_refuse_says_why_without_notation() -> None:
    s = hand_out_of(2)
    with pytest.raises(IllegalActionError) as more:
        check_choice(s, HandOutSplit(((0, 2), (2, 1))))
    assert str(more.value) == "that hands out 3 sips, and only 2 are left to hand out"
    with pytest.raises(IllegalActionError, match="seat 1 cannot take a sip"):
        check_choice(s, HandOutSplit(((1, 1), (2, 1))))  # the captain's own seat
    with pytest.raises(IllegalActionError, match="names each player once"):
        check_choice(s, HandOutSplit(((0, 1), (0, 1))))
    with pytest.raises(IllegalActionError, match="is not among the choices"):
        check_choice(s, Stand())
    with pytest.raises(IllegalActionError, match="is not among the choices"):
        check_choice(s, Leave(0))  # the table's step, never a player's choice
    # Before the die is rolled there is nothing to share.
    before = play_round(initial_state(CHOSEN.replace(drinking="captain_hands_out"), 3), [4, 10, 7])
    assert split_choice(before) is None
    with pytest.raises(IllegalActionError, match="roll them first"):
        check_choice(before, HandOutSplit(((0, 1),)))


def test_a_split_is_in_the_log_and_replays() -> None:
    rules = CHOSEN.replace(drinking="captain_hands_out", format="rounds:2")
    s = initial_state(rules, 3)
    log = MatchLog(rules=str(rules), players=NAMES, starter=0)
    for step in ["roll:65422", "stand", "roll:65466", "stand", "roll:65434", "stand"]:
        action = parse_action(step)
        log.append_event(event_for(s, action))
        s = apply(s, action)
    for step in ["roll:3", "sip:0x2,2x1"]:
        action = parse_action(step)
        log.append_event(event_for(s, action))
        told = narrate(s, action, apply(s, action), NAMES)
        s = apply(s, action)
    assert log.events[-1] == {"type": "action", "seat": 1, "action": "sip:0x2,2x1"}
    assert [str(m) for m in told][:2] == ["Bo gives 2 sips to Anna.", "Bo gives a sip to Cy."]
    assert replay(MatchLog.from_jsonl(log.to_jsonl())) == s and s.sips == (2, 0, 1)


# -- a player leaves the match ----------------------------------------------------------------


def test_a_player_who_leaves_finishes_the_round_and_plays_no_more() -> None:
    rules = CHOSEN.replace(format="rounds:3")
    s = initial_state(rules, 3)
    s = apply(s, Leave(2))  # asked for in round 1, before anyone played
    assert s.leaving == (2,) and s.departed == () and seat_to_act(s) == 0
    s = play_round(s, [4, 5, 12])  # Cy still plays round 1 (and wins it)
    assert s.departed == (2,) and s.leaving == () and s.totals == (4, 5, 12)
    assert s.round_seats == (1, 0)  # round 2 (Bo starts) is played without Cy
    s = play_round(s, {0: 3, 1: 2})
    s = play_round(s, {0: 3, 1: 2})
    # Cy's 12 is the highest total, but only those still in the match can win it.
    assert s.is_over and s.winner == 0 and s.totals == (10, 9, 12)
    assert [r.seats for r in s.results] == [(0, 1, 2), (1, 0), (0, 1)]


def test_a_table_left_with_one_player_ends_with_that_player_s_win() -> None:
    s = initial_state(CHOSEN.replace(format="rounds:5"), 2)
    s = apply(s, Leave(1))
    with pytest.raises(IllegalActionError, match="leaving the match already"):
        apply(s, Leave(1))
    s = play_round(s, [0, 9])  # Bo wins the round, then goes
    assert s.is_over and s.winner == 0 and s.results[0].winner == 1
    with pytest.raises(IllegalActionError, match="match is over"):
        apply(s, Leave(0))


def test_leaving_a_pot_a_tournament_and_first_to() -> None:
    # Pot: the one who left antes no more.
    s = initial_state(CHOSEN.replace(stakes="pot", format="rounds:2"), 3)
    s = play_round(apply(s, Leave(0)), [5, 6, 7])
    assert s.round_seats == (1, 2) and s.pot == 2  # two antes, not three
    # Tournament: a player who goes through to the final and leaves hands it to the other.
    s = initial_state(CHOSEN.replace(format="tournament"), 3)
    s = play_round(s, [9, 8, 2])
    s = play_round(apply(s, Leave(0)), {0: 9, 1: 8, 2: 2})
    assert s.is_over and s.winner == 1 and s.departed == (0,)
    # A match that ends with the round someone leaves in is decided as if nobody left.
    s = initial_state(CHOSEN.replace(format="rounds:1"), 2)
    s = play_round(apply(s, Leave(1)), [3, 9])
    assert s.is_over and s.winner == 1


def test_a_leave_is_in_the_log_and_told() -> None:
    rules = CHOSEN.replace(format="rounds:2")
    s = initial_state(rules, 3)
    log = MatchLog(rules=str(rules), players=NAMES, starter=0)
    told: list[str] = []
    for step in ["roll:65422", "leave:1", "stand", "roll:65466", "stand", "roll:65434", "stand"]:
        action = parse_action(step)
        log.append_event(event_for(s, action))
        after = apply(s, action)
        told += [str(m) for m in narrate(s, action, after, NAMES)]
        s = after
    assert {"type": "leave", "seat": 1} in log.events
    assert "Bo leaves the match once this round is over." in told
    assert "Bo has left the match." in told
    assert replay(MatchLog.from_jsonl(log.to_jsonl())) == s and s.departed == (1,)
    assert s.phase is Phase.TURN and s.round_seats == (2, 0)
    # A leave written as a choice is refused: it is the table's event, not a player's.
    bad = MatchLog.from_jsonl(log.to_jsonl())
    bad.events[1] = {"type": "action", "seat": 0, "action": "leave:1"}
    with pytest.raises(LogError, match="event 2: a leave is an event of its own"):
        replay(bad)
    assert HandOut(0) not in legal_actions(s)  # (no hand-out here: a plain match)
