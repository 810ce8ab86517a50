"""Moments and the podium, read off the engine's own states (no server needed).

Each scenario plays a match with the engine and typed dice and steps the table's story through
every event, as the server does; the moments and the podium must say what the engine did.
"""

from __future__ import annotations

from typing import Any

from shipcaptaincrew.actions import Action, Roll, Stand, parse_action
from shipcaptaincrew.engine import apply, initial_state
from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.state import MatchState
from shipcaptaincrew.web.connections.transport import dumps
from shipcaptaincrew.web.display.moments import Story

NAMES = ["Anna", "Bo"]
CREW_8 = Roll((6, 5, 4, 3, 5))  # a full crew at once, cargo 3 + 5
CREW_6 = Roll((6, 5, 4, 3, 3))
NOTHING = Roll((1, 1, 2, 2, 3))


def play(rules: str, *steps: Action | str, players: int = 2) -> tuple[MatchState, Story, list[Any]]:
    """Play ``steps`` from the first state; the final state, story and every event's moment."""
    state = initial_state(find_rules(rules), players, starter=0)
    story, moments = Story(), []
    for step in steps:
        action = parse_action(step) if isinstance(step, str) else step
        after = apply(state, action)
        story, moment = story.step(state, action, after, NAMES)
        moments.append(moment)
        state = after
    return state, story, moments


def said(value: Any, lang: str = "en") -> Any:
    """A moment as a page gets it: the texts in a language."""
    import json

    return json.loads(dumps({"v": value}, lang))["v"]


def test_why_each_turn_ended() -> None:
    rules = "classic(starter=chosen)"
    _, _, m = play(rules, CREW_6, Stand())
    assert m[0] is None and said(m[1])["why"] == "stand" and said(m[1])["text"] == "Anna: 6!"
    _, _, m = play(rules, NOTHING, NOTHING, NOTHING)
    assert said(m[2]) | {"text": None} == {
        "kind": "turn_end",
        "seat": 0,
        "dice": 5,  # the cup the page counts the free dice by (never a 5 of its own)
        "faces": [1, 1, 2, 2, 3],
        "held": [],
        "roles": [],
        "cargo": [],
        "score": 0,
        "complete": False,
        "leads": False,
        "tie_break": False,
        "bonus": 0,
        "why": "no_crew",
        "by": None,
        "text": None,
    }
    assert said(m[2], "de")["text"] == "Anna: keine Crew, 0"
    _, _, m = play(rules, NOTHING, NOTHING, CREW_8)
    assert said(m[2])["why"] == "last_roll" and said(m[2])["score"] == 8
    _, _, m = play("classic(starter=chosen,cargo_rerolls=0)", CREW_8)
    assert said(m[0])["why"] == "no_rerolls" and said(m[0])["roles"] == ["ship", "captain", "crew"]


def test_a_tie_break_turn_says_it_decides_the_tie_only() -> None:
    """Anna and Bo tie with 8; their tie-break turns (a replay) decide the round and are on no
    card: "Anna: 9!" in the strip beside an 8 on her card once misled a table."""
    rules = "classic(starter=chosen,format=rounds:2)"
    crew_9 = Roll((6, 5, 4, 4, 5))
    state, _, m = play(rules, CREW_8, Stand(), CREW_8, Stand(), crew_9, Stand())
    tie_turn = said(m[-1])
    assert tie_turn["tie_break"] and not tie_turn["leads"] and tie_turn["score"] == 9
    assert tie_turn["text"] == "Anna: 9 in the tie-break (it decides the tie only)"
    assert said(m[-1], "de")["text"] == "Anna: 9 im Stechen (entscheidet nur den Gleichstand)"
    assert state.round_scores[0] == 8  # (the card keeps the round's score)


def test_the_round_s_end_carries_the_turn_that_ended_it() -> None:
    rules = "classic(starter=chosen,format=rounds:2)"
    state, story, m = play(rules, CREW_6, Stand(), CREW_8, Stand())
    end = said(m[-1])
    assert end["kind"] == "round_end" and end["winner"] == 1 and end["scores"] == [6, 8]
    assert end["turn"]["kind"] == "turn_end" and end["turn"]["seat"] == 1 and end["rolloff"] is None
    assert end["text"] == "Round 1: Bo wins with 8." and end["why"] is None
    assert said(story.last_result) == {k: v for k, v in end.items() if k not in ("turn", "rolloff")}
    assert story.podium is None and not state.is_over


def test_the_match_s_end_holds_the_round_and_the_turn() -> None:
    _, story, m = play("classic(starter=chosen)", CREW_6, Stand(), CREW_8, Stand())
    end = said(m[-1])
    assert end["kind"] == "match_end" and end["round"]["text"] == "Round 1: Bo wins with 8."
    assert end["turn"]["text"] == "Bo: 8!" and end["decided_by"] == "round"
    assert (
        end["why"] == "Bo won the round." and said(story.podium, "nb")["why"] == "Bo vant runden."
    )
    assert [(r["seat"], r["place"]) for r in end["ranking"]] == [(1, 1), (0, 2)]


def test_a_cargo_tie_break_is_shown_and_explained() -> None:
    rules = "ship-captain-crew(starter=chosen)"
    _, story, m = play(rules, CREW_6, Stand(), CREW_6, Stand(), Roll((2, 3)), Roll((6, 6)))
    assert said(m[4]) == {"kind": "rolloff", "seat": 0, "faces": [2, 3], "purpose": "tie"}
    end = said(m[5])
    assert end["kind"] == "match_end" and end["round"]["tie_break"] == "cargo"
    assert end["rolloff"]["faces"] == [6, 6] and end["turn"] is None
    assert end["round"]["why"] == "Anna and Bo tied with 6; the tie-break by cargo dice went to Bo."
    assert said(story.last_result, "de")["why"] == (
        "Anna und Bo lagen mit 6 gleichauf; das Stechen mit den Ladungswürfeln gewann Bo."
    )


def test_a_tie_for_the_match_is_the_podium_s_reason() -> None:
    rules = "classic(starter=chosen,format=rounds:2)"
    # Round 1: Anna 8, Bo 6.  Round 2 (the start moves on to Bo): Bo 8, Anna 6.  14 all, so
    # Bo and Anna play a tie-break turn each, in play order; Bo's 8 beats Anna's nothing.
    steps = [CREW_8, Stand(), CREW_6, Stand(), CREW_8, Stand(), CREW_6, Stand()]
    steps += [CREW_8, Stand(), NOTHING, NOTHING, NOTHING]
    state, story, m = play(rules, *steps)
    assert state.is_over and state.winner == 1
    final = said(story.podium)
    assert final["decided_by"] == "tie_break" and final["winner"] == 1
    assert final["why"] == "Bo and Anna tied with 14 points; the tie-break by turn went to Bo."
    assert said(m[-1])["kind"] == "match_end" and said(m[-1])["turn"]["why"] == "no_crew"
    assert [(r["seat"], r["place"], r["total"]) for r in final["ranking"]] == [
        (1, 1, 14),
        (0, 2, 14),
    ]


def test_points_not_chips_and_a_table_out_of_chips() -> None:
    # A pot each round, two rounds, one won by each: chips even, Anna ahead on points.
    rules = "ship-captain-crew(starter=chosen,format=rounds:2)"
    crew_12 = Roll((6, 5, 4, 6, 6))
    steps = [crew_12, Stand(), CREW_6, Stand(), CREW_8, Stand(), CREW_6, Stand()]
    state, story, _ = play(rules, *steps)
    assert state.is_over and state.chips[0] == state.chips[1]
    final = said(story.podium)
    assert final["decided_by"] == "totals" and final["winner"] == 0
    assert final["why"] == "Anna won with the most points: 18. Points decide this match, not chips."
    # Out of chips: one chip each, so the loser of round 1 cannot ante round 2.
    rules = "ship-captain-crew(starter=chosen,format=rounds:5,starting_chips=1)"
    state, story, _ = play(rules, CREW_8, Stand(), CREW_6, Stand())
    final = said(story.podium)
    assert state.is_over and final["decided_by"] == "chips"
    assert final["why"] == "Anna won: nobody else had the chips to ante."
    assert [r["chips"] for r in final["ranking"]] == [2, 0]
