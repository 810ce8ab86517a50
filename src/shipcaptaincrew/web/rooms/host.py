"""The host's seat is handed on when the host stays away, so a table is never stranded.

The host starts the match, seats bots and (with real dice) may type anyone's faces.  When the
host has been offline for ``host_grace`` seconds while someone else is at the table, the next
person online after the host's seat (in seat order, round the table) becomes host.  Every
worker that sees the host away keeps the same clock; the change is committed only if the host
is still the one it saw (:meth:`..table.store.Store.hand_over`), so two workers never hand it to two
people, and the others read it when told (:meth:`..table.cluster.Cluster.publish_meta`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from ..settings import Settings
from ..storage.models import RoomStatus, SeatKind
from ..table.broadcast import broadcast_room
from ..table.cluster import Cluster
from ..table.room import LiveRoom
from ..table.store import Store
from ..words.refusals import RoomError

log = logging.getLogger("shipcaptaincrew.web")


def heir(room: LiveRoom) -> int | None:
    """The seat the host's role would pass to now: the next person online after the host's
    seat; None while the host is online or nobody else is."""
    online, _ = room.presence()
    if room.host in online:
        return None
    n = len(room.seats)
    for step in range(1, n):
        seat = (room.host + step) % n
        if room.seats[seat].kind is SeatKind.PERSON and seat in online:
            return seat
    return None


class HostWatch:
    """One clock a room, running while its host is away and someone else is here."""

    def __init__(self, settings: Settings, store: Store, cluster: Cluster) -> None:
        self.grace, self.store, self.cluster = settings.host_grace, store, cluster

    def check(self, room: LiveRoom) -> None:
        """Start the room's clock if its host is away (or stop it if the host is back).

        Called whenever who is online may have changed.
        """
        away = room.status in (RoomStatus.LOBBY, RoomStatus.PLAYING) and heir(room) is not None
        task = room.host_task
        if not away:
            if task is not None and task is not asyncio.current_task():
                task.cancel()
            room.host_task = None
        elif task is None or task.done():
            room.host_task = asyncio.get_running_loop().create_task(self._later(room))

    async def _later(self, room: LiveRoom) -> None:
        await asyncio.sleep(self.grace)
        async with room.lock:
            room.host_task = None
            with contextlib.suppress(RoomError):  # the database is away: the next check retries
                await self.hand_over(room)

    async def hand_over(self, room: LiveRoom) -> None:
        """Hand the host's role on if the host is (still) away; the caller holds the lock.

        Whatever this worker learns on the way (another worker handed it on first) is shown
        here too: the other worker's note may already have been read by then."""
        changed = False
        if self.cluster.scaled:
            changed = await self.cluster.read_meta(room)
        to = heir(room)
        if to is not None:
            if self.store.hand_over(room, room.host, to):
                log.info("host handed on", extra={"room": room.code, "host": to})
                room.host, changed = to, True
                await self.cluster.publish_meta(room)
            else:
                changed = await self.cluster.read_meta(room) or changed
        if changed:
            await broadcast_room(room)

    async def stop(self, rooms: list[LiveRoom]) -> None:
        """Stop every clock (at shutdown)."""
        for room in rooms:
            if room.host_task is not None:
                room.host_task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await room.host_task
