"""A table played with real dice: the acting player or the host types the faces, the engine
checks them, the server keeps everything else; nothing claims the dice were fair."""

from __future__ import annotations

import random
from typing import Any

from shipcaptaincrew.notation import MatchLog, replay

from .conftest import Player, open_table


def test_real_dice_typed_in_by_the_player_or_the_host(client: Any, players: list[Player]) -> None:
    code, tokens = open_table(
        client,
        ["Anna", "Bo"],
        ["easy"],
        dice="physical",
        settings=["starter=chosen", "format=rounds:2", "stakes=pot"],
    )
    anna, bo = Player(client, code, tokens[0]), Player(client, code, tokens[1], lang="de")
    watcher = Player(client, code, None)
    players += [anna, bo, watcher]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    room = anna.until(lambda r: r["status"] == "playing")
    assert room["dice_source"] == "physical" and room["commitment"] is None
    assert room["match"]["actor"] == 0 and room["match"]["dice_due"] == 5
    # The re-prompts: no faces, too few, a face no die has -- in each player's language.
    anna.send(type="roll", version=0)
    err = anna.next("error")
    assert err["code"] == "bad_dice" and "type the faces" in err["message"]
    anna.send(type="roll", version=0, faces=[6, 5])
    assert anna.next("error")["message"] == "Type the dice again: this roll needs 5 dice, got 2."
    anna.send(type="roll", version=0, faces=[6, 5, 4, 3, 7])
    assert anna.next("error")["message"] == (
        "Type the dice again: face 7 is not a die face (1..6)."
    )
    bo.send(type="roll", version=0, faces=[6, 5, 4, 3, 3])  # neither Anna nor the host
    err = bo.next("error")
    assert err["code"] == "not_your_turn" and err["message"].startswith("Die Würfel eingeben")
    watcher.send(type="roll", version=0, faces=[6, 5, 4, 3, 3])
    assert watcher.next("error")["code"] == "spectator"
    assert anna.room["version"] == 0
    # Everyone types as rolled; Anna, the host, types the bot's dice too.
    rng = random.Random(7)
    for _ in range(600):
        room = watcher.room
        m = room["match"]
        if m["over"]:
            break
        actor = m["actor"]
        typist = {0: anna, 1: bo}.get(actor, anna)
        if m["chance"]:
            faces = [rng.randint(1, 6) for _ in range(m["dice_due"])]
            typist.send(type="roll", version=room["version"], faces=faces)
            watcher.until(lambda r, v=room["version"]: r["version"] > v)
        elif actor in (0, 1):
            typist.send(type="act", action=m["legal"][0], version=room["version"])
            watcher.until(lambda r, v=room["version"]: r["version"] > v)
        else:  # the bot chooses for itself
            watcher.until(lambda r, v=room["version"]: r["version"] > v)
    final = watcher.until(lambda r: r["match"]["over"])
    assert final["server_seed"] is None and final["podium"]["winner"] == final["match"]["winner"]
    assert sum(final["match"]["chips"]) + final["match"]["pot"] == 30  # chips only move
    # The log says the dice were typed; it replays with the engine to the same end.
    log = MatchLog.from_jsonl(client.get(f"/api/matches/{code}/log").text)
    assert log.dice == {"source": "typed"} and log.server_seed is None
    assert list(replay(log).totals) == final["match"]["totals"]
    v = client.get(f"/api/matches/{code}/verify", params={"lang": "nb"}).json()
    assert v["dice_source"] == "physical" and v["verifiable"] is False
    assert v["detail"].startswith("Dette partiet ble spilt med ekte terninger")
    assert v["dice"] == sum(len(r) for r in v["rolls"]) > 0


def test_a_fair_room_takes_no_faces_and_a_physical_one_no_dice_from_the_server(
    client: Any, players: list[Player]
) -> None:
    code, tokens = open_table(client, ["Anna", "Bo"], settings=["starter=chosen"])
    anna = Player(client, code, tokens[0])
    players.append(anna)
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    anna.until(lambda r: r["status"] == "playing")
    assert anna.room["dice_source"] == "fair" and len(anna.room["commitment"]) == 64
    anna.send(type="roll", version=0, faces=[6, 6, 6, 6, 6])
    assert anna.next("error")["code"] == "bad_dice"
    r = client.post("/api/rooms", json={"name": "Cy", "dice": "loaded"})
    assert r.status_code == 422 and r.json()["field"] == "dice"
