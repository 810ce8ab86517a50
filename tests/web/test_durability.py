"""What a player's page showed is never lost: SQLite waits for the disk before a move is shown,
a server killed (SIGKILL) mid-move comes back with every move its pages showed, and so does a
copy of its files taken at an instant while moves are being committed."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import signal
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from websockets.sync.client import ClientConnection, connect

from shipcaptaincrew.web.settings import Settings
from shipcaptaincrew.web.storage.db import open_database
from shipcaptaincrew.web.storage.sqlite import EventAppender, GroupCommit

from .conftest import LiveServer


@pytest.mark.parametrize(("mode", "value"), [(None, 2), ("full", 2), ("normal", 1)])
def test_each_commit_waits_for_the_disk_unless_told_otherwise(
    tmp_path: Path, mode: str | None, value: int
) -> None:
    """``PRAGMA synchronous`` on the connections moves are committed on: FULL (2) unless the
    settings say NORMAL (1)."""
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    settings = Settings(db_url=url, **({} if mode is None else {"sqlite_synchronous": mode}))
    engine = open_database(url, settings.sqlite_synchronous).kw["bind"]
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA synchronous")).scalar() == value
    appender = EventAppender(engine)
    try:
        assert appender._connection().execute("PRAGMA synchronous").fetchone() == (value,)
    finally:
        appender.close()
        engine.dispose()


def test_moves_waiting_together_are_committed_together(tmp_path: Path) -> None:
    """The writer thread commits every row waiting in one transaction; a row the database
    refuses (an event number taken) fails alone, the others are committed."""
    from datetime import UTC, datetime

    from sqlalchemy import func, select

    from shipcaptaincrew.web.storage.models import Event, Room

    sessions = open_database(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    with sessions() as db, db.begin():
        for code in ("AAAAAA", "BBBBBB"):
            db.add(Room(code=code, rules="classic", server_seed="00", commitment="00"))
    group = GroupCommit(EventAppender(sessions.kw["bind"]))
    now = datetime.now(UTC)

    async def moves() -> list[BaseException | None]:
        rows = [(1, 0), (2, 0), (1, 1), (1, 0)]  # (room, event number): the last one is taken
        return await asyncio.gather(
            *(
                group.append({"room_id": r, "seq": q, "payload": {"n": q}, "created_at": now})
                for r, q in rows
            ),
            return_exceptions=True,
        )

    outcomes = asyncio.run(moves())
    group.close()
    group.appender.close()
    assert outcomes[:3] == [None, None, None] and isinstance(outcomes[3], IntegrityError)
    with sessions() as db:
        assert db.scalar(select(func.count()).select_from(Event)) == 3


class Page:
    """A player's page: what it was shown (the newest version), on a socket of its own."""

    def __init__(self, server: LiveServer, code: str, token: str) -> None:
        url = f"ws://127.0.0.1:{server.port}/ws/rooms/{code}"
        self.ws: ClientConnection = connect(url, open_timeout=60).__enter__()
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.seat = json.loads(self.ws.recv(60))["seat"]
        self.room: dict[str, Any] = {}

    @property
    def shown(self) -> int:
        return int(self.room.get("version", -1))

    def read_past(self, version: int) -> dict[str, Any]:
        while self.shown <= version:
            msg = json.loads(self.ws.recv(60))
            if msg["type"] == "room":
                self.room = msg["room"]
        return self.room


def _events(db: Path, code: str) -> int:
    with sqlite3.connect(db) as conn:
        return int(
            conn.execute(
                "SELECT count(*) FROM events JOIN rooms ON rooms.id = events.room_id "
                "WHERE rooms.code = ?",
                (code,),
            ).fetchone()[0]
        )


def test_no_move_a_page_showed_is_lost_to_a_kill_or_a_frozen_copy(
    sqlite_url: str, tmp_path: Path
) -> None:
    """Two players move as fast as their pages let them.  At an instant chosen at random (a
    fixed seed) while a move is on its way, the server is frozen, its files copied (what the
    disk holds at that instant) and the server thawed; later it is killed (SIGKILL) right
    after a move was sent.  The copy, opened, and the restarted server each hold every move
    a page had shown by then."""
    db = Path(sqlite_url.removeprefix("sqlite:///"))
    fast = {"SCC_RATE_PER_SECOND": "1000", "SCC_RATE_BURST": "1000"}
    server = LiveServer(sqlite_url, **fast).start()
    rng = random.Random(28)
    freeze_at, kill_at = rng.randrange(20, 60), rng.randrange(80, 120)
    try:
        api = httpx.Client(base_url=server.url, timeout=30)
        match = ["starter=chosen", "format=rounds:50"]
        r = api.post("/api/rooms", json={"name": "Anna", "settings": match})
        code, host = r.json()["code"], r.json()["token"]
        bo = api.post(f"/api/rooms/{code}/join", json={"name": "Bo"}).json()["token"]
        api.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": host})
        pages = [Page(server, code, host), Page(server, code, bo)]
        room = pages[0].read_past(-1)
        copied = None
        for n in range(kill_at + 1):
            match = room["match"]
            choice, v = match["legal"][0], room["version"]
            move = {"type": "roll"} if choice == "roll" else {"type": "act", "action": choice}
            pages[match["actor"]].ws.send(json.dumps({**move, "version": v}))
            assert server.proc is not None
            if n == freeze_at:
                shown = max(p.shown for p in pages)
                os.kill(server.proc.pid, signal.SIGSTOP)
                copied = tmp_path / "copy.sqlite3"
                for suffix in ("", "-wal"):
                    if Path(f"{db}{suffix}").exists():
                        shutil.copyfile(f"{db}{suffix}", f"{copied}{suffix}")
                os.kill(server.proc.pid, signal.SIGCONT)
                assert shown > 0 and _events(copied, code) >= shown, (shown, freeze_at)
            if n == kill_at:
                shown = max(p.shown for p in pages)
                server.kill()
                break
            room = pages[0].read_past(v)
            pages[1].read_past(v)
        assert copied is not None and shown >= kill_at
        for p in pages:
            p.ws.close()
        server.start()
        watcher = Page(server, code, host)
        again = watcher.read_past(-1)
        watcher.ws.close()
        assert again["version"] >= shown and _events(db, code) == again["version"]
    finally:
        server.stop()
