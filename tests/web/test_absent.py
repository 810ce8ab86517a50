"""Nobody stalls the table: a person who is away has their whole turn played by a bot after
a grace, the table can ask a bot to play for someone away or have them leave after the round,
the person takes the seat back by opening their link, and a table of only absent people ends.

Every wait here is on a picture the table sends (the grace is made short, so the bot's turn
comes); none is a sleep that decides what happens.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from shipcaptaincrew.notation import MatchLog, replay

from ..cli_run import scc
from .conftest import Player, open_table

#: A grace that never runs out within a test: the table waits for the person.
FOREVER = 10_000.0


def act(p: Player, room: dict[str, Any]) -> None:
    """The player to act makes the first choice offered."""
    choice = room["match"]["legal"][0]
    if choice == "roll":
        p.send(type="roll", version=room["version"])
    else:
        p.send(type="act", action=choice, version=room["version"])


def play_turn(p: Player, seat: int) -> dict[str, Any]:
    """``p`` plays seat ``seat``'s turn to its end; returns the picture after it."""
    room = p.until(lambda r: r["match"] is not None and r["match"]["actor"] == seat)
    while room["match"]["actor"] == seat and not room["match"]["over"]:
        act(p, room)
        room = p.until(lambda r, v=room["version"]: r["version"] > v)
    return room


def events(client: Any, code: str) -> list[dict[str, Any]]:
    """The events stored so far (the server's own list: the log is published at the end)."""
    return list(client.app.state.service.room(code).events)


@pytest.mark.timeout(120)
def test_a_page_closed_mid_turn_the_table_goes_on_and_the_seat_comes_back(
    make_client: Any, players: list[Player]
) -> None:
    client = make_client(absent_grace=0.3)
    code, tokens = open_table(
        client, ["Anna", "Bo"], settings=["starter=chosen", "format=rounds:3"]
    )
    anna, bo = Player(client, code, tokens[0]), Player(client, code, tokens[1])
    players.append(anna)
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    play_turn(anna, 0)
    room = anna.until(lambda r: r["match"]["actor"] == 1)
    bo.send(type="roll", version=room["version"])  # Bo's first roll, then his page closes
    anna.until(lambda r, v=room["version"]: r["version"] > v)
    bo.close()
    # Within the grace a bot takes over Bo's turn, and every page says so.
    seen = anna.until(lambda r: r["played_for"] is not None)
    assert seen["played_for"] == {"seat": 1, "by": "away"} and seen["players"][1]["played_for"]
    anna.until(lambda r: r["match"]["round_no"] == 2 and r["match"]["actor"] == 0)
    told = [line for m in anna.seen if m["type"] == "room" for line in m["lines"]]
    # Said once for the turns played for him in a row (his turn ends round 1 and opens round 2).
    assert told.count("Bo is away: a bot plays their turn.") == 1
    # Bo opens his link again: the seat is his, and so is his next turn.
    bo = Player(client, code, tokens[1])
    players.append(bo)
    back = anna.until(lambda r: r["players"][1]["online"])
    assert not back["players"][1]["played_for"] and back["played_for"] is None
    play_turn(anna, 0)
    before = len(events(client, code))
    play_turn(bo, 1)
    mine = events(client, code)[before:]
    assert mine and all("by" not in e for e in mine if e["seat"] == 1)
    assert all(e.get("by") in (None, "away") for e in events(client, code))


@pytest.mark.timeout(120)
def test_the_host_lets_a_bot_play_for_someone_away(make_client: Any, players: list[Player]) -> None:
    client = make_client(absent_grace=FOREVER)
    code, tokens = open_table(
        client, ["Anna", "Bo", "Cy"], settings=["starter=chosen", "format=rounds:2"]
    )
    anna, cy = Player(client, code, tokens[0]), Player(client, code, tokens[2], lang="de")
    players += [anna, cy]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    room = play_turn(anna, 0)
    assert room["match"]["actor"] == 1 and room["deadline_ms"] is not None  # Bo's grace runs
    assert room["stewards"] == [0]
    cy.send(type="play_for", seat=1)  # not the host, and Bo has only just gone
    err = cy.next("error")
    assert err["code"] == "not_host" and err["message"].startswith("Bo ist gerade erst gegangen")
    anna.send(type="play_for", seat=2)
    assert anna.next("error")["message"] == "Cy is here: they play their own turns."
    anna.send(type="play_for", seat=1)
    room = anna.until(lambda r: r["match"]["actor"] == 2)
    said = [line for m in anna.seen if m["type"] == "room" for line in m["lines"]]
    assert "Anna asks a bot to play for Bo while they are away." in said
    assert "A bot plays for Bo, as Anna asked." in said
    played = [e for e in events(client, code) if e["seat"] == 1]
    assert played and all(e.get("by") == "asked" and e["asked_by"] == [0] for e in played)
    assert room["players"][1]["played_for"]
    # Bo comes back by his link: the bot plays for him no more (until asked again).
    bo = Player(client, code, tokens[1])
    back = anna.until(lambda r: r["players"][1]["online"])
    assert not back["players"][1]["played_for"]
    bo.close()
    anna.until(lambda r: not r["players"][1]["online"])
    anna.send(type="play_for", seat=1)  # gone again: a bot plays for him again
    anna.until(lambda r: r["players"][1]["played_for"])
    play_turn(cy, 2)
    # The host goes: nobody may ask at once now (a drop is no one's say), not even for the
    # host's seat; anyone seated may once she has been away for the grace.
    anna.close()
    players.remove(anna)
    room = cy.until(lambda r: r["stewards"] == [] and r["players"][0]["askable_ms"])
    assert room["players"][0]["askable_ms"] > time.time() * 1000 + 1000 * (FOREVER - 60)
    play_turn(cy, 2)  # round 2: Bo (played for at once), Cy, then Anna
    room = cy.until(lambda r: r["match"]["actor"] == 0)
    assert room["played_for"] is None and room["deadline_ms"] is not None  # Anna's grace runs
    cy.send(type="play_for", seat=0)
    assert cy.next("error")["code"] == "not_host"
    assert room["match"]["actor"] == 0 and not room["match"]["over"]


@pytest.mark.timeout(120)
def test_someone_away_leaves_the_match_after_the_round(
    make_client: Any, players: list[Player], tmp_path: Path
) -> None:
    client = make_client(absent_grace=FOREVER)
    code, tokens = open_table(
        client, ["Anna", "Bo"], ["easy"], settings=["starter=chosen", "format=rounds:3"]
    )
    anna = Player(client, code, tokens[0])
    players.append(anna)
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    room = play_turn(anna, 0)
    assert room["match"]["actor"] == 1
    anna.send(type="remove_after_round", seat=1, version=room["version"] - 1)
    assert anna.next("error")["code"] == "stale"
    anna.send(type="remove_after_round", seat=1, version=room["version"])
    left = anna.until(lambda r: (r["moment"] or {}).get("kind") == "leave")
    assert left["moment"]["text"] == "Bo leaves the match once this round is over."
    assert left["players"][1]["leaving"] and not left["players"][1]["left"]
    anna.send(type="remove_after_round", seat=1, version=left["version"])
    assert anna.next("error")["message"] == "Bo is leaving the match already."
    # Bo's round-1 turn is played for him; from round 2 on the round is Anna's and the bot's.
    room = anna.until(lambda r: r["match"]["round_no"] == 2)
    assert room["players"][1]["left"] and 1 not in room["match"]["round_seats"]
    final = anna.until(lambda r: r["match"]["over"] or r["match"]["actor"] == 0)
    while not final["match"]["over"]:
        play_turn(anna, 0)
        final = anna.until(lambda r: r["match"]["over"] or r["match"]["actor"] == 0)
    ranking = final["podium"]["ranking"]
    assert ranking[-1]["seat"] == 1 and ranking[-1]["left"] and final["match"]["winner"] != 1
    text = client.get(f"/api/matches/{code}/log").text
    log = MatchLog.from_jsonl(text)
    assert {"type": "leave", "seat": 1, "asked_by": [0], "away": True} in log.events
    assert list(replay(log).totals) == final["match"]["totals"]
    # The command line reads the leave like any event: the story says it, the dice check out.
    path = tmp_path / "left.jsonl"
    path.write_text(text, encoding="utf-8")
    told = scc(tmp_path / "cache", "replay", str(path))
    assert told.returncode == 0 and "Bo leaves the match once this round is over." in told.stdout
    assert "Bo has left the match." in told.stdout
    checked = scc(tmp_path / "cache", "verify", str(path))
    assert checked.returncode == 0 and checked.stdout.startswith("OK"), checked.stdout


@pytest.mark.timeout(120)
@pytest.mark.parametrize("fmt", ["rounds:2", "session"])
def test_a_table_of_only_absent_people_ends(
    make_client: Any, players: list[Player], fmt: str
) -> None:
    client = make_client(absent_grace=0.05)
    code, tokens = open_table(
        client, ["Anna", "Bo"], ["medium"], settings=["starter=chosen", f"format={fmt}"]
    )
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    watcher = Player(client, code, None)
    players.append(watcher)
    final = watcher.until(lambda r: r["status"] == "over", limit=10_000)
    assert final["podium"]["winner"] == final["match"]["winner"]
    log = events(client, code)
    assert {e.get("by") for e in log if e["seat"] in (0, 1)} == {"away"}
    if fmt == "session":  # the session stops: nobody is there to call another round
        assert log[-1]["action"] == "stop"


def test_someone_coming_or_going_does_not_restart_a_turn_timer(
    client: Any, players: list[Player]
) -> None:
    code, tokens = open_table(client, ["Anna", "Bo"], turn_timer=60, settings=["starter=chosen"])
    anna = Player(client, code, tokens[0])
    players.append(anna)
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    first = anna.until(lambda r: r["match"] is not None and r["deadline_ms"] is not None)
    service = client.app.state.service
    room = service.room(code)
    time.sleep(1.0)  # time passes on Anna's clock (how much does not matter)
    watcher = Player(client, code, None)  # a spectator comes: the table looks again
    players.append(watcher)
    client.portal.call(service.schedule, room)  # (and once more, for certain)
    assert room.deadline is not None
    assert abs(room.deadline * 1000 - first["deadline_ms"]) < 200  # the same clock goes on
