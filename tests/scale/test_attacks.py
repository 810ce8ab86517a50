"""The attacks of issue 28 on three workers (one PostgreSQL database, one Redis): a spectator that
never reads, a crowd coming and going and a flood of new rooms cost the honest tables nothing,
while the other workers' tables play on.  Outcomes are counts and codes, never times."""

from __future__ import annotations

import asyncio
import base64
import os
import socket
from typing import Any

import httpx

from .conftest import Client, make_room, move_of


class Stalled:
    """A spectator that says hello and never reads a byte (a 1 KB receive buffer)."""

    def __init__(self, port: int, code: str) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET /ws/rooms/{code} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        answer = b""
        while b"\r\n\r\n" not in answer:  # the handshake's answer: the last thing it reads
            answer += self.sock.recv(1)
        assert answer.startswith(b"HTTP/1.1 101"), answer
        hello, mask = b'{"type":"hello"}', os.urandom(4)
        frame = bytes([0x81, 0x80 | len(hello)]) + mask
        self.sock.sendall(frame + bytes(b ^ mask[i % 4] for i, b in enumerate(hello)))

    def close(self) -> None:
        self.sock.close()


async def play(players: dict[int, Client], watcher: Client, moves: int) -> dict[str, Any]:
    """The seats play ``moves`` moves, each as soon as the last one is shown."""
    room = await watcher.until(lambda r: r["match"] is not None)
    for _ in range(moves):
        v = room["version"]
        await players[room["match"]["actor"]].send(**move_of(room))
        room = await watcher.until(lambda r, v=v: r["version"] > v)
    return room


def test_a_spectator_that_never_reads_is_dropped_and_the_tables_play_on(
    make_cluster: Any,
) -> None:
    """Anna on worker A and Bo on worker B play; a stalled spectator sits on worker B, where
    another table plays too, and worker C only relays.  Every move of both tables is played
    and shown; the stalled peer, behind longer than its limit (0 s here), is closed, and both
    workers' players see the spectators' count fall back to none.

    The stalled peer sits where half the moves are made: each of Bo's moves is a picture
    posted to it there, so its queue fills after a fixed number of moves.  (On a worker that
    only catches up with moves made elsewhere, one picture may stand for several moves,
    however many the scheduling happens to gather: the count of moves before it fills
    would be the machine's load, not the server's rule.)"""
    a, b, c = make_cluster(3, SCC_SEND_STALL_SECONDS="0")

    async def scenario() -> None:
        settings = ["format=rounds:500", "starter=chosen"]
        with httpx.Client(base_url=a.url, timeout=30) as api:
            code, tokens = make_room(api, ["Anna", "Bo"], settings=settings)
        with httpx.Client(base_url=b.url, timeout=30) as api:
            other, others = make_room(api, ["Cy", "Di"], settings=settings)
        anna = await Client(a.ws, code, tokens[0], "anna@A").open()
        bo = await Client(b.ws, code, tokens[1], "bo@B").open()
        cy = await Client(b.ws, other, others[0], "cy@B").open()
        di = await Client(c.ws, other, others[1], "di@C").open()
        stalled = Stalled(b.port, code)
        try:
            await anna.until(lambda r: r["spectators"] == 1)
            # Its buffers fill and its queue after them (a hundred pictures or so); once
            # behind, it goes at the next message.
            moves = 0
            while anna.room["spectators"] and moves < 1000:
                room = await play({0: anna, 1: bo}, anna, 20)
                moves += 20
            assert anna.room["spectators"] == 0 and room["version"] == moves
            await bo.until(lambda r: r["spectators"] == 0 and r["version"] == moves)
            mine = await play({0: cy, 1: di}, cy, 20)
            assert mine["version"] == 20 and await di.until(lambda r: r["version"] == 20)
            assert not anna.errors() and not bo.errors() and not cy.errors()
        finally:
            stalled.close()
            for p in (anna, bo, cy, di):
                await p.close()

    asyncio.run(scenario())


def test_a_crowd_coming_and_going_costs_a_player_nothing(make_cluster: Any) -> None:
    """Thirty spectators, ten on each worker, come and go: each gets its welcome and its first
    picture, and a seated player (presence told at most once an hour here) gets nothing
    from it at all -- where each arrival and departure once sent everyone a picture."""
    a, b, c = make_cluster(3, SCC_PRESENCE_SECONDS="3600")

    async def scenario() -> None:
        with httpx.Client(base_url=a.url, timeout=30) as api:
            code, tokens = make_room(api, ["Anna", "Bo"], settings=["starter=chosen"])
        anna = await Client(a.ws, code, tokens[0], "anna@A").open()
        await anna.settle(0)
        before = len(anna.messages)
        crowd = [
            await Client(w.ws, code, None, f"s{i}").open() for i, w in enumerate([a, b, c] * 10)
        ]
        pictures = 0
        for s in crowd:
            await s.settle(0)
            kinds = [m["type"] for m in s.messages]
            # Its first picture; the first on worker B and on C also the telling of its own
            # arrival there (that worker's room was quiet).
            assert kinds in (["room", "pong"], ["room", "room", "pong"]), (s.name, kinds)
            pictures += kinds.count("room")
            await s.close()
        assert pictures <= 30 + 2
        await anna.settle(before)
        assert [m["type"] for m in anna.messages[before:]] == ["pong"]
        await anna.close()

    asyncio.run(scenario())


def test_a_flood_of_rooms_from_one_address_leaves_room_for_others(make_cluster: Any) -> None:
    """One address, spoofing X-Forwarded-For (believed from nobody here), gets its hourly
    share across all three workers; another address still opens rooms on each."""
    workers = make_cluster(3, SCC_ROOMS_PER_HOUR="3")
    with httpx.Client(timeout=30) as api:
        got = [
            api.post(
                f"{workers[i % 3].url}/api/rooms",
                json={"name": "X"},
                headers={"X-Forwarded-For": f"198.51.100.{i}"},
            ).status_code
            for i in range(12)
        ]
    assert got == [201] * 3 + [429] * 9
    other = httpx.HTTPTransport(local_address="127.0.0.2")
    with httpx.Client(timeout=30, transport=other) as api:
        assert [
            api.post(f"{w.url}/api/rooms", json={"name": "Y"}).status_code for w in workers
        ] == [201] * 3


def test_rooms_asked_for_at_once_through_every_worker_keep_to_the_hourly_limit(
    make_cluster: Any,
) -> None:
    """Thirty requests for a room from one address at the same instant, ten to each of three
    workers, with an hourly limit of five: exactly five rooms are made (workers that only
    counted the database's rows each let several through at once), the others are refused
    with the limit's code, and so is the next one."""
    workers = make_cluster(3, SCC_ROOMS_PER_HOUR="5")

    async def flood() -> list[int]:
        async with httpx.AsyncClient(timeout=30) as api:
            answers = await asyncio.gather(
                *(
                    api.post(f"{workers[i % 3].url}/api/rooms", json={"name": f"X{i}"})
                    for i in range(30)
                )
            )
        return [r.status_code for r in answers]

    got = asyncio.run(flood())
    assert sorted(got) == [201] * 5 + [429] * 25
    with httpx.Client(timeout=30) as api:
        refused = api.post(f"{workers[0].url}/api/rooms", json={"name": "Late"})
        assert refused.status_code == 429 and refused.json()["code"] == "room_limit"
