"""``scc backup`` and ``scc restore`` on a live server: a backup taken by a second process while
a match is played, restored into a fresh server, resumes that match at the same event with the
same log, event by event (SQLite and PostgreSQL)."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from shipcaptaincrew.web.settings import Settings

from .conftest import SCC, LiveServer, _new_pg_database
from .test_restart import WsPlayer

#: A scripted player moves faster than the rate limit lets a person.
FAST = {"SCC_RATE_PER_SECOND": "1000", "SCC_RATE_BURST": "1000"}


def scc(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", SCC, *args], capture_output=True, text=True, timeout=300
    )


def events_of(db_url: str, code: str) -> list[dict[str, Any]]:
    """A room's events as the database holds them, in order."""
    engine = create_engine(Settings(db_url=db_url).sqlalchemy_url())
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT e.payload FROM events e JOIN rooms r ON r.id = e.room_id "
                    "WHERE r.code = :code ORDER BY e.seq"
                ),
                {"code": code},
            ).all()
    finally:
        engine.dispose()
    return [row[0] if isinstance(row[0], dict) else json.loads(row[0]) for row in rows]


def play_on(player: WsPlayer, stop: threading.Event, seen: dict[int, Any]) -> None:
    """Anna plays her turns at a quick human pace until told to stop or the match ends;
    ``seen``: the match as each picture she got showed it, by version."""
    from websockets.exceptions import ConnectionClosed

    room = player.until(lambda r: r["status"] == "playing")
    with contextlib.suppress(ConnectionClosed):  # the server stopped under her
        while not stop.is_set() and not room["match"]["over"]:
            seen[room["version"]] = room["match"]
            m = room["match"]
            if m["actor"] == player.seat:
                time.sleep(0.05)
                player.play(m["legal"][0], room["version"])
            room = player.until(lambda r, v=room["version"]: r["version"] > v)


def fresh_database(db_url: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if db_url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / 'restored' / 'scc.sqlite3'}"
    return _new_pg_database(request.getfixturevalue("postgres_server"))


def test_backup_while_playing_restores_into_a_fresh_server_at_the_same_event(
    db_url: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    server = LiveServer(db_url, bot_delay=0.02, **FAST).start()
    api = httpx.Client(base_url=server.url, timeout=30)
    made = api.post("/api/rooms", json={"name": "Anna", "settings": ["format=rounds:40"]})
    code, token = made.json()["code"], made.json()["token"]
    for level in ("medium", "easy"):
        api.post(f"/api/rooms/{code}/bots", json={"level": level}, headers={"X-Seat-Token": token})
    api.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": token})
    anna = WsPlayer(server, code, token)
    stop = threading.Event()
    seen: dict[int, Any] = {}
    player = threading.Thread(target=play_on, args=(anna, stop, seen), daemon=True)
    player.start()
    try:
        while len(events_of(db_url, code)) < 10:
            time.sleep(0.05)
        # A second process backs the database up while Anna and the bots play on.
        taken = scc("backup", str(tmp_path / "backups"), "--db", db_url, "--json")
        assert taken.returncode == 0, taken.stderr
        held = json.loads(taken.stdout)
        still = len(events_of(db_url, code))
        assert player.is_alive(), "the match ended before the backup was made"
    finally:
        stop.set()
        server.stop()
        player.join(30)
    assert set(held) == {"matches", "events"} and held["matches"] == 1
    assert 10 <= held["events"], held
    # The table went on while the copy was made; the copy is of one instant.
    original = events_of(db_url, code)
    assert len(original) >= still >= held["events"]

    target = fresh_database(db_url, tmp_path, request)
    restored = scc("restore", str(tmp_path / "backups"), "--db", target, "--json")
    assert restored.returncode == 0, restored.stderr
    assert json.loads(restored.stdout) == held
    kept = events_of(target, code)
    assert len(kept) == held["events"]
    # Event by event, the restored log is the live one up to the instant of the copy.
    for number, (mine, theirs) in enumerate(zip(kept, original, strict=False), 1):
        assert mine == theirs, f"event {number} differs"

    fresh = LiveServer(target, bot_delay=0.0, **FAST).start()
    try:
        anna = WsPlayer(fresh, code, token)
        room = anna.until(lambda r: r["status"] == "playing")
        # Anna is back in her seat; the bots may already have rolled on (their rolls wait
        # for nobody), so the match is where the backup left it or after.
        assert room["version"] >= len(kept) and anna.seat == 0
        if room["version"] == len(kept) and len(kept) in seen:
            assert room["match"] == seen[len(kept)], "not the match the table was playing"
        # It plays on from the very event the backup holds: the kept events first, as they
        # were, then new ones, each accepted by the engine.
        while room["version"] < len(kept) + 3 and not room["match"]["over"]:
            m = room["match"]
            if m["actor"] == anna.seat:
                anna.play(m["legal"][0], room["version"])
            room = anna.until(lambda r, v=room["version"]: r["version"] > v)
        went_on = events_of(target, code)
        # (the bots may have moved on since the picture: at least its events are there)
        assert went_on[: len(kept)] == kept and len(went_on) >= room["version"] > len(kept)
        anna.ws.close()
    finally:
        fresh.stop()


def test_one_line_with_matches_and_events(tmp_path: Path, sqlite_url: str) -> None:
    server = LiveServer(sqlite_url).start()
    server.stop()  # an empty but migrated database
    taken = scc("backup", str(tmp_path / "b"), "--db", sqlite_url, "--keep", "2")
    assert taken.returncode == 0, taken.stderr
    (line,) = taken.stdout.splitlines()
    assert line.endswith(
        ": 0 matches, 0 events; checked (integrity, every match replayed); the newest 2 kept"
    )
    for _ in range(3):
        assert scc("backup", str(tmp_path / "b"), "--db", sqlite_url).returncode == 0
    assert len(list((tmp_path / "b").glob("scc-*.sqlite3"))) == 4
    kept = scc("backup", str(tmp_path / "b"), "--db", sqlite_url, "--keep", "2")
    assert kept.returncode == 0
    assert len(list((tmp_path / "b").glob("scc-*.sqlite3"))) == 2


def test_a_damaged_backup_is_refused_and_nothing_is_replaced(
    tmp_path: Path, sqlite_url: str
) -> None:
    bad = tmp_path / "scc-20260101T000000000000Z.sqlite3"
    bad.write_bytes(b"SQLite format 3\x00" + b"\x00" * 4000)
    target = tmp_path / "live.sqlite3"
    sqlite3.connect(target).execute("CREATE TABLE mine (x)").connection.close()
    result = scc("restore", str(bad), "--db", f"sqlite:///{target}")
    assert result.returncode == 1
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and "restore failed" in result.stderr
    tables = sqlite3.connect(target).execute("SELECT name FROM sqlite_master").fetchall()
    assert tables == [("mine",)]
