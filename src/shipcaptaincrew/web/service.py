"""The authoritative match service: rooms in memory, every event in the database first.

One :class:`LiveRoom` per table holds the engine state, the provably fair dice and the open
connections.  Every change goes through :meth:`MatchService._step` under the room's lock:
the engine applies the action (refusing anything illegal), the event is committed to the
database, and only then is it broadcast.  On start-up every unfinished match is rebuilt by
replaying its events with the engine, so a restart resumes where the table was.

Scaled out (``redis_url`` set, several workers on one PostgreSQL database), the database is
still the only truth: under its lock a worker first reads the events other workers committed
(:meth:`MatchService.refresh`), and the unique constraint on (room, event number) refuses a
second event with the same number, so two workers never both apply a move to one match.  After
each commit the worker tells the others through Redis (:mod:`.relay`), and they catch up and
broadcast to their own connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import random
import secrets
import sqlite3
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import orjson
from pydantic import ValidationError
from sqlalchemy import delete, insert, select
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ..actions import Action, InvalidActionError, Roll, parse_action
from ..engine import (
    IllegalActionError,
    InvalidSetupError,
    apply,
    initial_state,
    is_chance,
    legal_actions,
    sample_chance,
)
from ..fair import FairDice
from ..i18n import translator
from ..narrate import Message, narrate
from ..notation import MatchLog, event_for, replay_states
from ..rules import InvalidRulesError, Rules, Stakes, Starter, find_rules
from ..state import MatchState
from . import errors as E
from .errors import CONFLICT, UNAVAILABLE, RoomError
from .models import Event, Result, Room, Seat
from .players import advise, make_bot, safe_default
from .relay import PRESENCE_EVERY, PRESENCE_TTL, Relay
from .schemas import (
    CLIENT_MESSAGE,
    Act,
    AddBot,
    Advice,
    CreateRoom,
    Hello,
    JoinRoom,
    Ping,
    RollDice,
)
from .settings import Settings
from .views import actor, state_view

#: Join-code alphabet: no 0/O, 1/I/L, so a code read aloud is typed right.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: Seat tokens: 32 random bytes (256 bits), URL-safe.
TOKEN_BYTES = 32
RECENT_EVENTS = 40
#: Seconds a send to one connection may take before that connection is dropped.
SEND_TIMEOUT = 5.0

log = logging.getLogger("shipcaptaincrew.web")


def unavailable(what: str) -> RoomError:
    """The refusal for a move that could not be made because a backing service is down."""
    return RoomError("unavailable", UNAVAILABLE, 503, what=what)


@contextlib.contextmanager
def guarded() -> Any:
    """Database trouble becomes a clear refusal (nothing was committed) instead of a crash.

    A unique-constraint violation means another worker changed the same rows first.
    """
    try:
        yield
    except IntegrityError:
        raise RoomError("conflict", CONFLICT, 409) from None
    except DBAPIError as e:
        log.warning("database unavailable", extra={"error": str(e.orig or e)[:200]})
        raise unavailable("database") from None


def hash_token(token: str) -> str:
    """Tokens are stored and compared as SHA-256 hashes only."""
    return hashlib.sha256(token.encode()).hexdigest()


class Sender(Protocol):
    """The part of a WebSocket the service uses."""

    async def send_text(self, data: str) -> None: ...


class RateLimiter:
    """A token bucket: ``rate`` messages a second on average, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.level = float(burst)
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        """Spend one token if there is one."""
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level >= 1:
            self.level -= 1
            return True
        return False


@dataclass(eq=False)
class Connection:
    """One open WebSocket: its seat (None for a spectator), language and rate limiter."""

    ws: Sender
    seat: int | None
    lang: str
    limiter: RateLimiter
    open: bool = True
    #: The hash of the seat token it said hello with (to find its seat again if seats move).
    token_hash: str | None = None

    async def send(self, payload: dict[str, Any] | str) -> None:
        """Send, marking the connection closed if the peer has gone."""
        await send_all([(self, payload if isinstance(payload, str) else dumps(payload))])

    async def drop(self) -> None:
        """Mark the connection gone (its handler cleans up, its token brings the player back)
        and tell a slow peer to reconnect and catch up rather than lag."""
        self.open = False
        close = getattr(self.ws, "close", None)
        if close is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(close(code=1013), 1.0)


async def send_all(batch: list[tuple[Connection, str]]) -> None:
    """Send each connection its text, in order; a peer that has gone or stopped reading is dropped.

    A peer that stops reading must not hold up the table, so the sends run under a timeout.  A
    send waits only when the peer's socket buffer is full, so one timeout covers the whole batch
    (arming and cancelling a timer per message was a tenth of a move's work on the event loop):
    when it strikes, the connection being sent to is the slow one; it is dropped and the rest
    carry on under a fresh timeout.
    """
    i = 0
    while i < len(batch):
        conn = None
        try:
            async with asyncio.timeout(SEND_TIMEOUT):
                while i < len(batch):
                    conn, text = batch[i]
                    i += 1
                    if conn.open:
                        await conn.ws.send_text(text)
        except Exception:  # gone, or too slow
            if conn is not None:
                await conn.drop()


@dataclass(frozen=True)
class Ahead:
    """A room's next move played out early by the engine (see :meth:`MatchService._look_ahead`)."""

    before: MatchState
    names: list[str]
    action: Action
    after: MatchState
    event: dict[str, Any]
    messages: list[Message]
    #: The broadcast of ``after`` per language, drawn for this presence (None: not drawn).
    texts: dict[str, str] | None = None
    presence: tuple[frozenset[int], int] | None = None
    #: Columns of the event's row already converted for SQLite (see EventAppender.stored).
    ready: dict[str, Any] | None = None


@dataclass
class SeatInfo:
    """A seat as the live room knows it."""

    name: str
    kind: str
    token_hash: str | None


@dataclass(eq=False)
class LiveRoom:
    """A table in memory (rebuilt from the database at will)."""

    id: int
    code: str
    rules: Rules
    lang: str
    hints: bool
    turn_timer: int | None
    starter: int | None
    status: str
    commitment: str
    client_seeds: list[str]
    seats: list[SeatInfo]
    server_seed: str
    state: MatchState | None = None
    dice: FairDice | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    recent: deque[list[Message]] = field(default_factory=lambda: deque(maxlen=RECENT_EVENTS))
    conns: set[Connection] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    task: asyncio.Task[None] | None = None
    deadline: float | None = None
    rng: random.Random = field(default_factory=random.Random)
    #: The next moves worked out while the player thinks (the roll due, or each choice),
    #: by action; used only for that very state.
    ahead: dict[Action, Ahead] = field(default_factory=dict)
    #: Scaled out: who is connected through the other workers (origin -> (when, seats,
    #: spectators)), so everyone sees everyone online whichever worker they are on.
    remote: dict[str, tuple[float, list[int], int]] = field(default_factory=dict)

    def local_presence(self) -> dict[str, Any]:
        """The seats and spectator count connected to this process."""
        return {
            "seats": sorted({c.seat for c in self.conns if c.open and c.seat is not None}),
            "spectators": sum(1 for c in self.conns if c.open and c.seat is None),
        }

    @property
    def version(self) -> int:
        """The state version clients must quote: the number of events so far."""
        return len(self.events)

    @property
    def names(self) -> list[str]:
        """Player names by seat."""
        return [s.name for s in self.seats]

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token belongs to (None if it belongs to none)."""
        if not token:
            return None
        return self.seat_of_hash(hash_token(token))

    def seat_of_hash(self, h: str | None) -> int | None:
        """The seat whose token has this hash (None if none)."""
        if h is None:
            return None
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return i
        return None

    def log(self) -> MatchLog:
        """The match as an event log (with the seed once it is revealed)."""
        log = MatchLog(
            rules=str(self.rules),
            players=self.names,
            kinds=[s.kind for s in self.seats],
            starter=self._starter(),
            dice={
                "source": "fair",
                "commitment": self.commitment,
                "client_seeds": self.client_seeds,
            },
            lang=self.lang,
            events=list(self.events),
        )
        if self.status == "over":
            log.server_seed = self.server_seed
        return log

    def _starter(self) -> int | None:
        if self.rules.starter is Starter.CHOSEN:
            return (
                self.starter if self.starter is not None and self.starter < len(self.seats) else 0
            )
        return None

    @functools.cached_property
    def _rules_view(self) -> tuple[str, dict[str, Any]]:
        """The rules as text and options: fixed for the room's life, so built once, not per move."""
        return str(self.rules), self.rules.options()

    def presence(self) -> tuple[frozenset[int], int]:
        """The seats online and the number of spectators, through any worker."""
        online = {c.seat for c in self.conns if c.open and c.seat is not None}
        spectators = sum(1 for c in self.conns if c.open and c.seat is None)
        fresh = time.monotonic() - PRESENCE_TTL
        for when, seats, watching in self.remote.values():
            if when >= fresh:
                online.update(seats)
                spectators += watching
        return frozenset(online), spectators

    def public(
        self, after: MatchState | None = None, presence: tuple[frozenset[int], int] | None = None
    ) -> dict[str, Any]:
        """Everything anyone at (or watching) the table may see; never a token or the seed early.

        ``after``: the picture as it will be once this state (one event on) is played, which
        the look-ahead draws in advance (see :meth:`MatchService._look_ahead`).
        """
        online, spectators = self.presence() if presence is None else presence
        state = self.state if after is None else after
        return {
            "code": self.code,
            "status": self.status,
            "version": self.version if after is None else self.version + 1,
            "rules": self._rules_view[0],
            "options": self._rules_view[1],
            "lang": self.lang,
            "hints": self.hints,
            "turn_timer": self.turn_timer,
            "deadline_ms": None if self.deadline is None else int(self.deadline * 1000),
            "players": [
                {
                    "seat": i,
                    "name": s.name,
                    "kind": s.kind,
                    "online": s.kind != "human" or i in online,
                }
                for i, s in enumerate(self.seats)
            ],
            "spectators": spectators,
            "commitment": self.commitment,
            "client_seeds": self.client_seeds,
            "server_seed": self.server_seed if self.status == "over" else None,
            # Round results travel once, with the summary; during play the totals say enough.
            "match": None if state is None else state_view(state, results=state.is_over),
        }


def dumps(message: dict[str, Any]) -> str:
    """A message as JSON text (orjson: several times the json module's speed on a room picture,
    which every move serialises once per language)."""
    return orjson.dumps(message).decode()


def _now() -> datetime:
    return datetime.now(UTC)


class EventAppender:
    """The hot path of every move on SQLite: one prepared insert on a connection kept open.

    The row is exactly what ``insert(Event)`` writes (the statement is compiled from the model
    and the values go through the column types' own converters), without a pool checkout, a
    transaction object and the statement cache per move: measured on the reference machine,
    0.2 ms a move back to back and about 1.2 ms for a move after a quiet second (cold caches,
    the common case at a real table), against 0.04 and 0.35 ms this way.  Errors come out
    as SQLAlchemy's, like every other write's.  Used from the event loop only (see
    :class:`MatchService`), so it is the only writer and needs no lock.
    """

    COLUMNS = ("room_id", "seq", "payload", "created_at")
    #: How long a move waits for a write lock held outside this server (the sqlite3 shell,
    #: say) before it is refused as "database unavailable", rather than the default 5 s.
    BUSY_MS = 1000

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        table = Event.__table__
        dialect = engine.dialect
        self.sql = str(insert(table).compile(dialect=dialect, column_keys=list(self.COLUMNS)))
        self.convert = [
            table.c[name].type.dialect_impl(dialect).bind_processor(dialect)
            for name in self.COLUMNS
        ]
        self._fairy: Any = None
        self._isolation: str | None = ""  # the pooled connection's own setting, given back

    def _connection(self) -> Any:
        if self._fairy is None:
            self._fairy = self.engine.raw_connection()  # runs the engine's connect pragmas
            conn = self._fairy.driver_connection
            conn.execute(f"PRAGMA busy_timeout={self.BUSY_MS}")
            # Autocommit: the insert is a transaction of its own (one statement for SQLite to
            # run, not BEGIN, INSERT and COMMIT); the pool's setting comes back in close().
            self._isolation = conn.isolation_level
            conn.isolation_level = None
        return self._fairy.driver_connection

    def stored(self, column: str, value: Any) -> Any:
        """A value as the column stores it (for :meth:`append`'s ``ready``)."""
        f = self.convert[self.COLUMNS.index(column)]
        return value if f is None else f(value)

    def append(self, values: dict[str, Any], ready: dict[str, Any] | None = None) -> None:
        """Insert one event row, committed.  ``ready``: columns already converted by
        :meth:`stored` (the look-ahead converts a roll's payload before it is asked for)."""
        ready = ready or {}
        params = tuple(
            ready[name] if name in ready else values[name] if f is None else f(values[name])
            for name, f in zip(self.COLUMNS, self.convert)
        )
        conn = self._connection()
        try:
            conn.execute(self.sql, params)
        except sqlite3.Error as e:
            kind = IntegrityError if isinstance(e, sqlite3.IntegrityError) else DBAPIError
            raise kind(self.sql, params, e) from None

    def close(self) -> None:
        """Give the connection back to the pool."""
        if self._fairy is not None:
            self._fairy.driver_connection.isolation_level = self._isolation
            self._fairy.close()
            self._fairy = None


class MatchService:
    """Rooms, seats and matches; the only code that changes them."""

    def __init__(self, settings: Settings, sessions: sessionmaker[Session]) -> None:
        self.settings = settings
        self.sessions = sessions
        self.rooms: dict[str, LiveRoom] = {}
        # Where a move is committed.  PostgreSQL is a network round trip away: moves go to
        # writer threads so that the event loop serves other tables meanwhile.  SQLite commits
        # on the event loop itself: in WAL mode with synchronous=NORMAL a commit appends to the
        # log without an fsync (the checkpointer fsyncs in the background, see
        # :meth:`_checkpoints`) and takes a fraction of a millisecond, about what handing it to a
        # thread and back costs (benchmarks/bench_web.py at 500 players: the same p99 either
        # way).  On the loop, it is the only SQLite writer, so writers never collide and back
        # off, and a move needs no thread at all.
        sqlite = settings.sqlalchemy_url().startswith("sqlite")
        #: SQLite only (None: PostgreSQL): moves are committed on the event loop through it.
        self._appender = EventAppender(sessions.kw["bind"]) if sqlite else None
        self._writer = ThreadPoolExecutor(max_workers=4, thread_name_prefix="scc-db-writer")
        self.relay: Relay | None = None
        if settings.redis_url:
            self.relay = Relay(settings.redis_url, self._remote_change, self._catch_up_all)

    # -- life cycle -----------------------------------------------------------------------
    async def startup(self) -> None:
        """Load every unfinished match and set its bots and timers going again."""
        if self.settings.sqlalchemy_url().startswith("sqlite"):
            self._checkpointer = asyncio.get_running_loop().create_task(self._checkpoints())
        if self.relay is not None:
            await self.relay.start()
            self._presence_task = asyncio.get_running_loop().create_task(self._presence_loop())
        with self.sessions() as db:
            codes = db.scalars(select(Room.code).where(Room.status == "playing")).all()
        for code in codes:
            room = self.room(code)
            # Scaled out, the workers already running keep their tables going: a newcomer
            # takes over a bot or a timer only after the grace period.
            self._schedule(room, failover=self.settings.scaled)

    #: Checkpoint once the write-ahead log holds this much (SQLite's own default threshold,
    #: 1000 pages of 4 KiB, about 400 moves).
    CHECKPOINT_BYTES = 4 * 1024 * 1024

    async def _checkpoints(self, every: float = 2.0) -> None:
        """Move the SQLite write-ahead log into the database now and then, off the event loop.

        A passive checkpoint never blocks the writer, so the fsync it costs is never a move's
        wait; the engine's own auto-checkpoint is off (see :func:`.db.make_engine`).  It runs
        only once the log has grown to :attr:`CHECKPOINT_BYTES`, not on a clock: the first
        commit after a complete checkpoint starts the log afresh and SQLite fsyncs the new
        log header then, inside that move (0.7-0.9 ms on the reference machine).  Checkpointing
        every 2 s put that wait into one move in 200 at 500 players and into every other move
        at a quiet table; by size it is one move in about 400, whatever the pace.
        """
        engine = self.sessions.kw["bind"]
        database = engine.url.database
        if not database or database == ":memory:" or database.startswith("file:"):
            return
        wal = Path(f"{database}-wal")

        def checkpoint() -> None:
            with engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

        while True:
            await asyncio.sleep(every)
            with contextlib.suppress(Exception):
                if wal.stat().st_size >= self.CHECKPOINT_BYTES:
                    await asyncio.to_thread(checkpoint)

    async def shutdown(self) -> None:
        """Let moves in progress finish, then stop bots and timers (the database holds the rest)."""
        deadline = time.monotonic() + self.settings.shutdown_grace
        for room in list(self.rooms.values()):
            # A move holds its room's lock from the engine to the broadcast: taking the lock
            # once waits for it to be committed and sent.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(room.lock.acquire(), max(0.01, deadline - time.monotonic()))
                room.lock.release()
        presence = getattr(self, "_presence_task", None)
        if presence is not None:
            presence.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await presence
        if self.relay is not None:
            await self.relay.stop()
        checkpointer = getattr(self, "_checkpointer", None)
        if checkpointer is not None:
            checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await checkpointer
        for room in self.rooms.values():
            if room.task is not None:
                room.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await room.task
        self._writer.shutdown(wait=True)
        if self._appender is not None:
            self._appender.close()

    # -- loading --------------------------------------------------------------------------
    def room(self, code: str) -> LiveRoom:
        """The live room for a join code (loaded from the database the first time)."""
        code = code.strip().upper()
        live = self.rooms.get(code)
        if live is not None:
            return live
        with guarded(), self.sessions() as db:
            row = db.scalar(select(Room).where(Room.code == code))
            if row is None:
                raise RoomError("not_found", E.NOT_FOUND, 404, code=code[:16])
            events = db.scalars(
                select(Event.payload).where(Event.room_id == row.id).order_by(Event.seq)
            ).all()
            live = LiveRoom(
                id=row.id,
                code=row.code,
                rules=Rules.from_str(row.rules),
                lang=row.lang,
                hints=row.hints,
                turn_timer=row.turn_timer,
                starter=row.starter,
                status=row.status,
                commitment=row.commitment,
                client_seeds=list(row.client_seeds),
                seats=[SeatInfo(s.name, s.kind, s.token_hash) for s in row.seats],
                server_seed=row.server_seed,
            )
        # Bots choose with a generator seeded from the secret seed: a match is reproducible.
        live.rng = random.Random(live.server_seed)
        if live.status != "lobby":
            live.events = [dict(e) for e in events]
            states = replay_states(live.log())
            for (before, _), (after, action) in zip(states, states[1:]):
                assert action is not None
                live.recent.append(narrate(before, action, after, live.names))
            live.state = states[-1][0]
            live.dice = FairDice(bytes.fromhex(live.server_seed), live.client_seeds)
            live.dice.count = sum(len(e["faces"]) for e in live.events if e["type"] == "roll")
            live.dice.revealed = live.status == "over"
        self.rooms[code] = live
        self._trim()
        return live

    def _trim(self, keep: int = 1000) -> None:
        """Forget finished tables nobody is looking at (the database still has them)."""
        if len(self.rooms) <= keep:
            return
        for code, room in list(self.rooms.items()):
            if room.status == "over" and not room.conns and len(self.rooms) > keep:
                del self.rooms[code]

    # -- lobby ----------------------------------------------------------------------------
    def _new_code(self, db: Session) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if db.scalar(select(Room.id).where(Room.code == code)) is None:
                return code

    async def create_room(self, req: CreateRoom) -> tuple[str, str]:
        """A new room with its host in seat 0; returns (join code, host's seat token)."""
        try:
            rules = find_rules(req.preset).with_settings(req.settings)
        except InvalidRulesError as e:
            raise RoomError("bad_rules", E.BAD_RULES, 400, reason=str(e)) from None
        token = secrets.token_urlsafe(TOKEN_BYTES)
        fixed = self.settings.fixed_server_seed
        seed = bytes.fromhex(fixed) if fixed else secrets.token_bytes(32)
        with guarded(), self.sessions() as db, db.begin():
            code = self._new_code(db)
            room = Room(
                code=code,
                rules=str(rules),
                lang=req.lang,
                hints=req.hints,
                turn_timer=req.turn_timer,
                starter=req.starter,
                status="lobby",
                server_seed=seed.hex(),
                commitment=hashlib.sha256(seed).hexdigest(),
                client_seeds=[req.client_seed] if req.client_seed else [],
                revealed=False,
            )
            room.seats.append(
                Seat(position=0, name=req.name, kind="human", token_hash=hash_token(token))
            )
            db.add(room)
        return code, token

    def _host(self, room: LiveRoom, token: str | None) -> None:
        seat = room.seat_of(token)
        if seat is None:
            raise RoomError("bad_token", E.BAD_TOKEN, 403)
        if seat != 0:
            raise RoomError("not_host", E.NOT_HOST, 403)

    def _lobby(self, room: LiveRoom) -> None:
        if room.status != "lobby":
            raise RoomError("started", E.STARTED, 409)
        if len(room.seats) >= self.settings.max_seats:
            raise RoomError("full", E.FULL, 409, n=self.settings.max_seats)

    async def _add_seat(
        self, room: LiveRoom, name: str, kind: str, token: str | None, client_seed: str = ""
    ) -> int:
        if any(s.name.casefold() == name.casefold() for s in room.seats):
            raise RoomError("name_taken", E.NAME_TAKEN, 409, name=name)
        position = len(room.seats)
        th = hash_token(token) if token else None
        with guarded(), self.sessions() as db, db.begin():
            db.add(Seat(room_id=room.id, position=position, name=name, kind=kind, token_hash=th))
            if client_seed:
                row = db.get(Room, room.id)
                assert row is not None
                row.client_seeds = [*room.client_seeds, client_seed]
        room.seats.append(SeatInfo(name, kind, th))
        if client_seed:
            room.client_seeds = [*room.client_seeds, client_seed]
        await self._publish(room)
        await self.broadcast_room(room)
        return position

    async def join(self, code: str, req: JoinRoom) -> tuple[int, str]:
        """Take the next free seat; returns (seat, seat token)."""
        room = self.room(code)
        async with room.lock:
            await self._sync(room)
            self._lobby(room)
            token = secrets.token_urlsafe(TOKEN_BYTES)
            seat = await self._add_seat(room, req.name, "human", token, req.client_seed)
        return seat, token

    async def add_bot(self, code: str, token: str | None, req: AddBot) -> int:
        """The host seats a bot of some difficulty."""
        room = self.room(code)
        async with room.lock:
            await self._sync(room)
            self._host(room, token)
            self._lobby(room)
            try:
                bot = make_bot(req.level)
            except ValueError as e:
                raise RoomError("bad_bot", E.BAD_BOT, 400, reason=str(e)) from None
            del bot
            taken = {s.name for s in room.seats}
            n = 1
            while f"Bot {n}" in taken:
                n += 1
            return await self._add_seat(room, f"Bot {n}", req.level, None)

    async def remove_seat(self, code: str, token: str | None, seat: int) -> None:
        """The host removes a seat in the lobby (later seats move up one)."""
        room = self.room(code)
        async with room.lock:
            await self._sync(room)
            self._host(room, token)
            if room.status != "lobby":
                raise RoomError("started", E.STARTED, 409)
            if not 0 <= seat < len(room.seats):
                raise RoomError("bad_seat", E.BAD_SEAT, 404, seat=seat)
            if seat == 0:
                raise RoomError("host_seat", E.HOST_SEAT, 400)
            with guarded(), self.sessions() as db, db.begin():
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
            del room.seats[seat]
            for c in room.conns:  # everyone after the removed seat moved up one
                if c.seat is not None:
                    if c.seat == seat:
                        c.seat = None
                    elif c.seat > seat:
                        c.seat -= 1
            for c in list(room.conns):
                await c.send({"type": "welcome", "seat": c.seat})
            await self._publish(room)
            await self.broadcast_room(room)

    async def start(self, code: str, token: str | None) -> None:
        """The host starts the match: the seats and client seeds are fixed from here on."""
        room = self.room(code)
        async with room.lock:
            await self._sync(room)
            self._host(room, token)
            if room.status != "lobby":
                raise RoomError("started", E.STARTED, 409)
            if len(room.seats) < 2:
                raise RoomError("too_few", E.TOO_FEW, 409)
            room.status = "playing"
            try:
                room.state = initial_state(room.rules, len(room.seats), starter=room._starter())
            except InvalidSetupError as e:
                room.status = "lobby"
                raise RoomError("bad_rules", E.BAD_RULES, 409, reason=str(e)) from None
            room.dice = FairDice(bytes.fromhex(room.server_seed), room.client_seeds)
            try:
                with guarded(), self.sessions() as db, db.begin():
                    row = db.get(Room, room.id)
                    assert row is not None
                    row.status = "playing"
            except RoomError:
                room.status, room.state, room.dice = "lobby", None, None
                raise
            self._schedule(room)
            await self._publish(room)
            await self.broadcast_room(room)
            asyncio.get_running_loop().call_soon(self._look_ahead, room)

    # -- play -----------------------------------------------------------------------------
    async def _step(self, room: LiveRoom, action: Action | None) -> None:
        """Apply one roll (``None``: roll the dice due) or choice; commit, then broadcast.

        The caller holds the room's lock.
        """
        before = room.state
        assert before is not None and room.dice is not None
        if self.relay is not None and not self.relay.up:
            # Committing now would leave the other workers' players blind: refuse instead.
            raise unavailable("live relay (Redis)")
        count = room.dice.count
        if action is None:
            action = sample_chance(before, room.dice)
        ahead = room.ahead.get(action)
        if ahead is not None and not (ahead.before is before and ahead.names == room.names):
            ahead = None
        messages: list[Message] | None = None
        if ahead is not None:
            after, event, messages = ahead.after, ahead.event, ahead.messages
        else:
            try:
                after = apply(before, action)
            except (IllegalActionError, ValueError) as e:
                room.dice.count = count
                raise RoomError("illegal", E.ILLEGAL, 400, reason=str(e)) from None
            event = event_for(before, action)
        try:
            # Committed before anyone is told (see __init__ for where the commit runs).
            results = None
            if after.is_over:  # replays the whole match: off the event loop
                results = await asyncio.to_thread(self._results, room, [*room.events, event], after)
            if self._appender is not None:
                self._persist(room, event, after, results, ahead.ready if ahead else None)
            else:
                await asyncio.get_running_loop().run_in_executor(
                    self._writer, self._persist, room, event, after, results
                )
        except IntegrityError:
            # Another worker committed this event number first: ours is not played.  Catch up
            # with what it did, so the player sees the table as it now is.
            room.dice.count = count
            log.info(
                "move lost a race to another worker",
                extra={"room": room.code, "version": room.version},
            )
            await self._sync(room)
            raise RoomError("stale", E.STALE, 409) from None
        except DBAPIError as e:
            room.dice.count = count  # nothing committed (one transaction): the same dice again
            log.warning(
                "database unavailable", extra={"room": room.code, "error": str(e.orig or e)[:200]}
            )
            raise unavailable("database") from None
        except Exception:
            room.dice.count = count  # nothing happened: the same dice are due again
            raise
        room.state, room.ahead = after, {}
        room.events.append(event)
        if messages is None:
            messages = narrate(before, action, after, room.names)
        room.recent.append(messages)
        if after.is_over:
            room.status = "over"
            room.dice.reveal()
        self._schedule(room)
        await self._publish(room)
        texts = None
        if (
            ahead is not None
            and ahead.texts is not None
            and room.deadline is None
            and room.status == "playing"
            and room.presence() == ahead.presence
        ):
            texts = ahead.texts  # drawn for this very moment
        await self.broadcast_room(room, messages, texts)
        asyncio.get_running_loop().call_soon(self._look_ahead, room)

    #: At most this many choices are played out ahead (a decision has two to four).
    AHEAD_CHOICES = 6

    def _look_ahead(self, room: LiveRoom) -> None:
        """Work out the room's next move while the player thinks: the dice due, or each choice.

        Runs after a broadcast.  The dice due next are a function of the committed seed and the
        die counter alone, and a decision has a handful of legal choices, so the engine can
        play the next move out now (the state after, its event and narration) and draw the room
        picture everyone will get; when the player sends it, the move only commits and sends.
        That work moves from between a player's tap and everyone's update to the moment after
        the last move, while the server's caches are still warm from it (measured on the
        reference machine: the same move's work takes ~0.2 ms back to back and ~0.9 ms after
        10 ms idle).  :meth:`_step` still rolls the dice itself and takes a result only for the
        very state and action it was made for, and the picture only if nothing it shows has
        changed since (who is online, no turn timer, the match goes on), so a stale look-ahead
        is merely unused.  Nothing leaves this process early: the dice and the pictures stay
        here like the seed they come from.
        """
        state, dice = room.state, room.dice
        if state is None or dice is None or state.is_over or room.status != "playing":
            return
        try:
            dice.prepare()
            if is_chance(state):
                count = dice.count
                try:
                    actions: list[Action] = [sample_chance(state, dice)]
                finally:
                    dice.count = count
            else:
                actions = list(legal_actions(state))[: self.AHEAD_CHOICES]
            room.ahead = {a: self._play_ahead(room, state, a) for a in actions}
        except Exception:  # a look-ahead must never cost a move: _step works it out itself
            log.exception("look-ahead failed", extra={"room": room.code})

    def _play_ahead(self, room: LiveRoom, state: MatchState, action: Action) -> Ahead:
        """One move played out by the engine, with its picture drawn if it can be."""
        after = apply(state, action)
        messages = narrate(state, action, after, room.names)
        texts, presence = None, None
        if not after.is_over and room.turn_timer is None and not self.settings.scaled:
            # (A turn timer or the other workers' presence make the picture time-dependent.)
            presence = room.presence()
            picture = room.public(after, presence)
            texts = {
                lang: self._room_text(picture, messages, lang)
                for lang in {c.lang for c in room.conns}
            }
        event = event_for(state, action)
        ready = None
        if self._appender is not None:
            ready = {"payload": self._appender.stored("payload", event)}
        return Ahead(state, room.names, action, after, event, messages, texts, presence, ready)

    # -- several workers ------------------------------------------------------------------
    async def _publish(self, room: LiveRoom) -> None:
        """Tell the other workers (if any) that this room changed; it is committed already."""
        if self.relay is not None:
            await self.relay.publish(room.code, room.version)

    def _read_delta(
        self, room: LiveRoom
    ) -> tuple[tuple[str, list[str], list[SeatInfo]] | None, list[dict[str, Any]]]:
        """From the database: the lobby (while in the lobby) and the events this room lacks."""
        with self.sessions() as db:
            lobby = None
            if room.status == "lobby":
                row = db.scalar(select(Room).where(Room.id == room.id))
                if row is None:
                    raise RoomError("not_found", E.NOT_FOUND, 404, code=room.code)
                lobby = (
                    row.status,
                    list(row.client_seeds),
                    [SeatInfo(s.name, s.kind, s.token_hash) for s in row.seats],
                )
            events = db.scalars(
                select(Event.payload)
                .where(Event.room_id == room.id, Event.seq >= len(room.events))
                .order_by(Event.seq)
            ).all()
            return lobby, [dict(e) for e in events]

    async def refresh(self, room: LiveRoom) -> tuple[bool, list[Message]]:
        """Bring a room up to what the database holds (scaled out only; the caller holds the lock).

        Returns whether anything changed and the narration of the new events.  Events are
        replayed with the engine, exactly as at start-up, so every worker holds the same state.
        """
        if not self.settings.scaled:
            return False, []
        try:
            lobby, events = await asyncio.to_thread(self._read_delta, room)
        except DBAPIError as e:
            log.warning("database unavailable", extra={"error": str(e.orig or e)[:200]})
            raise unavailable("database") from None
        changed = False
        if lobby is not None:
            status, seeds, seats = lobby
            if seats != room.seats or seeds != room.client_seeds or status != room.status:
                changed = True
                room.client_seeds, room.seats = seeds, seats
                for c in room.conns:  # seats may have moved up after a removal
                    c.seat = room.seat_of_hash(c.token_hash)
            if status != "lobby":
                room.status = "playing"
                room.state = initial_state(room.rules, len(room.seats), starter=room._starter())
                room.dice = FairDice(bytes.fromhex(room.server_seed), room.client_seeds)
        messages: list[Message] = []
        for event in events:
            before = room.state
            assert before is not None and room.dice is not None
            if event["type"] == "roll":
                action: Action = Roll(tuple(event["faces"]))
                room.dice.count += len(event["faces"])
            else:
                action = parse_action(str(event["action"]))
            after = apply(before, action)
            lines = narrate(before, action, after, room.names)
            room.state = after
            room.events.append(event)
            room.recent.append(lines)
            messages += lines
            changed = True
            if after.is_over:
                room.status = "over"
                room.dice.reveal()
        return changed, messages

    async def _sync(self, room: LiveRoom) -> None:
        """Refresh (the caller holds the lock) and, if another worker moved, show it here too."""
        changed, messages = await self.refresh(room)
        if changed:
            self._schedule(room, failover=True)
            await self.broadcast_room(room, messages)

    async def fresh_room(self, code: str) -> LiveRoom:
        """The live room, up to date with the database when several workers share it."""
        room = self.room(code)
        if self.settings.scaled:
            async with room.lock:
                await self._sync(room)
        return room

    async def _announce(self, room: LiveRoom) -> None:
        """Scaled out: tell the other workers who is connected to this room here."""
        if self.relay is not None:
            await self.relay.publish_presence(room.code, room.version, room.local_presence())

    async def _presence_loop(self) -> None:
        """Re-announce presence now and then, so a newly started worker learns it too."""
        while True:
            await asyncio.sleep(PRESENCE_EVERY)
            for room in list(self.rooms.values()):
                if room.conns and room.status != "over":
                    await self._announce(room)

    async def _remote_change(
        self, code: str, version: int, origin: str, presence: dict[str, Any] | None = None
    ) -> None:
        """Another worker committed a change to a room (or reports who is connected there):
        catch up if this worker holds the room."""
        room = self.rooms.get(code)
        if room is None:
            return
        if presence is not None:
            before = room.public()["players"], room.public()["spectators"]
            newcomer = origin not in room.remote
            room.remote[origin] = (time.monotonic(), presence["seats"], presence["spectators"])
            if newcomer and room.conns:  # a worker new to this room: tell it who is here
                await self._announce(room)
            if (room.public()["players"], room.public()["spectators"]) != before:
                await self.broadcast_room(room)
            return
        async with room.lock:
            if room.status == "playing" and version <= room.version:
                return  # already read (by an action or an earlier message)
            await self._sync(room)

    async def _catch_up_all(self) -> None:
        """After Redis was away: read whatever every open table missed meanwhile."""
        for room in list(self.rooms.values()):
            if room.status != "over":
                async with room.lock:
                    with contextlib.suppress(RoomError):
                        await self._sync(room)

    def _persist(
        self,
        room: LiveRoom,
        event: dict[str, Any],
        after: MatchState,
        results: list[Result] | None = None,
        ready: dict[str, Any] | None = None,
    ) -> None:
        """Commit one event; the last one together with the room's end and ``results``.

        ``ready``: columns of the row already converted (SQLite; see EventAppender.stored)."""
        values = {
            "room_id": room.id,
            "seq": len(room.events),
            "payload": event,
            "created_at": _now(),
        }
        if not after.is_over:
            if self._appender is not None:
                self._appender.append(values, ready)
                return
            # The hot path of every move: one Core insert on a plain connection, no ORM session
            # (less Python per write, so the writer thread needs the GIL for less time).
            engine = self.sessions.kw["bind"]
            with engine.begin() as conn:
                conn.execute(insert(Event), values)
            return
        # The last move: the event, the room's end and everyone's results in one transaction.
        with self.sessions() as db, db.begin():
            db.execute(insert(Event), values)
            row = db.get(Room, room.id)
            assert row is not None
            row.status, row.revealed, row.winner = "over", True, after.winner
            row.finished_at = _now()
            for r in results or []:
                db.add(r)

    def _results(
        self, room: LiveRoom, events: list[dict[str, Any]], final: MatchState
    ) -> list[Result]:
        """Each player's line for the statistics, counted from the match's own narration."""
        log = room.log()
        log.events = events
        crews = [0] * len(room.seats)
        states = replay_states(log)
        for (before, _), (after, action) in zip(states, states[1:]):
            assert action is not None
            if any(
                m.msgid.startswith("Full crew") for m in narrate(before, action, after, room.names)
            ):
                seat = actor(before)
                if seat is not None:
                    crews[seat] += 1
        pot = room.rules.stakes is Stakes.POT
        out = []
        for i, s in enumerate(room.seats):
            out.append(
                Result(
                    room_id=room.id,
                    position=i,
                    name=s.name,
                    kind=s.kind,
                    won=final.winner == i,
                    rounds=sum(1 for r in final.results if i in r.seats),
                    points=final.totals[i],
                    crews=crews[i],
                    chips_won=final.chips[i] - room.rules.starting_chips if pot else 0,
                    sips=final.sips[i],
                    finished_at=_now(),
                )
            )
        return out

    def _schedule(self, room: LiveRoom, failover: bool = False) -> None:
        """Set the next automatic move going: a bot after its pause, or the turn timer.

        ``failover``: this worker learnt of the last move from another one, which plays the
        next automatic move itself; this one waits longer and plays it only if that worker died.
        """
        current = asyncio.current_task()
        if room.task is not None and room.task is not current and not room.task.done():
            room.task.cancel()
        room.task, room.deadline = None, None
        if room.state is None or room.state.is_over or room.status != "playing":
            return
        seat = actor(room.state)
        assert seat is not None
        if room.seats[seat].kind != "human":
            delay = self.settings.bot_delay
        elif room.turn_timer:
            delay = float(room.turn_timer)
            room.deadline = time.time() + delay
        else:
            return
        if failover and self.settings.scaled:
            delay += self.settings.failover_grace
        room.task = asyncio.get_running_loop().create_task(self._auto(room, room.version, delay))

    async def _auto(self, room: LiveRoom, version: int, delay: float) -> None:
        await asyncio.sleep(delay)
        async with room.lock:
            try:
                await self._auto_move(room, version)
            except RoomError as err:
                # The database or Redis is away, or another worker moved first: try again soon
                # (a table must never hang on a bot).
                log.info("automatic move postponed", extra={"room": room.code, "why": err.code})
                if err.code == "unavailable" and room.state is not None and not room.state.is_over:
                    room.task = asyncio.get_running_loop().create_task(
                        self._auto(room, room.version, max(1.0, self.settings.bot_delay))
                    )

    async def _auto_move(self, room: LiveRoom, version: int) -> None:
        """The automatic move itself (the caller holds the lock)."""
        if self.settings.scaled:
            changed, messages = await self.refresh(room)
            if changed:  # another worker moved meanwhile: it plays on, this one follows
                self._schedule(room, failover=True)
                await self.broadcast_room(room, messages)
                return
        state = room.state
        if state is None or room.version != version or state.is_over:
            return
        seat = actor(state)
        assert seat is not None
        if is_chance(state):
            action: Action | None = None
        elif room.seats[seat].kind != "human":
            bot = make_bot(room.seats[seat].kind)
            action = await asyncio.to_thread(bot.choose, state, room.rng)
        else:
            action = safe_default(state, room.rng)
        await self._step(room, action)

    # -- connections ----------------------------------------------------------------------
    def translate(self, lang: str, domain: str = "web") -> Any:
        """The translation function for a language (cached by the i18n layer)."""
        return translator(lang, domain)

    def _lines(self, messages: list[Message], lang: str) -> list[str]:
        tr = self.translate(lang, "scc")
        return [m.render(tr) for m in messages]

    def _room_text(self, picture: dict[str, Any], messages: list[Message] | None, lang: str) -> str:
        """The "room" message everyone at the table gets, in one language."""
        return dumps(
            {
                "type": "room",
                "room": picture,
                "lines": self._lines(messages, lang) if messages else [],
            }
        )

    async def broadcast_room(
        self,
        room: LiveRoom,
        messages: list[Message] | None = None,
        made: dict[str, str] | None = None,
    ) -> None:
        """Send the room to everyone (one JSON text per language, built once).

        ``made``: texts already drawn for this very moment (by the look-ahead), per language.
        """
        texts = dict(made or {})
        public = None
        batch = []
        for c in list(room.conns):
            text = texts.get(c.lang)
            if text is None:
                if public is None:
                    public = room.public()
                text = texts[c.lang] = self._room_text(public, messages, c.lang)
            batch.append((c, text))
        await send_all(batch)

    async def connect(self, room: LiveRoom, ws: Sender, hello: Hello) -> Connection:
        """Register a connection after its hello; a bad token is refused, no token = spectator."""
        seat = room.seat_of(hello.token)
        if hello.token and seat is None:
            raise RoomError("bad_token", E.BAD_TOKEN, 403)
        conn = Connection(
            ws,
            seat,
            hello.lang,
            RateLimiter(self.settings.rate_per_second, self.settings.rate_burst),
            token_hash=hash_token(hello.token) if hello.token else None,
        )
        if self.settings.scaled:
            async with room.lock:
                await self._sync(room)
        room.conns.add(conn)
        await self._announce(room)
        await conn.send({"type": "welcome", "seat": seat})
        history = [line for msgs in room.recent for line in self._lines(msgs, conn.lang)]
        await conn.send({"type": "room", "room": room.public(), "lines": history, "history": True})
        await self.broadcast_room(room)  # presence changed
        return conn

    async def disconnect(self, room: LiveRoom, conn: Connection) -> None:
        """Forget a connection (the seat stays; its token brings the player back)."""
        conn.open = False
        room.conns.discard(conn)
        await self._announce(room)
        await self.broadcast_room(room)

    async def refuse(self, conn: Connection, err: RoomError) -> None:
        """Tell one connection (only) why its message was refused."""
        await conn.send(
            {"type": "error", "code": err.code, "message": err.render(self.translate(conn.lang))}
        )

    async def receive(self, room: LiveRoom, conn: Connection, raw: str) -> None:
        """Handle one message from a connection; refusals go to that connection only."""
        try:
            await self._receive(room, conn, raw)
        except RoomError as err:
            await self.refuse(conn, err)
        except Exception:  # a bug must cost one message, never the connection or the server
            log.exception("message failed", extra={"room": room.code})
            await self.refuse(conn, unavailable("game service"))

    async def _receive(self, room: LiveRoom, conn: Connection, raw: str) -> None:
        if len(raw.encode("utf-8", "replace")) > self.settings.max_message_bytes:
            raise RoomError("too_big", E.TOO_BIG, 413)
        if not conn.limiter.allow():
            raise RoomError("rate", E.RATE, 429)
        try:
            msg = CLIENT_MESSAGE.validate_json(raw)
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ())) or "message"
            raise RoomError("invalid", E.INVALID, 422, reason=f"{where}: {first['msg']}") from None
        if isinstance(msg, Ping):
            await conn.send({"type": "pong"})
            return
        if isinstance(msg, Hello):
            conn.lang = msg.lang
            return
        if isinstance(msg, Advice):
            await self._advice(room, conn, msg)
            return
        assert isinstance(msg, Act | RollDice)
        if conn.seat is None:
            raise RoomError("spectator", E.SPECTATOR, 403)
        async with room.lock:
            await self._sync(room)
            state = room.state
            if state is None or room.status != "playing":
                raise RoomError(
                    "not_started" if state is None else "over",
                    E.NOT_STARTED if state is None else E.ILLEGAL,
                    409,
                    reason="the match is over",
                )
            if actor(state) != conn.seat:
                raise RoomError("not_your_turn", E.NOT_YOUR_TURN, 409)
            if msg.version != room.version:
                raise RoomError("stale", E.STALE, 409)
            action: Action | None = None
            if isinstance(msg, RollDice):
                if not is_chance(state):
                    raise RoomError("illegal", E.ILLEGAL, 400, reason="no dice are due")
            else:
                try:
                    action = parse_action(msg.action)
                except InvalidActionError as e:
                    raise RoomError("not_an_action", E.NOT_AN_ACTION, 400, reason=str(e)) from None
                if isinstance(action, Roll):
                    raise RoomError(
                        "illegal",
                        E.ILLEGAL,
                        400,
                        reason="the server rolls every die; send a roll request",
                    )
                if is_chance(state):
                    raise RoomError("illegal", E.ILLEGAL, 400, reason="the dice are due first")
                if action not in legal_actions(state):
                    raise RoomError(
                        "illegal",
                        E.ILLEGAL,
                        400,
                        reason=f"{msg.action} is not among the choices now",
                    )
            await self._step(room, action)

    async def _advice(self, room: LiveRoom, conn: Connection, msg: Advice) -> None:
        if not room.hints:
            raise RoomError("hints_off", E.HINTS_OFF, 403)
        state = room.state
        if state is None or conn.seat is None or room.status != "playing":
            raise RoomError("no_advice", E.NO_ADVICE, 409)
        if msg.version != room.version:
            raise RoomError("stale", E.STALE, 409)
        if actor(state) != conn.seat or is_chance(state):
            raise RoomError("no_advice", E.NO_ADVICE, 409)
        choices = await asyncio.to_thread(advise, state)
        await conn.send(
            {
                "type": "advice",
                "version": msg.version,
                "choices": [
                    {
                        "action": c.action,
                        "win_probability": c.win_probability,
                        "exact": c.exact,
                        "expected_score": c.expected_score,
                        "method": c.method,
                    }
                    for c in choices
                ],
            }
        )
