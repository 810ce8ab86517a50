"""A connection's welcome and first picture against broadcasts, however long the relay takes.

Scaled out, a new connection announces itself to the other workers through Redis, and a move
publishes its commit; both publishes yield to the event loop, and whatever is broadcast
meanwhile reaches every connection registered with the room.  Here the real Redis publishes
are held at gates (wrapping the relay's methods), and a newcomer's welcome at a slow line, so
that the interleavings that once made ``test_fuzz.py`` and ``benchmarks/soak.py`` fail now and
then happen every time: no broadcast may overtake the welcome or the first picture, no event
may reach a newcomer twice, and no table waits for a newcomer's slow line.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from shipcaptaincrew.web.service import MatchService
from shipcaptaincrew.web.settings import Settings
from shipcaptaincrew.web.storage.db import open_database
from shipcaptaincrew.web.table.schemas import CreateRoom, Hello, JoinRoom

from .conftest import SERVER_SEED, PgCluster, RedisServer


class Peer:
    """A WebSocket as the service sees it, keeping what it was sent."""

    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []

    async def send_text(self, data: str) -> None:
        self.got.append(json.loads(data))


class Hold:
    """One publish held at the gate: ``entered`` once it arrives, sent once ``opened``."""

    def __init__(self) -> None:
        self.entered, self.opened = asyncio.Event(), asyncio.Event()


class Gate:
    """Wraps a relay method (a real Redis publish): the calls asked for are held until
    released, in order; every other call passes straight through."""

    def __init__(self, publish: Any) -> None:
        self.publish = publish
        self.holds: list[Hold] = []
        self.made: list[Hold] = []

    def hold(self) -> Hold:
        """Hold the next call."""
        self.holds.append(Hold())
        self.made.append(self.holds[-1])
        return self.holds[-1]

    def release_all(self) -> None:
        for held in self.made:
            held.opened.set()

    async def __call__(self, *args: Any) -> Any:
        if self.holds:
            held = self.holds.pop(0)
            held.entered.set()
            await held.opened.wait()
        return await self.publish(*args)


class SlowPeer(Peer):
    """A phone on a slow line: its first send (the welcome) waits at ``first`` until opened."""

    def __init__(self) -> None:
        super().__init__()
        self.first = Hold()

    async def send_text(self, data: str) -> None:
        if not self.first.entered.is_set():
            self.first.entered.set()
            await self.first.opened.wait()
        await super().send_text(data)


class Table:
    """A scaled-out service (real PostgreSQL and Redis) with Anna and Bo at a started table,
    and gates on the relay's two publishes: a connection's announcement and a move's."""

    async def open(self, pg: PgCluster, redis: RedisServer) -> Table:
        settings = Settings(
            db_url=pg.new_database(),
            redis_url=redis.url,
            bot_delay=0,
            fixed_server_seed=SERVER_SEED,
        )
        self.svc = svc = MatchService(settings, open_database(settings.sqlalchemy_url()))
        await svc.startup()
        code, self.host = await svc.create_room(
            CreateRoom(name="Anna", settings=["starter=chosen"])
        )
        _, self.guest = await svc.join(code, JoinRoom(name="Bo"))
        await svc.start(code, self.host)
        self.room = await svc.fresh_room(code)
        relay = svc.relay
        assert relay is not None
        self.presence, self.move = Gate(relay.publish_presence), Gate(relay.publish)
        relay.publish_presence = self.presence  # type: ignore[method-assign]
        relay.publish = self.move  # type: ignore[method-assign]
        return self

    def roll(self) -> str:
        return json.dumps({"type": "roll", "version": self.room.version})

    async def close(self) -> None:
        self.presence.release_all()
        self.move.release_all()
        await self.svc.shutdown()


def test_a_move_broadcast_while_the_newcomer_announces_itself_comes_after_its_welcome(
    pg: PgCluster, redis_server: RedisServer
) -> None:
    async def scenario() -> None:
        t = await Table().open(pg, redis_server)
        try:
            anna = await t.svc.connect(t.room, Peer(), Hello(type="hello", token=t.host))
            bo = Peer()
            announcing = t.presence.hold()  # Bo's announcement to the other workers waits
            joining = asyncio.create_task(
                t.svc.connect(t.room, bo, Hello(type="hello", token=t.guest))
            )
            await asyncio.wait_for(announcing.entered.wait(), 60)
            # Bo's connection is registered and its announcement is in flight: Anna rolls.
            await t.svc.receive(t.room, anna, t.roll())
            assert t.room.version == 1
            announcing.opened.set()
            await (await asyncio.wait_for(joining, 60)).drained()

            kinds = [m["type"] for m in bo.got]
            assert kinds[0] == "welcome", kinds
            assert bo.got[0]["seat"] == 1
            # The roll did reach Bo while it was joining (so the order was really put to the test).
            assert any(m["type"] == "room" and m["room"]["version"] == 1 for m in bo.got[1:])
        finally:
            await t.close()

    asyncio.run(scenario())


def test_a_move_made_while_the_welcome_is_on_its_way_comes_after_the_first_picture(
    pg: PgCluster, redis_server: RedisServer
) -> None:
    """The welcome and the first picture are queued for the connection before it joins the
    broadcasts, under the room's lock, and go out in that order however slow the line; the
    table does not wait for the line: a move sent meanwhile is played at once and reaches
    the newcomer after its first picture."""

    async def scenario() -> None:
        t = await Table().open(pg, redis_server)
        try:
            anna = await t.svc.connect(t.room, Peer(), Hello(type="hello", token=t.host))
            bo = SlowPeer()
            joining = asyncio.create_task(
                t.svc.connect(t.room, bo, Hello(type="hello", token=t.guest))
            )
            await asyncio.wait_for(bo.first.entered.wait(), 60)
            # Bo's welcome is on its way on a slow line: the room waits for nothing.
            assert not t.room.lock.locked()
            await asyncio.wait_for(t.svc.receive(t.room, anna, t.roll()), 60)
            assert t.room.version == 1 and bo.got == []
            bo.first.opened.set()
            await (await asyncio.wait_for(joining, 60)).drained()

            seen = [(m["type"], m.get("history"), m.get("room", {}).get("version")) for m in bo.got]
            assert seen[:2] == [("welcome", None, None), ("room", True, 0)], seen
            assert bo.got[1]["room"]["players"][1]["online"]  # the first picture shows Bo in
            assert ("room", None, 1) in seen[2:], seen  # the roll, broadcast after
        finally:
            await t.close()

    asyncio.run(scenario())


def test_no_event_reaches_a_newcomer_twice(pg: PgCluster, redis_server: RedisServer) -> None:
    """A move committed while a connection joins: in its first picture or after it, not both.

    Anna's roll is committed (and in the room's story) while Bo's announcement is in flight;
    its own broadcast then waits for the roll's publish.  Bo's first picture, sent meanwhile,
    already tells the roll, and the roll's broadcast must then not tell it again: kept as the
    page keeps the narration (the first picture replaces it, later pictures append), Bo's
    narration must be each event once.  Found by ``benchmarks/soak.py``.
    """

    async def scenario() -> None:
        t = await Table().open(pg, redis_server)
        try:
            anna = await t.svc.connect(t.room, Peer(), Hello(type="hello", token=t.host))
            bo = Peer()
            announcing = t.presence.hold()
            joining = asyncio.create_task(
                t.svc.connect(t.room, bo, Hello(type="hello", token=t.guest))
            )
            await asyncio.wait_for(announcing.entered.wait(), 60)
            publishing = t.move.hold()
            rolling = asyncio.create_task(t.svc.receive(t.room, anna, t.roll()))
            await asyncio.wait_for(publishing.entered.wait(), 60)  # committed, not yet broadcast
            announcing.opened.set()
            newcomer = await asyncio.wait_for(joining, 60)
            publishing.opened.set()
            await asyncio.wait_for(rolling, 60)
            await newcomer.drained()

            kept: list[str] = []
            for m in bo.got:
                if m["type"] == "room":
                    kept = list(m["lines"]) if m.get("history") else kept + m["lines"]
            story = [line for msgs in t.room.recent for line in t.svc.lines(msgs, "en")]
            assert t.room.version == 1 and story
            assert kept == story, [(m["type"], m.get("history"), m.get("lines")) for m in bo.got]
        finally:
            await t.close()

    asyncio.run(scenario())
