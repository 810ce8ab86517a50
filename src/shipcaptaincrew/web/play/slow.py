"""A slow table: a match played across a day, one turn when the bus comes, one at lunch.

The host gives each person hours to act (``turn_hours``, 1 to 48) instead of seconds.  While
that clock runs nobody is "away": no bot steps in for someone offline (they are offline most
of the day), and the room is kept while the match is unfinished (see ``rooms/upkeep.py``).
When the time runs out the host's rule (:class:`~..storage.models.Late`) decides:

* ``bot``: a bot of the table's middle level plays the whole turn, as a live table's turn
  timer has it do (the event says ``"by": "timer"``);
* ``skip``: the turn is passed, played the shortest way the rules allow: the dice the rules
  call for are rolled for the person, whatever must be set aside is, and the first score is
  kept (no reroll), by the ``timid`` bot (``"by": "skipped"``).  The sheets know no turn
  forfeited without a roll, and the engine models none, so this table does not invent one.

The deadline is the server's (:mod:`..clock`): it is written to the room's row when the turn
begins (:meth:`SlowClock.due`), read back at a restart, and compared with the clock again
when it fires, so a restart or a clock moved by a test keeps it right.  A turn is what
:func:`~..push.turns.passed` names (the seat to act, from the move that made it theirs), the
same turn the "your turn" notification announces.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from ...engine import seat_to_act
from .. import clock
from ..display.absence import By, Due
from ..push.turns import began
from ..settings import Settings
from ..storage.models import Late, Room, RoomStatus
from ..table.room import LiveRoom

log = logging.getLogger("shipcaptaincrew.web")

#: The bot that passes a skipped turn: it keeps the first score (``bots.TimidBot``).
SKIPPER = "timid"
#: Why a bot moves when a slow table's time runs out, by the host's rule.
LATE_BY = {Late.BOT: By.TIMER, Late.SKIP: By.SKIPPED}


class SlowClock:
    """The deadlines of this worker's slow tables."""

    def __init__(self, settings: Settings, sessions: sessionmaker[Session]) -> None:
        self.settings, self.sessions = settings, sessions
        #: The server's time (the system's, or the day a test wrote into the clock file, or
        #: one a test in this process sets).
        self.clock: Callable[[], datetime] = lambda: clock.now(settings.clock_file)
        self._writes: set[asyncio.Task[None]] = set()

    def now(self) -> datetime:
        """The time deadlines are made and read on."""
        return self.clock()

    def due(self, room: LiveRoom) -> Due | None:
        """The deadline of the turn under way at a slow table (None: no person's turn), made
        and written to the row when the turn is new (the caller holds the room's lock)."""
        state, pace = room.state, room.pace
        if pace is None or state is None or state.is_over or room.status is not RoomStatus.PLAYING:
            return None
        seat = seat_to_act(state)
        if seat is None:
            return None
        known = room.due
        if known is not None and known.seat is None:
            # Read from the database at a restart: the replay says whose turn it was.
            turn = began(room, room.events)
            known = room.due = (
                Due(known.turn, seat, known.at) if turn == (seat, known.turn) else None
            )
        if known is not None and known.seat == seat and known.turn <= room.version:
            return known
        room.due = Due(room.version, seat, self.now() + timedelta(hours=pace.hours))
        task = asyncio.get_running_loop().create_task(self._write(room, room.due))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)
        return room.due

    def left(self, room: LiveRoom) -> float | None:
        """Seconds until the turn under way runs out (None: no deadline)."""
        due = self.due(room)
        return None if due is None else max(0.0, (due.at - self.now()).total_seconds())

    async def _write(self, room: LiveRoom, due: Due) -> None:
        """Keep the deadline with the room; another worker that wrote this turn's first wins
        (then its deadline is this room's too)."""
        try:
            kept = await asyncio.to_thread(self._store, room.id, due)
        except Exception:  # the next turn writes again; a restart gives this one a full clock
            log.warning("deadline not written", exc_info=True, extra={"room": room.code})
            return
        if kept is not None and room.due is not None and room.due.turn == kept[0]:
            room.due = room.due._replace(at=kept[1])

    def _store(self, room_id: int, due: Due) -> tuple[int, datetime] | None:
        with self.sessions() as db, db.begin():
            db.execute(
                update(Room)
                .where(
                    Room.id == room_id,
                    or_(Room.deadline_turn.is_(None), Room.deadline_turn < due.turn),
                )
                .values(deadline_turn=due.turn, turn_deadline=due.at)
            )
            row = db.execute(
                select(Room.deadline_turn, Room.turn_deadline).where(Room.id == room_id)
            ).first()
        if row is None or row[0] is None or row[1] is None:
            return None
        at = row[1] if row[1].tzinfo is not None else row[1].replace(tzinfo=due.at.tzinfo)
        return row[0], at

    async def stop(self) -> None:
        """Let the deadlines being written finish."""
        if self._writes:
            await asyncio.wait(list(self._writes), timeout=self.settings.shutdown_grace)
