"""Driving a match from the tests: the player to act plays a legal choice, everyone watches."""

from __future__ import annotations

from typing import Any

from .conftest import Client, move_of


async def drive(
    seats: dict[int, Client], watcher: Client, stop: Any = None, pick: int = 0, limit: int = 3000
) -> dict[str, Any]:
    """Play (humans in ``seats``; bots play themselves) until the match is over or ``stop(room)``.

    Each move is sent only once the watcher saw the previous one, so every move is legal and
    current; a refusal fails the test at once.
    """
    room = await watcher.until(lambda r: r["status"] in ("playing", "over"))
    for _ in range(limit):
        if room["match"]["over"] or (stop is not None and stop(room)):
            return room
        actor = room["match"]["actor"]
        if actor in seats:
            before = len(seats[actor].messages)
            await seats[actor].send(**move_of(room, pick))
        version = room["version"]
        room = await watcher.until(lambda r, v=version: r["version"] > v)
        if actor in seats:
            errors = [m for m in seats[actor].messages[before:] if m["type"] == "error"]
            assert not errors, errors
    raise AssertionError("the match did not end")
