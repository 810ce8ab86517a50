"""Before the match: open a room, take seats, seat bots, remove seats, start.

Each change is committed first and then shown to everyone at the table (and, scaled out,
announced to the other workers), like a move.
"""

from __future__ import annotations

import secrets

from ...bots import DIFFICULTIES, UnknownBotError, make_bot
from ...engine import InvalidSetupError
from ...rules import InvalidRulesError, find_rules
from ..play.moves import Play
from ..settings import Settings
from ..storage.models import RoomStatus, SeatKind
from ..table.broadcast import broadcast_room
from ..table.cluster import Cluster
from ..table.room import LiveRoom
from ..table.schemas import AddBot, CreateRoom, JoinRoom
from ..table.seats import SeatInfo, hash_token
from ..table.store import Store
from ..words import refusals as E
from ..words.names import check_name, skeleton
from ..words.refusals import ErrorCode, RoomError

#: Seat tokens: 32 random bytes (256 bits), URL-safe.
TOKEN_BYTES = 32


class Lobby:
    """The room's seats until the host starts the match."""

    def __init__(self, settings: Settings, store: Store, cluster: Cluster, play: Play) -> None:
        self.settings, self.store, self.cluster, self.play = settings, store, cluster, play

    def create_room(self, req: CreateRoom, created_by: str | None = None) -> tuple[str, str]:
        """A new room with its host in seat 0; returns (join code, host's seat token).

        ``created_by``: who opened it, as :mod:`.upkeep` keeps it."""
        try:
            rules = find_rules(req.preset).with_settings(req.settings)
        except InvalidRulesError as e:
            raise RoomError(ErrorCode.BAD_RULES, E.BAD_RULES, 400, reason=e) from None
        token = secrets.token_urlsafe(TOKEN_BYTES)
        assert req.name is not None  # (the route names every seat: a member by their crew)
        host = SeatInfo(
            req.name, SeatKind.PERSON, hash_token(token), color=req.color, avatar=req.avatar
        )
        return self.store.create(req, rules, host, created_by), token

    async def join(self, room: LiveRoom, req: JoinRoom) -> tuple[int, str]:
        """Take the next free seat; returns (seat, seat token)."""
        async with room.lock:
            await self.cluster.sync(room)
            self._open(room)
            token = secrets.token_urlsafe(TOKEN_BYTES)
            assert req.name is not None  # (as above)
            seat = SeatInfo(
                req.name, SeatKind.PERSON, hash_token(token), color=req.color, avatar=req.avatar
            )
            return await self._add_seat(room, seat, req.client_seed), token

    async def add_bot(self, room: LiveRoom, token: str | None, req: AddBot) -> int:
        """The host seats a bot of some difficulty (or any bot ``bots.make_bot`` knows)."""
        async with room.lock:
            await self.cluster.sync(room)
            self._host(room, token)
            self._open(room)
            try:
                make_bot(req.level)
            except UnknownBotError:
                raise RoomError(
                    ErrorCode.BAD_BOT,
                    E.BAD_BOT,
                    400,
                    level=req.level,
                    levels=", ".join(DIFFICULTIES),
                ) from None
            taken = {skeleton(s.name) for s in room.seats}  # (nor a name like a person's)
            n = 1
            while skeleton(f"Bot {n}") in taken:
                n += 1
            return await self._add_seat(room, SeatInfo(f"Bot {n}", SeatKind.BOT, None, req.level))

    async def remove_seat(self, room: LiveRoom, token: str | None, seat: int) -> None:
        """The host removes a seat in the lobby (later seats move up one)."""
        async with room.lock:
            await self.cluster.sync(room)
            self._host(room, token)
            self._not_started(room)
            if not 0 <= seat < len(room.seats):
                raise RoomError(ErrorCode.BAD_SEAT, E.BAD_SEAT, 404, seat=seat)
            if seat == room.host:
                raise RoomError(ErrorCode.HOST_SEAT, E.HOST_SEAT, 400)
            host = room.host - 1 if seat < room.host else room.host
            self.store.remove_seat(room, seat, host)
            del room.seats[seat]
            room.host = host
            for c in room.conns:  # everyone after the removed seat moved up one
                if c.seat is not None:
                    if c.seat == seat:
                        c.seat = None
                    elif c.seat > seat:
                        c.seat -= 1
            for c in list(room.conns):
                await c.send(room.welcome(c.seat))
            await self.cluster.publish(room)
            await broadcast_room(room)

    async def start(self, room: LiveRoom, token: str | None) -> None:
        """The host starts the match: the seats and client seeds are fixed from here on."""
        async with room.lock:
            await self.cluster.sync(room)
            self._host(room, token)
            self._not_started(room)
            if len(room.seats) < 2:
                raise RoomError(ErrorCode.TOO_FEW, E.TOO_FEW, 409)
            try:
                room.begin()
            except InvalidSetupError as e:
                raise RoomError(ErrorCode.BAD_RULES, E.BAD_RULES, 409, reason=e) from None
            try:
                self.store.mark_playing(room)
            except RoomError:
                room.status, room.state, room.dice = RoomStatus.LOBBY, None, None
                raise
            self.play.schedule(room)
            await self.cluster.publish(room)
            await broadcast_room(room)
            self.play.look_ahead_soon(room)

    # -- checks ---------------------------------------------------------------------------
    def _host(self, room: LiveRoom, token: str | None) -> None:
        seat = room.seat_of(token)
        if seat is None:
            raise RoomError(ErrorCode.BAD_TOKEN, E.BAD_TOKEN, 403)
        if seat != room.host:
            raise RoomError(ErrorCode.NOT_HOST, E.NOT_HOST, 403)

    def _not_started(self, room: LiveRoom) -> None:
        """The room is still in its lobby: a finished one says so, with its replay's address."""
        if room.status is RoomStatus.OVER:
            replay = f"/replay/{room.code}"
            raise RoomError(ErrorCode.OVER, E.FINISHED, 409, {"replay": replay}, replay=replay)
        if room.status is not RoomStatus.LOBBY:
            raise RoomError(ErrorCode.STARTED, E.STARTED, 409)

    def _open(self, room: LiveRoom) -> None:
        """A seat can still be taken."""
        self._not_started(room)
        if len(room.seats) >= self.settings.max_seats:
            raise RoomError(ErrorCode.FULL, E.FULL, 409, n=self.settings.max_seats)

    async def _add_seat(self, room: LiveRoom, seat: SeatInfo, client_seed: str = "") -> int:
        check_name(seat.name, (s.name for s in room.seats))
        seeds = [*room.client_seeds, client_seed] if client_seed else None
        self.store.add_seat(room, seat, seeds)
        room.seats.append(seat)
        if seeds is not None:
            room.client_seeds = seeds
        position = len(room.seats) - 1
        await self.cluster.publish(room)
        await broadcast_room(room)
        return position
