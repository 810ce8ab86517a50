"""Connections: who is on the line, how fast they may talk, and what waits to be sent to them.

Nothing that changes a table ever waits for a peer's socket.  Each connection has its own
bounded queue of outgoing messages (:class:`Connection`), written to the socket by a task of
its own that runs only while there is something to write; the room posts to the queue and
goes on at once, lock or no lock.  A peer that reads slowly falls behind alone:

- once its queue has filled up, it is *behind* until the queue is empty again; meanwhile a new
  room picture replaces every picture still waiting (their narration lines go with the
  newest, so nothing is told twice or lost; see :class:`Superseded`), so at most one picture
  waits, and a reaction is dropped (fleeting by nature);
- a peer still behind :data:`SEND_STALL` seconds after its queue filled up is closed with
  :data:`SLOW_CLOSE`: the page reconnects and catches up from the database, as after any
  other lost connection.

What a peer that is behind costs a move is a few pointer moves: the picture that replaces
the waiting ones is written out only when its writer takes it (:class:`Superseded`), so a
peer that never reads never costs a move a merged picture's text (five stalled peers once
cost every move five such texts of up to 200 lines each).

A watcher's writer waits for its turn before each write (:mod:`.pacer`): a crowd told a
picture at once never keeps the loop from a move or a ping for more than a few dozen writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import orjson

from .pacer import pacer

log = logging.getLogger("shipcaptaincrew.web")

#: Messages a connection may have waiting; once this many wait, the peer is behind until
#: its queue is empty again (see the module).
SEND_QUEUE = 16
#: Seconds a peer may stay behind before the connection is closed (the default of
#: ``Settings.send_stall_seconds``).
SEND_STALL = 5.0
#: A full queue also holds the answers to the peer's own requests (errors, pongs), which are
#: never merged or dropped; a peer that asks this many times more than the queue holds, while
#: reading nothing, is closed at once.
HARD_LIMIT = 4 * SEND_QUEUE
#: Narration lines a merged picture carries at most; past that it becomes a fresh start
#: (``history``: the page replaces its log with the newest lines, as after a reconnection).
MERGED_LINES = 200
#: Close code of a connection that stopped reading (4000-4999: the application's own).
SLOW_CLOSE = 4408
#: Seconds the closing handshake of a dropped connection may take before its socket is cut.
CLOSE_TIMEOUT = 5.0


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
    ``render(lang)`` (:class:`~..words.render.Words`); orjson hands each to :func:`say` and nothing
    else, so the rest of the picture costs what it did.
    """

    def say(value: Any) -> str:
        if lang is not None and hasattr(value, "render"):
            return str(value.render(lang))
        raise TypeError(f"cannot write {type(value).__name__} as JSON")

    # (Words are dataclasses, which orjson would write field by field: passed to say instead.)
    return orjson.dumps(message, default=say, option=orjson.OPT_PASSTHROUGH_DATACLASS).decode()


class Picture(str):
    """A "room" message as sent (the JSON text itself), that remembers its parts.

    ``{"type": "room", "room": ..., "lines": [...], "by_timer": ...}`` exactly as :func:`dumps`
    writes it (or, for a fresh start, ``"history": true`` in place of ``by_timer``).  Built
    once per language and shared by every connection in that language; the parts are kept so
    that a picture still waiting for a slow peer can be merged into a newer one
    (:class:`Superseded`) without drawing the room again.
    """

    room: str
    lines: tuple[str, ...]
    by_timer: bool
    history: bool

    def __new__(
        cls, room: str, lines: tuple[str, ...], by_timer: bool = False, history: bool = False
    ) -> Picture:
        said = orjson.dumps(lines).decode()
        tail = ',"history":true}' if history else f',"by_timer":{"true" if by_timer else "false"}}}'
        self = super().__new__(cls, f'{{"type":"room","room":{room},"lines":{said}{tail}')
        self.room, self.lines, self.by_timer, self.history = room, lines, by_timer, history
        return self


class Superseded:
    """The pictures a peer that is behind has not been sent yet, as the one that replaces them.

    It keeps the newest picture and the narration lines of all of them (the newest
    :data:`MERGED_LINES`: past that the page is sent a fresh start, ``history``, as after a
    reconnection), and becomes text (:meth:`text`) only when the peer's writer takes it: a
    peer that reads nothing costs each move an append, never a picture written anew.
    """

    __slots__ = ("count", "history", "lines", "newest")

    def __init__(self) -> None:
        self.newest: Picture | None = None
        self.lines: deque[str] = deque(maxlen=MERGED_LINES)
        #: Lines taken in (a fresh start once more than the page can be sent), and whether a
        #: fresh start was among the pictures.
        self.count = 0
        self.history = False

    def add(self, picture: Picture) -> None:
        """``picture`` replaces the ones taken in so far (their lines stay, before its own)."""
        self.newest = picture
        self.lines.extend(picture.lines)
        self.count += len(picture.lines)
        self.history |= picture.history

    def text(self) -> Picture:
        """The picture the peer is sent: the newest room, every line since (see the class)."""
        newest = self.newest
        assert newest is not None
        if self.count == len(newest.lines) and self.history == newest.history:
            return newest  # (nothing replaced: sent as it is)
        history = self.history or self.count > MERGED_LINES
        return Picture(newest.room, tuple(self.lines), newest.by_timer, history)


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


#: Tasks hanging up on dropped peers (kept referenced until they end).
_HANGING_UP: set[asyncio.Task[None]] = set()


@dataclass(eq=False)
class Connection:
    """One open WebSocket: its seat (None for a spectator), language, rate limiter and the
    messages waiting to be sent to it (see the module)."""

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
    #: A paired table screen (see .screens): let in past the caps on watchers, and it turns
    #: the phones compact.  A screen not (yet) paired is a spectator.
    screen: bool = False
    #: A table screen's id (the hash of its screen token; None: not a screen), and, while it
    #: waits to be paired, the pairing code it shows.
    screen_id: str | None = None
    pairing: str | None = None
    #: The client's network (``limits.network``), kept hashed: what a seat at the next match
    #: is counted against.
    network: str | None = None
    #: The host turned down this spectator's seat at the next match: it may not ask again.
    refused: bool = False
    #: Messages waiting, oldest first, and the task writing them (None while there are none).
    queue: deque[str | Superseded] = field(default_factory=deque, repr=False)
    writer: asyncio.Task[None] | None = field(default=None, repr=False)
    #: While the peer is behind: the picture waiting in the queue, which each new one
    #: replaces (see :class:`Superseded`).
    superseded: Superseded | None = field(default=None, repr=False)
    #: Since when (``time.monotonic()``) the peer has been behind, if it is (see the module),
    #: and how long it may be (``Settings.send_stall_seconds``).
    full_since: float | None = None
    stall: float = SEND_STALL
    #: Called once when the connection stops counting (closed here): who is online changed
    #: now, not when a peer that reads nothing finally lets its socket be cut.
    on_close: Callable[[], None] | None = field(default=None, repr=False)

    async def send(self, payload: dict[str, Any] | str) -> None:
        """Queue a message (in this connection's language); returns at once."""
        self.post(payload if isinstance(payload, str) else dumps(payload, self.lang))

    def post(self, text: str, fleeting: bool = False) -> None:
        """Queue ``text`` for this peer and make sure it is being written; never waits.

        ``fleeting``: dropped rather than queued while the peer is behind (a reaction).  A
        :class:`Picture` replaces the pictures waiting while the peer is behind.
        """
        if not self.open:
            return
        since = self.full_since
        if since is not None or len(self.queue) >= SEND_QUEUE:
            now = time.monotonic()
            if since is None:
                self.full_since = now
            elif now - since > self.stall:
                self.close(SLOW_CLOSE)
                return
            if fleeting:
                return
            if isinstance(text, Picture):
                self._supersede(text)
                return
            if len(self.queue) >= HARD_LIMIT:
                self.close(SLOW_CLOSE)
                return
        self.queue.append(text)
        if self.writer is None:
            self.writer = asyncio.get_running_loop().create_task(self._write())

    def _supersede(self, newest: Picture) -> None:
        """``newest`` in place of every picture waiting, at the end of the queue."""
        waiting = self.superseded
        if waiting is None:
            waiting = self.superseded = Superseded()
            kept: deque[str | Superseded] = deque()
            for item in self.queue:
                if isinstance(item, Picture):
                    waiting.add(item)
                else:
                    kept.append(item)
            self.queue = kept
        elif self.queue and self.queue[-1] is waiting:
            self.queue.pop()
        else:
            self.queue.remove(waiting)  # (behind the messages queued since: moved last)
        waiting.add(newest)
        self.queue.append(waiting)
        if self.writer is None:
            self.writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        """Write the queue out, oldest first, until it is empty (the only writer of the socket)."""
        try:
            while self.queue:  # (a merge may replace the queue while a send waits)
                if self.seat is None and not self.screen:
                    await pacer().turn()  # a watcher: a few dozen a pass (see .pacer)
                    if not self.queue:
                        break
                item = self.queue.popleft()
                if isinstance(item, Superseded):
                    if item is self.superseded:
                        self.superseded = None
                    item = item.text()
                await self.ws.send_text(item)
            self.full_since = None  # caught up
        except asyncio.CancelledError:
            raise
        except Exception:  # the peer has gone: its handler sees the disconnect and cleans up
            self.open = False
            self.queue.clear()
            self.superseded = None
        finally:
            self.writer = None

    async def drained(self) -> None:
        """Wait until everything queued so far has been written (or the peer has gone)."""
        while self.writer is not None:
            await asyncio.shield(self.writer)

    def close(self, code: int, flush: bool = False) -> asyncio.Task[None] | None:
        """Stop sending to this peer and hang up with ``code``, in the background; returns the
        task hanging up (None if the connection was closed already).

        ``flush``: what is queued is sent first (a refusal that explains the close); otherwise
        it is dropped.  Its handler sees the disconnect and cleans up; its token brings the
        player back.  (A handler closing its own socket awaits the task: the server cuts a
        socket whose handler has returned.)"""
        if not self.open:
            return None
        self.open = False
        if self.on_close is not None:
            self.on_close()
        if not flush:
            self.queue.clear()
            self.superseded = None
            if self.writer is not None:
                self.writer.cancel()
                self.writer = None
        task = asyncio.get_running_loop().create_task(self._hang_up(code))
        _HANGING_UP.add(task)
        task.add_done_callback(_HANGING_UP.discard)
        return task

    async def _hang_up(self, code: int) -> None:
        """Close the socket; one whose peer reads nothing at all cannot even take the closing
        frame, so after :data:`CLOSE_TIMEOUT` its connection is cut (see :func:`cut`)."""
        ws = self.ws
        if not isinstance(ws, Closable):
            return
        try:
            async with asyncio.timeout(CLOSE_TIMEOUT):
                await self.drained()
                await ws.close(code=code)
        except Exception:
            cut(ws)


def _transport(ws: object) -> object:
    """The network transport under a WebSocket (None if it cannot be found).

    Starlette's WebSocket keeps the server's receive callable, which under uvicorn is a method
    of the connection's protocol object, whose transport this is.  Under another server this
    finds nothing, and what needs it (:func:`cut`, :func:`small_buffers`) does nothing.
    """
    receive = getattr(ws, "_receive", None)
    return getattr(getattr(receive, "__self__", None), "transport", None)


def small_buffers(ws: object, size: int) -> bool:
    """Let at most about ``size`` bytes of this peer's messages wait below the queue: in the
    kernel's send buffer, and in the transport's (whether it could be done).

    By default the kernel grows a socket's send buffer to megabytes: a peer that stops reading
    would hide some two thousand room pictures there before its writer ever waited, stale
    ones that no newer picture can replace, and an attacker's five such sockets would hold
    some twenty megabytes.  Kept small, what such a peer cannot take waits in its queue,
    where only the newest picture is kept (see the module); a picture of a few kilobytes a
    move is far below what even a slow phone takes.
    """
    transport = _transport(ws)
    sock = getattr(transport, "get_extra_info", lambda name: None)("socket")
    limits = getattr(transport, "set_write_buffer_limits", None)
    if sock is None or not callable(limits):
        return False
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)
        limits(high=size)
        return True
    return False


def cut(ws: object) -> bool:
    """Abort the TCP connection under a WebSocket at once; whether it could be done.

    A peer that never reads keeps its socket's buffers full: neither a message nor the closing
    frame can reach it, and the server would keep the socket (and its handler) until the peer
    goes away.  Its transport (see :func:`_transport`) is aborted instead; under another
    server the socket stays until the server's own keep-alive gives up.
    """
    abort = getattr(_transport(ws), "abort", None)
    if not callable(abort):
        return False
    with contextlib.suppress(Exception):
        abort()
    return True


async def send_all(batch: list[tuple[Connection, str]], fleeting: bool = False) -> None:
    """Queue each connection its text (see :meth:`Connection.post`); never waits for a peer."""
    for conn, text in batch:
        conn.post(text, fleeting)
