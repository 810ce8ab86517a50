"""Protocol fuzzing against a running two-worker server (PostgreSQL + Redis).

Hypothesis builds sequences of valid and invalid WebSocket messages from players connected to
both workers and a spectator: moves, stale and future versions, other players' moves, wrong
JSON types, malformed text, oversized payloads, binary frames, unknown message types, advice
and pings.
After every message: a refusal is a clear message to the sender only, a valid move is played
once; after every sequence: no worker died, no 5xx, and both workers show the same table.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from shipcaptaincrew.web.table.schemas import CLIENT_MESSAGE, Ping

from .conftest import Client, Worker, make_room, move_of

#: Codes a refusal may carry here; "unavailable" (a server fault) is never expected.
KNOWN = {
    "stale",
    "not_your_turn",
    "illegal",
    "not_an_action",
    "spectator",
    "invalid",
    "too_big",
    "rate",
    "hints_off",
    "no_advice",
    "over",
    "not_started",
    "bad_message",
}

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=20),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)

STEP = st.one_of(
    st.tuples(st.just("move"), st.integers(0, 3)),  # the actor's legal move
    st.tuples(st.just("version"), st.integers(-5, 5).filter(bool)),  # stale or future version
    st.tuples(st.just("action"), st.text(max_size=30)),  # any action text
    st.tuples(st.just("wrong_types"), JUNK),  # fields of the wrong type
    st.tuples(st.just("json"), JUNK),  # any JSON at all
    st.tuples(st.just("text"), st.text(max_size=60)),  # not JSON, or any JSON
    st.tuples(st.just("huge"), st.integers(2049, 60000)),  # over the message limit
    st.tuples(st.just("type"), st.text(max_size=12)),  # unknown message type
    st.tuples(st.just("advice"), st.integers(-1, 1)),
    st.tuples(st.just("ping"), st.none()),
    st.tuples(st.just("binary"), st.binary(max_size=40)),  # a binary frame
)
#: Who sends: 0 = seat 0 on worker A, 1 = seat 1 on worker B, 2 = seat 0 again on worker B,
#: 3 = a spectator on worker A.
SENDER = st.integers(0, 3)


#: The messages that answer one message of a connection (to it alone).
REPLIES = ("error", "pong", "advice")


def is_ping(text: str | bytes) -> bool:
    """Whether the server reads this message as a ping (and answers it with a pong)."""
    try:
        return isinstance(CLIENT_MESSAGE.validate_json(text), Ping)
    except ValidationError:
        return False


@pytest.fixture
def two(cluster: list[Worker]) -> list[Worker]:
    return cluster


def message(kind: str, arg: Any, room: dict[str, Any]) -> str | bytes:
    v = room["version"]
    if kind == "binary":
        return bytes(arg)
    if kind == "move":
        return json.dumps(move_of(room, arg))
    if kind == "version":
        return json.dumps({**move_of(room), "version": v + arg})
    if kind == "action":
        return json.dumps({"type": "act", "action": arg, "version": v})
    if kind == "wrong_types":
        return json.dumps({"type": "act", "action": arg, "version": arg})
    if kind == "json":
        return json.dumps(arg)
    if kind == "text":
        return str(arg)
    if kind == "huge":
        return json.dumps({"type": "act", "action": "x" * arg, "version": v})
    if kind == "type":
        return json.dumps({"type": arg, "version": v})
    if kind == "advice":
        return json.dumps({"type": "advice", "version": v + arg})
    return json.dumps({"type": "ping"})


async def agree(workers: list[Worker], code: str, timeout: float = 60.0) -> dict[str, Any]:
    """Both workers' picture of the room, once they agree (they must, within the timeout)."""
    end = time.monotonic() + timeout
    async with httpx.AsyncClient(timeout=10) as api:
        while True:
            views = []
            for w in workers:
                r = await api.get(f"{w.url}/api/rooms/{code}")
                assert r.status_code == 200, r.text
                views.append(r.json())
            if all(
                v["version"] == views[0]["version"] and v["match"] == views[0]["match"]
                for v in views
            ):
                return views[0]
            assert time.monotonic() < end, "the workers disagree about the table"
            await asyncio.sleep(0.05)


def test_fuzzed_messages_against_two_workers(two: list[Worker]) -> None:
    a, b = two
    with httpx.Client(base_url=a.url, timeout=10) as api:
        r = api.get("/readyz")
        assert r.status_code == 200

    @settings(
        max_examples=25,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(steps=st.lists(st.tuples(SENDER, STEP), min_size=1, max_size=25))
    def run(steps: list[tuple[int, tuple[str, Any]]]) -> None:
        asyncio.run(sequence(steps))

    async def sequence(steps: list[tuple[int, tuple[str, Any]]]) -> None:
        async with httpx.AsyncClient(base_url=a.url, timeout=10) as api:
            r = await api.post(
                "/api/rooms",
                json={"name": "Anna", "settings": ["format=rounds:2", "starter=chosen"]},
            )
            code, t0 = r.json()["code"], r.json()["token"]
            t1 = (await api.post(f"/api/rooms/{code}/join", json={"name": "Bo"})).json()["token"]
            await api.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": t0})
        conns = [
            await Client(a.ws, code, t0, "anna@A").open(),
            await Client(b.ws, code, t1, "bo@B").open(),
            await Client(b.ws, code, t0, "anna@B").open(),
            await Client(a.ws, code, None, "spectator@A").open(),
        ]
        watcher = conns[1]
        room = await watcher.until(lambda r: r["status"] == "playing")
        for sender, (kind, arg) in steps:
            room = await agree([a, b], code)
            await watcher.until(lambda r, v=room["version"]: r["version"] >= v)
            conn = conns[sender]
            mark = len(conn.messages)
            valid = (
                kind == "move" and conn.seat == room["match"]["actor"] and not room["match"]["over"]
            )
            text = message(kind, arg, room)
            await conn.send_raw(text)
            if valid:
                await watcher.until(lambda r, v=room["version"]: r["version"] == v + 1)
                assert not conn.errors()[
                    len([m for m in conn.messages[:mark] if m["type"] == "error"]) :
                ]
                continue
            play = kind in ("move", "version", "action")
            if kind in ("huge", "version", "wrong_types", "binary") or (
                play and (conn.seat is None or conn.seat != room["match"]["actor"])
            ):
                reply = await conn.next_reply(mark)
                assert reply["type"] == "error", reply
            else:  # anything else may be refused, answered, or (a legal action text) played
                # (A hello, a language change, or a legal move has no reply.)  Once a ping sent
                # after it is answered, its reply, if any, is in: no waiting on a clock.
                await conn.settle(mark, earlier=int(is_ping(text)))
                replies = [m for m in conn.messages[mark:] if m["type"] in REPLIES]
                assert len(replies) <= 2, replies  # at most one reply, then the pong
                reply = replies[0] if len(replies) == 2 else None
            if reply is not None and reply["type"] == "error":
                assert reply["code"] in KNOWN, reply
                assert isinstance(reply["message"], str) and reply["message"].strip(), reply
            if reply is not None and reply["type"] == "error":
                # Refused: nothing was played.
                now = await agree([a, b], code)
                assert now["version"] == room["version"]
        final = await agree([a, b], code)
        for c in conns:
            await c.until(lambda r, v=final["version"]: r["version"] >= v)
            assert c.room["match"] == final["match"]
            assert c.closed is None, f"{c.name} was disconnected ({c.closed})"
            assert all(m["code"] in KNOWN for m in c.errors()), c.errors()
            await c.close()
        # Refusals went to the sender only: the spectator asked for nothing refusable by seat.
        for w in (a, b):
            assert w.alive()

    run()
    with httpx.Client(timeout=10) as api:
        for w in (a, b):
            assert api.get(w.url + "/healthz").status_code == 200
    for w in (a, b):  # no message ever reached the catch-all for unexpected failures
        lines = [json.loads(x) for x in w.log.read_text().splitlines() if x.startswith("{")]
        assert lines, "the worker wrote no JSON log lines"
        assert not [x for x in lines if x["level"] in ("error", "critical")], lines


def test_oversized_frame_closes_only_that_connection(cluster: list[Worker]) -> None:
    """A frame above the WebSocket limit (64 KiB) is answered with a clear message, then that
    socket is closed (1009); the table goes on."""
    a, b = cluster

    async def scenario() -> None:
        with httpx.Client(base_url=a.url, timeout=10) as api:
            code, tokens = make_room(api, ["Anna", "Bo"])
        anna = await Client(a.ws, code, tokens[0], "anna").open()
        bo = await Client(b.ws, code, tokens[1], "bo").open()
        room = await bo.until(lambda r: r["status"] == "playing")
        await anna.send_raw("x" * 70000)
        end = time.monotonic() + 60
        while anna.closed is None and time.monotonic() < end:
            await asyncio.sleep(0.05)
        assert anna.closed == 1009
        assert (
            anna.errors()[-1]["code"] == "bad_message" and "70000" in anna.errors()[-1]["message"]
        )
        anna = await Client(a.ws, code, tokens[0], "anna again").open()
        seats = {0: anna, 1: bo}
        await seats[room["match"]["actor"]].send(**move_of(room))
        await bo.until(lambda r, v=room["version"]: r["version"] > v)
        await anna.close()
        await bo.close()

    asyncio.run(scenario())
