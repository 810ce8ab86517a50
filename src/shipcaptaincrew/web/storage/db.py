"""Engine, sessions and schema migrations (Alembic, shipped inside the package).

:func:`open_database` upgrades the schema to the newest migration before the server takes its
first request, so a fresh SQLite file and an existing PostgreSQL database behave the same.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry

MIGRATIONS = Path(__file__).with_name("migrations")


def make_engine(url: str, synchronous: str = "full") -> Engine:
    """An engine; SQLite gets WAL and foreign keys (events must not outlive their room).

    ``synchronous`` (SQLite only): ``full`` (the default) syncs the write-ahead log to disk at
    every commit, so a move the players saw survives a power cut, not only a crash of the
    process; ``normal`` leaves the sync to the checkpoints (faster; a power cut may lose the
    last moves).  See ``Settings.sqlite_synchronous`` and docs/deployment.md.
    """
    if synchronous not in ("full", "normal"):
        raise ValueError(f"synchronous must be full or normal, not {synchronous!r}")
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={synchronous.upper()}")
            # Checkpoints (which fsync) are run by the server's checkpointer in the background,
            # not by whichever move happens to fill the WAL (see sqlite.checkpoints).
            cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            # Several workers start at once: one migrates, the others wait and find it done.
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(86540001)")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def open_database(url: str, synchronous: str = "full") -> sessionmaker[Session]:
    """Connect, migrate, and return the session factory (``synchronous``: see
    :func:`make_engine`)."""
    engine = make_engine(url, synchronous)
    upgrade(engine)
    return sessionmaker(engine, expire_on_commit=False)
