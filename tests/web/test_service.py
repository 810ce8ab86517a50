"""The match service without HTTP: slow peers, rate limits, views straight from the engine."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from sqlalchemy.exc import IntegrityError

from shipcaptaincrew.engine import initial_state, legal_actions, seat_to_act
from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.web.connections import transport
from shipcaptaincrew.web.connections.transport import Connection, RateLimiter
from shipcaptaincrew.web.display.moments import Story
from shipcaptaincrew.web.display.state_view import legal
from shipcaptaincrew.web.service import MatchService
from shipcaptaincrew.web.settings import Settings
from shipcaptaincrew.web.storage.db import open_database
from shipcaptaincrew.web.storage.sqlite import EventAppender, checkpoints
from shipcaptaincrew.web.table.room import Ahead, Report
from shipcaptaincrew.web.table.schemas import CreateRoom, Hello, JoinRoom

from .conftest import SERVER_SEED


class Quick:
    def __init__(self) -> None:
        self.got: list[str] = []

    async def send_text(self, data: str) -> None:
        self.got.append(data)


class Stuck(Quick):
    """A peer that reads nothing: its first message never leaves."""

    closed: int | None = None

    async def send_text(self, data: str) -> None:
        await asyncio.Event().wait()

    async def close(self, code: int = 1000) -> None:
        self.closed = code


async def two_seat_room(path: Path) -> tuple[MatchService, str, str]:
    """A service on a SQLite file with Anna (host, who starts) and Bo seated; (service, code, host's token)."""
    s = Settings(db_url=f"sqlite:///{path}", bot_delay=0, fixed_server_seed=SERVER_SEED)
    svc = MatchService(s, open_database(s.sqlalchemy_url()))
    code, host = await svc.create_room(CreateRoom(name="Anna", settings=["starter=chosen"]))
    await svc.join(code, JoinRoom(name="Bo"))
    return svc, code, host


def test_a_stuck_peer_does_not_hold_up_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A peer that reads nothing costs the table nothing: every move returns at once, the
    player's pictures go out, and the stuck peer's queue never grows past its bound; once it
    has been full longer than the stall limit (on a clock the test sets), it is closed with
    the "too slow" code, to reconnect and catch up."""
    now = [100.0]
    monkeypatch.setattr(transport, "time", SimpleNamespace(monotonic=lambda: now[0]))

    async def scenario() -> None:
        s = Settings(db_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", bot_delay=0, rate_burst=1000)
        svc = MatchService(s, open_database(s.sqlalchemy_url()))
        match = ["starter=chosen", "format=rounds:50"]
        code, host = await svc.create_room(CreateRoom(name="Anna", settings=match))
        _, guest = await svc.join(code, JoinRoom(name="Bo"))
        room = svc.room(code)
        quick, stuck = Quick(), Stuck()
        seats = [
            await svc.connect(room, quick, Hello(type="hello", token=host)),
            await svc.connect(room, Quick(), Hello(type="hello", token=guest)),
        ]
        conn = await svc.connect(room, stuck, Hello(type="hello"))
        await svc.start(code, host)
        for _ in range(3 * transport.SEND_QUEUE):
            state = room.state
            assert state is not None and not state.is_over
            move, seat = legal(state)[0], seat_to_act(state)
            assert seat is not None
            msg = {"type": "roll"} if move == "roll" else {"type": "act", "action": move}
            await svc.receive(room, seats[seat], json.dumps({**msg, "version": room.version}))
            await seats[0].drained()
            assert json.loads(quick.got[-1])["room"]["version"] == room.version
            assert len(conn.queue) <= transport.SEND_QUEUE and conn.open
        assert room.version == 3 * transport.SEND_QUEUE and stuck.got == []
        # Behind (its queue filled up long ago), and now for longer than the limit: the next
        # message closes it.
        assert conn.full_since is not None
        now[0] += transport.SEND_STALL + 1
        conn.post("one more")
        await asyncio.sleep(0)  # (the hang-up runs as a task of its own)
        assert not conn.open and stuck.closed == transport.SLOW_CLOSE and not conn.queue
        await svc.shutdown()

    asyncio.run(scenario())


def test_a_full_queue_keeps_the_newest_picture_and_every_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Once a peer's queue has filled up, a new picture replaces the pictures waiting (their
    lines travel with it, in order), other messages wait in turn, reactions are dropped; the
    peers that read get everything as it was sent."""
    now = [100.0]
    monkeypatch.setattr(transport, "time", SimpleNamespace(monotonic=lambda: now[0]))

    async def scenario() -> None:
        quick, stuck = Quick(), Stuck()
        conns = [Connection(ws, None, "en", RateLimiter(1, 1)) for ws in (quick, stuck)]
        slow = conns[1]
        pictures = [transport.Picture(f'{{"version":{v}}}', (f"line {v}",)) for v in range(40)]
        for v, picture in enumerate(pictures):
            await transport.send_all([(c, picture) for c in conns])
            if v == 30:
                await transport.send_all([(c, "a reaction") for c in conns], fleeting=True)
                await transport.send_all([(c, "an error") for c in conns])
            await asyncio.sleep(0)  # (the writers run between broadcasts, as at a table)
        assert quick.got == [*pictures[:31], "a reaction", "an error", *pictures[31:]]
        # The stuck peer's writer holds the first picture; since its queue filled up, one
        # picture waits (the newest, with every line since), and the error.
        waiting = [w.text() if isinstance(w, transport.Superseded) else w for w in slow.queue]
        assert slow.open and len(waiting) == 2 and "an error" in waiting
        newest = waiting[-1]
        assert isinstance(newest, transport.Picture) and newest.room == '{"version":39}'
        assert newest.lines == tuple(f"line {v}" for v in range(1, 40))  # each once, in order
        assert json.loads(newest)["lines"][-1] == "line 39"
        # A peer stuck this long is closed; the others go on.
        now[0] += transport.SEND_STALL + 1
        await transport.send_all([(c, pictures[0]) for c in conns])
        assert not slow.open and conns[0].open

    asyncio.run(scenario())


class Unblocked(Quick):
    """A peer that reads nothing until it is let go, then everything."""

    def __init__(self) -> None:
        super().__init__()
        self.go = asyncio.Event()

    async def send_text(self, data: str) -> None:
        await self.go.wait()
        self.got.append(data)


def test_a_peer_that_is_behind_costs_a_move_no_picture_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A thousand pictures to a peer that reads nothing write no JSON at all (the picture that
    replaces them is written once, when the peer reads again), and what it then reads is the
    newest picture with every line since it fell behind, each once, as the last
    ``MERGED_LINES`` of a fresh start."""
    from shipcaptaincrew.web.connections import transport as module

    written: list[object] = []
    real = module.orjson.dumps

    def counting(value: object, *args: object, **kwargs: object) -> bytes:
        written.append(value)
        return real(value, *args, **kwargs)  # type: ignore[arg-type]

    async def scenario() -> None:
        peer = Unblocked()
        conn = Connection(peer, None, "en", RateLimiter(1, 1))
        pictures = [transport.Picture(f'{{"version":{v}}}', (f"line {v}",)) for v in range(1000)]
        monkeypatch.setattr(module, "orjson", SimpleNamespace(dumps=counting))
        for picture in pictures:
            conn.post(picture)
            await asyncio.sleep(0)
        assert written == [] and conn.open and len(conn.queue) <= transport.SEND_QUEUE
        peer.go.set()
        await conn.drained()
        # The first picture (in the writer's hands when the peer stopped reading), then one
        # picture in place of all the rest.
        first, last = (json.loads(text) for text in peer.got)
        assert first["room"]["version"] == 0 and len(written) == 1
        assert last["room"]["version"] == 999 and last["history"] is True
        told = transport.MERGED_LINES
        assert last["lines"] == [f"line {v}" for v in range(1000 - told, 1000)]

    asyncio.run(scenario())


class Logged:
    """A peer that reads at once, writing what it got into a log shared by every peer: the
    order in which the server's writes went out."""

    def __init__(self, name: str, log: list[tuple[str, str]]) -> None:
        self.name, self.log = name, log

    async def send_text(self, data: str) -> None:
        self.log.append((self.name, data))


def test_a_crowd_told_a_picture_does_not_hold_up_a_player_s_answer() -> None:
    """A picture told to a crowd of 300 watchers, and a pong a player at another table asked
    for once the telling had begun: the pong goes out while the crowd is still being written
    (the watchers' writes take turns, see ``.pacer``), and every watcher still gets the
    picture, once."""

    async def scenario() -> None:
        log: list[tuple[str, str]] = []
        crowd = [
            Connection(Logged(f"w{i}", log), None, "en", RateLimiter(1, 1)) for i in range(300)
        ]
        player = Connection(Logged("player", log), 0, "en", RateLimiter(1, 1))
        picture = transport.Picture('{"version":7}', ())
        await transport.send_all([(c, picture) for c in crowd])
        await asyncio.sleep(0)  # (the telling has begun)
        await player.send({"type": "pong"})
        for c in [player, *crowd]:
            await c.drained()
        assert sorted(name for name, _ in log if name != "player") == sorted(
            f"w{i}" for i in range(300)
        )
        assert all(text == picture for name, text in log if name != "player")
        pong = log.index(("player", '{"type":"pong"}'))
        assert pong < 150, f"the pong waited for {pong} of the crowd's 300 writes"

    asyncio.run(scenario())


def test_a_newcomer_is_told_the_story_as_it_is_now_in_its_language(tmp_path: Path) -> None:
    """The story a newcomer's first picture tells is said once per language and version for a
    crowd arriving: a newcomer after a move is told that move too, and one in German is told
    it in German."""

    async def scenario() -> None:
        svc, code, host = await two_seat_room(tmp_path / "db.sqlite3")
        room = svc.room(code)
        anna = await svc.connect(room, Quick(), Hello(type="hello", token=host))
        await svc.start(code, host)

        async def newcomer(lang: str) -> list[str]:
            peer = Quick()
            conn = await svc.connect(room, peer, Hello(type="hello", lang=lang))
            await conn.drained()
            first = json.loads(peer.got[1])  # (after the welcome)
            assert first["history"] is True
            return list(first["lines"])

        before = [await newcomer("en") for _ in range(3)]
        assert before[0] == before[1] == before[2]
        await svc.receive(room, anna, json.dumps({"type": "roll", "version": room.version}))
        after, german = await newcomer("en"), await newcomer("de")
        assert after[: len(before[0])] == before[0] and len(after) > len(before[0])
        assert len(german) == len(after) and german[-1] != after[-1]
        await svc.shutdown()

    asyncio.run(scenario())


def test_a_crowd_on_other_workers_shares_the_table_s_presence_budget(tmp_path: Path) -> None:
    """Scaled out, a table is told who is online as seldom as its whole crowd asks: with 999
    spectators and Bo reported by another worker and one spectator here, this worker tells
    its own every two seconds, as one process holding the thousand would -- not every half
    second, as its own share alone would have it."""
    import time

    from shipcaptaincrew.web.table import presence

    async def scenario() -> None:
        svc, code, _ = await two_seat_room(tmp_path / "db.sqlite3")
        room = svc.room(code)
        await svc.connect(room, Quick(), Hello(type="hello"))
        assert svc.presence.interval(room) == svc.settings.presence_seconds == 0.5
        room.remote["another worker"] = Report(time.monotonic(), [1], 999)
        assert svc.presence.interval(room) == (1 + 999 + 1) / presence.BUDGET
        await svc.shutdown()

    asyncio.run(scenario())


def test_the_look_ahead_is_the_engine_s_own_move(tmp_path: Path) -> None:
    """Each roll (and each choice) is played out while the player thinks and then used, and the
    match it makes is the one the engine makes from the logged dice, which the revealed seed
    confirms."""
    from shipcaptaincrew.actions import parse_action
    from shipcaptaincrew.fair import verify_fair_rolls
    from shipcaptaincrew.notation import replay_states

    async def scenario() -> None:
        # (Moves come as fast as the loop turns: no rate limit in the way.)
        s = Settings(
            db_url=f"sqlite:///{tmp_path / 'db.sqlite3'}",
            bot_delay=0,
            rate_burst=10_000,
            fixed_server_seed=SERVER_SEED,
        )
        svc = MatchService(s, open_database(s.sqlalchemy_url()))
        code, host = await svc.create_room(
            CreateRoom(name="Anna", settings=["starter=chosen", "format=rounds:8"])
        )
        _, guest = await svc.join(code, JoinRoom(name="Bo"))
        room = svc.room(code)
        quick = Quick()
        conns = [
            await svc.connect(room, quick, Hello(type="hello", token=host)),
            await svc.connect(room, Quick(), Hello(type="hello", token=guest)),
        ]
        await svc.start(code, host)
        used = chosen = 0
        for _ in range(1000):
            await asyncio.sleep(0)  # the look-ahead runs once the broadcast is out
            state = room.state
            assert state is not None
            if state.is_over:
                break
            seat = seat_to_act(state)
            assert seat is not None
            conn = conns[seat]
            if legal(state) == ["roll"] and used == 2:
                # A look-ahead made for another state (equal or not, but not this one) is unused.
                [ahead] = room.ahead.values()
                fake = initial_state(room.rules, 2, starter=0)
                room.ahead = {
                    ahead.action: Ahead(fake, room.names, ahead.action, fake, {}, [], Story(), None)
                }
                await svc.receive(room, conn, json.dumps({"type": "roll", "version": room.version}))
                await conns[0].drained()
                assert room.events[-1] == ahead.event and room.state == ahead.after
                used += 1
            elif legal(state) == ["roll"] and used == 4:
                # Someone starts watching after the look-ahead drew the picture: it is redrawn.
                await svc.connect(room, Quick(), Hello(type="hello"))
                await svc.receive(room, conn, json.dumps({"type": "roll", "version": room.version}))
                await conns[0].drained()
                assert json.loads(quick.got[-1])["room"]["spectators"] == 1
                used += 1
            elif legal(state) == ["roll"]:
                [ahead] = room.ahead.values()  # the roll due
                assert ahead.before is state
                # The picture is drawn ahead unless the roll ends the match (the seed is shown).
                assert (ahead.texts is None) == ahead.after.is_over
                await svc.receive(room, conn, json.dumps({"type": "roll", "version": room.version}))
                await conns[0].drained()
                assert room.events[-1] is ahead.event and room.state is ahead.after
                if ahead.texts is not None:  # sent as drawn, not drawn again
                    assert quick.got[-1] is ahead.texts["en"]
                # What was sent is exactly the picture drawn now.
                assert quick.got[-1] == transport.dumps(
                    {
                        "type": "room",
                        "room": room.public(moment=ahead.moment),
                        "lines": svc.lines(room.recent[-1], "en"),
                        "by_timer": False,
                    },
                    "en",
                )
                used += 1
            else:
                # Every choice was played out ahead too; the one taken is used.
                assert set(room.ahead) == set(legal_actions(state))
                ahead = room.ahead[parse_action(legal(state)[0])]
                await svc.receive(
                    room,
                    conn,
                    json.dumps({"type": "act", "action": legal(state)[0], "version": room.version}),
                )
                await conns[0].drained()
                assert room.events[-1] is ahead.event and room.state is ahead.after
                chosen += 1
            last = json.loads(quick.got[-1])
            assert last["type"] == "room" and last["room"]["version"] == room.version, last
        assert state.is_over and used >= 16 and chosen >= 1  # a roll a player a round at least
        states = replay_states(room.log())
        assert states[-1][0] == room.state
        rolls = [e["faces"] for e in room.events if e["type"] == "roll"]
        assert verify_fair_rolls(room.server_seed, room.commitment, room.client_seeds, rolls) == []
        await svc.shutdown()

    asyncio.run(scenario())


def test_rate_limiter_refills(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a clock the test sets: on the real one, a pause anywhere in the burst (a busy
    machine) could refill a token and let the fourth message through."""
    now = [100.0]
    monkeypatch.setattr(transport, "time", SimpleNamespace(monotonic=lambda: now[0]))
    r = RateLimiter(rate=4.0, burst=3)  # (quarter seconds: exact in binary)
    assert [r.allow() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.125  # half a token
    assert not r.allow()
    now[0] += 0.125
    assert r.allow() and not r.allow()
    now[0] += 10.0  # a long pause refills up to the burst, no further
    assert [r.allow() for _ in range(4)] == [True, True, True, False]


def test_view_offers_exactly_the_engine_choices() -> None:
    from shipcaptaincrew.actions import Roll
    from shipcaptaincrew.engine import apply

    rules = find_rules("classic").replace(starter="chosen", wild_captain=True)
    s = initial_state(rules, 2, starter=0)
    assert legal(s) == ["roll"]
    s = apply(s, Roll((1, 1, 1, 1, 4)))  # wild 1s: which dice fill the roles is a choice
    assert legal(s) == [str(a) for a in legal_actions(s)]
    assert any(x.startswith("take:") for x in legal(s))


def test_an_outside_write_lock_refuses_the_move_and_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite moves are committed on the event loop: a write lock held outside the server (the
    sqlite3 shell, say) makes the move "unavailable" after a short wait, changes nothing, and the
    same dice come once the lock is gone."""
    monkeypatch.setattr(EventAppender, "BUSY_MS", 50)
    path = tmp_path / "db.sqlite3"

    async def scenario() -> None:
        svc, code, host = await two_seat_room(path)
        room = svc.room(code)
        quick = Quick()
        conn = await svc.connect(room, quick, Hello(type="hello", token=host))
        await svc.start(code, host)
        outside = sqlite3.connect(path, isolation_level=None)
        outside.execute("BEGIN IMMEDIATE")  # holds the write lock
        try:
            await svc.receive(room, conn, '{"type":"roll","version":0}')
            await conn.drained()
            refusal = json.loads(quick.got[-1])
            assert refusal["type"] == "error" and refusal["code"] == "unavailable", refusal
            assert "database" in refusal["message"] and room.version == 0
            assert room.dice is not None and room.dice.count == 0  # the same dice are still due
        finally:
            outside.execute("ROLLBACK")
            outside.close()
        await svc.receive(room, conn, '{"type":"roll","version":0}')
        assert room.version == 1 and room.dice is not None and room.dice.count == 5
        await svc.shutdown()
        # What the fast path wrote replays like any other event.
        again = MatchService(svc.settings, svc.sessions)
        assert again.room(code).events == room.events and again.room(code).state == room.state
        await again.shutdown()

    asyncio.run(scenario())


def test_the_fast_event_insert_writes_what_the_orm_writes(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from sqlalchemy import insert, select

    from shipcaptaincrew.web.storage.models import Event, Room

    sessions = open_database(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    with sessions() as db, db.begin():
        row = Room(
            code="ABCDEF",
            rules="classic",
            lang="en",
            hints=True,
            status="playing",
            server_seed="00",
            commitment="00",
            client_seeds=[],
            revealed=False,
        )
        db.add(row)
        db.flush()
        room_id = row.id
    when = datetime.now(UTC)
    payload = {"type": "roll", "faces": [6, 5, 4], "note": "ø"}
    with sessions.kw["bind"].begin() as c:
        c.execute(
            insert(Event), {"room_id": room_id, "seq": 0, "payload": payload, "created_at": when}
        )
    fast = EventAppender(sessions.kw["bind"])
    fast.append({"room_id": room_id, "seq": 1, "payload": payload, "created_at": when})
    with pytest.raises(IntegrityError):  # the same number twice: SQLAlchemy's error
        fast.append({"room_id": room_id, "seq": 1, "payload": payload, "created_at": when})
    fast.append(
        {"room_id": room_id, "seq": 2, "payload": payload, "created_at": when}
    )  # still usable
    fast.close()
    raw = (
        sqlite3.connect(tmp_path / "db.sqlite3")
        .execute("SELECT payload, created_at FROM events ORDER BY seq")
        .fetchall()
    )
    assert raw[0] == raw[1] == raw[2]
    with sessions() as db:
        rows = db.scalars(select(Event).order_by(Event.seq)).all()
        assert [(e.seq, e.payload) for e in rows] == [(0, payload), (1, payload), (2, payload)]


def test_migrations_build_exactly_the_models(tmp_path: Path) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from shipcaptaincrew.web.crews import models as crew_tables
    from shipcaptaincrew.web.storage.models import Base

    # Every feature's tables are on the one metadata (a feature declares its own beside it).
    assert crew_tables.Crew.__table__.metadata is Base.metadata

    sessions = open_database(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    with sessions.kw["bind"].connect() as c:
        assert compare_metadata(MigrationContext.configure(c), Base.metadata) == []


def test_the_server_heap_policy() -> None:
    """In a process of its own (freezing would outlive this test): full collections leave their
    survivors frozen, and a sweep frees garbage cycles among frozen objects."""
    code = """
import gc
from shipcaptaincrew.web import heap
heap.install(sweep_every=0)
assert heap.installed() and gc.get_freeze_count() > 0
class Node:
    pass
a, b = Node(), Node()
a.other, b.other = b, a
before = gc.get_freeze_count()
gc.collect()                       # a full collection: the survivors (a, b) are frozen
assert gc.get_freeze_count() > before
del a, b                           # now a garbage cycle among frozen objects
assert gc.collect() == 0           # an ordinary collection does not see it
assert heap.sweep() >= 2           # the sweep does
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_the_checkpointer_waits_for_a_grown_log(tmp_path: Path) -> None:
    """The write-ahead log is moved into the database once it has grown, not on every tick (the
    first commit after a checkpoint pays an fsync of the fresh log's header)."""
    from datetime import UTC, datetime

    path = tmp_path / "db.sqlite3"

    async def grow_and_watch(threshold: int) -> tuple[int, int]:
        s = Settings(db_url=f"sqlite:///{path}", fixed_server_seed=SERVER_SEED)
        svc = MatchService(s, open_database(s.sqlalchemy_url()))
        code, _ = await svc.create_room(CreateRoom(name="Anna"))
        room = svc.room(code)
        before = path.stat().st_size
        engine = svc.sessions.kw["bind"]
        appender = EventAppender(engine)
        for seq in range(300):
            appender.append(
                {
                    "room_id": room.id,
                    "seq": seq,
                    "payload": {"pad": "x" * 500},
                    "created_at": datetime.now(UTC),
                }
            )
        task = asyncio.create_task(checkpoints(engine, every=0.01, threshold=threshold))
        if threshold > 1:
            await asyncio.sleep(0.5)  # some fifty looks at the log, none of them moving it
        else:  # however slow the machine, the move comes (or the bound fails the test)
            for _ in range(6000):
                if path.stat().st_size > before + 100_000:
                    break
                await asyncio.sleep(0.01)
        task.cancel()
        after = path.stat().st_size
        appender.close()
        engine.dispose()
        path.unlink()
        for extra in ("-wal", "-shm"):
            Path(f"{path}{extra}").unlink(missing_ok=True)
        return before, after

    before, after = asyncio.run(grow_and_watch(threshold=10**9))
    assert after == before  # a log below the threshold stays where it is
    before, after = asyncio.run(grow_and_watch(threshold=1))
    assert after > before + 100_000  # moved into the database file


def test_statistics_of_a_scripted_match(tmp_path: Path) -> None:
    """A real match through the service with known dice (a fixed server seed; everyone takes
    the first choice offered): every seat's line counts the crews, chips and wins it had.

    The match (3 rounds, a pot, Anna starts): round 1 Anna and Cy both complete the crew on
    their last roll (cargo 6), Bo fails; in the tie-break by turn Anna gets 2 and Cy 9, so Cy
    takes the pot.  Round 2: Bo 3, Cy 5, Anna fails.  Round 3: Cy 11, Anna and Bo fail.  So the
    crews are Anna 2, Bo 1, Cy 4 (the tie-break turns count), and Cy wins three pots of 3 chips
    of which one chip a round was Cy's own.
    """
    from sqlalchemy import select

    from shipcaptaincrew.web.storage.models import Result

    async def scenario() -> list[Result]:
        s = Settings(
            db_url=f"sqlite:///{tmp_path / 'db.sqlite3'}",
            bot_delay=0,
            rate_burst=10_000,
            fixed_server_seed="0d" * 32,
        )
        svc = MatchService(s, open_database(s.sqlalchemy_url()))
        rules = ["starter=chosen", "stakes=pot", "format=rounds:3"]
        code, host = await svc.create_room(CreateRoom(name="Anna", settings=rules))
        tokens = [host] + [(await svc.join(code, JoinRoom(name=n)))[1] for n in ("Bo", "Cy")]
        room = svc.room(code)
        watcher = Quick()
        conns = [
            await svc.connect(room, watcher if i == 0 else Quick(), Hello(type="hello", token=t))
            for i, t in enumerate(tokens)
        ]
        await svc.start(code, host)
        while room.state is not None and not room.state.is_over:
            await asyncio.sleep(0)
            choice, seat = legal(room.state)[0], seat_to_act(room.state)
            assert seat is not None
            msg = {"type": "act", "action": choice} if choice != "roll" else {"type": "roll"}
            await svc.receive(room, conns[seat], json.dumps({**msg, "version": room.version}))
        await conns[0].drained()
        said = [line for text in watcher.got for line in json.loads(text).get("lines", [])]
        # The narration tells the same story (the statistics do not read it).
        full = [line for line in said if line.startswith("Full crew")]
        assert len(full) == 7 and "Cy wins the match!" in said
        await svc.shutdown()
        with svc.sessions() as db:
            return list(db.scalars(select(Result).order_by(Result.position)))

    rows = asyncio.run(scenario())
    assert [(r.name, r.kind) for r in rows] == [("Anna", "human"), ("Bo", "human"), ("Cy", "human")]
    assert [r.crews for r in rows] == [2, 1, 4]
    assert [r.chips_won for r in rows] == [-3, -3, 6]
    assert [r.won for r in rows] == [False, False, True]
    assert [r.points for r in rows] == [6, 3, 22]
    assert [r.rounds for r in rows] == [3, 3, 3]
