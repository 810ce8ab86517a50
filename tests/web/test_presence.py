"""Who is online through the other workers: a worker's report of who is connected through it
is believed for ``Settings.presence_ttl`` seconds (30 by default), then its people count as
gone, and the table is told so without waiting for anything else to happen.

The reports come in as the Redis relay hands them over (:meth:`.cluster.Cluster._remote_change`
with a presence note); no worker or Redis is needed to see what the table makes of them."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from shipcaptaincrew.web.connections.relay import Note, NoteKind
from shipcaptaincrew.web.service import MatchService
from shipcaptaincrew.web.settings import Settings
from shipcaptaincrew.web.storage.db import open_database
from shipcaptaincrew.web.table import room as room_module
from shipcaptaincrew.web.table.schemas import CreateRoom, Hello, JoinRoom

from .conftest import SERVER_SEED

#: What worker B reports: Bo's seat and two spectators (no table screen) are connected through it.
REPORT = {"seats": [1], "spectators": 2, "screens": []}


class Watching:
    """A page at the table: keeps each room picture it is sent."""

    def __init__(self) -> None:
        self.rooms: list[dict[str, Any]] = []
        self.changed = asyncio.Event()

    async def send_text(self, data: str) -> None:
        msg = json.loads(data)
        if msg["type"] == "room":
            self.rooms.append(msg["room"])
            self.changed.set()

    async def until(self, predicate: Any, timeout: float = 30.0) -> dict[str, Any]:
        """The first picture (from now on, or the newest) that ``predicate`` holds for."""
        async with asyncio.timeout(timeout):
            while not (self.rooms and predicate(self.rooms[-1])):
                self.changed.clear()
                await self.changed.wait()
        return self.rooms[-1]


async def table(tmp_path: Path, **settings: Any) -> tuple[MatchService, Any, Watching]:
    """Anna (connected here, as a page) and Bo at a table; (service, room, Anna's page)."""
    s = Settings(
        db_url=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        bot_delay=0,
        fixed_server_seed=SERVER_SEED,
        **settings,
    )
    svc = MatchService(s, open_database(s.sqlalchemy_url()))
    code, host = await svc.create_room(CreateRoom(name="Anna", settings=["starter=chosen"]))
    await svc.join(code, JoinRoom(name="Bo"))
    room = svc.room(code)
    page = Watching()
    await svc.connect(room, page, Hello(type="hello", token=host))
    return svc, room, page


async def report(svc: MatchService, room: Any) -> None:
    """Worker B reports who is connected through it, as the relay hands it over."""
    note = Note(room.code, room.version, "worker-b", NoteKind.PRESENCE, dict(REPORT))
    await svc.cluster._remote_change(note)


def test_a_report_is_believed_for_30_seconds_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a clock the test drives: 29 s after worker B's report, Bo is online and two people
    watch through it; 31 s after, the picture a page is drawn shows Bo offline and nobody
    watching."""

    async def scenario() -> None:
        svc, room, page = await table(tmp_path)
        await report(svc, room)
        shown = await page.until(lambda r: r["players"][1]["online"])
        assert shown["spectators"] == 2
        heard = room.remote["worker-b"][0]
        clock = SimpleNamespace(monotonic=lambda: heard + 29.0)
        monkeypatch.setattr(room_module, "time", clock)
        drawn = room.public()
        assert drawn["players"][1]["online"] and drawn["spectators"] == 2
        clock.monotonic = lambda: heard + 31.0
        drawn = room.public()
        assert not drawn["players"][1]["online"] and drawn["spectators"] == 0
        assert drawn["players"][0]["online"]  # (Anna is connected here)
        await svc.shutdown()

    asyncio.run(scenario())


def test_a_worker_that_stops_reporting_has_its_people_shown_gone(tmp_path: Path) -> None:
    """Worker B reports, Anna's page shows Bo online; then, its reports believed for a fifth of
    a second only, B reports once more and never again (it died): with nothing else happening
    at the table, Anna's page is told that Bo went offline and B's spectators went away."""

    async def scenario() -> None:
        # (Each change told at once: the picture of the last report is drawn before it fades.)
        svc, room, page = await table(tmp_path, presence_seconds=0)
        await report(svc, room)
        shown = await page.until(lambda r: r["players"][1]["online"])
        assert shown["spectators"] == 2
        room.presence_ttl = 0.2  # (Settings.presence_ttl, as the room was loaded with it)
        await report(svc, room)
        told = len(page.rooms)
        gone = await page.until(lambda r: not r["players"][1]["online"])
        assert gone["spectators"] == 0 and len(page.rooms) > told
        assert room.presence() == (frozenset({0}), 0)
        await svc.shutdown()

    asyncio.run(scenario())


def test_the_ttl_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    """``SCC_PRESENCE_TTL`` sets it; 30 s when unset."""
    monkeypatch.delenv("SCC_PRESENCE_TTL", raising=False)
    assert Settings().presence_ttl == 30.0
    monkeypatch.setenv("SCC_PRESENCE_TTL", "45")
    assert Settings().presence_ttl == 45.0


class Heard:
    """The Redis relay as the other workers hear it: each presence report published, in order."""

    def __init__(self) -> None:
        self.reports: list[list[int]] = []

    async def publish_presence(self, code: str, version: int, presence: dict[str, Any]) -> None:
        self.reports.append(presence["seats"])

    async def publish_note(self, *args: Any) -> None:
        """(Other notes are not looked at here.)"""

    async def publish(self, code: str, version: int) -> None:
        """(Nor moves.)"""

    async def stop(self) -> None:
        """(Nothing to close.)"""


async def sent(svc: MatchService) -> None:
    """Every report the presence board set going here has been published."""
    await asyncio.gather(*list(svc.presence._tasks))


def test_a_seat_arriving_within_the_interval_is_told_the_other_workers_at_once(
    tmp_path: Path,
) -> None:
    """Anna's arrival and worker B's report have just started this worker's interval (a minute
    long here) when Bo connects through this worker: the other workers hear at once that seats
    0 and 1 are connected here, not a minute later (held back, another worker once made the
    next match without Bo, who had played the whole match through this one).  A spectator
    arriving within the interval is still gathered: no report for it yet."""

    async def scenario() -> None:
        s = Settings(
            db_url=f"sqlite:///{tmp_path / 'db.sqlite3'}",
            fixed_server_seed=SERVER_SEED,
            presence_seconds=60,
        )
        svc = MatchService(s, open_database(s.sqlalchemy_url()))
        heard = Heard()
        svc.cluster.relay = heard  # type: ignore[assignment]
        code, anna = await svc.create_room(CreateRoom(name="Anna"))
        _, bo = await svc.join(code, JoinRoom(name="Bo"))
        room = svc.room(code)
        await svc.connect(room, Watching(), Hello(type="hello", token=anna))
        await sent(svc)  # (Anna's report)
        await report(svc, room)
        await svc.connect(room, Watching(), Hello(type="hello", token=bo))
        await sent(svc)
        assert heard.reports[-1] == [0, 1]
        told = len(heard.reports)
        await svc.connect(room, Watching(), Hello(type="hello"))
        await sent(svc)
        assert len(heard.reports) == told
        await svc.shutdown()

    asyncio.run(scenario())
