"""Play again: the same table's next match, once everyone still here has said yes.

After a match each seated person confirms "play again" (bots confirm themselves) and any
spectator may ask for a seat at the next match.  When every person online has confirmed, the
server makes the next room: the confirmed persons and the bots in their seat order, then the
spectators who asked, the same rules and settings, a fresh fair-dice seed, and -- where the
rules let the host choose who starts -- the start moved on by the rules' rotation (the
engine's :func:`~shipcaptaincrew.engine.rotation_step`).  A person who went away without
confirming is not waited for and keeps no seat.

The votes, the seats asked for and the next room's code live in the old room's row, changed
under a row lock (:meth:`NextMatch._change`), so workers of a scaled-out server count the same
votes and only one of them makes the next room.  Each worker then sends its own connections a
``moved`` message with the new code and their seat token there (a seated person keeps the
token they have; a spectator was given one when asking), and spectators follow ``next_code``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...engine import InvalidSetupError, check_players, rotation_step
from ...rules import Starter
from ..connections.transport import Connection
from ..display.party import AVATARS, COLORS, seat_avatar, seat_color
from ..settings import Settings
from ..storage.models import Room, RoomStatus, SeatKind
from ..table.broadcast import broadcast_room
from ..table.cluster import Cluster
from ..table.room import LiveRoom
from ..table.schemas import Rematch, SeatNext
from ..table.seats import Meta, SeatInfo, hash_token
from ..table.store import Store, Table, guarded
from ..words import refusals as E
from ..words.refusals import ErrorCode, RoomError
from .names import check_name

log = logging.getLogger("shipcaptaincrew.web")

#: Seat tokens: 32 random bytes (256 bits), URL-safe (as the lobby's).
TOKEN_BYTES = 32


def carried(room: LiveRoom, votes: tuple[int, ...]) -> dict[int, int]:
    """Old seat -> seat at the next match, for the bots and the persons who confirmed."""
    keep = [i for i, s in enumerate(room.seats) if s.kind is SeatKind.BOT or i in votes]
    return {old: new for new, old in enumerate(keep)}


@dataclass(frozen=True)
class Plan:
    """The next match's table: its seats, its host's seat and who starts (None: the rules'
    roll-off decides)."""

    seats: list[SeatInfo]
    host: int
    starter: int | None


def plan(room: LiveRoom, meta: Meta, online: frozenset[int], max_seats: int) -> Plan | None:
    """The next match, if it can be made now (see the module docstring), else None."""
    persons = [i for i, s in enumerate(room.seats) if s.kind is SeatKind.PERSON]
    if not any(i in meta.rematch for i in persons):
        return None
    if any(i in online and i not in meta.rematch for i in persons):
        return None  # still waiting for someone at the table
    moves = carried(room, meta.rematch)
    seats = _looks_kept(room, list(moves), list(meta.next_seats)[: max_seats - len(moves)])
    try:
        check_players(room.rules, len(seats))
    except InvalidSetupError:
        return None
    host = moves.get(room.host, next(new for old, new in moves.items() if old in persons))
    return Plan(seats, host, _next_starter(room, moves))


def _looks_kept(room: LiveRoom, carried: list[int], newcomers: list[SeatInfo]) -> list[SeatInfo]:
    """The next match's seats, each with the colour and avatar it showed at this one (a seat
    that chose none showed one by its number, which moves when someone before it left), and
    the newcomers with ones nobody at the table shows."""
    seats = [
        replace(
            room.seats[old],
            color=seat_color(old, room.seats[old].color),
            avatar=seat_avatar(old, room.seats[old].avatar),
        )
        for old in carried
    ]
    for new in newcomers:
        colors = {s.color for s in seats}
        avatars = {s.avatar for s in seats}
        color = new.color
        if color is None:
            color = next((c for c in range(COLORS) if c not in colors), len(seats) % COLORS)
        avatar = new.avatar or next((a for a in AVATARS if a not in avatars), None)
        seats.append(replace(new, color=color, avatar=avatar))
    return seats


def _next_starter(room: LiveRoom, moves: dict[int, int]) -> int | None:
    """Where the host chose who starts: the seat after the last match's starter, in the
    direction the rules rotate the start, among the seats carried on."""
    first = room.first_seat()
    if room.rules.starter is not Starter.CHOSEN or first is None:
        return None
    n, step = len(room.seats), rotation_step(room.rules)
    order = [(first + step * k) % n for k in range(1, n + 1)] if step else [first]
    order += [(first + k) % n for k in range(1, n)]
    return next((moves[old] for old in order if old in moves), 0)


class NextMatch:
    """Votes, seats for the next match, and the next room itself."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        cluster: Cluster,
        load: Callable[[str], LiveRoom],
        schedule: Callable[[LiveRoom], None],
    ) -> None:
        self.settings, self.store, self.cluster = settings, store, cluster
        #: The live room for a code, and the way to set a new room's bots going.
        self.load, self.schedule = load, schedule
        #: What else the next room takes over from this one, in the transaction that makes
        #: it: ``(db, old room's id, new room)`` (a crew's room: see ``crews.tables.carry``).
        self.carried: list[Callable[[Session, int, Room], None]] = []
        self._pending: set[str] = set()

    # -- messages ---------------------------------------------------------------------------
    async def confirm(self, room: LiveRoom, conn: Connection, msg: Rematch) -> None:
        """A seated person says "play again" (again: nothing changes)."""
        if conn.seat is None:
            raise RoomError(ErrorCode.SPECTATOR, E.SPECTATOR, 403)
        async with room.lock:
            await self.cluster.sync(room)
            if room.status is not RoomStatus.OVER:
                raise RoomError(ErrorCode.NO_REMATCH, E.REMATCH_NOT_OVER, 409)
            if msg.version != room.version:
                raise RoomError(ErrorCode.STALE, E.STALE, 409)
            if room.next_code is not None:  # made already: on to it
                await self.moved(room, conn)
                return
            seat = conn.seat
            await self._change(room, lambda m: Meta(m.host, (*m.rematch, seat), m.next_seats))

    async def seat_next(self, room: LiveRoom, conn: Connection, msg: SeatNext) -> None:
        """A spectator asks for a seat at the next match; the seat token goes to them now."""
        if conn.seat is not None or conn.next_token is not None:
            raise RoomError(ErrorCode.NO_REMATCH, E.SEATED_ALREADY, 409)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        seat = SeatInfo(msg.name, SeatKind.PERSON, hash_token(token), None, msg.color, msg.avatar)
        async with room.lock:
            await self.cluster.sync(room)
            if room.status is RoomStatus.LOBBY:
                raise RoomError(ErrorCode.NO_REMATCH, E.NOT_STARTED, 409)
            check_name(msg.name, (s.name for s in (*room.seats, *room.next_seats)))
            if len(room.seats) + len(room.next_seats) >= self.settings.max_seats:
                raise RoomError(ErrorCode.FULL, E.FULL, 409, n=self.settings.max_seats)
            await self._change(room, lambda m: Meta(m.host, m.rematch, (*m.next_seats, seat)))
            conn.next_token = token
        await conn.send({"type": "seat_next", "name": msg.name, "token": token})

    def check(self, room: LiveRoom) -> None:
        """Who is online changed: the rematch may no longer wait for someone who left."""
        if room.status is not RoomStatus.OVER or room.next_code is not None or not room.rematch:
            return
        meta = Meta(room.host, room.rematch, room.next_seats)
        if (
            room.code in self._pending
            or plan(room, meta, room.presence()[0], self.settings.max_seats) is None
        ):
            return
        self._pending.add(room.code)
        asyncio.get_running_loop().create_task(self._recheck(room))

    async def _recheck(self, room: LiveRoom) -> None:
        try:
            async with room.lock:
                with contextlib.suppress(RoomError):
                    await self._change(room, lambda m: m)
        finally:
            self._pending.discard(room.code)

    # -- the change and the next room ----------------------------------------------------------
    async def _change(self, room: LiveRoom, change: Callable[[Meta], Meta]) -> None:
        """Apply ``change`` to the room's votes and next seats under the row's lock, make the
        next room if everyone is in, and tell everyone.  The caller holds the room's lock."""
        if room.next_code is not None:
            raise RoomError(ErrorCode.NO_REMATCH, E.REMATCH_DONE, 409, code=room.next_code)
        online = room.presence()[0]
        with guarded(), self.store.sessions() as db, db.begin():
            row = db.scalar(select(Room).where(Room.id == room.id).with_for_update())
            assert row is not None
            meta = Meta.of(row)
            if meta.next_code is None:
                meta = change(meta)
                row.rematch = sorted(set(meta.rematch))
                row.next_seats = [_stored(s) for s in meta.next_seats]
                made = plan(room, meta, online, self.settings.max_seats)
                if made is not None:
                    row.next_code = self._make(db, room, made, row.published)
            meta = Meta.of(row)
        fresh = room.next_code is None and meta.next_code is not None
        room.apply(meta)
        await self.cluster.publish_meta(room)
        if fresh:
            assert room.next_code is not None
            log.info("next match made", extra={"room": room.code, "next": room.next_code})
            new = self.load(room.next_code)
            new.quick_start = True  # "play again" was the tap to begin: no second one
            self.schedule(new)
            await self.moved(room)
        await broadcast_room(room)

    def _make(self, db: Session, room: LiveRoom, made: Plan, published: bool) -> str:
        timer = None if room.turn_timer is None else int(room.turn_timer)
        table = Table(room.rules, room.lang, room.hints, timer, made.starter, room.dice_source)
        new = self.store.new_room(db, table, made.seats, RoomStatus.PLAYING, host=made.host)
        new.published = published  # (a table that published its result publishes the next)
        for carry in self.carried:
            carry(db, room.id, new)
        return new.code

    async def moved(self, room: LiveRoom, only: Connection | None = None) -> None:
        """Send every connection here (or ``only`` that one) that has a seat at the next
        match on to it."""
        code = room.next_code
        if code is None:
            return
        moves = carried(room, room.rematch)
        newcomers = {s.token_hash: len(moves) + i for i, s in enumerate(room.next_seats)}
        for c in [only] if only is not None else list(room.conns):
            if c.seat is not None and c.seat in moves and c.token is not None:
                await c.send(
                    {"type": "moved", "code": code, "token": c.token, "seat": moves[c.seat]}
                )
            elif c.next_token is not None and hash_token(c.next_token) in newcomers:
                seat = newcomers[hash_token(c.next_token)]
                await c.send({"type": "moved", "code": code, "token": c.next_token, "seat": seat})


def _stored(seat: SeatInfo) -> dict[str, object]:
    return {
        "name": seat.name,
        "token_hash": seat.token_hash,
        "color": seat.color,
        "avatar": seat.avatar,
    }
