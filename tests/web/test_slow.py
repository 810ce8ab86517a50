"""A slow table, played across a day: hours to act instead of seconds, nobody handed to a bot
for being away while the clock runs, and when the hours run out a bot plays the turn or the
turn is passed, as the host chose; the clock survives a restart and the room is kept while the
match is unfinished.  The server's clock is the test's (nothing sleeps for hours)."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import pytest

from .conftest import Player, open_table
from .pushing import Clock, server
from .test_absent import play_turn

NOON = datetime(2026, 3, 2, 11, 0, tzinfo=UTC)
T = TypeVar("T")
#: Live tables would hand an absent person to a bot at once and expire an unattended room.
IMPATIENT = {"absent_grace": 0.0, "slow_tick": 0.05, "room_unattended_seconds": 1}


def wait_for(what: Callable[[], T], timeout: float = 30.0) -> T:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = what()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError("it never happened")


def iso(at: datetime) -> str:
    return at.astimezone(UTC).isoformat().replace("+00:00", "Z")


def start(client: Any, hours: int, late: str = "bot") -> tuple[str, list[str]]:
    code, tokens = open_table(
        client, ["Anna", "Bo"], turn_hours=hours, late=late, settings=["format=rounds:1"]
    )
    r = client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    assert r.status_code == 200, r.text
    return code, tokens


def events(client: Any, code: str) -> list[dict[str, Any]]:
    """The match's events as the database has them (the log is shown once it is over)."""
    return list(client.app.state.service.store.load(code).events)


def test_the_contract_hours_and_deadline(db_url: str) -> None:
    clock = Clock(NOON)
    with server(db_url, clock) as client:
        code, tokens = open_table(client, ["Anna", "Bo"], turn_hours=6)
        lobby = client.get(f"/api/rooms/{code}").json()
        assert (lobby["turn_hours"], lobby["late"], lobby["turn_deadline"]) == (6, "bot", None)
        client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
        room = client.get(f"/api/rooms/{code}").json()
        assert room["turn_hours"] == 6
        assert room["turn_deadline"] == iso(NOON + timedelta(hours=6))
        live, _ = open_table(client, ["Cy", "Di"])
        assert client.get(f"/api/rooms/{live}").json()["turn_hours"] is None


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"turn_hours": 0}, "Stunden für einen Zug"),
        ({"turn_hours": 49}, "Stunden für einen Zug"),
        ({"turn_hours": "soon"}, "Stunden für einen Zug"),
        ({"turn_hours": 5, "late": "never"}, "Wenn die Zeit abläuft"),
        ({"turn_hours": 5, "turn_timer": 30}, "keine Zugzeit"),
    ],
)
def test_hours_out_of_range_are_refused_in_words(
    sqlite_url: str, body: dict[str, Any], said: str
) -> None:
    with server(sqlite_url) as client:
        r = client.post("/api/rooms?lang=de", json={"name": "Anna", **body})
    assert r.status_code == 422
    assert said in r.json()["detail"], r.json()


@pytest.mark.parametrize(("late", "by"), [("bot", "timer"), ("skip", "skipped")])
def test_the_hours_run_out_as_the_host_chose(db_url: str, late: str, by: str) -> None:
    clock = Clock(NOON)
    with server(db_url, clock, **IMPATIENT) as client:
        code, _ = start(client, 3, late)
        first = client.get(f"/api/rooms/{code}").json()
        actor, version = first["match"]["actor"], first["version"]
        # Nobody is at the table, and a live table would have a bot play at once: here the
        # turn waits for its person, and the room stays.
        time.sleep(1.5)
        client.portal.call(client.app.state.service.upkeep.sweep)
        room = client.get(f"/api/rooms/{code}").json()
        assert (room["match"]["actor"], room["version"]) == (actor, version)
        assert not any(p["played_for"] for p in room["players"])
        clock.now = NOON + timedelta(hours=3) - timedelta(seconds=1)
        time.sleep(0.3)
        assert client.get(f"/api/rooms/{code}").json()["version"] == version
        # The hours are up: the host's rule plays the whole turn, and the next person's
        # clock starts from now.
        clock.now = NOON + timedelta(hours=3, seconds=1)
        after = wait_for(
            lambda: (r := client.get(f"/api/rooms/{code}").json())["match"]["actor"] != actor and r
        )
        made = [e for e in events(client, code)[version:] if e.get("seat") == actor]
        assert made and {e.get("by") for e in made} == {by}, events(client, code)
        if late == "skip":  # passed: the first score kept, nothing rerolled
            assert not [e for e in made if str(e.get("action", "")).startswith("reroll")]
        if after["match"]["actor"] is not None:
            assert after["turn_deadline"] == iso(clock.now + timedelta(hours=3))


def test_the_clock_survives_a_restart(db_url: str) -> None:
    clock = Clock(NOON)
    with server(db_url, clock, **IMPATIENT) as client:
        code, _ = start(client, 2)
        before = client.get(f"/api/rooms/{code}").json()
    clock.now = NOON + timedelta(minutes=90)
    with server(db_url, clock, **IMPATIENT) as client:
        again = client.get(f"/api/rooms/{code}").json()
        assert again["turn_deadline"] == before["turn_deadline"] == iso(NOON + timedelta(hours=2))
        assert again["version"] == before["version"]
        clock.now = NOON + timedelta(hours=2, seconds=1)
        wait_for(lambda: client.get(f"/api/rooms/{code}").json()["version"] > before["version"])


def test_my_tables_the_slow_ones_waiting_for_me_first(sqlite_url: str) -> None:
    clock = Clock(NOON)
    with server(sqlite_url, clock, slow_tick=0.05) as client:
        live, live_tokens = open_table(client, ["Anna", "Bo"])
        # A slow table where Bo is to act, then one where Anna is (with the least time left).
        theirs, their_tokens = start(client, 6)
        clock.now = NOON + timedelta(hours=1)
        mine, my_tokens = start(client, 2)
        for code, tokens in ((theirs, their_tokens), (mine, my_tokens)):
            actor = client.get(f"/api/rooms/{code}").json()["match"]["actor"]
            want = 1 if code == theirs else 0
            if actor != want:  # the roll-off chose the other: their seats swap names
                tokens.reverse()
        anna = [my_tokens[0], live_tokens[0], their_tokens[0]]
        clock.now = NOON + timedelta(hours=2)
        r = client.post("/api/my-tables?lang=de", json={"tokens": anna})
        assert r.status_code == 200, r.text
        tables = r.json()["tables"]
        assert [t["code"] for t in tables] == [mine, theirs, live]
        first, second, third = tables
        assert first["yours"] and first["left_seconds"] == 3600
        assert not second["yours"] and second["left_seconds"] == 4 * 3600
        assert third["turn_hours"] is None and third["status"] == "lobby"
        assert client.post("/api/my-tables", json={"tokens": ["x" * 20]}).json() == {"tables": []}
        bad = client.post("/api/my-tables", json={"tokens": ["no spaces allowed here"]})
        assert bad.status_code == 422


@pytest.mark.parametrize("ask", ["remove_after_round", "play_for"])
def test_being_away_from_a_slow_table_gives_nobody_a_say(sqlite_url: str, ask: str) -> None:
    """At a table played across the day everyone is away most of the time: that is no reason
    for anyone seated to have a bot play for someone, or have them leave (the clock passes a
    turn), however long they have been gone; the refusal says why, in the asker's words."""
    with server(sqlite_url, Clock(NOON), **IMPATIENT) as client:
        code, tokens = open_table(
            client, ["Anna", "Bo", "Cy"], turn_hours=6, settings=["format=rounds:2"]
        )
        client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
        # Cy's phone was here and is closed (away); Bo, not the host, asks.
        Player(client, code, tokens[2]).close()
        bo = Player(client, code, tokens[1], "de")
        try:
            time.sleep(0.2)  # longer than this server's grace for someone away (0 s)
            said = {"version": bo.room["version"]} if ask == "remove_after_round" else {}
            bo.send(type=ask, seat=2, **said)
            err = bo.next()  # the refusal, or the picture of what the ask did
            while err["type"] == "room" and not _asked_about(err["room"]["players"][2]):
                err = bo.next()
            room = client.get(f"/api/rooms/{code}").json()
        finally:
            bo.close()
        assert err["code"] == "not_host", err
        assert err["message"].startswith("Cy"), err["message"]
        assert "Tag" in err["message"], err["message"]
        cy = room["players"][2]
        assert not cy["leaving"] and not cy["played_for"], cy
        assert not [e for e in events(client, code) if e.get("type") == "leave"]


def _asked_about(player: dict[str, Any]) -> bool:
    return bool(player["leaving"] or player["played_for"])


def test_a_quiet_turn_at_a_slow_table_is_its_player_s_own(sqlite_url: str) -> None:
    """Bo has hours for his turn: a few quiet seconds with his phone open give Cy, not the host,
    no vote to have a bot play it (at a live table most of those present may); the refusal
    says why in Cy's words, and Bo's turn stays his.  The host still may."""
    quiet = {**IMPATIENT, "silent_grace": 0.0}
    with server(sqlite_url, Clock(NOON), **quiet) as client:
        code, tokens = open_table(
            client, ["Anna", "Bo", "Cy"], turn_hours=6, settings=["starter=chosen"]
        )
        client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
        anna = Player(client, code, tokens[0])
        bo = Player(client, code, tokens[1])
        cy = Player(client, code, tokens[2], "nb")
        try:
            room = play_turn(anna, 0)
            assert room["match"]["actor"] == 1
            cy.until(lambda r: r["version"] == room["version"] and r["players"][1]["online"])
            time.sleep(0.2)  # Bo is quiet longer than this server's grace for silence (0 s)
            cy.send(type="play_for", seat=1)
            err = cy.next()  # the refusal, or the picture with Cy's vote counted
            while err["type"] == "room" and 2 not in (err["room"]["silent"] or {}).get("votes", []):
                err = cy.next()
            assert err.get("code") == "not_host", err
            assert err["message"].startswith("Bo har timer"), err["message"]
            assert client.get(f"/api/rooms/{code}").json()["played_for"] is None
            anna.send(type="play_for", seat=1)  # the host's word
            after = anna.until(lambda r: r["match"]["actor"] != 1)
            assert after["match"]["actor"] == 2
        finally:
            for p in (anna, bo, cy):
                p.close()
        assert {e.get("by") for e in events(client, code) if e.get("seat") == 1} == {"silent"}
