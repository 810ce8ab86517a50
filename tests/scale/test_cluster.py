"""Two workers (separate processes on one PostgreSQL database and one Redis) serve one table."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from typing import Any

import httpx
import pytest

from shipcaptaincrew.notation import MatchLog, replay_states

from .conftest import Client, PgCluster, RedisServer, Worker, make_room, move_of
from .play import drive


def check_log(api: httpx.Client, code: str, version: int) -> MatchLog:
    """The stored log: one event per version, replaying with the engine, fair dice verified."""
    log = MatchLog.from_jsonl(api.get(f"/api/matches/{code}/log").text)
    assert len(log.events) == version
    replay_states(log)  # raises on any event the engine refuses
    assert api.get(f"/api/matches/{code}/verify").json()["ok"]
    return log


def test_players_on_two_workers_play_a_full_match(cluster: list[Worker]) -> None:
    a, b = cluster

    async def scenario() -> None:
        with httpx.Client(base_url=a.url, timeout=10) as api:
            code, tokens = make_room(api, ["Anna", "Bo", "Cy"], bots=["medium"])
        # Anna and Cy on worker A, Bo and a spectator on worker B.
        anna = await Client(a.ws, code, tokens[0], "anna").open()
        bo = await Client(b.ws, code, tokens[1], "bo").open()
        cy = await Client(a.ws, code, tokens[2], "cy").open()
        spectator = await Client(b.ws, code, None, "spectator").open()
        everyone = [anna, bo, cy, spectator]
        # Presence crosses workers: each sees all three players online and the one spectator.
        for c in everyone:
            await c.until(lambda r: all(p["online"] for p in r["players"]) and r["spectators"] == 1)
        final = await drive({0: anna, 1: bo, 2: cy}, watcher=bo)
        for c in everyone:
            room = await c.until(lambda r: r["match"]["over"])
            assert room["version"] == final["version"]
            assert room["match"] == final["match"]
            versions = c.versions()
            assert versions == sorted(versions), f"{c.name} saw versions out of order"
        # Every event narrated to every player, in the same order, whichever worker made it.
        assert anna.lines() == bo.lines() == cy.lines() == spectator.lines()
        assert len(anna.lines()) >= final["version"]
        assert not any(c.errors() for c in everyone)
        await spectator.close()  # leaving worker B shows on worker A
        await bo.close()
        await anna.until(lambda r: r["spectators"] == 0 and not r["players"][1]["online"])
        for c in everyone:
            await c.close()
        for w in (a, b):
            with httpx.Client(base_url=w.url, timeout=10) as api:
                check_log(api, code, final["version"])
                assert api.get(f"/api/rooms/{code}").json()["match"] == final["match"]

    asyncio.run(scenario())
    for w in (a, b):  # a healthy match leaves no warning in the structured logs
        records = [json.loads(x) for x in w.log.read_text().splitlines() if x.startswith("{")]
        assert records and all({"ts", "level", "logger", "msg"} <= set(r) for r in records)
        assert not [r for r in records if r["level"] not in ("debug", "info")], records


def test_lobby_changes_reach_the_other_worker(cluster: list[Worker]) -> None:
    """Joining, seating a bot and removing a seat through one worker shows on the other."""
    a, b = cluster

    async def scenario() -> None:
        with (
            httpx.Client(base_url=a.url, timeout=10) as api_a,
            httpx.Client(base_url=b.url, timeout=10) as api_b,
        ):
            code, tokens = make_room(api_a, ["Host"], start=False)
            host_on_b = await Client(b.ws, code, tokens[0], "host").open()
            r = api_a.post(f"/api/rooms/{code}/join", json={"name": "Dee"})
            dee_token = r.json()["token"]
            await host_on_b.until(lambda r: [p["name"] for p in r["players"]] == ["Host", "Dee"])
            api_b.post(f"/api/rooms/{code}/join", json={"name": "Eve"})
            api_a.post(
                f"/api/rooms/{code}/bots",
                json={"level": "easy"},
                headers={"X-Seat-Token": tokens[0]},
            )
            dee = await Client(a.ws, code, dee_token, "dee").open()
            assert dee.seat == 1
            # The host removes Eve (seat 2) through worker B; A sees it, Dee keeps seat 1.
            assert (
                api_b.delete(
                    f"/api/rooms/{code}/seats/2", headers={"X-Seat-Token": tokens[0]}
                ).status_code
                == 200
            )
            await dee.until(lambda r: [p["name"] for p in r["players"]] == ["Host", "Dee", "Bot 1"])
            # The host starts on A; B's clients see the match begin.
            assert (
                api_a.post(
                    f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]}
                ).status_code
                == 200
            )
            await host_on_b.until(lambda r: r["status"] == "playing")
            final = await drive({0: host_on_b, 1: dee}, watcher=dee)
            assert api_b.get(f"/api/rooms/{code}").json()["match"] == final["match"]
            await host_on_b.close()
            await dee.close()

    asyncio.run(scenario())


def test_same_seat_twice_on_two_workers_one_move_applied(cluster: list[Worker]) -> None:
    """Two connections of one seat (one per worker) send the same move at the same moment."""
    a, b = cluster

    async def scenario() -> None:
        with httpx.Client(base_url=a.url, timeout=10) as api:
            code, tokens = make_room(
                api, ["Anna", "Bo"], settings=["format=rounds:3", "starter=chosen"]
            )
        anna_a = await Client(a.ws, code, tokens[0], "anna@A").open()
        anna_b = await Client(b.ws, code, tokens[0], "anna@B").open()
        anna_a2 = await Client(a.ws, code, tokens[0], "anna@A2").open()
        bo = await Client(b.ws, code, tokens[1], "bo").open()
        room = await bo.until(lambda r: r["status"] == "playing")
        races = 0
        while not room["match"]["over"] and races < 12:
            actor = room["match"]["actor"]
            version = room["version"]
            if actor == 0:
                # Alternate: across workers, and two tabs on the same worker.
                pair = (anna_a, anna_b) if races % 2 == 0 else (anna_a, anna_a2)
                marks = [len(c.messages) for c in pair]
                msg = move_of(room)
                await asyncio.gather(*(c.send(**msg) for c in pair))
                room = await bo.until(lambda r, v=version: r["version"] > v)
                assert room["version"] == version + 1 or room["match"]["actor"] != 0
                # Exactly one applied: the other connection is refused.  Once both have
                # answered a ping, every reply to the move is in (no waiting on the clock).
                await asyncio.gather(*(c.settle(k) for c, k in zip(pair, marks)))
                replies = [
                    m for c, k in zip(pair, marks) for m in c.messages[k:] if m["type"] == "error"
                ]
                # The loser's version is old: "stale", or "not your turn" when the winner's
                # move passed the turn on.  Either way one refusal, so one move applied.
                assert len(replies) == 1 and replies[0]["code"] in ("stale", "not_your_turn"), (
                    replies
                )
                assert replies[0]["message"]
                races += 1
            else:
                await bo.send(**move_of(room))
                room = await bo.until(lambda r, v=version: r["version"] > v)
        # The database holds one event per version, nothing doubled.
        with httpx.Client(base_url=b.url, timeout=10) as api:
            room = api.get(f"/api/rooms/{code}").json()
            log = (
                MatchLog.from_jsonl(api.get(f"/api/matches/{code}/log").text)
                if room["status"] == "over"
                else None
            )
        assert races >= 4
        if log is not None:
            assert len(log.events) == room["version"]
        for c in (anna_a, anna_b, anna_a2, bo):
            await c.close()

    asyncio.run(scenario())


def test_workers_flag_serves_one_port_from_several_processes(
    pg: PgCluster, redis_server: RedisServer
) -> None:
    """``scc serve --workers 2``: one port, two worker processes, a match played through it.

    Which worker accepts a new connection is up to the kernel's scheduling (the one that is
    ready first, often the one that just answered; the second may still be starting), so the
    test does not hope for a spread: it stops the worker that answered (SIGSTOP) and asks
    again on a new connection, which only the other worker of the same port can then accept.
    """
    server = Worker(pg.new_database(), redis_server.url, workers=2)
    server.start()
    assert server.proc is not None
    try:
        first = httpx.get(server.url + "/healthz", timeout=10).json()["pid"]
        assert first != server.proc.pid and os.getpgid(first) == server.proc.pid
        os.kill(first, signal.SIGSTOP)
        try:
            second = httpx.get(server.url + "/healthz", timeout=60).json()["pid"]
        finally:
            # (Stopped long enough, the supervisor replaces it: then it is gone already.)
            with contextlib.suppress(ProcessLookupError):
                os.kill(first, signal.SIGCONT)
        assert second != first and os.getpgid(second) == server.proc.pid
        with httpx.Client(base_url=server.url, timeout=10) as api:
            ready = api.get("/readyz").json()
            assert ready["checks"] == {"database": "ok", "redis": "ok"}
            code, tokens = make_room(api, ["Anna", "Bo"], bots=["easy"])

        async def scenario() -> dict[str, Any]:
            clients = [
                await Client(server.ws, code, t, f"p{i}").open() for i, t in enumerate(tokens)
            ]
            final = await drive({0: clients[0], 1: clients[1]}, watcher=clients[1])
            await clients[0].until(lambda r: r["match"]["over"])
            assert clients[0].lines() == clients[1].lines()
            for c in clients:
                await c.close()
            return final

        final = asyncio.run(scenario())
        with httpx.Client(base_url=server.url, timeout=10) as api:
            check_log(api, code, final["version"])
    finally:
        server.stop()
        server.log.unlink(missing_ok=True)
    assert server.proc is None


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--workers", "2"], "--workers above 1 needs"),
        (["--redis", "redis://127.0.0.1:1/0"], "--redis links workers"),
        (["--db", "postgresql://x@127.0.0.1:1/x", "--redis", "http://x"], "--redis must be"),
    ],
)
def test_bad_scale_options_fail_clearly(argv: list[str], message: str, tmp_path: Any) -> None:
    import subprocess
    import sys

    from .conftest import SCC

    args = ["--db", f"sqlite:///{tmp_path / 'x.sqlite3'}", *argv] if "--db" not in argv else argv
    r = subprocess.run(
        [sys.executable, "-c", SCC, "serve", *args], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 2
    assert message in r.stderr
