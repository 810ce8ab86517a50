"""Advice on the table: the solver's numbers passed on as the solver gives them, and a sip
hand-out's advice in words (a sip decides nobody's win), never a number."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from shipcaptaincrew.solver.advice import Choice

from .conftest import Player, open_table


def _advice(p: Player) -> dict[str, Any]:
    p.send(type="advice", version=p.room["version"])
    msg = p.next()
    while msg["type"] == "room":
        msg = p.next()
    assert msg["type"] == "advice", msg
    return msg


def test_advice_carries_the_solver_s_numbers_and_hand_outs_say_why_none(
    client: Any, players: list[Player]
) -> None:
    code, tokens = open_table(
        client, ["Anna", "Bo", "Cy"], settings=["drinking=captain_hands_out", "format=rounds:3"]
    )
    anna, bo = Player(client, code, tokens[0]), Player(client, code, tokens[1], lang="de")
    cy = Player(client, code, tokens[2])
    players += [anna, bo, cy]
    seats = {0: anna, 1: bo, 2: cy}
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    anna.until(lambda r: r["match"] is not None)
    kinds: set[str] = set()
    while not anna.room["match"]["over"]:
        room = anna.room
        match = room["match"]
        p = seats[match["actor"]]
        p.until(lambda r, v=room["version"]: r["version"] == v)
        if match["legal"] != ["roll"] and len(match["legal"]) > 1:
            advice = _advice(p)
            assert advice["version"] == room["version"]
            assert {c["action"] for c in advice["choices"]} == set(match["legal"])
            hand_out = match["legal"][0].startswith("sip:")
            for c in advice["choices"]:
                if hand_out:
                    assert c == {"action": c["action"], "method": "hand_out"}  # no number at all
                elif c["method"] == "exact":
                    # Every number the solver gives, under its own names.
                    assert set(c) == {f.name for f in fields(Choice)} | {"method"}
            if hand_out:
                assert advice["note"] == (
                    "Whoever gets this sip, nobody's chance of winning changes: hand it to "
                    "whom you like."
                    if p is not bo
                    else "Egal, wer diesen Schluck bekommt: Die Gewinnchance ändert sich für "
                    "niemanden. Gib ihn, wem du willst."
                )
            else:
                assert advice["note"] is None
            kinds.add("hand_out" if hand_out else advice["choices"][0]["method"])
        choice = match["legal"][0]
        if choice == "roll":
            p.send(type="roll", version=room["version"])
        else:
            p.send(type="act", action=choice, version=room["version"])
        anna.until(lambda r, v=room["version"]: r["version"] > v)
    assert {"hand_out", "exact"} <= kinds
