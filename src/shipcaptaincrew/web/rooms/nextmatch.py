"""Play again: the same table's next match, once everyone still here has said yes.

After a match each seated person confirms "play again" (bots confirm themselves) and any
spectator may ask for a seat at the next match: one seat a person, not a connection -- at
most ``next_seats_per_address`` a network at this table -- held only while the connection
that asked is there (it is given back when that connection goes), and the host may turn a
newcomer down.  When every person online has confirmed, the server makes the next room: the
confirmed persons still here and the bots in their seat order, then the newcomers still
here, the same rules and settings, the paired table screens, a fresh fair-dice seed, and --
where the rules let the host choose who starts -- the start moved on by the rules' rotation
(the engine's :func:`~shipcaptaincrew.engine.rotation_step`).  A person who went away, having
confirmed or not, is not waited for and keeps no seat: no turn of the next match waits for
someone long gone.

The next room's code goes only to the people at this table when it is made (and to its
paired screens): the finished room, which ``/history`` lists, never shows it, so a stranger
cannot walk into the next match from there.

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
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...engine import InvalidSetupError, check_players, rotation_step
from ...rules import Starter
from ..connections.limits import address_key
from ..connections.transport import Connection, dumps
from ..display.party import AVATARS, COLORS, seat_avatar, seat_color
from ..display.picture import held
from ..settings import Settings
from ..storage.models import Room, RoomStatus, SeatKind
from ..table.broadcast import broadcast_room
from ..table.cluster import Cluster
from ..table.room import LiveRoom
from ..table.schemas import RefuseNext, Rematch, SeatNext
from ..table.seats import Meta, SeatInfo, hash_token
from ..table.store import Store, Table, guarded
from ..words import refusals as E
from ..words.names import check_name
from ..words.refusals import ErrorCode, RoomError

log = logging.getLogger("shipcaptaincrew.web")

#: Seat tokens: 32 random bytes (256 bits), URL-safe (as the lobby's).
TOKEN_BYTES = 32


def carried(
    room: LiveRoom, votes: tuple[int, ...], online: frozenset[int] | None = None
) -> dict[int, int]:
    """Old seat -> seat at the next match, for the bots and the persons who confirmed (and,
    given who is ``online``, are still here)."""
    keep = [
        i
        for i, s in enumerate(room.seats)
        if s.kind is SeatKind.BOT or (i in votes and (online is None or i in online))
    ]
    return {old: new for new, old in enumerate(keep)}


def newcomers(room: LiveRoom, seats: tuple[SeatInfo, ...]) -> list[SeatInfo]:
    """The seats asked for at the next match whose asker is still connected (any worker)."""
    here = room.newcomers()
    return [s for s in seats if s.token_hash in here]


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
    if not any(i in meta.rematch and i in online for i in persons):
        return None
    if any(i in online and i not in meta.rematch for i in persons):
        return None  # still waiting for someone at the table
    moves = carried(room, meta.rematch, online)
    joining = newcomers(room, meta.next_seats)[: max_seats - len(moves)]
    seats = _looks_kept(room, list(moves), joining)
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
        self._tasks: set[asyncio.Task[None]] = set()

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
            await self._change(room, lambda m: replace(m, rematch=(*m.rematch, seat)))

    async def seat_next(self, room: LiveRoom, conn: Connection, msg: SeatNext) -> None:
        """A spectator asks for a seat at the next match; the seat token goes to them now."""
        if conn.seat is not None or conn.next_token is not None:
            raise RoomError(ErrorCode.NO_REMATCH, E.SEATED_ALREADY, 409)
        if conn.refused:
            raise RoomError(ErrorCode.NO_REMATCH, E.NEXT_REFUSED, 403)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        net = None if conn.network is None else address_key(conn.network)
        seat = SeatInfo(
            msg.name, SeatKind.PERSON, hash_token(token), None, msg.color, msg.avatar, net
        )
        seat = replace(seat, asked_at=time.time())
        most, full = self.settings.next_seats_per_address, self.settings.max_seats

        def add(meta: Meta) -> Meta:
            """The seat among those still held, if the network and the table have room (read
            under the row's lock: every worker counts the same seats)."""
            live = held(room, meta.next_seats)
            check_name(msg.name, (s.name for s in (*room.seats, *live)))
            if net is not None and most and sum(1 for s in live if s.network == net) >= most:
                raise RoomError(ErrorCode.FULL, E.NEXT_SEATS_NETWORK, 429, n=most)
            if len(room.seats) + len(live) >= full:
                raise RoomError(ErrorCode.FULL, E.FULL, 409, n=full)
            return replace(meta, next_seats=(*live, seat))

        async with room.lock:
            await self.cluster.sync(room)
            if room.status is RoomStatus.LOBBY:
                raise RoomError(ErrorCode.NO_REMATCH, E.NOT_STARTED, 409)
            await self._change(room, add)
            conn.next_token = token
        await conn.send({"type": "seat_next", "name": msg.name, "token": token})

    async def refuse(self, room: LiveRoom, conn: Connection, msg: RefuseNext) -> None:
        """The host turns a newcomer's seat at the next match down (by its name)."""
        async with room.lock:
            await self.cluster.sync(room)
            online = room.presence()[0]
            if conn.seat is None or conn.seat != room.host or room.host not in online:
                raise RoomError(ErrorCode.NOT_HOST, E.NOT_HOST, 403)
            if not any(s.name == msg.name for s in room.next_seats):
                raise RoomError(ErrorCode.NO_REMATCH, E.NO_SUCH_NEWCOMER, 404, name=msg.name)
            await self._change(
                room,
                lambda m: replace(
                    m, next_seats=tuple(s for s in m.next_seats if s.name != msg.name)
                ),
            )
            log.info("newcomer turned down", extra={"room": room.code})

    def release(self, room: LiveRoom, conn: Connection) -> None:
        """A connection with a seat at the next match went: the seat is given back (whoever
        asked must be there when the next match is made; see the module)."""
        token = conn.next_token
        if token is None or room.status is RoomStatus.LOBBY or room.next_code is not None:
            return
        gone = hash_token(token)

        async def give_back() -> None:
            async with room.lock:
                with contextlib.suppress(RoomError):
                    await self._change(
                        room,
                        lambda m: replace(
                            m, next_seats=tuple(s for s in m.next_seats if s.token_hash != gone)
                        ),
                    )

        task = asyncio.get_running_loop().create_task(give_back())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def told(self, room: LiveRoom, before: tuple[SeatInfo, ...]) -> None:
        """The seats at the next match changed (here or elsewhere): a connection here whose
        seat the host turned down is told so, and asks no more."""
        kept = {s.token_hash for s in room.next_seats}
        dropped = {s.token_hash for s in before} - kept
        for c in list(room.conns):
            if c.next_token is not None and hash_token(c.next_token) in dropped and c.open:
                c.next_token, c.refused = None, True
                c.post(dumps(RoomError(ErrorCode.NO_REMATCH, E.NEXT_REFUSED, 403).message(c.lang)))

    def check(self, room: LiveRoom) -> None:
        """Who is online changed: the rematch may no longer wait for someone who left."""
        if room.status is not RoomStatus.OVER or room.next_code is not None or not room.rematch:
            return
        meta = room.meta
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
            raise RoomError(ErrorCode.NO_REMATCH, E.REMATCH_DONE, 409)
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
                    row.next_code = self._make(db, room, made, row.published, meta.screens)
            meta = Meta.of(row)
        fresh = room.next_code is None and meta.next_code is not None
        before = room.next_seats
        room.apply(meta)
        self.told(room, before)
        await self.cluster.publish_meta(room)
        if fresh:
            assert room.next_code is not None
            log.info("next match made", extra={"room": room.code, "next": room.next_code})
            new = self.load(room.next_code)
            new.quick_start = True  # "play again" was the tap to begin: no second one
            self.schedule(new)
            await self.moved(room)
        await broadcast_room(room)

    def _make(
        self, db: Session, room: LiveRoom, made: Plan, published: bool, screens: tuple[str, ...]
    ) -> str:
        timer = None if room.turn_timer is None else int(room.turn_timer)
        table = Table(room.rules, room.lang, room.hints, timer, made.starter, room.dice_source)
        new = self.store.new_room(db, table, made.seats, RoomStatus.PLAYING, host=made.host)
        new.published = published  # (a table that published its result publishes the next)
        new.screens = [{"id": s} for s in screens]  # (its screens follow the table)
        for carry in self.carried:
            carry(db, room.id, new)
        return new.code

    async def moved(self, room: LiveRoom, only: Connection | None = None) -> None:
        """Send every connection here (or ``only`` that one) that was at the table on to the
        next match: a person with a seat there, with its token; a paired table screen; and,
        when the match is made (not ``only``), whoever is watching then.  Nobody else learns
        the next room's code (see the module)."""
        code = room.next_code
        if code is None:
            return
        seats = self._seats_of(room, code)
        for c in [only] if only is not None else list(room.conns):
            if c.seat is not None and c.token is not None and hash_token(c.token) in seats:
                seat = seats[hash_token(c.token)]
                await c.send({"type": "moved", "code": code, "token": c.token, "seat": seat})
            elif c.next_token is not None and hash_token(c.next_token) in seats:
                seat = seats[hash_token(c.next_token)]
                await c.send({"type": "moved", "code": code, "token": c.next_token, "seat": seat})
            elif c.seat is None and (c.screen or only is None):
                await c.send({"type": "moved", "code": code})

    def _seats_of(self, room: LiveRoom, code: str) -> dict[str, int]:
        """The next room's seats by their tokens' hashes (the room as it was made)."""
        new = self.load(code)
        return {s.token_hash: i for i, s in enumerate(new.seats) if s.token_hash is not None}


def _stored(seat: SeatInfo) -> dict[str, object]:
    return {
        "name": seat.name,
        "token_hash": seat.token_hash,
        "color": seat.color,
        "avatar": seat.avatar,
        "network": seat.network,
        "at": seat.asked_at,
    }
