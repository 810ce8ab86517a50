"""When a notification goes, and what its push service's answer does: none while the person
is at the table, one once they have gone without playing; a push service that fails is tried
again later, each time twice as late, and given up after the last try; one that refuses for
good is not asked again."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import pytest

from tests.need import need_module
from tests.push_service import PushService

from .conftest import Player, open_table
from .pushing import Clock, play_turn, server, subscribe

need_module("pywebpush")

T = TypeVar("T")
NOON = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


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


def bo_to_act(client: Any, subs: list[Any], bo_is_here: bool = False) -> tuple[str, list[str], Any]:
    """A table of Anna and Bo, Bo's subscriptions made, Anna's first roll played: Bo's turn."""
    code, tokens = open_table(client, ["Anna", "Bo"])
    for sub in subs:
        subscribe(client, tokens[1], sub)
    bo = Player(client, code, tokens[1]) if bo_is_here else None
    assert (
        client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]}).status_code
        == 200
    )
    play_turn(client, code, tokens[0], 0)
    assert client.get(f"/api/rooms/{code}").json()["match"]["actor"] == 1
    return code, tokens, bo


def rows(client: Any, code: str) -> list[tuple[int, int, str, str | None]]:
    service = client.app.state.service
    return service.push.outbox.states(service.room(code).id)


def test_none_while_at_the_table_and_one_once_gone(db_url: str, push: PushService) -> None:
    clock = Clock(NOON)
    with server(db_url, clock) as client:
        phone = push.subscribe()
        code, _, bo = bo_to_act(client, [phone], bo_is_here=True)
        # Bo is looking at the table when his turn comes: his row waits, nothing is sent.
        wait_for(lambda: [r for r in rows(client, code) if r[3] == "at the table"])
        time.sleep(0.5)
        assert push.received(status=None) == []
        # He puts the phone away without playing: looked at again, he is told, once.
        bo.close()
        time.sleep(0.3)  # the server hears him go
        clock.now += timedelta(seconds=2)
        (told,) = wait_for(lambda: push.received(phone))
        assert (told.data["seat"], told.data["turn"]) == (1, 1)
        assert "Anna" in told.data["body"]
        time.sleep(0.5)
        assert len(push.received(status=None)) == 1
        assert rows(client, code)[-1][2] == "sent"


def test_failures_are_tried_again_later_and_given_up(db_url: str, push: PushService) -> None:
    clock = Clock(NOON)
    with server(db_url, clock, push_retry=30.0, push_attempts=3) as client:
        flaky = push.subscribe(500, 503)  # then 201
        down = push.subscribe(500, 502, 503, 201)  # the fourth try never comes
        refusing = push.subscribe(400)
        code, _, _ = bo_to_act(client, [flaky, down, refusing])

        def told(*statuses: str) -> None:
            """The sender has recorded what the push service answered last (the next try's
            time is read on the clock then: the test moves it only afterwards)."""
            wait_for(
                lambda: (
                    sorted((r[3] or "").split(" ")[0] for r in rows(client, code))
                    == sorted(statuses)
                )
            )

        for sub in (flaky, down, refusing):
            wait_for(lambda s=sub: push.received(s, status=None))
        told("500", "500", "400")
        # 30 s later (the first back-off) the second tries; a second before, nothing.
        clock.now += timedelta(seconds=29)
        time.sleep(0.4)
        assert len(push.received(status=None)) == 3
        clock.now += timedelta(seconds=2)
        wait_for(lambda: len(push.received(status=None)) == 5)
        told("503", "502", "400")
        # 60 s after that (twice as late) the third, and the last.
        clock.now += timedelta(seconds=59)
        time.sleep(0.4)
        assert len(push.received(status=None)) == 5
        clock.now += timedelta(seconds=2)
        wait_for(lambda: len(push.received(status=None)) == 7)
        clock.now += timedelta(hours=2)
        time.sleep(0.4)
        assert [m.status for m in push.received(flaky, status=None)] == [500, 503, 201]
        assert [m.status for m in push.received(down, status=None)] == [500, 502, 503]
        assert [m.status for m in push.received(refusing, status=None)] == [400]
        states = sorted(r[2] for r in rows(client, code))
        assert states == ["failed", "failed", "sent"]
        assert push.refused == []


def test_a_turn_read_from_another_worker_is_told(sqlite_url: str, push: PushService) -> None:
    """Scaled out, a worker that reads a move another worker committed writes the turn's rows
    too (``Notifier.advanced``), so a turn is told even when the worker that made the move
    died before writing them: here the mover writes nothing, and the rows come from the
    events alone, as a second worker reads them."""
    with server(sqlite_url) as client:
        service = client.app.state.service
        service.play.turned = lambda room, before: None  # the mover dies before its rows
        phone = push.subscribe()
        code, tokens = open_table(client, ["Anna", "Bo"])
        subscribe(client, tokens[1], phone)
        assert (
            client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]}).status_code
            == 200
        )
        room = service.room(code)
        before, seen = room.state, room.version
        play_turn(client, code, tokens[0], 0)
        time.sleep(0.3)
        assert push.received(status=None) == [] and rows(client, code) == []
        client.portal.call(service.push.advanced, room, before, room.events[seen:])
        (told,) = wait_for(lambda: push.received(phone))
        assert (told.data["seat"], told.data["turn"]) == (1, room.version)
