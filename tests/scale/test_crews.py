"""A crew across workers (separate processes on one PostgreSQL database and one Redis): a crew
started on one worker, joined on another, its table played through both, its match recorded
exactly once, the same season answered by every worker, and a member removed on one worker
shut out on the other at once."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import psycopg

from .conftest import Client, Worker
from .play import drive


def answer(worker: Worker, crew: str, key: str) -> httpx.Response:
    return httpx.get(f"{worker.url}/api/crews/{crew}", headers={"X-Member-Key": key}, timeout=30)


def recorded(worker: Worker, crew: str, key: str, n: int) -> dict[str, Any]:
    for _ in range(600):
        body: dict[str, Any] = answer(worker, crew, key).json()
        if body["matches"] >= n and body["pending"] == 0:
            return body
        time.sleep(0.1)
    raise AssertionError("not recorded")


def test_a_crew_across_two_workers(cluster: list[Worker]) -> None:
    a, b = cluster
    made = httpx.post(f"{a.url}/api/crews", json={"name": "Friday", "member": "Anna"}).json()
    crew, anna = made["crew"], made["member_key"]
    keys = {"Anna": anna}
    for name, w in (("Bo", b), ("Cy", a)):
        r = httpx.post(
            f"{w.url}/api/crews/{crew}/members", json={"invite": made["invite"], "member": name}
        )
        assert r.status_code == 201, r.text
        keys[name] = r.json()["member_key"]
    r = httpx.post(f"{b.url}/api/rooms", json={"crew": crew}, headers={"X-Member-Key": keys["Bo"]})
    code, tokens = r.json()["code"], [r.json()["token"]]
    for name, w in (("Anna", a), ("Cy", b)):
        r = httpx.post(
            f"{w.url}/api/rooms/{code}/join", json={}, headers={"X-Member-Key": keys[name]}
        )
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    r = httpx.post(
        f"{a.url}/api/rooms/{code}/bots",
        json={"level": "easy"},
        headers={"X-Seat-Token": tokens[0]},
    )
    assert r.status_code == 201
    assert (
        httpx.post(
            f"{b.url}/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]}
        ).status_code
        == 200
    )

    async def play() -> None:
        bo = await Client(b.ws, code, tokens[0], "bo").open()
        an = await Client(a.ws, code, tokens[1], "anna").open()
        cy = await Client(a.ws, code, tokens[2], "cy").open()
        await drive({0: bo, 1: an, 2: cy}, watcher=an)
        for c in (bo, an, cy):
            await c.close()

    asyncio.run(play())
    # Both workers answer the same season, recorded once (one line per seat, not two).
    first, second = recorded(a, crew, anna, 1), recorded(b, crew, keys["Cy"], 1)
    assert first == second and first["matches"] == 1
    assert {r["name"]: r["matches"] for r in first["ratings"]} == {"Anna": 1, "Bo": 1, "Cy": 1}
    with psycopg.connect(a.db) as conn:
        lines = conn.execute(
            "SELECT count(*) FROM crew_lines l JOIN rooms r ON r.id = l.room_id WHERE r.code = %s",
            (code,),
        ).fetchone()
    assert lines == (4,)
    # A member removed on one worker is shut out on the other at once.
    cy_id = next(m["id"] for m in first["members"] if m["name"] == "Cy")
    r = httpx.delete(f"{b.url}/api/crews/{crew}/members/{cy_id}", headers={"X-Member-Key": anna})
    assert r.status_code == 200
    assert answer(a, crew, keys["Cy"]).status_code == 404
    after = answer(a, crew, anna).json()
    assert {m["name"] for m in after["members"]} == {"Anna", "Bo"}


def test_two_workers_recording_one_match_write_it_once(cluster: list[Worker]) -> None:
    """The worker that did not end the match is told to record it too (as a crew page asked
    on it would): the second recording finds it done and writes nothing."""
    a, b = cluster
    made = httpx.post(f"{a.url}/api/crews", json={"name": "Friday", "member": "Anna"}).json()
    crew, anna = made["crew"], made["member_key"]
    r = httpx.post(f"{a.url}/api/rooms", json={"crew": crew}, headers={"X-Member-Key": anna})
    code, token = r.json()["code"], r.json()["token"]
    r = httpx.post(f"{a.url}/api/rooms/{code}/join", json={"name": "Gus"})
    gus = r.json()["token"]
    httpx.post(f"{a.url}/api/rooms/{code}/start", headers={"X-Seat-Token": token})

    async def play() -> None:
        an = await Client(a.ws, code, token, "anna").open()
        gu = await Client(a.ws, code, gus, "gus").open()
        await drive({0: an, 1: gu}, watcher=an)
        await an.close()
        await gu.close()

    asyncio.run(play())
    # Asked at once on both workers, over and over, while the first recording runs.
    for _ in range(20):
        answer(a, crew, anna)
        answer(b, crew, anna)
    body = recorded(b, crew, anna, 1)
    assert body["matches"] == 1
    with psycopg.connect(a.db) as conn:
        (n,) = conn.execute(
            "SELECT count(*) FROM crew_lines l JOIN rooms r ON r.id = l.room_id WHERE r.code = %s",
            (code,),
        ).fetchone() or (0,)
    assert n == 2
