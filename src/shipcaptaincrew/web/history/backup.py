"""Backups of the server's database that are known to restore: ``scc backup`` and
``scc restore``.

A backup is worth what its restore is, so every copy is checked before it is kept: the
database's own integrity check, then every match in it replayed by the engine exactly as a
restarting server replays it (:meth:`..table.store.Store.load`).  A copy that fails either is
deleted and the command fails; nothing older is removed until a new copy has passed.

- **SQLite**: SQLite's online backup API copies a consistent snapshot of the live file while
  tables play (the server keeps writing; the copy is of one instant), then
  ``PRAGMA integrity_check`` and the replay run on the copy.
- **PostgreSQL**: ``pg_dump`` (custom format) of an exported snapshot, and the replay reads
  that very snapshot in the same transaction, so what was checked is what was dumped;
  ``pg_restore --list`` reads the archive back whole.  ``pg_restore`` puts it back.

Backups are files named ``scc-<UTC time>.sqlite3`` or ``.pgdump`` in one directory; the
newest ``keep`` are kept, older ones of that name are deleted.  A restore replaces the target
database's rooms with the backup's: unfinished matches resume when the server starts, at the
event they had reached.
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Connection, func, select, text
from sqlalchemy.orm import Session, sessionmaker

from ...errors import GameError
from ...messages import N_
from ..settings import Settings
from ..storage.db import make_engine, open_database
from ..storage.models import Event, Room, RoomStatus

#: The suffix of a backup file, by database.
SUFFIXES = {"sqlite": ".sqlite3", "postgresql": ".pgdump"}
PREFIX = "scc-"


class BackupError(GameError):
    """A backup or restore that could not be made or did not pass its check (one line, in
    the reader's language)."""


@dataclass(frozen=True)
class Held:
    """What a backup holds: the matches (started or finished) and their events."""

    matches: int
    events: int

    def json(self) -> dict[str, int]:
        return {"matches": self.matches, "events": self.events}


def kind(url: str) -> str:
    """``sqlite`` or ``postgresql``, from a database URL."""
    if url.startswith("sqlite:"):
        return "sqlite"
    if url.startswith(("postgresql:", "postgres:", "postgresql+")):
        return "postgresql"
    raise BackupError(N_("not a sqlite:/// or postgresql:// URL: {url}"), url=url)


def sqlite_path(url: str) -> Path:
    """The file of a ``sqlite:///FILE`` URL."""
    path = url.split(":///", 1)[1] if ":///" in url else ""
    if not path or path == ":memory:":
        raise BackupError(N_("not a SQLite file: {url}"), url=url)
    return Path(path)


def libpq_url(url: str) -> str:
    """A URL ``pg_dump`` and ``pg_restore`` understand (no SQLAlchemy driver name)."""
    scheme, rest = url.split("://", 1)
    return "postgresql://" + rest if scheme.startswith("postgres") else url


# -- checking ---------------------------------------------------------------------------------


def replay_all(sessions: sessionmaker[Session], url: str) -> Held:
    """Every match in the database replayed by the engine as a restarting server does; what
    it holds.  A match that does not replay raises :class:`BackupError` naming it."""
    from ..table.store import Store

    with sessions() as db:
        codes = list(db.scalars(select(Room.code).where(Room.status != RoomStatus.LOBBY.value)))
        events = db.scalar(select(func.count()).select_from(Event)) or 0
    store = Store(Settings(db_url=url, sqlite_synchronous="normal"), sessions)
    try:
        for code in codes:
            try:
                store.load(code)
            except Exception as e:
                raise BackupError(
                    N_("match {code} does not replay: {reason}"), code=code, reason=str(e)
                ) from None
    finally:
        store.writer.shutdown(wait=True)
        if store.appender is not None:
            store.appender.close()
    return Held(len(codes), events)


def check_sqlite(path: Path) -> Held:
    """A SQLite copy's integrity check and every match replayed."""
    try:
        with contextlib.closing(sqlite3.connect(path)) as conn:
            verdict = [row[0] for row in conn.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as e:
        raise BackupError(
            N_("{path} is not a database: {reason}"), path=str(path), reason=str(e)
        ) from None
    if verdict != ["ok"]:
        raise BackupError(
            N_("{path}: the integrity check failed: {verdict}"),
            path=str(path),
            verdict="; ".join(verdict)[:300],
        )
    url = f"sqlite:///{path}"
    engine = make_engine(url, "normal")
    try:
        return replay_all(sessionmaker(engine, expire_on_commit=False), url)
    finally:
        engine.dispose()


# -- backing up -------------------------------------------------------------------------------


def backup(db_url: str, dest: Path, keep: int) -> tuple[Path, Held]:
    """A checked copy of the database in ``dest`` (made if missing); keeps the newest
    ``keep`` backups there.  Returns the new file and what it holds."""
    which = kind(db_url)
    dest.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    final = dest / f"{PREFIX}{stamp}{SUFFIXES[which]}"
    partial = final.with_name(final.name + ".partial")
    try:
        if which == "sqlite":
            held = _backup_sqlite(sqlite_path(db_url), partial)
        else:
            held = _backup_postgres(db_url, partial)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    partial.rename(final)
    _prune(dest, SUFFIXES[which], keep)
    return final, held


def _backup_sqlite(source: Path, target: Path) -> Held:
    if not source.exists():
        raise BackupError(N_("no database at {path}"), path=str(source))
    with (
        contextlib.closing(sqlite3.connect(source)) as src,
        contextlib.closing(sqlite3.connect(target)) as dst,
    ):
        # The online backup API: a consistent copy of one instant, while the server writes.
        src.backup(dst)
    return check_sqlite(target)


def _backup_postgres(db_url: str, target: Path) -> Held:
    settings = Settings(db_url=db_url)
    engine = make_engine(settings.sqlalchemy_url())
    try:
        with _snapshot(engine.connect()) as (conn, snapshot):
            _run(
                "pg_dump",
                "--format=custom",
                f"--snapshot={snapshot}",
                f"--file={target}",
                f"--dbname={libpq_url(db_url)}",
            )
            # The replay reads the very snapshot the dump was made of.
            held = replay_all(sessionmaker(bind=conn), settings.db_url)
    finally:
        engine.dispose()
    _run("pg_restore", "--list", str(target))  # the archive reads back whole
    return held


@contextlib.contextmanager
def _snapshot(conn: Connection) -> Iterator[tuple[Connection, str]]:
    """A read-only repeatable-read transaction and its exported snapshot's name."""
    conn.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
    try:
        name = str(conn.execute(text("SELECT pg_export_snapshot()")).scalar_one())
        yield conn, name
    finally:
        conn.rollback()
        conn.close()


def _run(*command: str) -> str:
    """A PostgreSQL client program; its own message if it fails."""
    if shutil.which(command[0]) is None:
        raise BackupError(
            N_("{tool} is not installed (apt-get install postgresql-client)"), tool=command[0]
        )
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        raise BackupError(
            N_("{tool} failed: {said}"), tool=command[0], said=said[-1] if said else done.returncode
        )
    return done.stdout


def backups(dest: Path, suffix: str | None = None) -> list[Path]:
    """The backups in ``dest``, oldest first (their names sort by time)."""
    found = [p for p in dest.glob(f"{PREFIX}*") if p.suffix in SUFFIXES.values()]
    return sorted(p for p in found if suffix is None or p.suffix == suffix)


def _prune(dest: Path, suffix: str, keep: int) -> None:
    for old in backups(dest, suffix)[:-keep] if keep > 0 else []:
        old.unlink(missing_ok=True)


# -- restoring --------------------------------------------------------------------------------


def newest(source: Path) -> Path:
    """The backup a path names: the file itself, or the newest backup in a directory."""
    if source.is_dir():
        found = backups(source)
        if not found:
            raise BackupError(N_("no backup in {path}"), path=str(source))
        return max(found, key=lambda p: p.name)
    if not source.exists():
        raise BackupError(N_("no backup at {path}"), path=str(source))
    return source


def restore(source: Path, db_url: str) -> tuple[Path, Held]:
    """The backup ``source`` (a file, or the newest in a directory) checked and put in place
    of the database ``db_url``; what it holds.  Stop the server first."""
    which, file = kind(db_url), newest(source)
    if file.suffix != SUFFIXES[which]:
        raise BackupError(
            N_("{name} is not a backup of a {kind} database"), name=file.name, kind=which
        )
    if which == "sqlite":
        held = check_sqlite(file)
        target = sqlite_path(db_url)
        target.parent.mkdir(parents=True, exist_ok=True)
        with (
            contextlib.closing(sqlite3.connect(file)) as src,
            contextlib.closing(sqlite3.connect(target)) as dst,
        ):
            src.backup(dst)  # page by page under the target's lock: never half a database
        # The schema of this release (a backup of an older one is migrated forward).
        open_database(f"sqlite:///{target}", "normal").kw["bind"].dispose()
        return file, held
    _run("pg_restore", "--list", str(file))
    _run(
        "pg_restore",
        "--clean",
        "--if-exists",
        "--no-owner",
        "--no-privileges",
        "--single-transaction",
        f"--dbname={libpq_url(db_url)}",
        str(file),
    )
    settings = Settings(db_url=db_url)
    sessions = open_database(settings.sqlalchemy_url())
    try:
        return file, replay_all(sessions, settings.db_url)
    finally:
        sessions.kw["bind"].dispose()
