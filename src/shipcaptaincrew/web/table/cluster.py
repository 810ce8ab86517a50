"""Several workers on one database: catching up with each other's moves, and who is online.

Scaled out (``redis_url`` set, several workers on one PostgreSQL database), the database is
still the only truth: under a room's lock a worker first reads the events other workers
committed (:meth:`Cluster.refresh`), and the unique constraint on (room, event number) refuses
a second event with the same number, so two workers never both apply a move to one match.
After each commit the worker tells the others through Redis (:mod:`..connections.relay`), and they catch up
and broadcast to their own connections.  Each worker also tells the others which seats are
connected through it, so everyone sees everyone online whichever worker they are on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from sqlalchemy.exc import DBAPIError

from ..connections.relay import PRESENCE_EVERY, Note, NoteKind, Relay
from ..connections.transport import dumps, send_all
from ..settings import Settings
from ..storage.models import RoomStatus
from ..words import refusals as E
from ..words.refusals import RoomError, unavailable
from .broadcast import broadcast_room
from .room import Advanced, LiveRoom, Report
from .store import Store

log = logging.getLogger("shipcaptaincrew.web")


async def _nothing(room: LiveRoom) -> None:
    """No hook."""


async def tell(room: LiveRoom, told: Advanced | None) -> None:
    """Show everyone here the room as it now is, with what the events read tell (if any)."""
    if told is None:
        await broadcast_room(room)
    else:
        await broadcast_room(room, told.lines, None, told.moment, told.by_timer)


class Cluster:
    """This worker's part in a scaled-out service (all of it idle on a single process)."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        rooms: dict[str, LiveRoom],
        schedule: Callable[[LiveRoom, bool], None],
    ) -> None:
        self.scaled = settings.scaled
        self.store, self.rooms = store, rooms
        #: Sets a room's next automatic move going (``True``: as the failover, see
        #: :meth:`..play.autoplay.AutoPlay.schedule`) once another worker's move is read here.
        self.schedule = schedule
        #: Called when who is online may have changed (the host's absence is watched, and
        #: the rematch waits for those online only).
        self.presence_changed: Callable[[LiveRoom], None] = lambda room: None
        #: Called when another worker reports who is connected there (``False``: not here),
        #: to tell the table in time (see .presence).
        self.presence_reported: Callable[[LiveRoom, bool], None] = lambda room, local: None
        #: Called when the next match of a room was made by another worker (see .nextmatch).
        self.next_match: Callable[[LiveRoom], Awaitable[None]] = _nothing
        #: Called when a room's meta was read anew (its paired screens may have changed:
        #: see .screens).
        self.meta_changed: Callable[[LiveRoom], None] = lambda room: None
        self.relay: Relay | None = None
        if settings.redis_url:
            self.relay = Relay(settings.redis_url, self._remote_change, self._catch_up_all)
        self._presence: asyncio.Task[None] | None = None

    @property
    def up(self) -> bool:
        """Whether a move may be committed: the other workers would hear of it."""
        return self.relay is None or self.relay.up

    async def start(self) -> None:
        """Listen to the other workers and tell them, now and then, who is connected here."""
        if self.relay is not None:
            await self.relay.start()
            self._presence = asyncio.get_running_loop().create_task(self._presence_loop())

    async def stop(self) -> None:
        """Stop announcing and listening."""
        if self._presence is not None:
            self._presence.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._presence
        if self.relay is not None:
            await self.relay.stop()

    async def publish(self, room: LiveRoom) -> None:
        """Tell the other workers (if any) that this room changed; it is committed already."""
        if self.relay is not None:
            await self.relay.publish(room.code, room.version)

    async def refresh(self, room: LiveRoom) -> tuple[bool, Advanced | None]:
        """Bring a room up to what the database holds (scaled out only; the caller holds the lock).

        Returns whether anything changed and what the new events tell the table.  The events are
        replayed by the engine exactly as at start-up (:meth:`.room.LiveRoom.advance`), so every
        worker holds the same state.
        """
        if not self.scaled:
            return False, None
        try:
            lobby, events = await asyncio.to_thread(self.store.read_delta, room)
        except DBAPIError as e:
            log.warning("database unavailable", extra={"error": str(e.orig or e)[:200]})
            raise unavailable(E.DATABASE) from None
        changed = False
        if lobby is not None:
            status, seeds, seats, host = lobby
            if (status, seeds, seats, host) != (
                room.status,
                room.client_seeds,
                room.seats,
                room.host,
            ):
                changed = True
                room.client_seeds, room.seats, room.host = seeds, seats, host
                for c in room.conns:  # seats may have moved up after a removal
                    c.seat = room.seat_of_hash(c.token_hash)
            if status is not RoomStatus.LOBBY:
                room.begin()
        told = room.advance(events) if events else None
        return changed or bool(events), told

    async def sync(self, room: LiveRoom) -> None:
        """Refresh (the caller holds the lock) and, if another worker moved, show it here too."""
        changed, told = await self.refresh(room)
        if changed:
            self.schedule(room, True)
            await tell(room, told)

    async def announce(self, room: LiveRoom) -> None:
        """Scaled out: tell the other workers who is connected to this room here."""
        if self.relay is not None:
            presence = room.local_presence()
            room.announced = tuple(presence["seats"])
            await self.relay.publish_presence(room.code, room.version, presence)

    async def react(self, room: LiveRoom, seat: int | None, emoji: str) -> None:
        """Show an emoji reaction to everyone at the table, on this worker and the others."""
        await self._show_reaction(room, seat, emoji)
        if self.relay is not None:
            data = {"seat": seat, "emoji": emoji}
            await self.relay.publish_note(room.code, room.version, NoteKind.REACTION, data)

    async def _show_reaction(self, room: LiveRoom, seat: int | None, emoji: str) -> None:
        text = dumps({"type": "reaction", "seat": seat, "emoji": emoji})
        await send_all([(c, text) for c in list(room.conns)], fleeting=True)

    async def publish_meta(self, room: LiveRoom) -> None:
        """Scaled out: tell the other workers the room's host or rematch changed (committed)."""
        if self.relay is not None:
            await self.relay.publish_note(room.code, room.version, NoteKind.META)

    async def read_meta(self, room: LiveRoom) -> bool:
        """Read the room's host (and rematch) as the database has them; whether they changed.

        The caller holds the lock."""
        try:
            meta = await asyncio.to_thread(self.store.read_meta, room)
        except DBAPIError as e:
            log.warning("database unavailable", extra={"error": str(e.orig or e)[:200]})
            raise unavailable(E.DATABASE) from None
        fresh = room.next_code is None and meta.next_code is not None
        changed = room.apply(meta)
        if changed:
            self.meta_changed(room)
        if fresh:  # the next match was made elsewhere: send the players here on to it
            await self.next_match(room)
        return changed

    async def _presence_loop(self) -> None:
        """Re-announce presence now and then, so a newly started worker learns it too (and
        look at the hosts again: another worker's reports fade out when it dies)."""
        while True:
            await asyncio.sleep(PRESENCE_EVERY)
            for room in list(self.rooms.values()):
                # An ended match still counts who is online until its next one is made:
                # "play again" waits only for people online, and a worker that stopped
                # announcing would have its players fade out (presence_ttl) and be left out.
                waiting = room.status is not RoomStatus.OVER or room.next_code is None
                if room.conns and waiting:
                    await self.announce(room)
                    self.presence_changed(room)

    async def _remote_change(self, note: Note) -> None:
        """Another worker changed a room (or reports who is connected there): catch up if this
        worker holds the room."""
        room = self.rooms.get(note.code)
        if room is None:
            return
        if note.kind is NoteKind.REACTION:
            assert note.data is not None
            await self._show_reaction(room, note.data["seat"], note.data["emoji"])
            return
        if note.kind is NoteKind.PRESENCE:
            assert note.data is not None
            before = room.presence(), room.screens(), room.newcomers()
            newcomer = note.origin not in room.remote
            seen = Report.of(time.monotonic(), note.data)
            room.remote[note.origin] = seen
            # Unless the worker reports again in time, its people fade out then: told then.
            asyncio.get_running_loop().call_later(
                room.presence_ttl, self._faded, room, note.origin, seen
            )
            if newcomer and room.conns:  # a worker new to this room: tell it who is here
                await self.announce(room)
            if (room.presence(), room.screens(), room.newcomers()) != before:
                self.presence_reported(room, False)
            return
        async with room.lock:
            if note.kind is NoteKind.META:
                if await self.read_meta(room):
                    await broadcast_room(room)
                return
            if room.status is RoomStatus.PLAYING and note.version <= room.version:
                return  # already read (by an action or an earlier message)
            await self.sync(room)

    def _faded(self, room: LiveRoom, origin: str, seen: Report) -> None:
        """A worker's report of who is connected through it is no longer believed (it sent
        no newer one, see ``Settings.presence_ttl``): the table is told who is online now,
        and the clocks of those gone look again."""
        if room.remote.get(origin) is not seen:
            return  # reported again since
        if self.rooms.get(room.code) is room:
            self.presence_reported(room, False)
            self.presence_changed(room)

    async def _catch_up_all(self) -> None:
        """After Redis was away: read whatever every open table missed meanwhile."""
        for room in list(self.rooms.values()):
            if room.status is not RoomStatus.OVER:
                async with room.lock:
                    with contextlib.suppress(RoomError):
                        await self.sync(room)
                        if await self.read_meta(room):
                            await broadcast_room(room)
