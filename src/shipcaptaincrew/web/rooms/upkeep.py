"""The server's limits over time: how many rooms may be opened, and how long an idle one lives.

Opening a room costs the server a little memory and a row; nothing else stops one client (a
script) from opening thousands.  So a client network -- an IPv4 address, an IPv6 /64, see
:func:`..connections.limits.network` -- may open ``rooms_per_hour`` rooms an hour, and the server holds at
most ``max_open_rooms`` unfinished ones in all; both are counted in the database, so every
worker of a scaled-out server counts the same rooms.  The network is kept as a hash, and only
for the hour the limit needs it.  A network that has used its hour is refused from memory for
a minute after the database said so, so a flood of requests costs a query a minute, not one
each.

Counting rows is not enough across workers: two workers that count a network's rooms at the
same instant both see room for one more, and both make it.  Scaled out, each room a network
opens is therefore also counted in Redis (:meth:`Upkeep.claim`): one atomic ``INCR`` of a
counter that expires an hour after the network's first room, shared by every worker of the
database, so the ``rooms_per_hour + 1``-th request is refused whichever worker it reaches and
however many arrive at once.  Without Redis (or while it does not answer) the database's count
stands alone.

A room nobody is at (a lobby left behind, a match abandoned) expires -- its rows are deleted,
and whoever is still connected is told and disconnected -- once nobody has been connected to
it, through any worker, for ``room_unattended_seconds`` (each worker marks the rooms it has
connections to at every sweep), or once it has gone ``room_idle_seconds`` without a move (a
lobby: since it was opened).  Finished matches and their logs are kept.  Every worker sweeps;
the deletions are idempotent, and each worker forgets the rooms of its own memory whose rows
are gone, whoever deleted them.  An unfinished room therefore lives minutes once everyone has
gone, and one network's rooms stay far below the server's cap: at most ``rooms_per_hour``
that nobody attends.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import and_, delete, exists, func, or_, select, update

from ..connections.limits import address_key
from ..settings import Settings
from ..storage.models import Event, Result, Room, RoomStatus, Seat
from ..table.room import LiveRoom
from ..table.store import Store, guarded
from ..words import refusals as E
from ..words.refusals import ErrorCode, RoomError

if TYPE_CHECKING:
    from ..connections.relay import Relay

log = logging.getLogger("shipcaptaincrew.web")

#: The window of the limit on new rooms per network.
HOUR = timedelta(hours=1)
#: Seconds a refusal of new rooms is remembered without asking the database again.
REFUSAL_MEMORY = 60.0
#: Close code of a connection whose table expired (4000-4999: the application's own).
EXPIRED_CLOSE = 4410
#: Stops a room's clocks (its bot, turn timer and host watch) before it is forgotten.
StopRoom = Callable[[LiveRoom], Awaitable[None]]


class Upkeep:
    """Limits on new rooms, and the sweep that expires idle unfinished rooms."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        rooms: dict[str, LiveRoom],
        stop: StopRoom,
        relay: Relay | None = None,
    ) -> None:
        self.settings, self.store, self.rooms = settings, store, rooms
        self.stop_room = stop
        #: Scaled out: the Redis every worker shares, which counts new rooms atomically.
        self.relay = relay
        #: The counters' namespace: the database's (one Redis may serve several servers).
        self.space = hashlib.sha256(settings.db_url.encode()).hexdigest()[:16]
        self._task: asyncio.Task[None] | None = None
        #: Networks (by key) refused lately: until when (``time.monotonic()``) the refusal
        #: stands without asking the database, and what it says (message id, status, the
        #: limit).
        self._refused: dict[str, tuple[float, str, int, int]] = {}
        #: Rooms admitted here and being made (off the event loop), by network: counted with
        #: the database's, so a burst of requests cannot slip past the limit meanwhile.
        self.opening: Counter[str] = Counter()

    # -- new rooms ------------------------------------------------------------------------
    def admit(self, address: str | None) -> str | None:
        """Whether a client may open a room now (a refusal says which limit and its number);
        returns what the room stores as its opener."""
        key = None if address is None else address_key(address)
        hourly, most = self.settings.rooms_per_hour, self.settings.max_open_rooms
        if key is not None:
            self._recall(key)
        with guarded(), self.store.sessions() as db:
            if most:
                open_ = db.scalar(
                    select(func.count()).select_from(Room).where(Room.status != RoomStatus.OVER)
                )
                if (open_ or 0) >= most:
                    raise RoomError(ErrorCode.ROOM_LIMIT, E.OPEN_ROOMS, 503, n=most)
            if hourly and key is not None:
                since = datetime.now(UTC) - HOUR
                mine = db.scalar(
                    select(func.count())
                    .select_from(Room)
                    .where(Room.created_by == key, Room.created_at >= since)
                )
                if (mine or 0) + self.opening[key] >= hourly:
                    self._remember(key, hourly)
                    self._recall(key)
        return key

    async def claim(self, key: str | None) -> str | None:
        """Scaled out: count a room the network ``key`` is about to open in Redis, or refuse it
        if that makes more than ``rooms_per_hour`` since the counter started (see the module);
        returns the counter to give the room back to (:meth:`unclaim`) if it is not made.

        The counter is created with its hour's expiry and incremented in one transaction, so
        every worker's request takes its own number.  Redis not answering: None, and the
        database's count decides alone."""
        hourly, relay = self.settings.rooms_per_hour, self.relay
        if key is None or not hourly or relay is None:
            return None
        name = f"scc:{self.space}:rooms:{key}"
        try:
            async with relay.client.pipeline(transaction=True) as pipe:
                pipe.set(name, 0, ex=int(HOUR.total_seconds()), nx=True)
                pipe.incr(name)
                _, n = await asyncio.wait_for(pipe.execute(), 1.0)
        except Exception as e:
            log.warning("rooms not counted in redis", extra={"error": repr(e)})
            return None
        if int(n) > hourly:
            self._remember(key, hourly)
            self._recall(key)
        return name

    async def count_miss(self, network: str) -> bool:
        """Scaled out: count a table code that ``network`` looked up in vain in Redis, shared
        by every worker (a minute's counter); whether the network has now used its minute
        (see ``limits.Misses``).  Redis not answering: False, each worker's own count decides."""
        most, relay = self.settings.code_misses_per_minute, self.relay
        if not most or relay is None:
            return False
        name = f"scc:{self.space}:misses:{address_key(network)}"
        try:
            async with relay.client.pipeline(transaction=True) as pipe:
                pipe.set(name, 0, ex=60, nx=True)
                pipe.incr(name)
                _, n = await asyncio.wait_for(pipe.execute(), 1.0)
        except Exception as e:
            log.warning("code misses not counted in redis", extra={"error": repr(e)})
            return False
        return int(n) >= most

    async def unclaim(self, name: str) -> None:
        """Give back a room counted by :meth:`claim` that was not made (best effort)."""
        relay = self.relay
        if relay is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(relay.client.decr(name), 1.0)

    def _remember(self, key: str, hourly: int) -> None:
        """Refuse the network ``key`` from memory for a while (see the module)."""
        if len(self._refused) >= 10_000:  # (the oldest refusal is forgotten)
            del self._refused[next(iter(self._refused))]
        until = time.monotonic() + REFUSAL_MEMORY
        self._refused[key] = (until, E.ROOMS_PER_HOUR, 429, hourly)

    def _recall(self, key: str) -> None:
        """Refuse again, from memory, a network refused lately."""
        remembered = self._refused.get(key)
        if remembered is None:
            return
        until, msgid, status, n = remembered
        if until <= time.monotonic():
            del self._refused[key]
            return
        raise RoomError(ErrorCode.ROOM_LIMIT, msgid, status, n=n)

    # -- idle rooms -----------------------------------------------------------------------
    def start(self) -> None:
        """Sweep now and then (on the running loop), if rooms expire at all."""
        if self.settings.room_idle_seconds or self.settings.room_unattended_seconds:
            self._task = asyncio.get_running_loop().create_task(self._sweeping())

    async def stop(self) -> None:
        """Stop sweeping."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _sweeping(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            try:
                await self.sweep()
            except Exception:  # a sweep that fails (the database away) is tried again later
                log.warning("idle rooms not swept", exc_info=True)

    async def sweep(self, now: datetime | None = None) -> list[str]:
        """Mark the rooms this worker has connections to as attended now; delete the unfinished
        rooms idle since before ``now - room_idle_seconds`` or unattended since before ``now -
        room_unattended_seconds``; forget the network hashes older than the hour and every room
        of this worker's memory whose rows are gone; returns the codes this sweep deleted."""
        now = now or datetime.now(UTC)
        here = [
            c
            for c, r in self.rooms.items()
            if r.status is not RoomStatus.OVER and any(conn.open for conn in r.conns)
        ]
        gone = await asyncio.to_thread(self._expire, now, here)
        self._refused.clear()  # (the hour may be over: the database says)
        loaded = [c for c, r in self.rooms.items() if r.status is not RoomStatus.OVER]
        kept = set(await asyncio.to_thread(self._existing, loaded)) if loaded else set()
        for code in loaded:
            if code not in kept:
                await self._close(self.rooms.pop(code))
        if gone:
            log.info("idle rooms expired", extra={"rooms": len(gone)})
        return gone

    def _expire(self, now: datetime, here: list[str]) -> list[str]:
        idle, unattended = self.settings.room_idle_seconds, self.settings.room_unattended_seconds
        stale = []
        if idle:
            cutoff = now - timedelta(seconds=idle)
            moved = exists().where(Event.room_id == Room.id, Event.created_at >= cutoff)
            stale.append(and_(Room.created_at < cutoff, ~moved))
        if unattended:
            seen = func.coalesce(Room.attended_at, Room.created_at)
            stale.append(seen < now - timedelta(seconds=unattended))
        with guarded(), self.store.sessions() as db, db.begin():
            if here:
                db.execute(update(Room).where(Room.code.in_(here)).values(attended_at=now))
            idle_rooms = (
                db.execute(
                    select(Room.id, Room.code).where(Room.status != RoomStatus.OVER, or_(*stale))
                ).all()
                if stale
                else []
            )
            ids = [i for i, _ in idle_rooms]
            if ids:
                for table in (Event, Seat, Result):
                    db.execute(delete(table).where(table.room_id.in_(ids)))
                db.execute(delete(Room).where(Room.id.in_(ids)))
            db.execute(
                update(Room)
                .where(Room.created_by.is_not(None), Room.created_at < now - HOUR)
                .values(created_by=None)
            )
            return [code for _, code in idle_rooms]

    def _existing(self, codes: list[str]) -> list[str]:
        with self.store.sessions() as db:
            return list(db.scalars(select(Room.code).where(Room.code.in_(codes))))

    async def _close(self, room: LiveRoom) -> None:
        """Tell everyone at an expired table, in their language, and hang up."""
        await self.stop_room(room)
        err = RoomError(ErrorCode.EXPIRED, E.EXPIRED, 410)
        for conn in list(room.conns):
            await conn.send(err.message(conn.lang))
            conn.close(EXPIRED_CLOSE, flush=True)
        room.conns.clear()
