"""Your turn, on your lock screen: a three-person slow match (a day to act) over a simulated
day, each person told by the tests' push service (tests/push_service.py: it decrypts every
message with the subscription's own key and checks the server's VAPID signature) exactly once
per turn; none in
the quiet hours a person set, that turn told in the morning instead; nothing to a muted table;
a subscription its push service answers 410 dropped; and two server restarts in the middle,
one right after a move whose notification was never written, send nothing twice and lose
nothing.  On SQLite and on PostgreSQL."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import TypeVar

import pytest

from tests.need import need_module
from tests.push_service import Message, PushService

from .conftest import open_table
from .pushing import Clock, play_turn, server, subscribe, turns_of

need_module("pywebpush")

#: Noon in Oslo (UTC+1 in March), 23:30 that night, 07:05 the next morning.
NOON = datetime(2026, 3, 2, 11, 0, tzinfo=UTC)
NIGHT = datetime(2026, 3, 2, 22, 30, tzinfo=UTC)
MORNING = datetime(2026, 3, 3, 6, 5, tzinfo=UTC)
#: Seconds between a notification and its person opening the table (the sender looks at the
#: outbox every 0.05 s meanwhile: a second sending would come in this time).
PHONE_IN_POCKET = 0.3
T = TypeVar("T")


@pytest.fixture
def push() -> Iterator[PushService]:
    service = PushService().start()
    yield service
    service.stop()


def wait_for(what: Callable[[], T], timeout: float = 30.0) -> T:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = what()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError("it never happened")


def test_a_match_across_the_day_tells_each_turn_once(db_url: str, push: PushService) -> None:
    clock = Clock(NOON)
    with server(db_url, clock) as client:
        push.server_key = client.get("/api/push/key").json()["key"]
        code, tokens = open_table(
            client, ["Anna", "Bo", "Cy"], settings=["format=rounds:2"], turn_hours=24
        )
        phones = [push.subscribe(), push.subscribe(), push.subscribe()]
        tablet, laptop = push.subscribe(), push.subscribe(410)
        subscribe(client, tokens[0], phones[0])
        subscribe(client, tokens[0], tablet, muted=True)
        subscribe(client, tokens[1], phones[1], lang="de")
        laptop_id = subscribe(client, tokens[1], laptop)["id"]
        quiet = {"time_zone": "Europe/Oslo", "quiet_start": "22:00", "quiet_end": "07:00"}
        subscribe(client, tokens[2], phones[2], **quiet)
        start = client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
        assert start.status_code == 200
        room_id = client.app.state.service.room(code).id
        seat_of = {p.id: seat for seat, p in enumerate(phones)}

        def told(seat: int, turn: int) -> list[Message]:
            return [
                m
                for m in push.received()
                if m.subscription in seat_of and (m.data["seat"], m.data["turn"]) == (seat, turn)
            ]

        def now_to_act() -> tuple[int, int]:
            room = client.get(f"/api/rooms/{code}").json()
            return room["match"]["actor"], room["version"]

        # The day: each person plays when their phone says so; night falls after the roll-off.
        played = 0
        while True:
            seat, turn = now_to_act()
            if clock.now == NIGHT and seat == 2:
                break
            wait_for(lambda s=seat, t=turn: told(s, t))
            time.sleep(PHONE_IN_POCKET)
            play_turn(client, code, tokens[seat], seat)
            played += 1
            if played == 3:
                clock.now = NIGHT
        # Cy's turn came at 23:30 in Oslo, in her quiet hours: her row waits for the morning.
        night_turn = turn
        outbox = client.app.state.service.push.outbox
        wait_for(lambda: (night_turn, 2, "pending", "quiet hours") in outbox.states(room_id))
    assert not told(2, night_turn)

    # A restart in the night: the row is still there, still waiting.
    with server(db_url, clock) as client:
        time.sleep(0.5)  # ten looks of the sender
        assert not told(2, night_turn)
        sent_before_morning = len(push.messages)
        clock.now = MORNING
        (morning,) = wait_for(lambda: told(2, night_turn))
        assert push.messages.index(morning) >= sent_before_morning
        # Cy plays; the server dies right after her last move's commit, before its
        # notification's rows are written (the hook does nothing here, as a killed process).
        client.app.state.service.play.turned = lambda room, before: None
        play_turn(client, code, tokens[2], 2)
        seat, turn = now_to_act()
        time.sleep(0.3)
        assert not told(seat, turn)
        outbox = client.app.state.service.push.outbox
        assert not [row for row in outbox.states(room_id) if row[:2] == (turn, seat)]

    # The next start finds the turn nobody was told of, and tells it once.
    with server(db_url, clock) as client:
        wait_for(lambda: told(seat, turn))
        while True:
            seat, turn = now_to_act()
            if seat is None:
                break
            wait_for(lambda s=seat, t=turn: told(s, t))
            time.sleep(PHONE_IN_POCKET)
            play_turn(client, code, tokens[seat], seat)
        expected = turns_of(client, code, {0, 1, 2})
        assert (
            client.get(
                f"/api/push/subscriptions/{laptop_id}", headers={"X-Seat-Token": tokens[1]}
            ).status_code
            == 404
        )

    # Exactly one notification a turn, to the phone of the person whose turn it was.
    phone_messages = [m for m in push.received() if m.subscription in seat_of]
    got = Counter((m.data["turn"], m.data["seat"]) for m in phone_messages)
    assert got == Counter(expected), (sorted(got), expected)
    assert all(seat_of[m.subscription] == m.data["seat"] for m in phone_messages)
    assert len(expected) >= 9  # a roll-off and two rounds of three
    # The muted tablet heard nothing; the laptop was told once, answered 410, and was dropped.
    assert push.received(tablet, status=None) == []
    assert [m.status for m in push.received(laptop, status=None)] == [410]
    assert push.refused == []
    # What each notification says, in its person's language.
    for m in phone_messages:
        title = "Du bist dran an Tisch" if m.data["seat"] == 1 else "Your turn at table"
        assert m.data["title"] == f"{title} {code}"
        assert m.data["url"] == f"/r/{code}" and m.data["code"] == code
        assert m.data["body"] and m.headers["ttl"] and m.headers["topic"]
