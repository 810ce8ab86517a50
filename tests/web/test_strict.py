"""Strict where the docs say strict: typed faces are JSON integers, client seeds are committed
unambiguously (and a room from before keeps its form), the bots draw from a generator that
tells nothing about the dice's seed."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import create_engine, update

from shipcaptaincrew.fair import FairDice, SeedFormat, bot_seed
from shipcaptaincrew.notation import MatchLog
from shipcaptaincrew.web.settings import Settings
from shipcaptaincrew.web.storage.models import Room

from .conftest import SERVER_SEED, Player
from .test_protocol import play_out


def test_typed_faces_are_integers_only(client: Any, players: list[Player]) -> None:
    r = client.post(
        "/api/rooms", json={"name": "Anna", "dice": "physical", "settings": ["starter=chosen"]}
    )
    code, host = r.json()["code"], r.json()["token"]
    client.post(f"/api/rooms/{code}/join", json={"name": "Bo"})
    anna = Player(client, code, host, lang="de")
    players.append(anna)
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": host})
    room = anna.until(lambda r: r["status"] == "playing")
    assert room["match"]["actor"] == 0
    for faces in (["6", "5", "4", "3", "2"], [6.0, 5, 4, 3, 2], [True, 5, 4, 3, 2]):
        anna.send(type="roll", version=0, faces=faces)
        anna.send(type="ping")  # (answered after the roll: what comes before is its answer)
        start = len(anna.seen)
        anna.next("pong")
        [err] = [m for m in anna.seen[start:] if m["type"] != "pong"]
        assert err["code"] == "invalid" and err["field"] == "faces", faces
        assert err["message"] == "Augenzahlen: Das muss eine ganze Zahl sein."
    assert anna.room["version"] == 0
    anna.send(type="roll", version=0, faces=[6, 5, 4, 3, 2])
    assert anna.until(lambda r: r["version"] == 1)["match"]["turn"]["last_roll"] == [6, 5, 4, 3, 2]


def _match(client: Any, players: list[Player], seeds: tuple[str, str]) -> tuple[str, MatchLog]:
    """Anna and Bo, bringing ``seeds``, play a match out; (its code, its log)."""
    r = client.post(
        "/api/rooms",
        json={
            "name": "Anna",
            "client_seed": seeds[0],
            "settings": ["starter=chosen", "format=rounds:1"],
        },
    )
    code, host = r.json()["code"], r.json()["token"]
    bo = client.post(f"/api/rooms/{code}/join", json={"name": "Bo", "client_seed": seeds[1]})
    return code, _play(client, players, code, host, bo.json()["token"])


def _play(client: Any, players: list[Player], code: str, host: str, guest: str) -> MatchLog:
    anna, bo = Player(client, code, host), Player(client, code, guest)
    players += [anna, bo]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": host})
    play_out({0: anna, 1: bo}, anna)
    return MatchLog.from_jsonl(client.get(f"/api/matches/{code}/log").text)


def test_client_seeds_are_committed_with_their_lengths(client: Any, players: list[Player]) -> None:
    """["a|b"] and ["a", "b"] were the same dice when seeds were joined with "|"; now each
    seed goes in with its length, the log says so, and each match verifies."""
    logs = {}
    for seeds in (("a|b", ""), ("a", "b")):
        code, log = _match(client, players, seeds)
        mixed = [s for s in seeds if s]
        assert log.dice["client_seeds"] == mixed
        assert log.dice["client_seed_format"] == "length-prefixed"
        dice = FairDice(bytes.fromhex(SERVER_SEED), mixed)
        assert log.rolls() == [list(dice.roll(len(r))) for r in log.rolls()]
        verified = client.get(f"/api/matches/{code}/verify").json()
        assert verified["ok"] and verified["client_seed_format"] == "length-prefixed"
        logs[seeds] = log
    assert logs["a|b", ""].rolls()[:3] != logs["a", "b"].rolls()[:3]


def test_a_room_from_before_the_length_prefix_keeps_its_form(
    client: Any, players: list[Player], db_url: str
) -> None:
    """A room made by the previous version (no form stored) rolls its seeds joined with "|",
    as its match began, and verifies so."""
    r = client.post(
        "/api/rooms",
        json={
            "name": "Anna",
            "client_seed": "a",
            "settings": ["starter=chosen", "format=rounds:1"],
        },
    )
    code, host = r.json()["code"], r.json()["token"]
    engine = create_engine(Settings(db_url=db_url).sqlalchemy_url())
    with engine.begin() as conn:  # (as migration 0007 leaves a room made before it)
        conn.execute(update(Room).where(Room.code == code).values(client_seed_format=None))
    engine.dispose()
    client.app.state.service.rooms.pop(code, None)  # (read again from the database)
    bo = client.post(f"/api/rooms/{code}/join", json={"name": "Bo", "client_seed": "b"})
    log = _play(client, players, code, host, bo.json()["token"])
    assert log.dice["client_seed_format"] == "joined"
    dice = FairDice(bytes.fromhex(SERVER_SEED), ["a", "b"], SeedFormat.JOINED)
    assert log.rolls() == [list(dice.roll(len(r))) for r in log.rolls()]
    verified = client.get(f"/api/matches/{code}/verify").json()
    assert verified["ok"] and verified["client_seed_format"] == "joined"


def test_the_bots_generator_is_not_seeded_with_the_dice_seed(client: Any) -> None:
    code = client.post("/api/rooms", json={"name": "Anna"}).json()["code"]
    room = client.app.state.service.room(code)
    ours = random.Random(bot_seed(bytes.fromhex(SERVER_SEED)))
    assert room.rng.getstate() == ours.getstate()
    assert room.rng.getstate() != random.Random(SERVER_SEED).getstate()
