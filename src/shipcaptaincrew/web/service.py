"""The match service as the routers see it: one object, each job in a part of its own.

One :class:`~.table.room.LiveRoom` per table holds the engine state, the provably fair dice and the
open connections.  Every change goes through :meth:`.play.moves.Play.step` under the room's lock: the
engine applies the action (refusing anything illegal), the event is committed to the database
(:mod:`.table.store`), and only then is it broadcast.  On start-up every unfinished match is rebuilt
by replaying its events with the engine, so a restart resumes where the table was; scaled out,
the workers catch up with each other the same way (:mod:`.table.cluster`).

The parts: :mod:`.rooms.lobby` (seats, start), :mod:`.play.moves` (moves and the look-ahead),
:mod:`.play.autoplay` (bots, turn timers, bots playing for absent people: :mod:`.display.absence`),
:mod:`.display.picture` (what everyone sees), :mod:`.rooms.host` (the host's role handed on when the host
stays away), :mod:`.rooms.nextmatch` (play again), :mod:`.table.cluster` (other workers and presence),
:mod:`.play.protocol` (the live table's messages), :mod:`.table.broadcast` and :mod:`.connections.transport`
(sending), :mod:`.table.store` and :mod:`.storage.sqlite` (the database), :mod:`.history.stats` (results).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from sqlalchemy.orm import Session, sessionmaker

from . import heap
from .connections.limits import Doorman, Misses, network
from .connections.relay import Relay
from .connections.transport import Connection, Sender
from .play.autoplay import AutoPlay
from .play.moves import Play
from .play.protocol import Protocol
from .play.screens import Screens
from .play.standin import StandIns
from .rooms.host import HostWatch
from .rooms.lobby import Lobby
from .rooms.nextmatch import NextMatch
from .rooms.upkeep import Upkeep
from .settings import Settings
from .storage.models import RoomStatus
from .table import broadcast
from .table.cluster import Cluster
from .table.presence import PresenceBoard
from .table.room import LiveRoom
from .table.schemas import AddBot, CreateRoom, Hello, JoinRoom
from .table.store import Store
from .words import refusals as E
from .words.refusals import ErrorCode, RoomError
from .words.render import Line

log = logging.getLogger("shipcaptaincrew.web")


class MatchService:
    """Rooms, seats and matches; the only code that changes them."""

    #: Finished tables nobody is looking at are forgotten beyond this many loaded rooms.
    KEEP_ROOMS = 1000

    def __init__(self, settings: Settings, sessions: sessionmaker[Session]) -> None:
        self.settings = settings
        self.sessions = sessions
        #: The rooms loaded in this process, by join code.
        self.rooms: dict[str, LiveRoom] = {}
        self.store = Store(settings, sessions)
        self.cluster = Cluster(settings, self.store, self.rooms, self.schedule)
        self.play = Play(settings, self.store, self.cluster, self.schedule)
        self.autoplay = AutoPlay(settings, self.cluster, self.play.step)
        self.lobby = Lobby(settings, self.store, self.cluster, self.play)
        self.next = NextMatch(settings, self.store, self.cluster, self.room, self.schedule)
        self.presence = PresenceBoard(self.cluster, settings.presence_seconds)
        self.standins = StandIns(settings, self.store, self.cluster, self.play)
        self.screens = Screens(settings, self.store, self.cluster, self.presence)
        self.protocol = Protocol(
            settings, self.cluster, self.play, self.next, self.presence, self.standins, self.screens
        )
        #: The live table's connections per client network, in this process (see ..limits).
        self.doorman = Doorman(settings.max_connections_per_address)
        #: Table codes looked up in vain per client network (see ..limits.Misses).
        self.misses = Misses(settings.code_misses_per_minute)
        self.host = HostWatch(settings, self.store, self.cluster)
        self.upkeep = Upkeep(settings, self.store, self.rooms, self._stop_room, self.relay)
        self.cluster.presence_changed = self._presence_changed
        self.cluster.presence_reported = self.presence.changed
        self.cluster.next_match = self.next.moved
        self.cluster.meta_changed = self.screens.settle

    @property
    def relay(self) -> Relay | None:
        """The Redis relay to the other workers (None on a single process)."""
        return self.cluster.relay

    # -- life cycle -----------------------------------------------------------------------
    async def startup(self) -> None:
        """Load every unfinished match and set its bots and timers going again."""
        self.store.start()
        self.upkeep.start()
        await self.cluster.start()
        for code in self.store.playing():
            # Scaled out, the workers already running keep their tables going: a newcomer
            # takes over a bot or a timer only after the grace period.
            self.schedule(self.room(code), failover=self.settings.scaled)
        if heap.installed():
            # A server process (see ..heap): what the server and this start-up made since the
            # heap was frozen is frozen too, now, rather than walked by the first full
            # collection under traffic (with a crowd arriving, that one stopped every table
            # for 150 ms: timed with gc.callbacks under bench_attacks.py --only crowd).
            heap.sweep()

    async def shutdown(self) -> None:
        """Let moves in progress finish, then stop bots and timers (the database holds the rest)."""
        deadline = time.monotonic() + self.settings.shutdown_grace
        for room in list(self.rooms.values()):
            # A move holds its room's lock from the engine to the broadcast: taking the lock
            # once waits for it to be committed and sent.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(room.lock.acquire(), max(0.01, deadline - time.monotonic()))
                room.lock.release()
        await self.upkeep.stop()
        await self.cluster.stop()
        await self.autoplay.stop(list(self.rooms.values()))
        await self.host.stop(list(self.rooms.values()))
        await self.store.close()
        people = sum(len(r.conns) for r in self.rooms.values())
        log.info(
            "shut down: %d tables in memory, %d connections; every move is in the database",
            len(self.rooms),
            people,
            extra={"rooms": len(self.rooms), "connections": people},
        )

    async def _stop_room(self, room: LiveRoom) -> None:
        """Stop a room's bot, turn timer and host watch (before it is forgotten)."""
        await self.autoplay.stop([room])
        await self.host.stop([room])

    # -- rooms ----------------------------------------------------------------------------
    def room(self, code: str) -> LiveRoom:
        """The live room for a join code (loaded from the database the first time)."""
        code = code.strip().upper()
        live = self.rooms.get(code)
        if live is None:
            live = self.rooms[code] = self.store.load(code)
            self._trim()
        return live

    def refuse_guesses(self, address: str | None) -> None:
        """Refuse any table lookup from a network that tried too many codes that do not exist
        (see :class:`..limits.Misses`), in the request's language when said."""
        if self.misses.blocked(network(address)):
            n = self.settings.code_misses_per_minute
            raise RoomError(ErrorCode.RATE, E.CODE_GUESSES, 429, n=n)

    async def missed(self, address: str | None) -> None:
        """A lookup from ``address`` found no table: counted (here and, scaled out, across
        the workers)."""
        key = network(address)
        if key is None or self.misses.missed(key):
            return
        if await self.upkeep.count_miss(key):
            self.misses.bar(key)

    def _trim(self) -> None:
        """Forget finished tables nobody is looking at (the database still has them)."""
        if len(self.rooms) <= self.KEEP_ROOMS:
            return
        for code, room in list(self.rooms.items()):
            if room.status is RoomStatus.OVER and not room.conns:
                if len(self.rooms) > self.KEEP_ROOMS:
                    del self.rooms[code]

    async def fresh_room(self, code: str) -> LiveRoom:
        """The live room, up to date with the database when several workers share it."""
        room = self.room(code)
        if self.settings.scaled:
            async with room.lock:
                await self.cluster.sync(room)
        return room

    def _presence_changed(self, room: LiveRoom) -> None:
        """Who is online changed: the host's clock, the rematch and the clocks of absent
        players look again."""
        self.host.check(room)
        self.next.check(room)
        self.autoplay.replan(room)
        self.standins.returned(room)

    def schedule(self, room: LiveRoom, failover: bool = False) -> None:
        """(Re)set the room's next automatic move going: a bot's, or the turn timer's.

        Called after every change; also the way to restart a timer whose length was changed
        (see :meth:`.play.autoplay.AutoPlay.schedule`).
        """
        self.autoplay.schedule(room, failover)

    # -- the lobby ------------------------------------------------------------------------
    async def create_room(self, req: CreateRoom, address: str | None = None) -> tuple[str, str]:
        """A new room with its host in seat 0; returns (join code, host's seat token).

        ``address``: the client's, for the limits on new rooms (see :mod:`.rooms.upkeep`).  Refused
        on the event loop (from memory, mostly: a flood costs little), made off it: a commit
        waits for the disk (SQLite's synchronous=FULL), and people opening tables must not
        hold up the moves of the tables already playing.  Scaled out, the network's room is
        also counted in Redis, atomically across the workers (see :meth:`.rooms.upkeep.Upkeep.claim`)."""
        opener = self.upkeep.admit(address)
        if opener is None:
            return await asyncio.to_thread(self.lobby.create_room, req, opener)
        self.upkeep.opening[opener] += 1
        try:
            counter = await self.upkeep.claim(opener)
            try:
                return await asyncio.to_thread(self.lobby.create_room, req, opener)
            except BaseException:
                if counter is not None:
                    await self.upkeep.unclaim(counter)
                raise
        finally:
            self.upkeep.opening[opener] -= 1
            if self.upkeep.opening[opener] <= 0:
                del self.upkeep.opening[opener]

    async def join(self, code: str, req: JoinRoom) -> tuple[int, str]:
        """Take the next free seat; returns (seat, seat token)."""
        return await self.lobby.join(self.room(code), req)

    async def add_bot(self, code: str, token: str | None, req: AddBot) -> int:
        """The host seats a bot of some difficulty."""
        return await self.lobby.add_bot(self.room(code), token, req)

    async def remove_seat(self, code: str, token: str | None, seat: int) -> None:
        """The host removes a seat in the lobby (later seats move up one)."""
        await self.lobby.remove_seat(self.room(code), token, seat)

    async def start(self, code: str, token: str | None) -> None:
        """The host starts the match: the seats and client seeds are fixed from here on."""
        await self.lobby.start(self.room(code), token)

    # -- the live table -------------------------------------------------------------------
    async def connect(
        self, room: LiveRoom, ws: Sender, hello: Hello, network: str | None = None
    ) -> Connection:
        """Register a connection after its hello; a bad token is refused, no token = spectator
        (``network``: the client's, see ..limits.network)."""
        return await self.protocol.connect(room, ws, hello, network)

    async def disconnect(self, room: LiveRoom, conn: Connection) -> None:
        """Forget a connection (the seat stays; its token brings the player back)."""
        await self.protocol.disconnect(room, conn)

    async def receive(self, room: LiveRoom, conn: Connection, raw: str) -> None:
        """Handle one message from a connection; refusals go to that connection only."""
        await self.protocol.receive(room, conn, raw)

    def translate(self, lang: str, domain: str = "web") -> Callable[[str], str]:
        """The translation function for a language (cached by the i18n layer)."""
        return broadcast.translate(lang, domain)

    def lines(self, messages: list[Line], lang: str) -> list[str]:
        """Narration in a language, as the table's "room" messages carry it."""
        return broadcast.lines(messages, lang)
