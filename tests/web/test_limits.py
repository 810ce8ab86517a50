"""Limits over time: new rooms per client address an hour, open rooms in all, and idle
unfinished rooms that expire (finished matches and their logs are kept) -- on a real SQLite
file and on PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select

from shipcaptaincrew.notation import MatchLog
from shipcaptaincrew.web.settings import Settings
from shipcaptaincrew.web.storage.models import Room

from .conftest import Player, open_table
from .test_protocol import play_out


def _create(client: Any, lang: str = "en") -> Any:
    return client.post(f"/api/rooms?lang={lang}", json={"name": "Anna"})


def test_new_rooms_per_address_an_hour(make_client: Any, db_url: str) -> None:
    client = make_client(rooms_per_hour=2, room_unattended_seconds=0)  # (kept past the hour)
    assert [_create(client).status_code for _ in range(2)] == [201, 201]
    refused = _create(client, "de")
    assert refused.status_code == 429 and refused.json()["code"] == "room_limit"
    assert refused.json()["detail"].startswith("Zu viele neue Tische")
    assert "2" in refused.json()["detail"]
    # Another address has an hour of its own (the same app, another client).
    other = TestClient(client.app, client=("192.0.2.7", 4000))
    assert _create(other).status_code == 201
    # Only a hash of the address is kept, and only for the hour the limit needs it.
    engine = create_engine(Settings(db_url=db_url).sqlalchemy_url())
    with engine.connect() as conn:
        kept = set(conn.scalars(select(Room.created_by)))
    assert len(kept) == 2 and not any("testclient" in k or "192.0.2.7" in k for k in kept)
    service = client.app.state.service
    later = datetime.now(UTC) + timedelta(hours=1, minutes=1)
    client.portal.call(service.upkeep.sweep, later)
    with engine.connect() as conn:
        assert set(conn.scalars(select(Room.created_by))) == {None}
    engine.dispose()
    assert _create(client).status_code == 201  # (the hour is over for this address)


def test_open_rooms_in_all(make_client: Any, players: list[Player]) -> None:
    client = make_client(max_open_rooms=2, rooms_per_hour=0)
    code, tokens = open_table(client, ["Anna"], ["easy"], settings=["format=rounds:1"])
    assert _create(client).status_code == 201
    refused = _create(client, "nb")
    assert refused.status_code == 503 and refused.json()["code"] == "room_limit"
    assert refused.json()["detail"].startswith("Serveren har så mange åpne bord")
    anna = Player(client, code, tokens[0])
    players.append(anna)
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    play_out({0: anna}, anna)
    assert _create(client).status_code == 201  # a finished match is not an open table


def test_idle_unfinished_rooms_expire_and_finished_ones_stay(
    make_client: Any, players: list[Player]
) -> None:
    client = make_client(room_idle_seconds=3600)
    lobby, lobby_tokens = open_table(client, ["Anna", "Bo"])
    playing, tokens = open_table(client, ["Cy"], ["easy"])
    client.post(f"/api/rooms/{playing}/start", headers={"X-Seat-Token": tokens[0]})
    done, done_tokens = open_table(client, ["Di"], ["easy"], settings=["format=rounds:1"])
    di = Player(client, done, done_tokens[0])
    bo = Player(client, lobby, lobby_tokens[1], lang="de")
    players += [di, bo]
    client.post(f"/api/rooms/{done}/start", headers={"X-Seat-Token": done_tokens[0]})
    final = play_out({0: di}, di)
    service = client.app.state.service
    assert client.portal.call(service.upkeep.sweep) == []  # nothing is idle yet
    later = datetime.now(UTC) + timedelta(hours=2)
    assert sorted(client.portal.call(service.upkeep.sweep, later)) == sorted([lobby, playing])
    err = bo.next("error")
    assert err["code"] == "expired" and err["message"].startswith("An diesem Tisch")
    for code in (lobby, playing):
        r = client.get(f"/api/rooms/{code}")
        assert r.status_code == 404 and r.json()["code"] == "not_found"
        assert code not in service.rooms
    # The finished match, its replay and its log are kept.
    assert client.get(f"/api/rooms/{done}").json()["status"] == "over"
    log = MatchLog.from_jsonl(client.get(f"/api/matches/{done}/log").text)
    assert len(log.events) == final["version"]
    assert client.get(f"/api/matches/{done}/verify").json()["ok"]


def test_the_sweep_runs_by_itself(make_client: Any, players: list[Player]) -> None:
    client = make_client(room_idle_seconds=0.4)
    code, tokens = open_table(client, ["Anna"])
    anna = Player(client, code, tokens[0])
    players.append(anna)
    assert anna.next("error")["code"] == "expired"  # (the sweep, not this test, closed it)
    assert client.get(f"/api/rooms/{code}").status_code == 404


def test_new_rooms_are_counted_by_network(make_client: Any) -> None:
    """An IPv6 client holds a whole /64: its addresses share one hour; an IPv4 address written
    as IPv6 is that IPv4 address."""
    client = make_client(rooms_per_hour=2)
    app = client.app
    one, two = (TestClient(app, client=(f"2001:db8:1:2::{i}", 1)) for i in (1, 2))
    assert [_create(c).status_code for c in (one, two)] == [201, 201]
    refused = _create(TestClient(app, client=("2001:db8:1:2:ffff::7", 1)))
    assert refused.status_code == 429 and refused.json()["code"] == "room_limit"
    assert _create(TestClient(app, client=("2001:db8:1:3::1", 1))).status_code == 201
    v4 = TestClient(app, client=("192.0.2.9", 1))
    assert [_create(v4).status_code for _ in range(2)] == [201, 201]
    assert _create(TestClient(app, client=("::ffff:192.0.2.9", 2))).status_code == 429


def test_forwarded_for_counts_only_from_a_proxy_named(make_client: Any) -> None:
    """X-Forwarded-For names the client only when the request comes from a proxy the settings
    name; from anyone else it is an ordinary header and the sender's own address counts."""
    spoof = [{"X-Forwarded-For": f"198.51.100.{i}"} for i in (1, 2, 1)]
    plain = make_client(rooms_per_hour=1)
    direct = TestClient(plain.app, client=("203.0.113.5", 1))
    codes = [direct.post("/api/rooms", json={"name": "A"}, headers=h).status_code for h in spoof]
    assert codes == [201, 429, 429]
    behind = make_client(rooms_per_hour=1, forwarded_allow_ips=["10.0.0.5"])
    proxy = TestClient(behind.app, client=("10.0.0.5", 1))
    codes = [proxy.post("/api/rooms", json={"name": "A"}, headers=h).status_code for h in spoof]
    assert codes == [201, 201, 429]  # each client its own hour; the first one again: its limit
    # Anyone else sending the header is still counted by its own address.
    other = TestClient(behind.app, client=("203.0.113.6", 1))
    codes = [other.post("/api/rooms", json={"name": "A"}, headers=h).status_code for h in spoof]
    assert codes == [201, 429, 429]


def test_rooms_nobody_attends_expire_in_minutes(make_client: Any, players: list[Player]) -> None:
    """With nobody connected, through any worker, an unfinished room lives
    ``room_unattended_seconds`` (a match whose bots and timer play on included); one with
    someone at it lives on, and expires that long after they left."""
    client = make_client(room_unattended_seconds=600, room_idle_seconds=0)
    empty, _ = open_table(client, ["Anna"])
    visited, tokens = open_table(client, ["Bo", "Cy"])
    playing, host = open_table(client, ["Di"], ["easy"], turn_timer=5)
    client.post(f"/api/rooms/{playing}/start", headers={"X-Seat-Token": host[0]})
    cy = Player(client, visited, tokens[1])
    service = client.app.state.service
    start = datetime.now(UTC)
    assert client.portal.call(service.upkeep.sweep, start) == []
    later = start + timedelta(minutes=11)
    assert sorted(client.portal.call(service.upkeep.sweep, later)) == sorted([empty, playing])
    assert client.get(f"/api/rooms/{visited}").status_code == 200
    cy.close()  # nobody at Bo's table from here on: it goes ten minutes after it was last seen
    assert client.portal.call(service.upkeep.sweep, later + timedelta(minutes=9)) == []
    assert client.portal.call(service.upkeep.sweep, later + timedelta(minutes=11)) == [visited]


def test_scc_serve_trusts_forwarded_headers_only_when_told(sqlite_url: str) -> None:
    """uvicorn on its own believes X-Forwarded-For from loopback; ``scc serve`` believes it from
    nobody unless ``--forwarded-allow-ips`` names the proxy."""
    import httpx

    from .conftest import LiveServer

    spoof = [{"X-Forwarded-For": f"198.51.100.{i}"} for i in (1, 2)]
    for args, expected in (((), [201, 429]), (("--forwarded-allow-ips", "127.0.0.1"), [201, 201])):
        server = LiveServer(sqlite_url, args=args, SCC_ROOMS_PER_HOUR="1").start()
        try:
            with httpx.Client(base_url=server.url, timeout=10) as api:
                got = [api.post("/api/rooms", json={"name": "A"}, headers=h) for h in spoof]
        finally:
            server.stop()
        assert [r.status_code for r in got] == expected, args


def test_a_burst_of_new_rooms_cannot_slip_past_the_limit(make_client: Any) -> None:
    """Rooms are made off the event loop: requests arriving together while the first ones are
    being made are counted with them."""
    import asyncio

    from shipcaptaincrew.web.table.schemas import CreateRoom
    from shipcaptaincrew.web.words.refusals import RoomError

    client = make_client(rooms_per_hour=2)
    service = client.app.state.service

    async def burst() -> list[bool]:
        made = await asyncio.gather(
            *(service.create_room(CreateRoom(name="A"), "192.0.2.50") for _ in range(6)),
            return_exceptions=True,
        )
        assert all(not isinstance(m, BaseException) or isinstance(m, RoomError) for m in made)
        return [not isinstance(m, BaseException) for m in made]

    assert sum(client.portal.call(burst)) == 2
