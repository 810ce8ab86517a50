"""The party table's server side scaled out: two workers (separate processes on one PostgreSQL
database and one Redis) agree on the host when the host walks away."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from .conftest import Client, make_room


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
