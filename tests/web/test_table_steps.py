"""One tap per decision and the table's words, through the live protocol: the captain's split
hand-out taken as one move (and refused in words, never in notation), a reroll that rolls at
once, bots and a rematch that roll for the start at once, colours kept over a rematch, real dice
typed only on the acting phone (the host's for a bot); and what the moments say: a score
celebrated only while it leads, the tie being broken, what decides the match, the podium's
tie-break.
"""

from __future__ import annotations

from typing import Any

import pytest

from shipcaptaincrew.actions import Roll, Stand, parse_action
from shipcaptaincrew.engine import apply, initial_state
from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.web.display.moments import Story, tie_view
from shipcaptaincrew.web.display.podium import deciding
from shipcaptaincrew.web.words.choices import choice_words

from .conftest import Player, open_table
from .test_moments import CREW_6, CREW_8, NOTHING, said
from .test_protocol import play_out

NAMES = ["Anna", "Bo", "Cy"]


def act(p: Player, room: dict[str, Any], action: str) -> dict[str, Any]:
    if action == "roll":
        p.send(type="roll", version=room["version"])
    else:
        p.send(type="act", action=action, version=room["version"])
    return p.until(lambda r, v=room["version"]: r["version"] > v)


def test_a_split_hand_out_is_one_move_and_a_refusal_names_it_in_words(
    client: Any, players: list[Player]
) -> None:
    settings = ["starter=chosen", "drinking=captain_hands_out", "format=rounds:1"]
    for attempt in range(1, 40):
        code, tokens = open_table(client, NAMES, settings=settings, client_seed=f"split-{attempt}")
        ps = [Player(client, code, t, lang=lang) for t, lang in zip(tokens, ("en", "de", "nb"))]
        players.extend(ps)
        client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
        room = ps[0].until(lambda r: r["match"] is not None)
        # Every seat plays its own turn: the seat to act is always one of the three.
        for _ in range(300):
            m = room["match"]
            if m["over"] or m["phase"] == "hand_out":
                break
            p = ps[m["actor"]]
            room = act(p, room, "stand" if "stand" in m["legal"] else m["legal"][0])
            ps[0].until(lambda r, v=room["version"]: r["version"] >= v)
            room = ps[0].room
        m = room["match"]
        if m["phase"] == "hand_out" and m["split"] is not None and len(m["split"]["seats"]) == 2:
            break
    else:
        pytest.fail("no captain with two sips or more in 40 tables")
    captain = ps[m["actor"]]
    a, b = m["split"]["seats"]
    most = m["split"]["most"]
    assert all(f"sip:{s}" in m["legal"] for s in (a, b))  # the single sips are listed too
    # More than the die gave: refused in the captain's language, naming no notation.
    captain.send(type="act", action=f"sip:{a}x{most + 1}", version=room["version"])
    err = captain.next("error")
    assert err["code"] == "illegal" and "sip:" not in err["message"] and "x" not in err["message"]
    assert str(most + 1) in err["message"] and str(most) in err["message"]
    # Not a player of the round: said as the choice in words.
    captain.send(type="act", action="sip:7", version=room["version"])
    err = captain.next("error")
    assert err["message"].endswith(".") and "sip:" not in err["message"], err
    # The split itself: one move, the sips on the table at once.
    room = act(captain, room, f"sip:{a}x1,{b}x{most - 1}")
    sips = room["match"]["round_sips"] if not room["match"]["over"] else room["match"]["sips"]
    assert sips[a] >= 1 and sips[b] >= most - 1
    assert room["match"]["phase"] != "hand_out"  # all handed out (exact) in that one move


def test_a_reroll_rolls_at_once(client: Any, players: list[Player]) -> None:
    for attempt in range(40):
        code, tokens = open_table(
            client, ["Anna", "Bo"], settings=["starter=chosen"], client_seed=f"reroll-{attempt}"
        )
        anna = Player(client, code, tokens[0])
        players.append(anna)
        client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
        room = anna.until(lambda r: r["match"] is not None)
        while room["match"]["actor"] == 0 and "reroll" not in room["match"]["legal"]:
            room = act(anna, room, room["match"]["legal"][0])
        if "reroll" in room["match"]["legal"]:
            break
    else:
        pytest.fail("Anna never had a crew to reroll in 40 tables")
    before = room["match"]["turn"]
    after = act(anna, room, "reroll")
    # One tap, one picture: the reroll and its dice (never a "roll the cargo" in between).
    assert after["version"] == room["version"] + 2
    if after["match"]["actor"] == 0:  # the turn goes on: the dice are on it
        assert after["match"]["turn"]["rolls_used"] == before["rolls_used"] + 1
        assert after["match"]["legal"] != ["roll"]
    else:  # that was the last roll: the turn is over and posted
        assert after["match"]["round_scores"][0] is not None
    said = [line for m in anna.seen if m["type"] == "room" for line in m["lines"]][-3:]
    assert any("rerolls the cargo:" in line for line in said), said


@pytest.mark.timeout(60)
def test_bots_and_a_rematch_roll_for_the_start_at_once(
    make_client: Any, players: list[Player]
) -> None:
    # Bots that would wait ten minutes before any choice: their dice for the start come at once.
    client = make_client(bot_delay=600.0)
    code, tokens = open_table(client, ["Anna", "Bo"], ["easy", "easy"])
    anna, bo = Player(client, code, tokens[0]), Player(client, code, tokens[1])
    players += [anna, bo]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    room = anna.until(lambda r: r["match"] is not None)
    people = {0: anna, 1: bo}
    for _ in range(50):  # (ties for the start roll again)
        m = room["match"]
        if m["phase"] != "roll_off":
            break
        done = act(people[m["actor"]], room, "roll")["version"]
        # A bot's die for the start comes at once: the next die due is a person's, or the
        # first round has begun (a bot's pause here would run past the test's timeout).
        room = anna.until(
            lambda r, v=done: (
                r["version"] >= v
                and (r["match"]["phase"] != "roll_off" or r["match"]["actor"] in people)
            )
        )
    assert room["match"]["round_no"] == 1 and room["match"]["phase"] != "roll_off"


@pytest.mark.timeout(120)
def test_a_rematch_starts_without_a_second_tap_and_keeps_the_colours(
    client: Any, players: list[Player]
) -> None:
    code, tokens = open_table(client, NAMES)
    anna, bo, cy = (Player(client, code, t) for t in tokens)
    players += [anna, cy]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    final = play_out({0: anna, 1: bo, 2: cy}, anna)
    colours = [p["color"] for p in final["players"]]
    bo.close()  # Bo goes home: the rematch does not wait for him
    anna.send(type="rematch", version=final["version"])
    cy.send(type="rematch", version=final["version"])
    new = anna.next("moved")["code"]
    a2, c2 = Player(client, new, tokens[0]), Player(client, new, tokens[2])
    players += [a2, c2]
    # Nobody taps "roll for the start" again: "play again" was the tap.
    room = a2.until(lambda r: r["match"] is not None and r["match"]["phase"] != "roll_off")
    assert room["match"]["round_no"] == 1
    assert [p["name"] for p in room["players"]] == ["Anna", "Cy"]
    assert [p["color"] for p in room["players"]] == [colours[0], colours[2]]


def test_real_dice_are_typed_on_the_acting_phone_or_the_host_s_for_a_bot(
    client: Any, players: list[Player]
) -> None:
    code, tokens = open_table(
        client, ["Anna", "Bo"], ["easy"], dice="physical", settings=["starter=chosen"]
    )
    anna, bo = Player(client, code, tokens[0]), Player(client, code, tokens[1])
    players += [anna, bo]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    room = anna.until(lambda r: r["match"] is not None)
    anna.send(type="roll", version=room["version"], faces=[1, 1, 2, 2, 3])
    room = bo.until(lambda r, v=room["version"]: r["version"] > v)
    for _ in range(2):
        anna.send(type="roll", version=room["version"], faces=[1, 1, 2, 2, 3])
        room = bo.until(lambda r, v=room["version"]: r["version"] > v)
    assert room["match"]["actor"] == 1
    # Bo is here: his dice are his to type, not the host's.
    anna.send(type="roll", version=room["version"], faces=[6, 5, 4, 3, 3])
    err = anna.next("error")
    assert err["code"] == "not_your_turn" and "host types a bot's" in err["message"]
    bo.send(type="roll", version=room["version"], faces=[1, 1, 2, 2, 3])
    room = anna.until(lambda r, v=room["version"]: r["version"] > v)
    for _ in range(2):
        bo.send(type="roll", version=room["version"], faces=[1, 1, 2, 2, 3])
        room = anna.until(lambda r, v=room["version"]: r["version"] > v)
    assert room["match"]["actor"] == 2  # the bot's dice: the host types them
    anna.send(type="roll", version=room["version"], faces=[6, 5, 4, 3, 3])
    room = anna.until(lambda r, v=room["version"]: r["version"] > v)
    assert room["match"]["turn"]["held"] == [6, 5, 4]


# -- what the moments say -------------------------------------------------------------------


def moments(rules: str, *steps: Any, players: int = 3) -> list[Any]:
    state = initial_state(find_rules(rules), players, starter=0)
    story, out = Story(), []
    for action in steps:
        action = parse_action(action) if isinstance(action, str) else action
        after = apply(state, action)
        story, moment = story.step(state, action, after, NAMES)
        out.append((moment, after, story))
        state = after
    return out


def test_a_score_is_celebrated_only_while_it_leads() -> None:
    seen = moments(
        "classic(starter=chosen,format=rounds:2)", CREW_8, Stand(), CREW_6, Stand(), CREW_8, Stand()
    )
    texts = [said(m)["text"] for m, _, _ in seen if m]
    turns = [said(m) for m, _, _ in seen if m]
    assert texts[:2] == ["Anna: 8!", "Bo: 6; Anna leads with 8"]
    assert turns[2]["text"] == "Cy: 8, level with Anna"  # (and a tie-break follows)
    assert [t["leads"] for t in turns[:2]] == [True, False]
    assert said([m for m, _, _ in seen if m][1], "de")["text"] == "Bo: 6; Anna führt mit 8"


def test_the_tie_being_broken_and_the_podium_s_tie_break() -> None:
    seen = moments("ship-captain-crew(starter=chosen)", CREW_6, Stand(), CREW_6, Stand(), players=2)
    _, state, _ = seen[-1]
    tie = said(tie_view(state, NAMES), "nb")
    assert tie["seats"] == [0, 1] and tie["score"] == 6 and tie["method"] == "cargo"
    assert tie["text"] == "Anna og Bo står likt med 6: lastterningene avgjør."
    # A cup of four dice: one cargo die, and the sentence says so in its own words.
    one = Roll((6, 5, 4, 3))
    seen4 = moments(
        "ship-captain-crew(starter=chosen,dice=4)", one, Stand(), one, Stand(), players=2
    )
    tie4 = said(tie_view(seen4[-1][1], NAMES), "nb")
    assert (
        tie4["score"] == 3 and tie4["text"] == "Anna og Bo står likt med 3: lastterningen avgjør."
    )
    assert said(tie_view(seen4[-1][1], NAMES))["text"].endswith(": the cargo die decides.")
    state2, story = state, seen[-1][2]
    for roll in (Roll((2, 3)), Roll((6, 6))):
        after = apply(state2, roll)
        story, _ = story.step(state2, roll, after, NAMES)
        state2 = after
    podium = said(story.podium)
    assert podium["decided_by"] == "round" and podium["why"] == "Bo won the round."
    assert podium["tie_break"] == "Anna and Bo tied with 6; the tie-break by cargo dice went to Bo."
    assert tie_view(state2, NAMES) is None


def test_what_decides_the_match_is_said_from_the_start() -> None:
    assert said(deciding(find_rules("classic")))["text"] == "One round: its winner wins the match."
    pot = said(deciding(find_rules("ship-captain-crew").replace(format="rounds:5")), "de")
    assert pot == {
        "by": "totals",
        "text": "Nach 5 Runden gewinnen die meisten Punkte.",
        "note": "Punkte entscheiden, nicht Chips: Die Chips sind der Einsatz.",
    }
    assert said(deciding(find_rules("classic").replace(format="wins:3")))["by"] == "wins"


def test_a_choice_in_words() -> None:
    split = choice_words(parse_action("sip:1x2,2x1"), NAMES)
    assert split.render("en") == "2 sips for Bo and a sip for Cy"
    assert split.render("de") == "2 Schlucke für Bo und ein Schluck für Cy"
    assert choice_words(Stand(), NAMES).render("nb") == "stå"
    assert NOTHING  # (the moments' helpers above are the shared ones)
