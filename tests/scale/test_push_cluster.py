"""Your turn, told once by one of several workers: two ``scc serve`` processes on one
PostgreSQL database and one Redis, three people playing through both, each told by the tests'
push service exactly once per turn while both workers look at the outbox, and still exactly
once when one worker is killed mid-match and started again."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import httpx
import pytest

from tests.need import need_module
from tests.push_service import PushService
from tests.web.pushing import play_turn_ws, turns_of

from .conftest import Worker, make_room

need_module("pywebpush")

T = TypeVar("T")
#: Every worker looks at the outbox this often, so both race for every row; nobody away has
#: their turns played by a bot (as at a slow table): each turn waits for its person.
PUSH_ENV = {
    "SCC_PUSH_LOCAL_ENDPOINTS": "true",
    "SCC_PUSH_WAIT": "0",
    "SCC_PUSH_POLL": "0.1",
    "SCC_ABSENT_GRACE": "3600",
}


@pytest.fixture
def push() -> Iterator[PushService]:
    service = PushService().start()
    yield service
    service.stop()


def wait_for(what: Callable[[], T], timeout: float = 60.0) -> T:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = what()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError("it never happened")


def test_each_turn_is_told_once_by_one_of_two_workers(make_cluster: Any, push: PushService) -> None:
    a, b = make_cluster(2, **PUSH_ENV)
    api = httpx.Client(base_url=a.url, timeout=20)
    keys = {
        api.get("/api/push/key").json()["key"],
        httpx.get(b.url + "/api/push/key").json()["key"],
    }
    assert len(keys) == 1  # one key pair for the server, whichever worker made it
    push.server_key = keys.pop()
    code, tokens = make_room(api, ["Anna", "Bo", "Cy"], start=False, settings=["format=rounds:2"])
    phones = [push.subscribe() for _ in tokens]
    for token, phone in zip(tokens, phones, strict=True):
        r = api.post("/api/push/subscriptions", json=phone.json(), headers={"X-Seat-Token": token})
        assert r.status_code == 201, r.text
    assert (
        api.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]}).status_code == 200
    )
    seat_of = {p.id: seat for seat, p in enumerate(phones)}
    workers: list[Worker] = [a, b, a]  # Anna and Cy play through A, Bo through B

    def told(seat: int, turn: int) -> list[Any]:
        return [
            m
            for m in push.received()
            if seat_of[m.subscription] == seat and (m.data["seat"], m.data["turn"]) == (seat, turn)
        ]

    played = 0
    while True:
        room = httpx.get(f"{b.url}/api/rooms/{code}", timeout=20).json()
        seat, turn = room["match"]["actor"], room["version"]
        if seat is None:
            break
        try:
            wait_for(lambda s=seat, t=turn: told(s, t))
        except AssertionError:
            print(
                "DEBUG",
                played,
                seat,
                turn,
                [(m.data["turn"], m.data["seat"]) for m in push.received(status=None)],
                push.refused,
            )
            print(a.log.read_text()[-3000:])
            print(b.log.read_text()[-3000:])
            raise
        worker = workers[seat] if workers[seat].alive() else b
        play_turn_ws(worker.url.replace("http", "ws"), code, tokens[seat], seat)
        played += 1
        if played == 4:  # worker A killed mid-match (its rows, claims and all), then back
            a.kill()
        if played == 6:
            a.start()
    expected = turns_of(api, code, {0, 1, 2})
    got = Counter((m.data["turn"], m.data["seat"]) for m in push.received())
    assert got == Counter(expected), (sorted(got), expected)
    assert len(expected) >= 9 and push.refused == []
