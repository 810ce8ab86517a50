"""Every row the match service reads or writes: rooms, seats, events and results.

Where a move is committed depends on the database.  PostgreSQL is a network round trip away:
moves go to writer threads so that the event loop serves other tables meanwhile.  SQLite in WAL
mode with ``synchronous=FULL`` (the default) waits for the disk at every commit, so its moves
go to one writer thread that commits every move waiting in one transaction, one fsync
(:class:`..storage.sqlite.GroupCommit`).  With ``synchronous=NORMAL`` a commit appends to the log
without an fsync (the checkpointer fsyncs in the background, see
:func:`..storage.sqlite.checkpoints`) and takes a fraction of a millisecond, about what handing it to a
thread and back costs, so it is made on the event loop itself: the only SQLite writer, never
colliding with another.  ``benchmarks/bench_web.py`` measures both in one run.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import CursorResult, Engine, delete, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ...fair import SeedFormat
from ...rules import Rules
from ...state import MatchState
from .. import clock
from ..settings import Settings
from ..storage.models import DiceSource, Event, MatchEnd, Result, Room, RoomStatus, Seat
from ..storage.sqlite import EventAppender, GroupCommit, checkpoints
from ..words import refusals as E
from ..words.refusals import CONFLICT, ErrorCode, RoomError, unavailable
from .room import LiveRoom
from .schemas import CreateRoom
from .seats import Meta, SeatInfo

#: Join-code alphabet: no 0/O, 1/I/L, so a code read aloud is typed right.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6

log = logging.getLogger("shipcaptaincrew.web")

#: What another worker changed in a room: (status, client seeds, seats, host) while the room is
#: in the lobby (else None), and the events this worker has not read yet.
Lobby = tuple[RoomStatus, list[str], list[SeatInfo], int]
Delta = tuple[Lobby | None, list[dict[str, Any]]]


@dataclass(frozen=True)
class Table:
    """How a room plays, besides who sits at it: what a rematch carries to the next room."""

    rules: Rules
    lang: str
    hints: bool
    turn_timer: int | None
    starter: int | None
    dice: DiceSource


@contextlib.contextmanager
def guarded() -> Iterator[None]:
    """Database trouble becomes a clear refusal (nothing was committed) instead of a crash.

    A unique-constraint violation means another worker changed the same rows first.
    """
    try:
        yield
    except IntegrityError:
        raise RoomError(ErrorCode.CONFLICT, CONFLICT, 409) from None
    except DBAPIError as e:
        log.warning("database unavailable", extra={"error": str(e.orig or e)[:200]})
        raise unavailable(E.DATABASE) from None


def _now() -> datetime:
    return datetime.now(UTC)


def _seats(row: Room) -> list[SeatInfo]:
    return [SeatInfo.stored(s.name, s.kind, s.token_hash, s.color, s.avatar) for s in row.seats]


def _seat_row(position: int, seat: SeatInfo) -> Seat:
    return Seat(
        position=position,
        name=seat.name,
        kind=seat.label,
        token_hash=seat.token_hash,
        color=seat.color,
        avatar=seat.avatar,
    )


class Store:
    """The database behind the rooms (the only truth; a room in memory is its replay)."""

    def __init__(self, settings: Settings, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions
        self.engine: Engine = sessions.kw["bind"]
        self.fixed_server_seed = settings.fixed_server_seed
        #: Where the time a match ends is read (see ..clock; None: the system clock).
        self.clock_file = settings.clock_file
        #: What every room loaded here is told: how long a person may be away.
        self.absent_grace = settings.absent_grace
        self.silent_grace = settings.silent_grace
        self.presence_ttl = settings.presence_ttl
        sqlite = settings.sqlalchemy_url().startswith("sqlite")
        #: SQLite only (None: PostgreSQL): moves are committed through it, on the event loop
        #: or, when each commit waits for the disk, by the writer thread of ``group``.
        self.appender = EventAppender(self.engine) if sqlite else None
        durable = settings.sqlite_synchronous == "full"
        self.group = GroupCommit(self.appender) if self.appender and durable else None
        self.writer = ThreadPoolExecutor(max_workers=4, thread_name_prefix="scc-db-writer")
        self._checkpointer: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the SQLite checkpointer (on the running loop)."""
        if self.appender is not None:
            self._checkpointer = asyncio.get_running_loop().create_task(checkpoints(self.engine))

    async def close(self) -> None:
        """Stop the checkpointer, finish the writes under way and give the connection back."""
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpointer
        self.writer.shutdown(wait=True)
        if self.group is not None:
            self.group.close()
        if self.appender is not None:
            self.appender.close()

    # -- rooms ----------------------------------------------------------------------------
    def playing(self) -> list[str]:
        """The codes of every match under way."""
        with self.sessions() as db:
            return list(
                db.scalars(select(Room.code).where(Room.status == RoomStatus.PLAYING.value))
            )

    def load(self, code: str) -> LiveRoom:
        """A room as the database has it, its match replayed by the engine."""
        with guarded(), self.sessions() as db:
            row = db.scalar(select(Room).where(Room.code == code))
            if row is None:
                raise RoomError(ErrorCode.NOT_FOUND, E.NOT_FOUND, 404, code=code[:16])
            events = db.scalars(
                select(Event.payload).where(Event.room_id == row.id).order_by(Event.seq)
            ).all()
            room = LiveRoom(
                id=row.id,
                code=row.code,
                rules=Rules.from_str(row.rules),
                lang=row.lang,
                hints=row.hints,
                turn_timer=row.turn_timer,
                starter=row.starter,
                status=RoomStatus(row.status),
                commitment=row.commitment,
                client_seeds=list(row.client_seeds),
                seats=_seats(row),
                server_seed=row.server_seed,
                dice_source=DiceSource(row.dice),
                absent_grace=self.absent_grace,
                silent_grace=self.silent_grace,
                presence_ttl=self.presence_ttl,
                seed_format=SeedFormat(row.client_seed_format or SeedFormat.JOINED),
            )
            room.apply(Meta.of(row))
        if room.status is not RoomStatus.LOBBY:
            room.begin()
            room.advance([dict(e) for e in events])
        return room

    def create(
        self, req: CreateRoom, rules: Rules, host: SeatInfo, created_by: str | None = None
    ) -> str:
        """Store a new room with its host in seat 0; returns its join code (new, unique).

        ``created_by``: who opened it (see :mod:`..rooms.upkeep`)."""
        table = Table(rules, req.lang, req.hints, req.turn_timer, req.starter, req.dice)
        seeds = [req.client_seed] if req.client_seed else []
        with guarded(), self.sessions() as db, db.begin():
            room = self.new_room(db, table, [host], RoomStatus.LOBBY, client_seeds=seeds)
            room.created_by = created_by
            room.published = req.publish
            return room.code

    def new_room(
        self,
        db: Session,
        table: Table,
        seats: list[SeatInfo],
        status: RoomStatus,
        host: int = 0,
        client_seeds: list[str] | None = None,
    ) -> Room:
        """Add a room with a new code, a fresh secret seed and these seats (in ``db``'s
        transaction, which the caller commits)."""
        fixed = self.fixed_server_seed
        seed = bytes.fromhex(fixed) if fixed else secrets.token_bytes(32)
        room = Room(
            code=self._new_code(db),
            rules=str(table.rules),
            lang=table.lang,
            hints=table.hints,
            turn_timer=table.turn_timer,
            starter=table.starter,
            status=status.value,
            server_seed=seed.hex(),
            commitment=hashlib.sha256(seed).hexdigest(),
            client_seeds=client_seeds or [],
            revealed=False,
            dice=table.dice.value,
            host=host,
            client_seed_format=SeedFormat.PREFIXED.value,
        )
        room.seats.extend(_seat_row(i, seat) for i, seat in enumerate(seats))
        db.add(room)
        db.flush()
        return room

    def _new_code(self, db: Session) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if db.scalar(select(Room.id).where(Room.code == code)) is None:
                return code

    def add_seat(self, room: LiveRoom, seat: SeatInfo, client_seeds: list[str] | None) -> None:
        """Store the room's next seat (and, if given, the client seeds it now has)."""
        position = len(room.seats)
        with guarded(), self.sessions() as db, db.begin():
            row = _seat_row(position, seat)
            row.room_id = room.id
            db.add(row)
            if client_seeds is not None:
                stored = db.get(Room, room.id)
                assert stored is not None
                stored.client_seeds = client_seeds

    def remove_seat(self, room: LiveRoom, seat: int, host: int) -> None:
        """Delete a seat; the later seats move up one (and the host's seat is now ``host``)."""
        with guarded(), self.sessions() as db, db.begin():
            stored = db.get(Room, room.id)
            assert stored is not None
            stored.host = host
            db.execute(delete(Seat).where(Seat.room_id == room.id, Seat.position == seat))
            db.flush()
            rows = db.scalars(
                select(Seat)
                .where(Seat.room_id == room.id, Seat.position > seat)
                .order_by(Seat.position)
            ).all()
            for row in rows:
                row.position -= 1
                db.flush()

    def mark_playing(self, room: LiveRoom) -> None:
        """The match has started."""
        with guarded(), self.sessions() as db, db.begin():
            row = db.get(Room, room.id)
            assert row is not None
            row.status = RoomStatus.PLAYING.value

    def read_meta(self, room: LiveRoom) -> Meta:
        """The room's :class:`Meta` as the database has it."""
        with self.sessions() as db:
            row = db.get(Room, room.id)
            assert row is not None
            return Meta.of(row)

    def change_meta(self, room: LiveRoom, change: Callable[[Meta], Meta]) -> Meta:
        """Apply ``change`` to the room's votes and screens under the row's lock (so two
        workers never both count from the same old list); returns the room's meta as stored."""
        with guarded(), self.sessions() as db, db.begin():
            row = db.scalar(select(Room).where(Room.id == room.id).with_for_update())
            if row is None:
                raise RoomError(ErrorCode.NOT_FOUND, E.NOT_FOUND, 404, code=room.code)
            meta = change(Meta.of(row))
            meta.store(row)
            return meta

    def hand_over(self, room: LiveRoom, host: int, to: int) -> bool:
        """Make seat ``to`` the host if ``host`` still is (another worker may have been first)."""
        with guarded(), self.sessions() as db, db.begin():
            done = db.execute(
                update(Room).where(Room.id == room.id, Room.host == host).values(host=to)
            )
            return bool(cast(CursorResult[Any], done).rowcount)

    def read_delta(self, room: LiveRoom) -> Delta:
        """From the database: the lobby (while in the lobby) and the events this room lacks."""
        with self.sessions() as db:
            lobby = None
            if room.status is RoomStatus.LOBBY:
                row = db.scalar(select(Room).where(Room.id == room.id))
                if row is None:
                    raise RoomError(ErrorCode.NOT_FOUND, E.NOT_FOUND, 404, code=room.code)
                lobby = (RoomStatus(row.status), list(row.client_seeds), _seats(row), row.host)
            events = db.scalars(
                select(Event.payload)
                .where(Event.room_id == room.id, Event.seq >= len(room.events))
                .order_by(Event.seq)
            ).all()
            return lobby, [dict(e) for e in events]

    # -- moves ----------------------------------------------------------------------------
    async def commit(
        self,
        room: LiveRoom,
        event: dict[str, Any],
        after: MatchState,
        results: tuple[list[Result], MatchEnd] | None,
        ready: dict[str, Any] | None,
    ) -> None:
        """Commit one event (see the module docstring for where); raises SQLAlchemy's errors."""
        if self.group is not None and not after.is_over:
            await self.group.append(self._row(room, event), ready)
        elif self.appender is not None and self.group is None:
            self._persist(room, event, after, results, ready)
        else:
            await asyncio.get_running_loop().run_in_executor(
                self.writer, self._persist, room, event, after, results
            )

    @staticmethod
    def _row(room: LiveRoom, event: dict[str, Any]) -> dict[str, Any]:
        """The event's row (its number is the count of the room's events so far)."""
        return {"room_id": room.id, "seq": len(room.events), "payload": event, "created_at": _now()}

    def _persist(
        self,
        room: LiveRoom,
        event: dict[str, Any],
        after: MatchState,
        results: tuple[list[Result], MatchEnd] | None = None,
        ready: dict[str, Any] | None = None,
    ) -> None:
        """Commit one event; the last one together with the room's end, ``results`` and how
        the match ended.

        ``ready``: columns of the row already converted (SQLite; see EventAppender.stored)."""
        values = self._row(room, event)
        if not after.is_over:
            if self.appender is not None:
                self.appender.append(values, ready)
                return
            # The hot path of every move: one Core insert on a plain connection, no ORM session
            # (less Python per write, so the writer thread needs the GIL for less time).
            with self.engine.begin() as conn:
                conn.execute(insert(Event), values)
            return
        # The last move: the event, the room's end and everyone's results in one transaction.
        with self.sessions() as db, db.begin():
            db.execute(insert(Event), values)
            row = db.get(Room, room.id)
            assert row is not None
            row.status, row.revealed, row.winner = RoomStatus.OVER.value, True, after.winner
            row.finished_at = clock.now(self.clock_file)
            lines, ended = results or ([], MatchEnd.PLAYED)
            row.ended = ended.value
            for r in lines:
                db.add(r)
