"""A web table with a bot, in-process, for the tests outside ``tests/web`` that check one rule
set at the table (a house rule, a rolls count): the real app on a SQLite file, the host's live
connection, and the pictures it is sent."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .need import need_module


@contextmanager
def hosted_with_a_bot(tmp_path: Path, settings: list[str], **create: Any) -> Iterator[Any]:
    """Anna's live connection (hello said) to a table she made with rule ``settings`` (and
    the create request's ``create`` fields), an easy bot seated and the match started."""
    need_module("fastapi")
    from fastapi.testclient import TestClient

    from shipcaptaincrew.web import Settings, create_app

    # Quick bots, and no rate limit for a host who answers each picture at once.
    quick: dict[str, Any] = {"bot_delay": 0.0, "rate_per_second": 1e3, "rate_burst": 1000}
    config = Settings(db_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", **quick)
    with TestClient(create_app(config)) as client:
        made = client.post("/api/rooms", json={"name": "Anna", "settings": settings, **create})
        assert made.status_code == 201, made.text
        code, token = made.json()["code"], made.json()["token"]
        seat = {"X-Seat-Token": token}
        bot = client.post(f"/api/rooms/{code}/bots", json={"level": "easy"}, headers=seat)
        assert bot.status_code == 201, bot.text
        assert client.post(f"/api/rooms/{code}/start", headers=seat).status_code == 200
        with client.websocket_connect(f"/ws/rooms/{code}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": token, "lang": "en"}))
            yield ws


def match_pictures(ws: Any, most: int) -> Iterator[dict[str, Any]]:
    """The room pictures with a match the connection is sent (at most ``most`` messages
    read); a refusal other than a stale move (sent on a picture the bot has since moved on
    from) fails the test."""
    for _ in range(most):
        msg = ws.receive_json()
        assert msg["type"] != "error" or msg["code"] == "stale", msg
        if msg["type"] == "room" and msg["room"]["match"] is not None:
            yield msg["room"]


def choose(ws: Any, room: dict[str, Any], choice: str) -> None:
    """Send the host's ``choice`` (one of the picture's ``legal`` ids) on ``room``."""
    kind = {"type": "roll"} if choice == "roll" else {"type": "act", "action": choice}
    ws.send_text(json.dumps({**kind, "version": room["version"]}))
