"""A crew member's phone subscribes once (``X-Member-Key``) and is told of their turns at every
table of the crew they sit at, but not at one they muted; a key of nobody, or a table the member
does not sit at, is refused.  Each notification is decrypted by the tests' push service with
the subscription's own key, its VAPID signature checked."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any, TypeVar

import pytest

from tests.need import need_module
from tests.push_service import PushService

from .crews import Crew, start_crew
from .pushing import Clock, play_turn, server

need_module("pywebpush")

NOON = datetime(2026, 3, 2, 11, 0, tzinfo=UTC)
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


def slow_table(client: Any, crew: Crew) -> tuple[str, str]:
    """A slow table Anna opens for the crew, Bo seated by his key; (code, Anna's token)."""
    r = client.post(
        "/api/rooms", json={"crew": crew.id, "turn_hours": 8}, headers=crew.headers("Anna")
    )
    assert r.status_code == 201, r.text
    code, token = r.json()["code"], r.json()["token"]
    r = client.post(f"/api/rooms/{code}/join", json={}, headers=crew.headers("Bo"))
    assert r.status_code == 201, r.text
    return code, token


def test_a_member_is_told_at_each_crew_table_but_a_muted_one(
    sqlite_url: str, push: PushService
) -> None:
    with server(sqlite_url, Clock(NOON)) as client:
        push.server_key = client.get("/api/push/key").json()["key"]
        crew = start_crew(client, "Friday", "Anna", "Bo")
        phone = push.subscribe()
        r = client.post(
            "/api/push/subscriptions",
            json={**phone.json(), "lang": "nb"},
            headers=crew.headers("Bo"),
        )
        assert r.status_code == 201, r.text
        sub = r.json()["id"]
        first, anna_first = slow_table(client, crew)
        quiet, anna_quiet = slow_table(client, crew)
        r = client.patch(
            f"/api/push/subscriptions/{sub}",
            json={"room": quiet, "muted": True},
            headers=crew.headers("Bo"),
        )
        assert (r.status_code, r.json()["muted"], r.json()["room"]) == (200, True, quiet)
        for code, token in ((first, anna_first), (quiet, anna_quiet)):
            r = client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": token})
            assert r.status_code == 200, r.text
            room = client.get(f"/api/rooms/{code}").json()
            if room["match"]["actor"] == 0:
                play_turn(client, code, token, 0)
            assert client.get(f"/api/rooms/{code}").json()["match"]["actor"] == 1
        (told,) = wait_for(lambda: [m for m in push.received() if m.subscription == phone.id])
        assert (told.data["code"], told.data["seat"]) == (first, 1)
        assert told.data["title"] == f"Din tur ved bord {first}"
        time.sleep(0.5)  # the sender looks ten times: the muted table stays silent
        assert [m.data["code"] for m in push.received() if m.subscription == phone.id] == [first]


def test_strangers_and_other_tables_are_refused(sqlite_url: str, push: PushService) -> None:
    with server(sqlite_url) as client:
        crew = start_crew(client, "Friday", "Anna", "Bo")
        other = start_crew(client, "Sunday", "Cy")
        theirs, _ = slow_table(client, crew)
        body = push.subscribe().json()
        nobody = client.post(
            "/api/push/subscriptions", json=body, headers={"X-Member-Key": "x" * 43}
        )
        assert nobody.status_code == 404
        elsewhere = client.post(
            "/api/push/subscriptions", json={**body, "room": theirs}, headers=other.headers("Cy")
        )
        assert elsewhere.status_code == 404
        mine = client.post("/api/push/subscriptions", json=body, headers=crew.headers("Anna"))
        assert mine.status_code == 201
        stolen = client.get(
            f"/api/push/subscriptions/{mine.json()['id']}", headers=other.headers("Cy")
        )
        assert stolen.status_code == 404
