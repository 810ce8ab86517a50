"""Helpers of the push tests: a server in this process whose notifier runs on a clock the test
sets, subscriptions made as a page makes them, and a person who opens the table when told it
is their turn, plays the turn through and closes it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from shipcaptaincrew.engine import seat_to_act
from shipcaptaincrew.notation import MatchLog, replay_states

from .conftest import SERVER_SEED, Player


class Clock:
    """The notifier's clock, set by the test (quiet hours, waits and retries read it)."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@contextmanager
def server(db_url: str, clock: Clock | None = None, **settings: Any) -> Iterator[Any]:
    """The app on ``db_url`` (started, its notifier on ``clock``) and a TestClient for it;
    leaving the block stops it as a server process stops."""
    from fastapi.testclient import TestClient

    from shipcaptaincrew.web import Settings, create_app

    options: dict[str, Any] = {
        "bot_delay": 0.0,
        "rate_per_second": 1000.0,
        "rate_burst": 1000,
        "fixed_server_seed": SERVER_SEED,
        "rooms_per_hour": 0,
        "push_local_endpoints": True,
        "push_wait": 0.0,
        "push_poll": 0.05,
        **settings,
    }
    app = create_app(Settings(db_url=db_url, **options))
    if clock is not None:  # before the start: the first look at the outbox reads it already
        app.state.service.push.clock = clock
        app.state.service.slow.clock = clock  # a slow table's deadlines
    with TestClient(app) as client:
        yield client


def subscribe(client: Any, token: str, sub: Any, **choices: Any) -> dict[str, Any]:
    """Subscribe a browser (a tests.push_service Subscription) for the seat of ``token``."""
    r = client.post(
        "/api/push/subscriptions", json={**sub.json(), **choices}, headers={"X-Seat-Token": token}
    )
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def play_turn(client: Any, code: str, token: str, seat: int) -> dict[str, Any]:
    """The person of ``seat`` opens the table, plays their turn through (the first choice
    offered each time) and closes it; returns the picture they last saw."""
    p = Player(client, code, token)
    try:
        room = p.until(lambda r: r["match"] is not None)
        while room["match"]["actor"] == seat:
            choice = room["match"]["legal"][0]
            kind = {"type": "roll"} if choice == "roll" else {"type": "act", "action": choice}
            p.send(**kind, version=room["version"])
            room = p.until(lambda r, v=room["version"]: r["version"] > v)
        return room
    finally:
        p.close()


def turns_of(client: Any, code: str, persons: set[int]) -> list[tuple[int, int]]:
    """Every turn of a person in the stored log, as (the version it began at, seat): the
    engine's seat to act changes at each."""
    log = MatchLog.from_jsonl(client.get(f"/api/matches/{code}/log").text)
    seats = [seat_to_act(state) for state, _ in replay_states(log)]
    return [
        (version, seat)
        for version, seat in enumerate(seats)
        if seat is not None and seat in persons and (version == 0 or seats[version - 1] != seat)
    ]


def play_turn_ws(base: str, code: str, token: str, seat: int) -> dict[str, Any]:
    """:func:`play_turn` against a server process (``base``: its ``ws://host:port``)."""
    import json

    from websockets.sync.client import connect

    with connect(f"{base}/ws/rooms/{code}", open_timeout=60) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        room: dict[str, Any] = {}

        def until(predicate: Any) -> dict[str, Any]:
            nonlocal room
            while not (room and predicate(room)):
                msg = json.loads(ws.recv(60))
                if msg["type"] == "room":
                    room = msg["room"]
            return room

        until(lambda r: r["match"] is not None)
        while room["match"]["actor"] == seat:
            choice = room["match"]["legal"][0]
            kind = {"type": "roll"} if choice == "roll" else {"type": "act", "action": choice}
            ws.send(json.dumps({**kind, "version": room["version"]}))
            until(lambda r, v=room["version"]: r["version"] > v)
        return room
