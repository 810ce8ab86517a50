"""The hot path of every move on SQLite: one prepared insert, and checkpoints in the background.

With ``synchronous=FULL`` (the default, see :func:`.db.make_engine`) every commit waits for
the disk (an fsync of the write-ahead log: 4 ms at the median on the reference machine, 11 ms
at the 99th percentile).  Done on the event loop that would stall every other table for as
long, so the moves then go to one writer thread (:class:`GroupCommit`) that commits all the
moves waiting at once, with a single fsync: a move waits for the disk, never for another
table's move, and the disk's pace bounds the rounds of commits, not the moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, insert
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.pool import PoolProxiedConnection

from .models import Event

#: Checkpoint once the write-ahead log holds this much (SQLite's own default threshold,
#: 1000 pages of 4 KiB, about 400 moves).
CHECKPOINT_BYTES = 4 * 1024 * 1024


class EventAppender:
    """One prepared insert on a connection kept open: how a move is committed on SQLite.

    The row is exactly what ``insert(Event)`` writes (the statement is compiled from the model
    and the values go through the column types' own converters), without a pool checkout, a
    transaction object and the statement cache per move: measured on the reference machine,
    0.2 ms a move back to back and about 1.2 ms for a move after a quiet second (cold caches,
    the common case at a real table), against 0.04 and 0.35 ms this way.  Errors come out
    as SQLAlchemy's, like every other write's.  Used from the event loop only (see
    :class:`..table.store.Store`), so it is the only writer and needs no lock.
    """

    COLUMNS = ("room_id", "seq", "payload", "created_at")
    #: How long a move waits for a write lock held outside this server (the sqlite3 shell,
    #: say) before it is refused as "database unavailable", rather than the default 5 s.
    BUSY_MS = 1000

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        dialect = engine.dialect
        self.sql = str(insert(Event).compile(dialect=dialect, column_keys=list(self.COLUMNS)))
        columns = Event.__table__.c
        self.convert: list[Callable[[Any], Any] | None] = [
            columns[name].type.dialect_impl(dialect).bind_processor(dialect)
            for name in self.COLUMNS
        ]
        self._fairy: PoolProxiedConnection | None = None
        self._isolation: str | None = ""  # the pooled connection's own setting, given back

    def _connection(self) -> sqlite3.Connection:
        if self._fairy is None:
            self._fairy = self.engine.raw_connection()  # runs the engine's connect pragmas
            conn = self._driver()
            conn.execute(f"PRAGMA busy_timeout={self.BUSY_MS}")
            # Autocommit: the insert is a transaction of its own (one statement for SQLite to
            # run, not BEGIN, INSERT and COMMIT); the pool's setting comes back in close().
            self._isolation = conn.isolation_level
            conn.isolation_level = None
        return self._driver()

    def _driver(self) -> sqlite3.Connection:
        assert self._fairy is not None
        conn = self._fairy.driver_connection
        assert isinstance(conn, sqlite3.Connection)
        return conn

    def stored(self, column: str, value: Any) -> Any:
        """A value as the column stores it (for :meth:`append`'s ``ready``)."""
        f = self.convert[self.COLUMNS.index(column)]
        return value if f is None else f(value)

    def params(
        self, values: dict[str, Any], ready: dict[str, Any] | None = None
    ) -> tuple[Any, ...]:
        """The insert's parameters for one event row.  ``ready``: columns already converted
        by :meth:`stored` (the look-ahead converts a roll's payload before it is asked for)."""
        ready = ready or {}
        return tuple(
            ready[name] if name in ready else values[name] if f is None else f(values[name])
            for name, f in zip(self.COLUMNS, self.convert)
        )

    def append(self, values: dict[str, Any], ready: dict[str, Any] | None = None) -> None:
        """Insert one event row, committed (see :meth:`params` for ``ready``)."""
        params = self.params(values, ready)
        conn = self._connection()
        try:
            conn.execute(self.sql, params)
        except sqlite3.Error as e:
            raise self.error(e, params) from None

    def error(self, e: sqlite3.Error, params: tuple[Any, ...]) -> DBAPIError:
        """SQLite's error as SQLAlchemy's, like every other write's."""
        kind = IntegrityError if isinstance(e, sqlite3.IntegrityError) else DBAPIError
        return kind(self.sql, params, e)

    def close(self) -> None:
        """Give the connection back to the pool."""
        if self._fairy is not None:
            # typeshed's setter lists only the named levels, but what the pool had is often ""
            # (sqlite3's default, a plain BEGIN), which must go back exactly as it was.
            self._driver().isolation_level = self._isolation  # type: ignore[assignment]
            self._fairy.close()
            self._fairy = None


class GroupCommit:
    """Moves committed by one writer thread, each round of them in one transaction (one fsync).

    :meth:`append` hands a row over and waits; the thread takes every row waiting, inserts
    each under a savepoint of its own (a row the database refuses fails alone, with SQLite's
    error as SQLAlchemy's), commits them together, and wakes their movers.  Rows of one room
    come one at a time (a move holds its room's lock until it is committed), so their order
    is the order of the moves.
    """

    def __init__(self, appender: EventAppender) -> None:
        self.appender = appender
        self._rows: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
        self._wake = threading.Condition()
        self._stopping = False
        self._thread: threading.Thread | None = None

    async def append(self, values: dict[str, Any], ready: dict[str, Any] | None = None) -> None:
        """Commit one event row (durably) and return once it is; raises SQLAlchemy's errors."""
        params = self.appender.params(values, ready)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        with self._wake:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="scc-sqlite", daemon=True)
                self._thread.start()
            self._rows.append((params, done))
            self._wake.notify()
        await done

    def close(self) -> None:
        """Commit what waits, then stop the thread."""
        with self._wake:
            self._stopping = True
            self._wake.notify()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._rows and not self._stopping:
                    self._wake.wait()
                rows, self._rows = self._rows, []
                if not rows:
                    return
            outcomes = self._commit([params for params, _ in rows])
            for (_, done), outcome in zip(rows, outcomes):
                done.get_loop().call_soon_threadsafe(_settle, done, outcome)

    def _commit(self, rows: list[tuple[Any, ...]]) -> list[BaseException | None]:
        """Insert the rows in one transaction; each one's error (None: committed)."""
        conn, sql = self.appender._connection(), self.appender.sql
        outcomes: list[BaseException | None] = []
        try:
            conn.execute("BEGIN")
            for params in rows:
                conn.execute("SAVEPOINT row")
                try:
                    conn.execute(sql, params)
                    outcomes.append(None)
                except sqlite3.Error as e:
                    conn.execute("ROLLBACK TO row")
                    outcomes.append(self.appender.error(e, params))
                conn.execute("RELEASE row")
            conn.execute("COMMIT")
        except sqlite3.Error as e:  # nothing of this round was committed
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            return [self.appender.error(e, params) for params in rows]
        return outcomes


def _settle(done: asyncio.Future[None], outcome: BaseException | None) -> None:
    if done.cancelled():
        return
    if outcome is None:
        done.set_result(None)
    else:
        done.set_exception(outcome)


async def checkpoints(
    engine: Engine, every: float = 2.0, threshold: int = CHECKPOINT_BYTES
) -> None:
    """Move the SQLite write-ahead log into the database now and then, off the event loop.

    A passive checkpoint never blocks the writer, so the fsync it costs is never a move's
    wait; the engine's own auto-checkpoint is off (see :func:`.db.make_engine`).  It runs
    only once the log has grown to ``threshold`` bytes, not on a clock: the first commit after
    a complete checkpoint starts the log afresh and SQLite fsyncs the new log header then,
    inside that move (0.7-0.9 ms on the reference machine).  Checkpointing every 2 s put that
    wait into one move in 200 at 500 players and into every other move at a quiet table; by
    size it is one move in about 400, whatever the pace.  Runs until cancelled.
    """
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
            if wal.stat().st_size >= threshold:
                await asyncio.to_thread(checkpoint)
