"""Names that pose as another: a name whose Unicode TR 39 skeleton is a seated player's is
refused, in the player's language, at the join, at a seat for the next match and for a bot."""

from __future__ import annotations

from typing import Any

from .conftest import Player, open_table


def test_a_lookalike_of_a_seated_name_is_refused(client: Any) -> None:
    code, _ = open_table(client, ["Piet", "Anna"])
    # A Cyrillic і; full-width letters; a Cyrillic Р and е.
    for name, other in (("Pіet", "Piet"), ("ＡＮＮＡ", "Anna"), ("Рiеt", "Piet")):
        r = client.post(f"/api/rooms/{code}/join?lang=nb", json={"name": name})
        assert r.status_code == 409 and r.json()["code"] == "name_taken", name
        assert r.json()["detail"] == (
            f"Navnet {name} ligner for mye på {other}, som allerede "
            "sitter ved dette bordet: velg et annet."
        )
    # The same name in another case is the same name, said so.
    r = client.post(f"/api/rooms/{code}/join", json={"name": "piet"})
    assert r.json()["detail"] == "The name piet is already taken at this table."
    # Names that only share letters with a seated one are welcome.
    for name in ("Jörg", "Pia", "Annabel"):
        assert client.post(f"/api/rooms/{code}/join", json={"name": name}).status_code == 201
    names = [p["name"] for p in client.get(f"/api/rooms/{code}").json()["players"]]
    assert names == ["Piet", "Anna", "Jörg", "Pia", "Annabel"]


def test_a_bot_is_never_named_like_a_person(client: Any) -> None:
    code, tokens = open_table(client, ["Anna", "Bot l"])  # (a small L)
    host = {"X-Seat-Token": tokens[0]}
    assert client.post(f"/api/rooms/{code}/bots", json={"level": "easy"}, headers=host).json() == {
        "seat": 2
    }
    names = [p["name"] for p in client.get(f"/api/rooms/{code}").json()["players"]]
    assert names == ["Anna", "Bot l", "Bot 2"]


def test_a_seat_for_the_next_match_is_refused_a_lookalike(
    client: Any, players: list[Player]
) -> None:
    code, tokens = open_table(client, ["Anna"], ["easy"])
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    watcher = Player(client, code, None, lang="de")
    players.append(watcher)
    watcher.send(type="seat_next", name="Аnna")  # a Cyrillic А
    err = watcher.next("error")
    assert err["code"] == "name_taken"
    assert err["message"] == (
        "Der Name Аnna ist Anna zum Verwechseln ähnlich, und so heißt schon jemand an diesem "
        "Tisch: Wähl bitte einen anderen."
    )
