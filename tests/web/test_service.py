"""The match service without HTTP: slow peers, rate limits, views straight from the engine."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from shipcaptaincrew.engine import initial_state, legal_actions
from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.web import service as service_module
from shipcaptaincrew.web.db import open_database
from shipcaptaincrew.web.schemas import CreateRoom, Hello, JoinRoom
from shipcaptaincrew.web.service import MatchService, RateLimiter
from shipcaptaincrew.web.settings import Settings
from shipcaptaincrew.web.views import legal


class Quick:
    def __init__(self) -> None:
        self.got: list[str] = []

    async def send_text(self, data: str) -> None:
        self.got.append(data)


class Stuck(Quick):
    closed: int | None = None

    async def send_text(self, data: str) -> None:
        await asyncio.sleep(3600)

    async def close(self, code: int = 1000) -> None:
        self.closed = code


def test_a_stuck_peer_does_not_hold_up_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service_module, "SEND_TIMEOUT", 0.05)

    async def scenario() -> None:
        s = Settings(db_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", bot_delay=0)
        svc = MatchService(s, open_database(s.sqlalchemy_url()))
        code, host = await svc.create_room(CreateRoom(name="Anna", settings=["starter=chosen"]))
        await svc.join(code, JoinRoom(name="Bo"))
        room = svc.room(code)
        quick, stuck = Quick(), Stuck()
        await svc.connect(room, quick, Hello(type="hello", token=host))
        conn = await svc.connect(room, stuck, Hello(type="hello"))
        assert not conn.open and stuck.closed == 1013  # dropped, told to reconnect
        # Were the stuck peer still waited for, these would never return (its send sleeps an hour).
        await svc.start(code, host)
        await svc.receive(room, next(c for c in room.conns if c.seat == 0), '{"type":"roll","version":0}')
        assert room.version == 1 and '"version": 1' in quick.got[-1]
        await svc.shutdown()

    asyncio.run(scenario())


def test_rate_limiter_refills() -> None:
    r = RateLimiter(rate=100.0, burst=3)
    assert [r.allow() for _ in range(4)] == [True, True, True, False]
    time.sleep(0.03)
    assert r.allow()


def test_view_offers_exactly_the_engine_choices() -> None:
    from shipcaptaincrew.actions import Roll
    from shipcaptaincrew.engine import apply

    rules = find_rules("classic").replace(starter="chosen", wild_captain=True)
    s = initial_state(rules, 2, starter=0)
    assert legal(s) == ["roll"]
    s = apply(s, Roll((1, 1, 1, 1, 4)))  # wild 1s: which dice fill the roles is a choice
    assert legal(s) == [str(a) for a in legal_actions(s)]
    assert any(x.startswith("take:") for x in legal(s))
