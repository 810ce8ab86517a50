"""Limits over time: new rooms per client address an hour, open rooms in all, and idle
unfinished rooms that expire (finished matches and their logs are kept) -- on a real SQLite
file and on PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select

from shipcaptaincrew.notation import MatchLog
from shipcaptaincrew.web.models import Room
from shipcaptaincrew.web.settings import Settings

from .conftest import Player, open_table
from .test_protocol import play_out


def _create(client: Any, lang: str = "en") -> Any:
    return client.post(f"/api/rooms?lang={lang}", json={"name": "Anna"})


def test_new_rooms_per_address_an_hour(make_client: Any, db_url: str) -> None:
    client = make_client(rooms_per_hour=2)
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
