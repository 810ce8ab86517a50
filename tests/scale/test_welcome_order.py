"""No broadcast overtakes a connection's welcome, however long the relay takes (deterministic).

Scaled out, a new connection announces itself to the other workers through Redis, and that
publish yields to the event loop: any move or presence change broadcast meanwhile reaches
every connection registered with the room.  The welcome must already be out by then, or a
client that trusts the protocol's order (welcome first, then pictures) breaks.  Here the real
Redis publish is held at a gate while another player's move is broadcast, so the interleaving
that once made ``test_fuzz.py`` fail now and then happens every time.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from shipcaptaincrew.web.db import open_database
from shipcaptaincrew.web.schemas import CreateRoom, Hello, JoinRoom
from shipcaptaincrew.web.service import MatchService
from shipcaptaincrew.web.settings import Settings

from .conftest import PgCluster, RedisServer


class Peer:
    """A WebSocket as the service sees it, keeping what it was sent."""

    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []

    async def send_text(self, data: str) -> None:
        self.got.append(json.loads(data))


class Gate:
    """Holds the next publish to Redis until opened; every later one passes straight through."""

    def __init__(self, publish: Any) -> None:
        self.publish = publish
        self.armed = False
        self.entered, self.opened = asyncio.Event(), asyncio.Event()

    async def __call__(self, *args: Any) -> Any:
        if self.armed:
            self.armed = False
            self.entered.set()
            await self.opened.wait()
        return await self.publish(*args)


def test_a_move_broadcast_while_the_newcomer_announces_itself_comes_after_its_welcome(
    pg: PgCluster, redis_server: RedisServer
) -> None:
    async def scenario() -> None:
        settings = Settings(db_url=pg.new_database(), redis_url=redis_server.url, bot_delay=0)
        svc = MatchService(settings, open_database(settings.sqlalchemy_url()))
        await svc.startup()
        assert svc.relay is not None
        gate = Gate(svc.relay.client.publish)
        svc.relay.client.publish = gate  # type: ignore[method-assign]
        try:
            code, host = await svc.create_room(CreateRoom(name="Anna", settings=["starter=chosen"]))
            _, guest = await svc.join(code, JoinRoom(name="Bo"))
            await svc.start(code, host)
            room = await svc.fresh_room(code)
            anna = await svc.connect(room, Peer(), Hello(type="hello", token=host))

            bo = Peer()
            gate.armed = True  # Bo's announcement to the other workers will wait at the gate
            joining = asyncio.create_task(svc.connect(room, bo, Hello(type="hello", token=guest)))
            await asyncio.wait_for(gate.entered.wait(), 10)
            assert not joining.done()
            # Bo's connection is registered and its announcement is in flight: Anna rolls.
            await svc.receive(room, anna, json.dumps({"type": "roll", "version": room.version}))
            assert room.version == 1
            gate.opened.set()
            await asyncio.wait_for(joining, 10)

            kinds = [m["type"] for m in bo.got]
            assert kinds[0] == "welcome", kinds
            assert bo.got[0]["seat"] == 1
            # The roll did reach Bo while it was joining (so the order was really put to the test).
            assert any(m["type"] == "room" and m["room"]["version"] == 1 for m in bo.got[1:])
        finally:
            gate.opened.set()
            await svc.shutdown()

    asyncio.run(scenario())
