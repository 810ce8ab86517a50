"""Who is online, told to the table at most a few times a second, whatever the crowd does.

Someone arriving or leaving changes only the seats online and the count of spectators, yet the
table learns it from a room picture.  Drawn for every arrival and every departure, a crowd of
N watchers coming and going costs N pictures each time, N^2 in all (a thousand watchers on one
table once made half a million messages).  So a change is told at once when the room has been
quiet, and the changes after it are gathered and told together once the room's interval is
over (leading edge, then trailing edge); a move's picture in between carries the count anyway.
The interval is :attr:`PresenceBoard.every` seconds, longer for a crowd: a room of C
connections is told every ``C / BUDGET`` seconds at most, so what its presence costs a second
stays under ``BUDGET`` messages however large the crowd grows -- the messages of a crowd
coming and going grow with its size, not its square.  C counts the room's connections through
every worker: each worker tells its own share of the crowd, so the table's budget is shared
by the workers rather than granted to each (three workers, each counting only its own third,
once told a crowd three times as often).

Scaled out, the other workers hear this worker's connections only when it tells them (one
Redis message per telling, see :meth:`.cluster.Cluster.announce`), and their reports come in
here through the same gate.  A seat coming or going here is told to them at once, though, even
within the interval: the other workers decide by it whom "play again" waits for and whose
clock starts, and a seat held back to the interval's end (another worker's report had just
started it) let a worker make the next match without a person who had played the whole match
through this one.  Seats are few, so this costs a message per seat change, not per watcher;
the crowd's count is still gathered.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from .broadcast import post_room
from .cluster import Cluster
from .room import LiveRoom

log = logging.getLogger("shipcaptaincrew.web")

#: Messages a second that telling one room who is online may cost at most (see the module):
#: a thousand watchers are told every two seconds.
BUDGET = 500.0


@dataclass
class _Pending:
    """A room in its interval: whether a change came meanwhile, and whether it was here."""

    changed: bool = False
    local: bool = False


class PresenceBoard:
    """Tells each room who is online: at once after a quiet interval, gathered within one."""

    def __init__(self, cluster: Cluster, every: float) -> None:
        self.cluster, self.every = cluster, every
        #: Rooms within their interval, by code.
        self._cooling: dict[str, _Pending] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def interval(self, room: LiveRoom) -> float:
        """Seconds between two tellings of this room (see the module: its whole crowd, through
        every worker, shares the budget)."""
        online, spectators = room.presence()
        return max(self.every, max(len(room.conns), len(online) + spectators) / BUDGET)

    def changed(self, room: LiveRoom, local: bool = True) -> None:
        """Who is online in ``room`` may have changed (``local``: a connection of this worker
        came or went, so the other workers are told too)."""
        pending = self._cooling.get(room.code)
        if pending is not None:
            pending.changed = True
            pending.local |= local
            if local and room.announced != room.local_seats():
                # A seat came or went here: the other workers are told now, not at the end
                # of the interval (see the module).
                self._announce(room)
            return
        self._tell(room, local)

    def _tell(self, room: LiveRoom, local: bool) -> None:
        """Tell everyone here now (and, for a change here, the other workers)."""
        loop = asyncio.get_running_loop()
        self._cooling[room.code] = _Pending()
        loop.call_later(self.interval(room), self._cooled, room)
        try:
            self.cluster.presence_changed(room)
            post_room(room)
        except Exception:  # a telling that fails must not cost anything else
            log.exception("presence not told", extra={"room": room.code})
        if local:
            self._announce(room)

    def _announce(self, room: LiveRoom) -> None:
        """Tell the other workers (if any) who is connected to ``room`` here."""
        if self.cluster.relay is not None:
            task = asyncio.get_running_loop().create_task(self.cluster.announce(room))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _cooled(self, room: LiveRoom) -> None:
        pending = self._cooling.pop(room.code, None)
        if pending is not None and pending.changed:
            self._tell(room, pending.local)
