"""A table screen counts for every phone at the table, whichever worker each is on (issue 26:
with a table screen in the room each phone shows its compact view).  Three workers on one
database and one Redis: the screen on worker A, the players' phones on B and C."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from .conftest import Client, make_room


class Screen(Client):
    """A table screen: its hello says so, and it never holds a seat."""

    async def open(self) -> Client:
        from websockets.asyncio.client import connect

        self.ws = await connect(f"{self.base}/ws/rooms/{self.code}", open_timeout=10)
        await self.ws.send(json.dumps({"type": "hello", "screen": True}))
        self.welcome = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
        self._reader = asyncio.get_running_loop().create_task(self._read())
        await self.until(lambda r: True)  # its first picture: it is in
        return self


def test_a_screen_on_one_worker_turns_the_phones_on_the_others_compact(
    make_cluster: Any,
) -> None:
    a, b, c = make_cluster(3)

    async def scenario() -> None:
        with httpx.Client(base_url=a.url, timeout=10) as api:
            code, tokens = make_room(api, ["Anna", "Bo"])
        anna = await Client(b.ws, code, tokens[0], "anna").open()
        bo = await Client(c.ws, code, tokens[1], "bo").open()
        for phone in (anna, bo):
            await phone.until(lambda r: all(p["online"] for p in r["players"]))
            assert phone.room["screens"] == 0
        screen = await Screen(a.ws, code, None, "screen").open()
        # Not paired yet: a spectator, and no phone turns compact for it.
        await anna.until(lambda r: r["spectators"] == 1)
        assert anna.room["screens"] == 0
        await anna.send(type="pair", code=screen.welcome["screen"]["code"])  # Anna, on B
        # The phones on B and C hear of the screen on A: one screen, one watcher, no seat.
        for phone in (anna, bo):
            room = await phone.until(lambda r: r["screens"] == 1)
            assert room["spectators"] == 1
            assert all(p["online"] for p in room["players"])
        assert screen.room["screens"] == 1 and screen.seat is None
        await screen.close()
        # Switched off: the phones go back to their full view.
        for phone in (anna, bo):
            room = await phone.until(lambda r: r["screens"] == 0)
            assert room["spectators"] == 0
        assert not anna.errors() and not bo.errors()
        await anna.close()
        await bo.close()

    asyncio.run(scenario())
