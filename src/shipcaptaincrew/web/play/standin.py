"""The table's say: who may let a bot play for someone, or have them leave -- never a blip.

A phone drops for a moment all the time (a page reload, a lift, a tunnel), so a drop alone
must never cost anyone their seat or their turn:

- **Someone away.**  The host may let a bot play for them, or have them leave the match
  after this round, at once; anyone else seated only once they have been away for the
  absent grace (when a bot plays for them anyway).  Either is undone when they come back
  before it takes effect: a bot plays for them no more, and a leave not yet in effect is
  taken back by the engine's :class:`~shipcaptaincrew.actions.Stay` (committed by the
  worker they come back through).
- **Someone here.**  Only the host may have them leave (the host's word, said as such: a
  match "won" so is nobody's win, see :func:`.stats.ending`).  A phone here but silent on
  its own turn (locked, frozen) for ``silent_grace`` seconds may have its turn played by a
  bot: at once if the host asks, else once most of the others present have asked (their
  votes live in the room's row, so every worker counts the same).  The person takes the
  turn back with one tap, or by making a move.

Each ask is told to the whole table, with who asked; the bot's first move says so again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from dataclasses import replace

from ...actions import Stay
from ...engine import is_chance, seat_to_act
from ..connections.transport import Connection
from ..display.absence import By, needed, stewards, votes
from ..settings import Settings
from ..storage.models import RoomStatus, SeatKind
from ..table.broadcast import broadcast_room
from ..table.cluster import Cluster
from ..table.room import LiveRoom
from ..table.schemas import PlayFor, RemoveAfterRound, TakeTurn
from ..table.seats import Ask, Meta
from ..table.store import Store
from ..words import refusals as E
from ..words import server_texts as T
from ..words.refusals import ErrorCode, RoomError
from ..words.render import Line, Words
from .moves import Play

log = logging.getLogger("shipcaptaincrew.web")


class StandIns:
    """The asks of the table (see the module)."""

    def __init__(self, settings: Settings, store: Store, cluster: Cluster, play: Play) -> None:
        self.settings, self.store, self.cluster, self.play = settings, store, cluster, play
        self._tasks: set[asyncio.Task[None]] = set()

    async def ask(self, room: LiveRoom, conn: Connection, msg: PlayFor | RemoveAfterRound) -> None:
        """Let a bot play for someone, or have them leave after this round (see the module)."""
        asker = conn.seat
        if asker is None:
            raise RoomError(ErrorCode.SPECTATOR, E.SPECTATOR, 403)
        async with room.lock:
            await self.cluster.sync(room)
            state = room.state
            if state is None or room.status is not RoomStatus.PLAYING:
                code = ErrorCode.NOT_STARTED if state is None else ErrorCode.OVER
                raise RoomError(code, E.NOT_STARTED if state is None else E.MATCH_OVER, 409)
            seat = msg.seat
            if seat >= len(room.seats) or room.seats[seat].kind is not SeatKind.PERSON:
                raise RoomError(ErrorCode.BAD_SEAT, E.NOT_A_PERSON, 400, seat=seat)
            name = room.seats[seat].name
            if seat == asker:
                raise RoomError(ErrorCode.BAD_SEAT, E.NOT_FOR_YOURSELF, 400)
            if seat in state.leaving or seat in state.departed:
                raise RoomError(ErrorCode.BAD_SEAT, E.LEFT_ALREADY, 409, name=name)
            if isinstance(msg, RemoveAfterRound) and msg.version != room.version:
                raise RoomError(ErrorCode.STALE, E.STALE, 409)
            online = room.presence()[0]
            host = asker in stewards(room, online)
            said = {"asker": room.seats[asker].name, "name": name}
            if seat in online:
                if isinstance(msg, RemoveAfterRound):
                    if not host:
                        raise RoomError(ErrorCode.NOT_HOST, E.REMOVE_HERE, 403, name=name)
                    await self._leave(room, seat, asker, away=False)
                    return
                await self._silent(room, seat, asker, host, online)
                return
            if not host:
                self._waited(room, seat, name)
            if isinstance(msg, RemoveAfterRound):
                room.absence.asked[seat] = (asker,)  # (a bot plays the round out for them)
                await self._leave(room, seat, asker, away=True)
                return
            room.absence.asked[seat] = (asker,)
            self.play.schedule(room)
            await broadcast_room(room, [Words(T.ASKED_PLAY_FOR, said)])

    def _waited(self, room: LiveRoom, seat: int, name: str) -> None:
        """Anyone but the host asks only once ``seat`` has been away for the room's absent
        grace; at a slow table (everyone is away most of the day) never."""
        if room.pace is not None:
            raise RoomError(ErrorCode.NOT_HOST, E.AWAY_SLOW, 403, name=name)
        grace = room.absent_grace
        away = room.absence.away_for(seat) or 0.0
        if away < grace:
            wait = max(1, math.ceil(grace - away))
            raise RoomError(ErrorCode.NOT_HOST, E.AWAY_ONLY, 403, name=name, n=wait)

    async def _leave(self, room: LiveRoom, seat: int, asker: int, away: bool) -> None:
        """The leave itself: the engine's event, with who asked and whether the person was
        away (a leave of someone away is undone if they come back in time)."""
        line = Words(
            T.ASKED_REMOVE, {"asker": room.seats[asker].name, "name": room.seats[seat].name}
        )
        await self.play.leave(room, seat, {"asked_by": [asker], "away": away}, [line])

    async def _silent(
        self, room: LiveRoom, seat: int, asker: int, host: bool, online: frozenset[int]
    ) -> None:
        """Someone here, silent on their own turn: the host's ask, or one vote of the others."""
        state = room.state
        assert state is not None
        name = room.seats[seat].name
        if seat_to_act(state) != seat or (is_chance(state) and not room.fair):
            raise RoomError(ErrorCode.BAD_SEAT, E.NOT_AWAY, 409, name=name)
        if room.pace is not None and not host:  # hours to act: a quiet minute is nobody's say
            raise RoomError(ErrorCode.NOT_HOST, E.SILENT_SLOW, 403, name=name)
        quiet = time.monotonic() - room.acted_at
        grace = self.settings.silent_grace
        if quiet < grace:
            wait = max(1, math.ceil(grace - quiet))
            raise RoomError(ErrorCode.BAD_SEAT, E.NOT_SILENT_YET, 409, name=name, n=wait)
        said: list[Line] = [Words(T.ASKED_SILENT, {"asker": room.seats[asker].name, "name": name})]
        if host:
            self._hand_over(room, seat, (asker,))
            await broadcast_room(room, said)
            return
        version = room.version

        def vote(meta: Meta) -> Meta:
            """The votes as they are for this turn, with this one (older turns' forgotten)."""
            kept = [a for a in meta.asks if a.version == version]
            mine = [a for a in kept if a.seat == seat]
            by = tuple(dict.fromkeys((*(v for a in mine for v in a.by), asker)))
            others = [a for a in kept if a.seat != seat]
            return replace(meta, asks=(*others, Ask(seat, version, by)))

        meta = await asyncio.to_thread(self.store.change_meta, room, vote)
        room.apply(meta)
        await self.cluster.publish_meta(room)
        cast = votes(room, seat)
        if len(cast) >= needed(room, seat, online):
            self._hand_over(room, seat, cast)
        await broadcast_room(room, said)

    def _hand_over(self, room: LiveRoom, seat: int, askers: tuple[int, ...]) -> None:
        """A bot plays the rest of this turn of ``seat`` (here, silent), as ``askers`` asked."""
        room.absence.turn = (seat, By.SILENT)
        room.absence.silenced[seat] = askers
        self.play.schedule(room)

    async def take_turn(self, room: LiveRoom, conn: Connection, msg: TakeTurn) -> None:
        """The person whose turn a bot plays (silent, or the timer ran out) plays it again."""
        seat = conn.seat
        if seat is None:
            raise RoomError(ErrorCode.SPECTATOR, E.SPECTATOR, 403)
        async with room.lock:
            await self.cluster.sync(room)
            turn = room.absence.turn
            if turn is None or turn[0] != seat or msg.version != room.version:
                raise RoomError(ErrorCode.STALE, E.STALE, 409)
            room.absence.turn = None
            room.absence.silenced.pop(seat, None)
            room.absence.asked.pop(seat, None)
            self.play.schedule(room)
            back: list[Line] = [Words(T.TOOK_TURN_BACK, {"name": room.seats[seat].name})]
            await broadcast_room(room, back)

    # -- back before it took effect ------------------------------------------------------------
    def returned(self, room: LiveRoom) -> None:
        """Who is online changed: a person the table asked to leave while they were away, and
        who is back through this worker, stays (see the module)."""
        state = room.state
        if state is None or not state.leaving or room.status is not RoomStatus.PLAYING:
            return
        here = set(room.local_seats())
        if any(seat in here and self._left_away(room, seat) for seat in state.leaving):
            task = asyncio.get_running_loop().create_task(self._stay(room))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    @staticmethod
    def _left_away(room: LiveRoom, seat: int) -> bool:
        """Whether the newest leave of ``seat`` was asked for while they were away."""
        for event in reversed(room.events):
            if event.get("type") == "leave" and event.get("seat") == seat:
                return event.get("away") is True
        return False

    async def _stay(self, room: LiveRoom) -> None:
        async with room.lock:
            with contextlib.suppress(RoomError):  # another worker was first, or the database
                await self.cluster.sync(room)  # is away (the next presence change retries)
                state = room.state
                if state is None or room.status is not RoomStatus.PLAYING:
                    return
                here = set(room.local_seats())
                for seat in list(state.leaving):
                    if seat in here and self._left_away(room, seat):
                        log.info("back in time: stays", extra={"room": room.code, "seat": seat})
                        await self.play.step(room, Stay(seat))
