"""The match service's part in "your turn" notifications: one :class:`Notifier` a worker.

When a move makes it a person's turn (:meth:`Notifier.turned`, called right after the move is
committed), the turn's rows are written to the outbox for each of that seat's subscriptions
that has not muted the table, due after ``Settings.push_wait``, and this worker's sender is
woken.  Nothing of it is on the move's way: the rows are written by a task of their own, off
the event loop.  A worker that stopped between a move's commit and its rows (killed, say)
loses nothing: scaled out, every other worker that reads the move writes the same rows
(:meth:`Notifier.advanced`), and at start-up and every minute each worker looks at every match
under way at which someone subscribed, works out whose turn it is since which version
(:func:`.turns.began`) and writes them too; the outbox's key makes each a no-op when they were
written already.

Who is at the table is decided when a row is due, not when it is written: a person looking at
the table needs no notification, and one who looked and went away before playing gets it
then (:meth:`Notifier.look`).  Scaled out, a worker knows who is connected through the others
only once each has reported (``relay.PRESENCE_EVERY``): a row due before then waits.

The clock (:attr:`Notifier.clock`) is what quiet hours, waits and retries are read on: the
server's (:mod:`..clock`: the system's, or the day a test writes into ``Settings.clock_file``),
or one a test in this process sets; a test goes to any day and hour, and nothing sleeps.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from ...engine import initial_state, seat_to_act
from ...notation import replay_events
from ...state import MatchState
from .. import clock
from ..connections.relay import PRESENCE_EVERY
from ..settings import Settings
from ..table.room import LiveRoom
from ..words.refusals import RoomError
from .keys import VapidKeys, server_keys
from .outbox import Claimed, Outbox
from .sender import Look, Sender
from .turns import began, passed, payload, person

log = logging.getLogger("shipcaptaincrew.web")

#: Seconds between two looks at every match under way (see the module) and prunings.
SWEEP_SECONDS = 60.0
#: Settled rows of a finished match are kept this long (what was sent, for an operator).
KEEP_SETTLED = timedelta(days=7)


class Notifier:
    """This worker's notifications: the turns it sees begin, the looks, the sender."""

    def __init__(
        self,
        settings: Settings,
        sessions: sessionmaker[Session],
        tables: Callable[[str], Awaitable[LiveRoom]],
    ) -> None:
        self.settings, self.sessions = settings, sessions
        #: The table of a code, up to date with the database (``MatchService.fresh_room``).
        self.tables = tables
        self.outbox = Outbox(sessions)
        #: What quiet hours, waits and retries are read on (a test sets it).
        self.clock: Callable[[], datetime] = lambda: clock.now(settings.clock_file)
        self._keys: VapidKeys | None = None
        worker = f"{os.getpid()}-{secrets.token_hex(4)}"
        self.sender = Sender(
            settings, self.outbox, self.keys, lambda: self.clock(), self.look, worker
        )
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        #: The turn each room is at, worked out by replay, by room: (version, seat, began).
        self._began: dict[int, tuple[int, tuple[int, int] | None]] = {}

    # -- life cycle -----------------------------------------------------------------------
    async def start(self) -> None:
        """Make or read the key pair, start sending, and look at the matches under way."""
        self._keys = await asyncio.to_thread(server_keys, self.sessions)
        self.sender.start()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())

    async def stop(self) -> None:
        """Let the rows being written and sent finish (``Settings.shutdown_grace``)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=self.settings.shutdown_grace)
        await self.sender.stop(self.settings.shutdown_grace)

    def keys(self) -> VapidKeys:
        """The server's VAPID key pair (read at start-up)."""
        if self._keys is None:
            self._keys = server_keys(self.sessions)
        return self._keys

    # -- turns ----------------------------------------------------------------------------
    def turned(self, room: LiveRoom, before: MatchState | None) -> None:
        """A move was committed (``before``: the state it was made in; None: the match just
        began): if it began a person's turn, write that turn's rows (see the module)."""
        state = room.state
        if state is None:
            return
        seat = passed(before, state)
        if seat is None or not person(room, seat):
            return
        self._spawn(self._write(room, room.version, seat))

    def advanced(
        self, room: LiveRoom, before: MatchState | None, events: list[dict[str, Any]]
    ) -> None:
        """Moves another worker committed were read here (``before``: the state they were
        played on; None: the match began with them): if they began a person's turn, write its
        rows too.  The worker that made them wrote them already, unless it died first: the
        outbox's key makes this a no-op, or the rows that were missing."""
        state = room.state
        if state is None:
            return
        first = (
            before
            if before is not None
            else initial_state(room.rules, len(room.seats), starter=room.first_seat())
        )
        states = [first, *(after for after, _ in replay_events(first, events))]
        seat = seat_to_act(states[-1])
        if seat is None or not person(room, seat):
            return
        back = len(states) - 1
        while back > 0 and seat_to_act(states[back - 1]) == seat:
            back -= 1
        if back == 0 and before is not None:
            return  # the same turn goes on
        self._spawn(self._write(room, room.version - (len(states) - 1 - back), seat))

    async def sweep(self) -> int:
        """Look at every match under way at which someone subscribed and write its current
        turn's rows if they are missing; returns how many were new."""
        codes = await asyncio.to_thread(self.outbox.rooms_with_subscribers)
        new = 0
        for code in codes:
            try:
                room = await self.tables(code)
            except RoomError:
                continue  # gone meanwhile
            turn = await self._turn(room)
            if turn is not None and person(room, turn[0]):
                new += await self._write(room, turn[1], turn[0])
        await asyncio.to_thread(self.outbox.prune, self.clock() - KEEP_SETTLED)
        return new

    async def look(self, row: Claimed) -> Look:
        """Whether a claimed row's turn is still the person's, and whether they are here."""
        try:
            room = await self.tables(row.code)
        except RoomError:
            return Look.PLAYED
        state = room.state
        if state is None or seat_to_act(state) != row.seat:
            return Look.PLAYED
        if room.version != row.turn and await self._turn(room) != (row.seat, row.turn):
            return Look.PLAYED
        if self.settings.scaled and time.monotonic() - room.loaded_at < PRESENCE_EVERY:
            return Look.UNSURE
        return Look.HERE if row.seat in room.presence()[0] else Look.SEND

    # -- helpers ----------------------------------------------------------------------------
    async def _write(self, room: LiveRoom, turn: int, seat: int) -> int:
        """Write the rows of ``seat``'s turn begun at ``turn`` for its subscribers."""
        try:
            subscribers = await asyncio.to_thread(self.outbox.subscribers, room.id, seat)
            if not subscribers:
                return 0
            rows = [(s.id, payload(room, turn, seat, s.lang)) for s in subscribers]
            due = self.clock() + timedelta(seconds=self.settings.push_wait)
            new = await asyncio.to_thread(self.outbox.write, room.id, turn, seat, rows, due)
        except Exception:  # the next sweep writes them: a notification is never worth a move
            log.warning("push rows not written", exc_info=True, extra={"room": room.code})
            return 0
        if new:
            self.sender.wake.set()
        return new

    async def _turn(self, room: LiveRoom) -> tuple[int, int] | None:
        """The room's seat to act and the version their turn began at (replayed once a
        version, off the event loop)."""
        events = list(room.events)
        version = len(events)
        known = self._began.get(room.id)
        if known is not None and known[0] == version:
            return known[1]
        turn = await asyncio.to_thread(began, room, events)
        if len(self._began) > 1000:
            self._began.clear()
        self._began[room.id] = (version, turn)
        return turn

    def _spawn(self, job: Awaitable[int]) -> None:
        async def run() -> None:
            await job

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _sweep_loop(self) -> None:
        delay = 0.0  # the first look at start-up (see the module)
        while True:
            await asyncio.sleep(delay)
            delay = SWEEP_SECONDS
            try:
                await self.sweep()
            except Exception:
                log.warning("push sweep failed", exc_info=True)
