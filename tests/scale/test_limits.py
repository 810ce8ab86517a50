"""Limits over time scaled out (two workers, one PostgreSQL database, one Redis): the workers
count the same new rooms, and a room that expires is closed on every worker that holds it."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from .conftest import Client


def test_the_workers_count_the_same_new_rooms(make_cluster: Any) -> None:
    a, b = make_cluster(2, SCC_ROOMS_PER_HOUR="2")
    with httpx.Client(timeout=10) as api:
        for w in (a, b):
            assert api.post(f"{w.url}/api/rooms", json={"name": "Anna"}).status_code == 201
        for w in (a, b):
            r = api.post(f"{w.url}/api/rooms?lang=de", json={"name": "Anna"})
            assert r.status_code == 429 and r.json()["code"] == "room_limit", r.text


def test_an_idle_room_expires_on_every_worker(make_cluster: Any) -> None:
    a, b = make_cluster(2, SCC_ROOM_IDLE_SECONDS="1.5")

    async def scenario() -> None:
        with httpx.Client(timeout=10) as api:
            r = api.post(f"{a.url}/api/rooms", json={"name": "Anna", "lang": "nb"})
            code, token = r.json()["code"], r.json()["token"]
            bo = api.post(f"{b.url}/api/rooms/{code}/join", json={"name": "Bo"}).json()["token"]
        anna = await Client(a.ws, code, token, "anna@A").open()
        bo_b = await Client(b.ws, code, bo, "bo@B").open()
        end = time.monotonic() + 20
        while None in (anna.closed, bo_b.closed) and time.monotonic() < end:
            await asyncio.sleep(0.05)
        for c in (anna, bo_b):
            assert c.closed == 4410, c.name
            (err,) = c.errors()
            assert err["code"] == "expired" and err["message"].startswith("Nothing happened")
        with httpx.Client(timeout=10) as api:
            for w in (a, b):
                assert api.get(f"{w.url}/api/rooms/{code}").status_code == 404

    asyncio.run(scenario())
