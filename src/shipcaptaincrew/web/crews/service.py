"""The crews as the routes and the match service see them: one object on ``app.state.crews``.

It joins the crews to the tables through two hooks the match service offers, which the app
connects (``web/app.py``): a match that ends (:attr:`..play.moves.Play.finished`: its crew, if
any, records it: :meth:`CrewService.match_over`) and a next match made ("play again":
:attr:`..rooms.nextmatch.NextMatch.carried`: it counts for the same crew, each member in their
seat: :func:`.tables.carry`).  Nothing here imports the match service: it is handed the way
to load a room.  A finished match is recorded off the event loop (the solver may take
seconds), once, by whichever worker gets there first; a match not recorded yet (the worker
went away) is recorded when the crew is next looked at or the server starts.

A crew's answer is cached per (crew, version, season): the version goes up at every change
(:func:`.store.bump`), so a cached answer is current on every worker as long as its version
is the database's.
"""

from __future__ import annotations

import asyncio
import gzip
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, NamedTuple

import orjson
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from .. import clock
from ..storage.models import RoomStatus
from ..table.seats import hash_token
from ..words.refusals import RoomError
from . import record, tables
from .identity import Member
from .models import Crew
from .store import CrewStore
from .view import crew_view, snapshot

if TYPE_CHECKING:
    from ..settings import Settings
    from ..table.room import LiveRoom

log = logging.getLogger("shipcaptaincrew.web")


class Answer(NamedTuple):
    """A crew's answer as JSON, and the same gzipped (made once, sent as asked)."""

    raw: bytes
    gzipped: bytes


class CrewService:
    """Crews: their rows (:attr:`store`), their matches recorded, their answers cached."""

    #: Answers kept (a crew's page for a season, at a version).
    KEEP = 64

    def __init__(
        self,
        settings: Settings,
        sessions: sessionmaker[Session],
        room: Callable[[str], LiveRoom],
    ) -> None:
        """``room``: the live room of a code (the match service's, loaded if need be)."""
        self.settings, self.sessions, self.room = settings, sessions, room
        self.store = CrewStore(sessions, self.now)
        #: (crew, version, season) -> the answer, and the answer gzipped.
        self._answers: OrderedDict[tuple[int, int, str | None], Answer] = OrderedDict()
        self._answers_lock = threading.Lock()
        #: Rooms being recorded by this process, and the tasks doing it.
        self._recording: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    def now(self) -> datetime:
        """The server's clock (see ..clock)."""
        return clock.now(self.settings.clock_file)

    async def startup(self) -> None:
        """Record every crew match that ended while no server was there to record it."""
        with self.sessions() as db:
            codes = await asyncio.to_thread(tables.rooms_to_record, db)
        for code in codes:
            self.record_soon(code)

    async def shutdown(self) -> None:
        """Let recordings under way finish (each is one transaction: none is half-written)."""
        await self.settled(self.settings.shutdown_grace)

    async def settled(self, timeout: float | None = None) -> None:
        """Wait (up to ``timeout`` seconds) till no recording is under way here: at shutdown,
        and before anyone changes a crew's recorded rows behind the service's back (a
        recording started earlier would otherwise write over the change)."""
        while self._tasks:
            _, pending = await asyncio.wait(set(self._tasks), timeout=timeout)
            if pending:
                return

    # -- matches recorded ---------------------------------------------------------------------
    def match_over(self, room: LiveRoom) -> None:
        """A match ended here: record it for its crew, if it has one (soon, off the loop)."""
        self.record_soon(room.code)

    def record_soon(self, code: str) -> None:
        """Record the finished match of room ``code`` for its crew in the background."""
        if code in self._recording:
            return
        self._recording.add(code)
        task = asyncio.get_running_loop().create_task(self._record(code))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _record(self, code: str) -> None:
        try:
            room = self.room(code)
            podium = room.story.podium
            if room.status is not RoomStatus.OVER or podium is None:
                return
            places = {r["seat"]: r["place"] for r in podium["ranking"]}
            finished = record.Finished(
                room.id,
                room.code,
                room.rules,
                tuple((s.name, s.label, s.token_hash) for s in room.seats),
                room.first_seat(),
                tuple(room.events),
                tuple(places[i] for i in range(len(room.seats))),
            )
            await asyncio.to_thread(self._record_now, finished)
        except (RoomError, OSError):
            log.warning("crew match not recorded", extra={"room": code}, exc_info=True)
        except Exception:
            log.exception("crew match not recorded", extra={"room": code})
        finally:
            self._recording.discard(code)

    def _record_now(self, finished: record.Finished) -> None:
        with self.sessions() as db:
            if not tables.to_record(db, finished.room):
                return  # no crew's (most tables), or recorded already: nothing to work out
        lines, decisions = record.analyse(finished)
        with self.store.change() as db:
            if record.write(db, finished, lines, decisions, self.now()):
                log.info("crew match recorded", extra={"room": finished.code})

    # -- answers ----------------------------------------------------------------------------
    async def answer(self, member: Member, season: str | None) -> Answer:
        """The crew's answer as JSON (see :mod:`.view`), and gzipped, from the cache while
        current; a finished match of the crew not recorded yet is recorded now (in the
        background)."""
        body, unrecorded = await asyncio.to_thread(self._answer, member.crew_row, season)
        for code in unrecorded:
            self.record_soon(code)
        return body

    def _answer(self, crew_row: int, season: str | None) -> tuple[Answer, list[str]]:
        with self.sessions() as db:
            snapshot(db)  # the version and the answer cached under it read at one moment
            version = db.scalar(select(Crew.version).where(Crew.id == crew_row))
            key = (crew_row, int(version or 0), season)
            with self._answers_lock:
                cached = self._answers.get(key)
                if cached is not None:
                    self._answers.move_to_end(key)
                    return cached, []
            unrecorded = tables.rooms_to_record(db, crew_row)
            raw = orjson.dumps(crew_view(db, crew_row, season))
        body = Answer(raw, gzip.compress(raw, 6))
        with self._answers_lock:
            self._answers[key] = body
            while len(self._answers) > self.KEEP:
                self._answers.popitem(last=False)
        return body, unrecorded

    # -- rooms ------------------------------------------------------------------------------
    async def opened(self, member: Member, code: str, token: str) -> None:
        """A room was opened for the member's crew, the member its host."""

        def run() -> None:
            with self.store.change() as db:
                room = tables.room_id(db, code)
                assert room is not None
                tables.open_room(db, member, room, hash_token(token))

        await asyncio.to_thread(run)

    async def check_room(self, member: Member, code: str) -> None:
        """Refuse a member's seat at a room that is not their crew's."""

        def run() -> None:
            with self.sessions() as db:
                room = tables.room_id(db, code)
                if room is not None:  # (no such room: the join says so)
                    tables.check_crew_room(db, member, room)

        await asyncio.to_thread(run)

    async def seated(self, member: Member, code: str, token: str) -> None:
        """A member took a seat at their crew's room."""

        def run() -> None:
            with self.store.change() as db:
                room = tables.room_id(db, code)
                assert room is not None
                tables.seat_member(db, member.crew_row, room, hash_token(token), member.row)

        await asyncio.to_thread(run)
