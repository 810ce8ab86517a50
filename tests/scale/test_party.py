"""The party table's server side scaled out: two workers (separate processes on one PostgreSQL
database and one Redis) agree on the host when the host walks away."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import httpx

from .conftest import Client, Worker, make_room
from .play import drive


def test_the_host_role_passes_on_across_workers(make_cluster: Any) -> None:
    a, b = make_cluster(2, SCC_HOST_GRACE="1")

    async def scenario() -> None:
        with httpx.Client(base_url=a.url, timeout=10) as api:
            code, tokens = make_room(api, ["Host", "Bo", "Cy"], start=False)
        host = await Client(a.ws, code, tokens[0], "host@A").open()
        bo = await Client(b.ws, code, tokens[1], "bo@B").open()
        cy = await Client(a.ws, code, tokens[2], "cy@A").open()
        for c in (host, bo, cy):
            await c.until(lambda r: all(p["online"] for p in r["players"]))
        await host.close()
        # In the lobby: the next person online after the host's seat, on whichever worker.
        for c in (bo, cy):
            await c.until(lambda r: r["host"] == 1)
        with httpx.Client(timeout=10) as api:
            as_bo = {"X-Seat-Token": tokens[1]}
            assert (
                api.post(f"{a.url}/api/rooms/{code}/bots", json={}, headers=as_bo).status_code
                == 201
            )
            r = api.post(f"{b.url}/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
            assert r.json()["code"] == "not_host"
            assert api.post(f"{b.url}/api/rooms/{code}/start", headers=as_bo).status_code == 200
        await cy.until(lambda r: r["status"] == "playing")
        # During play (another path: the workers tell each other, nothing is in the lobby):
        # Bo leaves worker B, and Cy on worker A becomes host on both.
        await bo.close()
        await cy.until(lambda r: r["host"] == 2)
        watcher = await Client(b.ws, code, None, "spectator@B").open()
        await watcher.until(lambda r: r["host"] == 2)
        with httpx.Client(timeout=10) as api:
            for w in (a, b):
                assert api.get(f"{w.url}/api/rooms/{code}").json()["host"] == 2
        for c in (cy, watcher):
            assert not c.errors()
            await c.close()

    asyncio.run(scenario())


def test_play_again_across_workers(cluster: list[Worker]) -> None:
    """Anna confirms on one worker, Bo on the other: one next room, both sent on to it (Bo by
    his own worker, told through the relay), and the next match is played across both."""
    a, b = cluster

    async def scenario() -> None:
        with httpx.Client(base_url=a.url, timeout=10) as api:
            code, tokens = make_room(api, ["Anna", "Bo"], bots=["easy"])
        anna = await Client(a.ws, code, tokens[0], "anna@A").open()
        bo = await Client(b.ws, code, tokens[1], "bo@B").open()
        cy = await Client(b.ws, code, None, "cy@B").open()
        await cy.send(type="seat_next", name="Cy")
        final = await drive({0: anna, 1: bo}, watcher=bo)
        await anna.until(lambda r: r["status"] == "over")
        await anna.send(type="rematch", version=final["version"])
        await bo.until(lambda r: (r["rematch"] or {}).get("confirmed") == [0, 2])
        await bo.send(type="rematch", version=final["version"])
        moved = {c.name: await _moved(c) for c in (anna, bo, cy)}
        new = moved["anna@A"]["code"]
        assert {m["code"] for m in moved.values()} == {new}
        assert [moved[n]["seat"] for n in ("anna@A", "bo@B", "cy@B")] == [0, 1, 3]
        seats = {
            0: await Client(b.ws, new, moved["anna@A"]["token"], "anna@B").open(),
            1: await Client(a.ws, new, moved["bo@B"]["token"], "bo@A").open(),
            3: await Client(a.ws, new, moved["cy@B"]["token"], "cy@A").open(),
        }
        done = await drive(seats, watcher=seats[1])
        assert done["status"] == "over"
        with httpx.Client(timeout=10) as api:
            for w in (a, b):
                names = [p["name"] for p in api.get(f"{w.url}/api/rooms/{new}").json()["players"]]
                assert names == ["Anna", "Bo", "Bot 1", "Cy"]
                # Every worker knows the table moved on, and none tells where to a stranger.
                old = api.get(f"{w.url}/api/rooms/{code}")
                assert old.json()["rematch"]["moved_on"] and new not in old.text
        for c in (anna, bo, cy, *seats.values()):
            await c.close()

    asyncio.run(scenario())


async def _moved(client: Client, timeout: float = 15.0) -> dict[str, Any]:
    """The ``moved`` message a client got (waiting for it if need be)."""
    end = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < end:
        for m in client.messages:
            if m["type"] == "moved":
                return m
        await asyncio.sleep(0.05)
    raise AssertionError(f"{client.name}: no moved message")


def test_a_bot_s_reason_reaches_the_other_worker(cluster: list[Worker]) -> None:
    """The bot plays on worker A; a spectator on worker B (in Norwegian) reads why, too: B
    explains the newest move it takes in from the database itself (the bot is deterministic)."""
    a, b = cluster

    async def scenario() -> None:
        with httpx.Client(base_url=a.url, timeout=10) as api:
            code, tokens = make_room(api, ["Anna"], bots=["hard"], settings=["format=rounds:5"])
        anna = await Client(a.ws, code, tokens[0], "anna@A").open()
        nb = await Client(b.ws, code, None, "spectator@B").open()
        await nb.send(type="hello", lang="nb")
        await drive({0: anna}, watcher=anna)
        await nb.until(lambda r: r["status"] == "over")
        mine = [m["room"]["moment"] for m in anna.messages if m["type"] == "room"]
        theirs = [m["room"]["moment"] for m in nb.messages if m["type"] == "room"]
        here = [m["reason"] for m in mine if m and "reason" in m]
        there = [m["reason"] for m in theirs if m and "reason" in m]
        assert here and there and all(r["seat"] == 1 for r in here + there)
        assert all(r["text"].startswith("expects ") for r in here)
        assert all(re.match(r"venter \d+,\d\d poeng", r["text"]) for r in there), there
        for c in (anna, nb):
            assert not c.errors()
            await c.close()

    asyncio.run(scenario())
