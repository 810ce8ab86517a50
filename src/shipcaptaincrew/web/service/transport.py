"""Connections: who is on the line, how fast they may talk, and sending to many at once."""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import orjson

#: Seconds a send to one connection may take before that connection is dropped.
SEND_TIMEOUT = 5.0


class Sender(Protocol):
    """The part of a WebSocket the service uses."""

    async def send_text(self, data: str) -> None: ...


@runtime_checkable
class Closable(Protocol):
    """A WebSocket the server can close (to tell a slow peer to reconnect)."""

    async def close(self, code: int = 1000) -> None: ...


def dumps(message: dict[str, Any], lang: str | None = None) -> str:
    """A message as JSON text, every text for people in it said in ``lang``.

    orjson: several times the json module's speed on a room picture, which every move
    serialises once per language.  A picture carries its few texts for people as objects with
    ``render(lang)`` (:class:`~..words.Words`); orjson hands each to :func:`say` and nothing
    else, so the rest of the picture costs what it did.
    """

    def say(value: Any) -> str:
        if lang is not None and hasattr(value, "render"):
            return str(value.render(lang))
        raise TypeError(f"cannot write {type(value).__name__} as JSON")

    # (Words are dataclasses, which orjson would write field by field: passed to say instead.)
    return orjson.dumps(message, default=say, option=orjson.OPT_PASSTHROUGH_DATACLASS).decode()


class RateLimiter:
    """A token bucket: ``rate`` messages a second on average, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.level = float(burst)
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        """Spend one token if there is one."""
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level >= 1:
            self.level -= 1
            return True
        return False


@dataclass(eq=False)
class Connection:
    """One open WebSocket: its seat (None for a spectator), language and rate limiter."""

    ws: Sender
    seat: int | None
    lang: str
    limiter: RateLimiter
    open: bool = True
    #: The hash of the seat token it said hello with (to find its seat again if seats move).
    token_hash: str | None = None
    #: The seat token itself, in memory only: what "play again" sends the player on with.
    token: str | None = None
    #: A spectator's token for the seat it asked for at the next match (see .nextmatch).
    next_token: str | None = None
    #: Reactions have a rate limit of their own (a burst of emoji must not cost a move).
    reactions: RateLimiter | None = None

    async def send(self, payload: dict[str, Any] | str) -> None:
        """Send (in this connection's language), marking the connection closed if the peer has
        gone."""
        text = payload if isinstance(payload, str) else dumps(payload, self.lang)
        await send_all([(self, text)])

    async def drop(self) -> None:
        """Mark the connection gone (its handler cleans up, its token brings the player back)
        and tell a slow peer to reconnect and catch up rather than lag."""
        self.open = False
        if isinstance(self.ws, Closable):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(code=1013), 1.0)


async def send_all(batch: list[tuple[Connection, str]]) -> None:
    """Send each connection its text, in order; a peer that has gone or stopped reading is dropped.

    A peer that stops reading must not hold up the table, so the sends run under a timeout.  A
    send waits only when the peer's socket buffer is full, so one timeout covers the whole batch
    (arming and cancelling a timer per message was a tenth of a move's work on the event loop):
    when it strikes, the connection being sent to is the slow one; it is dropped and the rest
    carry on under a fresh timeout.
    """
    i = 0
    while i < len(batch):
        conn = None
        try:
            async with asyncio.timeout(SEND_TIMEOUT):
                while i < len(batch):
                    conn, text = batch[i]
                    i += 1
                    if conn.open:
                        await conn.ws.send_text(text)
        except Exception:  # gone, or too slow
            if conn is not None:
                await conn.drop()
