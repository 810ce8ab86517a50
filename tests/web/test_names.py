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
    code, tokens = open_table(client, ["Anna", "Boto"])
    host = {"X-Seat-Token": tokens[0]}
    assert client.post(f"/api/rooms/{code}/bots", json={"level": "easy"}, headers=host).json() == {
        "seat": 2
    }
    names = [p["name"] for p in client.get(f"/api/rooms/{code}").json()["players"]]
    assert names == ["Anna", "Boto", "Bot 1"]


#: Names nobody could read at a table, as an outside tester typed them, and what the person
#: is told (in German: the page's language), each naming what is wrong.
UNREADABLE = {
    "\u3164": "Dein Name: Er enthält Zeichen",  # the Hangul filler: draws nothing
    "\u2800": "Dein Name: Er enthält Zeichen",  # the Braille blank
    "\u115f": "Dein Name: Er enthält Zeichen",  # the Hangul choseong filler
    "\u0301": "Dein Name: Ein Akzent",  # a combining mark alone
    "a" + "\u0301" * 31: "Dein Name: Zu viele Akzente",  # 31 marks stacked on one letter
    "\ufdfd" * 32: "Dein Name: Er enthält Zeichen",  # a symbol that draws a whole phrase
    "\ufdfa" * 2: "Dein Name: Zu breit",  # a ligature as wide as the phrase it stands for
    "Bot 1 (easy)": "Dein Name: So heißen die Bots",  # a person posing as a bot
    "bot7": "Dein Name: So heißen die Bots",
    "Bot l": "Dein Name: So heißen die Bots",  # (a small L for the 1)
}


def test_a_name_nobody_can_read_is_refused_in_words(client: Any) -> None:
    code, _ = open_table(client, ["Anna"])
    for name, said in UNREADABLE.items():
        r = client.post(f"/api/rooms/{code}/join?lang=de", json={"name": name})
        assert r.status_code == 422, (name, r.text)
        assert r.json()["code"] == "invalid" and r.json()["field"] == "name"
        assert r.json()["detail"].startswith(said), (name, r.json()["detail"])
        r = client.post("/api/rooms?lang=nb", json={"name": name})  # opening a table too
        assert r.status_code == 422 and r.json()["field"] == "name", name
    # Names of the world's scripts, with their marks, emoji and flags, are welcome.
    welcome = ["Tiến", "क्षितिज", "李小龍", "Jörg 🍺", "🇳🇴 Ola", "Botond", "Anna-Katharina"]
    for name in welcome:
        r = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert r.status_code == 201, (name, r.text)
    names = [p["name"] for p in client.get(f"/api/rooms/{code}").json()["players"]]
    assert names == ["Anna", *welcome]


def test_full_width_and_case_are_folded_before_the_skeleton(client: Any) -> None:
    code, _ = open_table(client, ["Piet"])
    for name in ("ＰＩＥＴ", "ｐｉｅｔ", "PIET"):
        r = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert r.status_code == 409 and r.json()["code"] == "name_taken", name


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
