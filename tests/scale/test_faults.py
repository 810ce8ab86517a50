"""Faults with real servers: a worker killed with SIGKILL, Redis stopped, PostgreSQL stopped."""

from __future__ import annotations

import asyncio
import json
import signal
from typing import Any

import httpx
import psycopg

from shipcaptaincrew.notation import MatchLog, replay_states

from .conftest import Client, PgCluster, RedisServer, Worker, make_room, move_of, wait_ready
from .play import drive


def stored_events(db_url: str, code: str) -> list[int]:
    """Event numbers stored for a room, straight from PostgreSQL."""
    with psycopg.connect(db_url) as conn:
        rows = conn.execute(
            "SELECT e.seq FROM events e JOIN rooms r ON r.id = e.room_id "
            "WHERE r.code = %s ORDER BY e.seq",
            (code,),
        ).fetchall()
    return [r[0] for r in rows]


def finish_and_check(api: httpx.Client, code: str, final: dict[str, Any], db: str) -> None:
    log = MatchLog.from_jsonl(api.get(f"/api/matches/{code}/log").text)
    assert len(log.events) == final["version"]
    assert replay_states(log)[-1][0].totals == tuple(final["match"]["totals"])
    assert api.get(f"/api/matches/{code}/verify").json()["ok"]
    assert stored_events(db, code) == list(range(final["version"]))  # no gap, no double


def test_kill_a_worker_mid_turn_and_continue_on_the_other(make_cluster: Any) -> None:
    a, b = make_cluster(SCC_BOT_DELAY="0.2")

    async def scenario() -> None:
        with httpx.Client(base_url=a.url, timeout=10) as api:
            code, tokens = make_room(
                api, ["Anna", "Bo"], bots=["medium"], settings=["format=rounds:3", "starter=chosen"]
            )
        anna = await Client(a.ws, code, tokens[0], "anna@A").open()
        bo = await Client(b.ws, code, tokens[1], "bo@B").open()

        def mid_turn(r: dict[str, Any]) -> bool:  # Anna has rolled and must choose again
            m = r["match"]
            return (
                r["version"] >= 8
                and m["actor"] == 0
                and m["turn"] is not None
                and m["turn"]["rolls_used"] >= 1
            )

        room = await drive({0: anna, 1: bo}, watcher=bo, stop=mid_turn)
        before = room
        a.kill()  # SIGKILL: the worker dies between two of Anna's rolls
        # Anna's browser reconnects, landing on worker B with her seat token.
        anna = await Client(b.ws, code, tokens[0], "anna@B").open()
        assert anna.seat == 0
        room = await anna.until(lambda r: r["version"] >= before["version"])
        assert room["version"] == before["version"] and room["match"] == before["match"]
        final = await drive({0: anna, 1: bo}, watcher=bo)
        await anna.until(lambda r: r["match"]["over"])
        assert anna.room["match"] == final["match"]
        for c in (anna, bo):
            await c.close()
        with httpx.Client(base_url=b.url, timeout=10) as api:
            finish_and_check(api, code, final, b.db)

    asyncio.run(scenario())


def test_bot_whose_worker_died_is_played_by_the_other(make_cluster: Any) -> None:
    """A bot's next move was due on the killed worker: the survivor takes it over."""
    a, b = make_cluster(SCC_BOT_DELAY="0.3")

    async def scenario() -> None:
        with httpx.Client(base_url=a.url, timeout=10) as api:
            code, tokens = make_room(
                api, ["Anna"], bots=["easy"], settings=["format=rounds:2", "starter=chosen"]
            )
        anna = await Client(a.ws, code, tokens[0], "anna@A").open()
        watcher = await Client(b.ws, code, None, "watcher@B").open()
        # Anna plays on A until her move hands the dice to the bot, then A dies at once.
        room = await drive({0: anna}, watcher=anna, stop=lambda r: r["match"]["actor"] == 1)
        a.kill()
        version = room["version"]
        room = await watcher.until(lambda r: r["version"] > version, timeout=60)
        anna = await Client(b.ws, code, tokens[0], "anna@B").open()
        final = await drive({0: anna}, watcher=watcher)
        with httpx.Client(base_url=b.url, timeout=10) as api:
            finish_and_check(api, code, final, b.db)
        for c in (anna, watcher):
            await c.close()

    asyncio.run(scenario())


def test_redis_down_mid_match_refuses_clearly_and_recovers(
    cluster: list[Worker], redis_server: RedisServer
) -> None:
    a, b = cluster

    async def scenario() -> None:
        with httpx.Client(base_url=a.url, timeout=10) as api:
            code, tokens = make_room(api, ["Anna", "Bo"])
        seats = {
            0: await Client(a.ws, code, tokens[0], "anna@A").open(),
            1: await Client(b.ws, code, tokens[1], "bo@B").open(),
        }
        room = await drive(seats, watcher=seats[1], stop=lambda r: r["version"] >= 6)
        redis_server.stop()
        for w in (a, b):
            body = wait_ready(w, ready=False)
            assert body["checks"]["redis"] == "unavailable" and body["checks"]["database"] == "ok"
        actor = seats[room["match"]["actor"]]
        mark = len(actor.messages)
        await actor.send(**move_of(room))
        reply = await actor.next_reply(mark)
        assert reply["code"] == "unavailable" and "Redis" in reply["message"], reply
        for w in (a, b):  # nothing was played, on either worker
            with httpx.Client(base_url=w.url, timeout=10) as api:
                r = api.get(f"/api/rooms/{code}")
                assert r.status_code == 200 and r.json()["version"] == room["version"]
        redis_server.start()
        for w in (a, b):
            wait_ready(w, ready=True)
        # The same move again: applied now, and the player on the other worker sees it.
        final = await drive(seats, watcher=seats[1])
        await seats[0].until(lambda r: r["match"]["over"])
        assert seats[0].lines() == seats[1].lines()
        with httpx.Client(base_url=a.url, timeout=10) as api:
            finish_and_check(api, code, final, a.db)
        for c in seats.values():
            await c.close()

    asyncio.run(scenario())


def test_postgres_down_mid_match_no_half_written_event(make_cluster: Any) -> None:
    own = PgCluster().start()  # its own cluster: stopping it disturbs no other test
    try:
        db = own.new_database()
        a, b = make_cluster(db=db)

        async def scenario() -> None:
            with httpx.Client(base_url=a.url, timeout=10) as api:
                code, tokens = make_room(api, ["Anna", "Bo"])
            seats = {
                0: await Client(a.ws, code, tokens[0], "anna@A").open(),
                1: await Client(b.ws, code, tokens[1], "bo@B").open(),
            }
            room = await drive(seats, watcher=seats[1], stop=lambda r: r["version"] >= 6)
            own.stop("immediate")  # as abrupt as a crash
            for w in (a, b):
                body = wait_ready(w, ready=False)
                assert body["checks"]["database"] == "unavailable"
            for _ in range(2):  # twice: the first may meet a pooled connection that just died
                actor = seats[room["match"]["actor"]]
                mark = len(actor.messages)
                await actor.send(**move_of(room))
                reply = await actor.next_reply(mark)
                assert reply["code"] == "unavailable" and "database" in reply["message"], reply
            with httpx.Client(base_url=a.url, timeout=10) as api:
                r = api.get(f"/api/rooms/{code}")
                assert r.status_code in (200, 503)  # cached picture, or a clear 503
                if r.status_code == 503:
                    assert r.json()["code"] == "unavailable"
            assert a.alive() and b.alive()
            own.start()
            for w in (a, b):
                wait_ready(w, ready=True)
            assert stored_events(db, code) == list(range(room["version"]))
            final = await drive(seats, watcher=seats[1])
            await seats[0].until(lambda r: r["match"]["over"])
            assert seats[0].lines() == seats[1].lines()
            with httpx.Client(base_url=b.url, timeout=10) as api:
                finish_and_check(api, code, final, db)
            for c in seats.values():
                await c.close()

        asyncio.run(scenario())
    finally:
        own.cleanup()


def test_sigterm_lets_the_move_in_progress_finish(cluster: list[Worker]) -> None:
    """SIGTERM right after a move is sent: the process ends cleanly (lifespan shutdown completes), and the move is
    either fully played (committed, and seen on the other worker) or not at all."""
    a, b = cluster

    async def scenario() -> None:
        with httpx.Client(base_url=a.url, timeout=10) as api:
            code, tokens = make_room(api, ["Anna", "Bo"])
        seats = {
            0: await Client(a.ws, code, tokens[0], "anna@A").open(),
            1: await Client(a.ws, code, tokens[1], "bo@A").open(),
        }
        watcher = await Client(b.ws, code, None, "watcher@B").open()
        room = await drive(seats, watcher=watcher, stop=lambda r: r["version"] >= 4)
        await seats[room["match"]["actor"]].send(**move_of(room))
        assert a.proc is not None
        proc = a.proc
        proc.terminate()
        # uvicorn shuts down gracefully, then re-raises the signal it caught (hence -SIGTERM).
        assert await asyncio.to_thread(proc.wait, 30) in (0, -signal.SIGTERM)
        a.proc = None
        logged = [json.loads(x)["msg"] for x in a.log.read_text().splitlines() if x.startswith("{")]
        assert "Application shutdown complete." in logged
        stored = stored_events(b.db, code)
        assert stored == list(range(len(stored)))
        assert len(stored) in (room["version"], room["version"] + 1)
        seen = await watcher.until(lambda r: r["version"] == len(stored))
        # The survivor's picture is the replay of exactly what was stored.
        with httpx.Client(base_url=b.url, timeout=10) as api:
            assert api.get(f"/api/rooms/{code}").json()["match"] == seen["match"]
        # The players move to worker B and finish the match there.
        seats = {
            0: await Client(b.ws, code, tokens[0], "anna@B").open(),
            1: await Client(b.ws, code, tokens[1], "bo@B").open(),
        }
        final = await drive(seats, watcher=watcher)
        with httpx.Client(base_url=b.url, timeout=10) as api:
            finish_and_check(api, code, final, b.db)
        for c in (*seats.values(), watcher):
            await c.close()

    asyncio.run(scenario())
