"""The REST side of rooms: creating, joining, bots, seats, starting, and every refusal."""

from __future__ import annotations

from typing import Any

import pytest

from shipcaptaincrew.web.display.party import AVATARS

from .conftest import open_table

HTML_NAME = "<img src=x onerror=alert(1)>"


def test_create_room_and_public_view(client: Any) -> None:
    r = client.post(
        "/api/rooms",
        json={
            "name": "  Anna  ",
            "preset": "ship-captain-crew",
            "settings": ["wild_captain=true"],
            "lang": "de",
            "hints": False,
            "turn_timer": 30,
        },
    )
    assert r.status_code == 201
    body = r.json()
    code, token = body["code"], body["token"]
    assert len(code) == 6 and body["link"].endswith(f"/r/{code}") and body["seat"] == 0
    assert len(token) >= 43  # 32 random bytes, URL-safe base64
    room = client.get(f"/api/rooms/{code.lower()}").json()  # codes are case-insensitive
    assert room["code"] == code and room["status"] == "lobby" and room["lang"] == "de"
    assert room["rules"] == "ship-captain-crew(wild_captain=true)"
    assert room["players"] == [
        {
            "seat": 0,
            "name": "Anna",
            "kind": "human",
            "online": False,
            "color": 0,
            "avatar": AVATARS[0],
            "level": None,
            "level_label": None,
            "rematch": False,
            "played_for": False,
            "leaving": False,
            "left": False,
            "askable_ms": None,
        }
    ]
    assert room["rematch"] is None  # (play again is for after the match)
    assert room["title"] == "Ship Captain Crew · wild captain" and room["host"] == 0
    assert room["hints"] is False and room["turn_timer"] == 30
    assert len(room["commitment"]) == 64 and room["server_seed"] is None
    assert token not in r.text.replace(token, "", 1)


def test_names_are_stored_as_plain_text(client: Any) -> None:
    code, _ = open_table(client, ["Anna", HTML_NAME])
    assert client.get(f"/api/rooms/{code}").json()["players"][1]["name"] == HTML_NAME


@pytest.mark.parametrize(
    ("body", "field", "english"),
    [
        ({"name": ""}, "name", "Your name: this must not be empty."),
        ({"name": "x" * 33}, "name", "Your name: at most 32 characters, please."),
        ({"name": "\u0007\u0008"}, "name", "Your name: please use at least one visible character."),
        ({"name": "A", "lang": "fr"}, "lang", "Language: this must be one of en, de, nb."),
        ({"name": "A", "turn_timer": 1}, "turn_timer", "Turn timer: this must be at least 5."),
        ({"name": "A", "dice": [6, 6, 6]}, "dice", "Dice: this must be one of fair, physical."),
        ({}, "name", "Your name: please fill this in."),
    ],
)
def test_create_room_validation(
    client: Any, body: dict[str, Any], field: str, english: str
) -> None:
    """Each problem is one sentence naming the field, in the request's language."""
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 422
    assert r.json() == {"code": "invalid", "detail": english, "field": field}
    german = client.post("/api/rooms?lang=de", json=body).json()["detail"]
    norwegian = client.post("/api/rooms", json=body, headers={"X-Lang": "nb"}).json()["detail"]
    assert german != english and norwegian != english and "{" not in german + norwegian


def test_unknown_fields_and_languages_of_refusals(client: Any) -> None:
    r = client.post("/api/rooms", json={"name": "A", "colour": "red"})
    assert r.json()["detail"] == "There is no field colour in this message."
    # The browser's Accept-Language alone decides nothing: ?lang= or X-Lang does.
    r = client.post("/api/rooms", json={"name": ""}, headers={"Accept-Language": "de-DE"})
    assert r.json()["detail"] == "Your name: this must not be empty."
    assert (
        client.post("/api/rooms?lang=de", json={"name": ""}).json()["detail"]
        == "Dein Name: Das darf nicht leer sein."
    )


def test_bad_rules_are_named(client: Any) -> None:
    r = client.post("/api/rooms", json={"name": "A", "settings": ["colour=red"]})
    assert (
        r.status_code == 400 and r.json()["code"] == "bad_rules" and "colour" in r.json()["detail"]
    )
    r = client.post("/api/rooms", json={"name": "A", "preset": "chess"})
    assert r.status_code == 400 and "chess" in r.json()["detail"]


def test_unknown_room(client: Any) -> None:
    r = client.get("/api/rooms/ZZZZZZ")
    assert r.status_code == 404 and r.json()["code"] == "not_found"


def test_host_powers(client: Any) -> None:
    code, tokens = open_table(client, ["Anna", "Bo"])
    host, guest = {"X-Seat-Token": tokens[0]}, {"X-Seat-Token": tokens[1]}
    # Only the host seats bots, removes seats and starts.
    assert (
        client.post(f"/api/rooms/{code}/bots", json={"level": "hard"}, headers=guest).json()["code"]
        == "not_host"
    )
    assert client.post(f"/api/rooms/{code}/start", headers=guest).status_code == 403
    assert client.post(f"/api/rooms/{code}/start").json()["code"] == "bad_token"
    assert (
        client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": "A" * 43}).status_code
        == 403
    )
    assert (
        client.post(f"/api/rooms/{code}/bots", json={"level": "genius"}, headers=host).json()[
            "code"
        ]
        == "bad_bot"
    )
    for level in ("easy", "medium", "hard", "perfect"):
        assert (
            client.post(f"/api/rooms/{code}/bots", json={"level": level}, headers=host).status_code
            == 201
        )
    names = [p["name"] for p in client.get(f"/api/rooms/{code}").json()["players"]]
    assert names == ["Anna", "Bo", "Bot 1", "Bot 2", "Bot 3", "Bot 4"]
    assert client.delete(f"/api/rooms/{code}/seats/0", headers=host).json()["code"] == "host_seat"
    assert client.delete(f"/api/rooms/{code}/seats/9", headers=host).status_code == 404
    assert client.delete(f"/api/rooms/{code}/seats/1", headers=guest).status_code == 403
    assert client.delete(f"/api/rooms/{code}/seats/2", headers=host).status_code == 200
    players = client.get(f"/api/rooms/{code}").json()["players"]
    assert [p["name"] for p in players] == ["Anna", "Bo", "Bot 2", "Bot 3", "Bot 4"]
    assert [p["seat"] for p in players] == [0, 1, 2, 3, 4]
    # Bo's token still means Bo after the seats moved.
    assert client.post(f"/api/rooms/{code}/start", headers=guest).json()["code"] == "not_host"
    assert client.post(f"/api/rooms/{code}/start", headers=host).status_code == 200
    # After the start the table is fixed.
    assert client.post(f"/api/rooms/{code}/join", json={"name": "Cy"}).json()["code"] == "started"
    assert (
        client.post(f"/api/rooms/{code}/bots", json={"level": "easy"}, headers=host).status_code
        == 409
    )
    assert client.delete(f"/api/rooms/{code}/seats/1", headers=host).status_code == 409
    assert client.post(f"/api/rooms/{code}/start", headers=host).status_code == 409


def test_join_refusals(client: Any) -> None:
    code, tokens = open_table(client, ["Anna"])
    assert (
        client.post(f"/api/rooms/{code}/join", json={"name": "anna"}).json()["code"] == "name_taken"
    )
    assert (
        client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]}).json()["code"]
        == "too_few"
    )
    for i in range(7):
        assert client.post(f"/api/rooms/{code}/join", json={"name": f"P{i}"}).status_code == 201
    r = client.post(f"/api/rooms/{code}/join", json={"name": "Late"})
    assert r.status_code == 409 and r.json()["code"] == "full"


def test_setup_the_engine_refuses(client: Any) -> None:
    code, tokens = open_table(client, ["Anna", "Bo"], settings=["format=tournament"])
    r = client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    assert r.status_code == 409 and "tournament" in r.json()["detail"]
    assert client.get(f"/api/rooms/{code}").json()["status"] == "lobby"


def test_qr_code_is_svg_of_the_link(client: Any) -> None:
    code, _ = open_table(client, ["Anna"])
    r = client.get(f"/api/rooms/{code}/qr.svg")
    assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
    assert r.text.lstrip().startswith("<?xml") and "<svg" in r.text


def test_matches_not_over_are_not_revealed(client: Any) -> None:
    code, tokens = open_table(client, ["Anna", "Bo"])
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    for path in ("verify", "log", "replay"):
        r = client.get(f"/api/matches/{code}/{path}")
        assert r.status_code == 409 and r.json()["code"] == "not_over"


def test_meta_endpoints_and_pages(client: Any) -> None:
    assert "classic" in {p["name"] for p in client.get("/api/presets").json()}
    assert client.get("/api/bots").json() == ["easy", "medium", "hard", "perfect"]
    de = client.get("/api/i18n/de").json()
    assert "Roll the dice" in de
    assert client.get("/api/i18n/xx").status_code == 404
    for path in ("/", "/r/ABCDEF", "/verify/ABCDEF", "/history", "/replay/ABCDEF", "/stats"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        assert "script-src 'self'" in r.headers["content-security-policy"]
    assert client.get("/static/js/room.js").status_code == 200


def test_no_endpoint_accepts_dice(client: Any) -> None:
    """No REST schema has a field through which a client could supply faces; a room only says
    where its dice come from (the faces of real dice travel over the table's WebSocket)."""
    schemas = client.get("/api/openapi.json").json()["components"]["schemas"]
    assert "faces" not in str(schemas)
    assert schemas["DiceSource"]["enum"] == ["fair", "physical"]
    assert [k for k in schemas if "dice" in str(schemas[k]).lower()] == ["CreateRoom", "DiceSource"]
