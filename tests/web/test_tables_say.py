"""The table's say, not a blip (issue 35): a drop of a fraction of a second or a page reload
never lets anyone be removed or played for, a match is not won by removing the others, and a
phone that is here but silent on its own turn can have its turn played by a bot -- by the host,
or by most of the others -- and takes it back with a tap.

Every wait is on a picture the table sends; the graces are made short where a test needs one
to run out, and long where it must not.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import Player, open_table
from .test_absent import FOREVER, act, events, play_turn


def said(p: Player) -> list[str]:
    """Every narration line ``p`` was told (live pictures only)."""
    return [
        line for m in p.seen if m["type"] == "room" and not m.get("history") for line in m["lines"]
    ]


def play_until(seats: dict[int, Player], done: Any) -> dict[str, Any]:
    """Each person plays their own turns (the first choice offered) until ``done(room)``."""
    watcher = next(iter(seats.values()))
    room = watcher.room
    while not done(room) and not room["match"]["over"]:
        actor = room["match"]["actor"]
        if actor in seats:
            act(seats[actor], seats[actor].until(lambda r, v=room["version"]: r["version"] >= v))
        room = watcher.until(lambda r, v=room["version"]: r["version"] > v)
    return room


@pytest.mark.timeout(120)
def test_a_blip_and_a_reload_never_let_anyone_be_removed_or_played_for(
    make_client: Any, players: list[Player]
) -> None:
    """Mallory (not the host) tries, during Bob's 0.2 s drop, what once ended a first-to-5
    match "won" at 0 points; the host's own ask during a drop is undone by the reload."""
    client = make_client(absent_grace=FOREVER)
    code, tokens = open_table(
        client, ["Bob", "Mallory", "Cy"], settings=["starter=chosen", "format=rounds:3"]
    )
    bob, mallory = Player(client, code, tokens[0]), Player(client, code, tokens[1])
    cy = Player(client, code, tokens[2], lang="nb")
    players += [bob, mallory, cy]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    mallory.until(lambda r: r["match"] is not None and r["match"]["actor"] == 0)
    bob.close()  # a blip: Bob's phone drops for a moment
    players.remove(bob)
    room = mallory.until(lambda r: not r["players"][0]["online"])
    for ask in (
        {"type": "remove_after_round", "seat": 0, "version": room["version"]},
        {"type": "play_for", "seat": 0},
    ):
        mallory.send(**ask)
        err = mallory.next("error")
        assert err["code"] == "not_host"
        assert err["message"].startswith("Bob has only just gone: anyone may ask that in ")
    bob = Player(client, code, tokens[0])  # 0.2 s later: the page is back
    players.append(bob)
    room = mallory.until(lambda r: r["players"][0]["online"])
    assert not room["players"][0]["leaving"] and not room["players"][0]["played_for"]
    assert not [e for e in events(client, code) if e["type"] in ("leave", "stay")]

    # The host asks for Cy to leave during Cy's drop; Cy reloads before the round is over.
    cy.close()
    players.remove(cy)
    room = bob.until(lambda r: not r["players"][2]["online"])
    bob.send(type="remove_after_round", seat=2, version=room["version"])
    bob.until(lambda r: r["players"][2]["leaving"])
    bob.send(type="play_for", seat=2)
    bob.until(lambda r: r["players"][2]["played_for"])
    cy = Player(client, code, tokens[2], lang="nb")
    players.append(cy)
    room = bob.until(lambda r: r["players"][2]["online"] and not r["players"][2]["leaving"])
    assert not room["players"][2]["played_for"] and not room["players"][2]["left"]
    stored = [e for e in events(client, code) if e["type"] in ("leave", "stay")]
    assert stored == [
        {"type": "leave", "seat": 2, "asked_by": [0], "away": True},
        {"type": "stay", "seat": 2},
    ]
    assert "Cy is back and stays in the match." in said(bob)
    cy.until(lambda r: not r["players"][2]["leaving"])
    assert "Cy er tilbake og blir i partiet." in said(cy)
    # The next round is everyone's.
    room = play_until({0: bob, 1: mallory, 2: cy}, lambda r: r["match"]["round_no"] == 2)
    assert sorted(room["match"]["round_seats"]) == [0, 1, 2]


@pytest.mark.timeout(120)
def test_a_match_is_not_won_by_removing_the_others(make_client: Any, players: list[Player]) -> None:
    """The host removes the only other player while she is at the table: the match ends, and
    nobody won it; a walkover (the other away past the grace) counts apart from wins."""
    client = make_client(absent_grace=FOREVER, open_lists=True)
    code, tokens = open_table(
        client, ["Mallory", "Anna"], settings=["starter=chosen", "format=rounds:3"]
    )
    mallory, anna = Player(client, code, tokens[0]), Player(client, code, tokens[1])
    players += [mallory, anna]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    room = mallory.until(lambda r: r["match"] is not None and r["match"]["actor"] == 0)
    anna.send(type="remove_after_round", seat=0, version=room["version"])  # not the host
    assert anna.next("error")["message"] == (
        "Mallory is here: only the host can have them leave the match."
    )
    mallory.send(type="remove_after_round", seat=1, version=room["version"])
    assert anna.until(lambda r: r["players"][1]["leaving"])
    assert "Mallory asks for Anna to leave the match after this round." in said(anna)
    room = play_until({0: mallory, 1: anna}, lambda r: False)
    assert room["players"][1]["left"], (room["match"], room["podium"])
    history = client.get("/api/matches").json()
    assert history[0]["code"] == code and history[0]["ended"] == "removed"
    board = {r["name"]: r for r in client.get("/api/stats/leaderboard").json()}
    assert board["Mallory"]["wins"] == 0 and board["Mallory"]["walkovers"] == 0

    # A walkover: Bo is away (a bot plays for him past the grace), the host has him leave,
    # and the win that follows counts apart.
    walk = make_client(absent_grace=0.3, open_lists=True)
    code, tokens = open_table(walk, ["Anna", "Bo"], settings=["starter=chosen", "format=rounds:3"])
    anna = Player(walk, code, tokens[0])
    players.append(anna)
    walk.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    room = anna.until(lambda r: r["match"] is not None and r["players"][1]["askable_ms"])
    anna.send(type="remove_after_round", seat=1, version=room["version"])
    anna.until(lambda r: r["players"][1]["leaving"])
    while not anna.room["match"]["over"]:
        if anna.room["match"]["actor"] == 0:
            play_turn(anna, 0)
        else:
            anna.next("room")
    history = walk.get("/api/matches").json()
    assert history[0]["ended"] == "walkover" and history[0]["winner"] == "Anna"
    board = {r["name"]: r for r in walk.get("/api/stats/leaderboard").json()}
    assert board["Anna"]["wins"] == 0 and board["Anna"]["walkovers"] == 1


@pytest.mark.timeout(120)
def test_a_silent_phone_has_its_turn_played_by_a_bot_as_the_table_asks(
    make_client: Any, players: list[Player]
) -> None:
    """Anna's phone is locked on her turn, still connected: not before the silent grace, then
    by most of the others (Bo's vote is not enough alone, Cy's makes it); the table says who
    asked; Anna takes the turn back with a tap."""
    client = make_client(absent_grace=FOREVER, silent_grace=0.6)
    code, tokens = open_table(
        client, ["Anna", "Bo", "Cy"], settings=["starter=chosen", "format=rounds:2"]
    )
    anna, bo = Player(client, code, tokens[0]), Player(client, code, tokens[1], lang="de")
    cy = Player(client, code, tokens[2])
    players += [anna, bo, cy]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    room = bo.until(lambda r: r["match"] is not None and r["match"]["actor"] == 0)
    assert room["silent"]["seat"] == 0 and room["silent"]["needed"] == 2
    bo.send(type="play_for", seat=0)  # too soon: she is still within her time
    err = bo.next("error")
    assert err["message"].startswith("Anna hat noch Zeit: In ")
    time.sleep(room["silent"]["wait_s"] + 0.1)
    bo.send(type="play_for", seat=0)
    room = cy.until(lambda r: r["silent"] is not None and r["silent"]["votes"] == [1])
    assert room["played_for"] is None and room["match"]["actor"] == 0
    cy.send(type="play_for", seat=0)
    room = anna.until(lambda r: r["played_for"] is not None)
    assert room["played_for"] == {"seat": 0, "by": "silent"}
    assert "Bo asks a bot to play Anna's turn." in said(anna)
    cy.until(lambda r: r["version"] > room["version"])
    assert "Anna has been silent a long while: a bot plays this turn, as Bo and Cy asked." in said(
        cy
    )
    played = [e for e in events(client, code) if e.get("by") == "silent"]
    assert played and all(e["asked_by"] == [1, 2] for e in played)
    # Anna's phone wakes up: one tap, and the rest of the turn (if any) is hers again.
    if anna.room["match"]["actor"] == 0 and anna.room["played_for"] is not None:
        anna.send(type="take_turn", version=anna.room["version"])
        back = anna.until(lambda r: r["played_for"] is None or r["match"]["actor"] != 0)
        if back["match"]["actor"] == 0:
            assert "Anna takes the turn back from the bot." in said(anna)


@pytest.mark.timeout(120)
def test_the_host_lets_a_bot_play_a_silent_turn_and_it_is_taken_back(
    make_client: Any, players: list[Player]
) -> None:
    client = make_client(absent_grace=FOREVER, silent_grace=0.3, bot_delay=0.5)
    code, tokens = open_table(client, ["Anna", "Bo"], settings=["starter=chosen"])
    anna, bo = Player(client, code, tokens[0]), Player(client, code, tokens[1])
    players += [anna, bo]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    play_turn(anna, 0)
    room = anna.until(lambda r: r["match"]["actor"] == 1)
    bo.send(type="roll", version=room["version"])  # Bo rolls, then his phone locks
    room = anna.until(lambda r: r["version"] > room["version"])
    assert room["silent"]["seat"] == 1 and room["silent"]["needed"] == 1
    time.sleep(room["silent"]["wait_s"] + 0.05)
    anna.send(type="play_for", seat=1)  # the host's ask is enough
    room = bo.until(lambda r: r["played_for"] is not None)
    assert room["played_for"] == {"seat": 1, "by": "silent"} and room["match"]["actor"] == 1
    bo.send(type="take_turn", version=room["version"])  # within the bot's pause
    back = bo.until(lambda r: r["played_for"] is None)
    assert back["match"]["actor"] == 1 and back["version"] == room["version"]
    assert "Bo takes the turn back from the bot." in said(bo)
    bo.send(type="take_turn", version=back["version"])  # nothing to take back now
    assert bo.next("error")["code"] == "stale"
