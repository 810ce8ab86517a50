"""The attackers and the honest players of ``bench_attacks.py``.

- :class:`StalledPeer`: a spectator with a 1 KB receive buffer that says hello and then never
  reads a byte (a raw socket: the WebSocket handshake and one masked frame, by hand).
- :class:`Seat`: a player's page that reads everything and keeps the newest picture;
  :func:`race` has two of them move as fast as they can, timing each move until both pages
  show it.
- :func:`churn`: spectators coming and going, one after another.
- :func:`crowd`: N spectators joining, then leaving, while counting what everyone at the table
  receives (messages and bytes).
- :func:`pings`: a page at another table pinging, timing the round trips;
  :func:`ping_tables`: pages at other tables pinging from a process of their own.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import multiprocessing
import os
import socket
import struct
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

#: The stalled peers' receive buffer (the kernel rounds it up to its minimum, ~2.3 KB).
STALLED_RCVBUF = 1024


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


class StalledPeer:
    """A spectator that never reads: its receive buffer is tiny and nothing drains it.

    Opened on the event loop (:meth:`open`, non-blocking socket calls): a peer opened in a
    thread, reading its handshake's answer a byte at a time, took the interpreter's lock from
    the loop that times the players' moves hundreds of times a reconnection, and the
    benchmark counted its own stalls as the server's.
    """

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    @classmethod
    async def open(cls, ws_url: str, code: str, forwarded: str | None = None) -> StalledPeer:
        loop = asyncio.get_running_loop()
        parts = urlsplit(ws_url)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, STALLED_RCVBUF)
        sock.setblocking(False)
        try:
            async with asyncio.timeout(10):
                await loop.sock_connect(sock, (parts.hostname or "127.0.0.1", parts.port or 80))
                key = base64.b64encode(os.urandom(16)).decode()
                extra = f"X-Forwarded-For: {forwarded}\r\n" if forwarded else ""
                request = (
                    f"GET /ws/rooms/{code} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                    f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n"
                )
                await loop.sock_sendall(sock, request.encode())
                answer = b""
                # (Nothing follows the handshake's answer before the hello: read it whole.)
                while b"\r\n\r\n" not in answer:
                    chunk = await loop.sock_recv(sock, 4096)
                    if not chunk:
                        break
                    answer += chunk
                if not answer.startswith(b"HTTP/1.1 101"):
                    raise ConnectionError(answer.decode(errors="replace"))
                await loop.sock_sendall(sock, _masked(json.dumps({"type": "hello"}).encode()))
        except BaseException:
            sock.close()
            raise
        return cls(sock)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


def _masked(payload: bytes) -> bytes:
    """One masked text frame (what a client must send)."""
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x81, 0x80 | n]) if n < 126 else bytes([0x81, 0x80 | 126]) + struct.pack("!H", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


@dataclass
class Tally:
    """What some connections received: messages and bytes."""

    messages: int = 0
    bytes: int = 0

    def add(self, raw: str | bytes) -> None:
        self.messages += 1
        self.bytes += len(raw)


class Seat:
    """A page at the table that reads everything and keeps the newest room picture."""

    def __init__(self, ws: ClientConnection, tally: Tally | None = None) -> None:
        self.ws, self.tally = ws, tally
        self.room: dict[str, Any] = {}
        self.changed = asyncio.Event()
        self.errors: list[dict[str, Any]] = []
        self.pongs = 0
        self.task = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(
        cls, ws_url: str, code: str, token: str | None, tally: Tally | None = None, **hello: Any
    ) -> Seat:
        ws = await connect(f"{ws_url}/ws/rooms/{code}", max_size=2**22, open_timeout=60)
        await ws.send(json.dumps({"type": "hello", "token": token, **hello}))
        return cls(ws, tally)

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed, WebSocketException, OSError):
            async for raw in self.ws:
                if self.tally is not None:
                    self.tally.add(raw)
                msg = json.loads(raw)
                if msg["type"] == "room":
                    self.room = msg["room"]
                elif msg["type"] == "error":
                    self.errors.append(msg)
                elif msg["type"] == "pong":
                    self.pongs += 1
                self.changed.set()
        self.changed.set()

    async def until(self, predicate: Any, timeout: float = 30.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while not (self.room and predicate(self.room)):
            if self.task.done():
                raise ConnectionError("the table hung up")
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.001, end - time.monotonic()))
        return self.room

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        self.task.cancel()


async def open_table(
    api: httpx.AsyncClient, players: int = 2, settings: list[str] | None = None
) -> tuple[str, list[str]]:
    """A started table of ``players`` people; (code, tokens)."""
    rules = settings or ["starter=chosen", "format=rounds:500"]
    r = await api.post("/api/rooms", json={"name": "P0", "settings": rules})
    r.raise_for_status()
    code, tokens = r.json()["code"], [r.json()["token"]]
    for k in range(1, players):
        joined = await api.post(f"/api/rooms/{code}/join", json={"name": f"P{k}"})
        tokens.append(joined.json()["token"])
    await api.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    return code, tokens


@dataclass
class Race:
    """What two players moving as fast as they can measured."""

    latencies: list[float] = field(default_factory=list)
    refused: int = 0


async def race(seats: list[Seat], until: float) -> Race:
    """The player to act sends the first legal choice the moment both pages show the last
    move; each move timed from its send until both pages show it."""
    out = Race()
    room = await seats[0].until(lambda r: r["match"] is not None)
    while time.monotonic() < until:
        m = room["match"]
        if m["over"]:
            break
        v, choice = room["version"], m["legal"][0]
        move = {"type": "roll"} if choice == "roll" else {"type": "act", "action": choice}
        errors = len(seats[m["actor"]].errors)
        t0 = time.perf_counter()
        await seats[m["actor"]].ws.send(json.dumps({**move, "version": v}))
        try:
            for s in seats:
                room = await s.until(lambda r, v=v: r["version"] > v)
        except TimeoutError:
            out.refused += 1 + len(seats[m["actor"]].errors) - errors
            room = seats[0].room
            continue
        out.latencies.append(time.perf_counter() - t0)
    return out


async def churn(ws_url: Any, code: str, until: float, every: float = 0.05) -> int:
    """Spectators coming (hello, first picture) and going, one after another; how many came.
    ``ws_url(i)``: the worker the i-th one connects to."""
    n = 0
    while time.monotonic() < until:
        with contextlib.suppress(Exception):
            s = await Seat.open(ws_url(n), code, None)
            await s.until(lambda r: True, timeout=10)
            await s.close()
        n += 1
        await asyncio.sleep(every)
    return n


async def pings(seat: Seat, until: float, every: float = 0.02) -> list[float]:
    """Round trips of pings from a page, one every ``every`` seconds."""
    out: list[float] = []
    while time.monotonic() < until:
        before = seat.pongs
        t0 = time.perf_counter()
        await seat.ws.send('{"type":"ping"}')
        end = time.monotonic() + 10
        while seat.pongs == before and time.monotonic() < end:
            seat.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(seat.changed.wait(), 1)
        out.append(time.perf_counter() - t0)
        await asyncio.sleep(every)
    return out


def ping_tables(
    tables: list[tuple[str, str, str]], ready: Any, stop: Any, out: Any, every: float = 0.02
) -> None:
    """Pages at other tables (``(ws_url, code, token)`` each) pinging until ``stop`` is set;
    puts their round trips (seconds) on ``out``.  Run as a process of its own
    (:class:`PingProcess`): with its own interpreter and event loop, a round trip is the
    server's time, never a wait for the loop of a thousand spectator clients reading their
    pictures in the benchmark's process."""

    async def run() -> list[float]:
        seats = [await Seat.open(url, code, token) for url, code, token in tables]
        for s in seats:
            await s.until(lambda r: True)
        ready.set()
        rtts: list[float] = []

        async def one(seat: Seat) -> None:
            while not stop.is_set():
                rtts.extend(await pings(seat, time.monotonic() + 0.25, every))

        await asyncio.gather(*(one(s) for s in seats))
        for s in seats:
            await s.close()
        return rtts

    out.put(asyncio.run(run()))


class PingProcess:
    """:func:`ping_tables` in a process of its own: started, waited for until its pages are at
    their tables, stopped, and its round trips collected."""

    def __init__(self, tables: list[tuple[str, str, str]]) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.ready, self.stop, self.out = ctx.Event(), ctx.Event(), ctx.Queue()
        self.proc = ctx.Process(
            target=ping_tables, args=(tables, self.ready, self.stop, self.out), daemon=True
        )

    async def start(self) -> None:
        self.proc.start()
        loop = asyncio.get_running_loop()
        if not await loop.run_in_executor(None, self.ready.wait, 60):
            raise RuntimeError("the pinging pages did not reach their tables")

    async def finish(self) -> list[float]:
        self.stop.set()
        loop = asyncio.get_running_loop()
        rtts: list[float] = await loop.run_in_executor(None, self.out.get, True, 60)
        await loop.run_in_executor(None, self.proc.join, 30)
        return rtts
