"""Crowds at the live table: spectators per table, per seat and per client network are capped
(refused in the newcomer's language), the players and the table screens always get in, and
people coming and going cost the table what they are, not a picture for everyone each time."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from .conftest import Player, open_table


def knock(client: Any, code: str, **hello: Any) -> tuple[Any, Any, dict[str, Any]]:
    """Open the table's socket and say hello; (its context, the session, its first message)."""
    ctx = client.websocket_connect(f"/ws/rooms/{code}")
    ws = ctx.__enter__()
    ws.send_text(json.dumps({"type": "hello", **hello}))
    return ctx, ws, ws.receive_json()


def refused(client: Any, code: str, **hello: Any) -> tuple[dict[str, Any], int]:
    """A hello the table refuses: its error message and the socket's close code."""
    ctx, ws, first = knock(client, code, **hello)
    try:
        assert first["type"] == "error", first
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    finally:
        ctx.__exit__(None, None, None)
    return first, closed.value.code


def paired_screen(client: Any, code: str, player: Player) -> str:
    """A table screen that ``player`` (seated) pairs with the table; its screen token."""
    ctx, ws, welcome = knock(client, code, screen=True)
    try:
        player.send(type="pair", code=welcome["screen"]["code"])
        assert player.next("paired")["code"] == welcome["screen"]["code"]
        while ws.receive_json()["type"] != "paired":
            pass
    finally:
        ctx.__exit__(None, None, None)
    return str(welcome["screen"]["token"])


def test_spectators_are_capped_and_the_players_and_paired_screens_get_in(
    make_client: Any, players: list[Player]
) -> None:
    client = make_client(max_spectators=2, max_screens=1)
    code, tokens = open_table(client, ["Anna", "Bo"])
    anna = Player(client, code, tokens[0])
    players.append(anna)
    token = paired_screen(client, code, anna)
    players += [Player(client, code, None), Player(client, code, None)]
    err, close = refused(client, code, lang="de")
    assert err["code"] == "crowded" and close == 4429
    assert err["message"].startswith("Dieser Tisch hat schon so viele Zuschauer")
    # The players always get in, and the paired table screen past the crowd; a screen
    # nobody paired is one more spectator.
    players.append(Player(client, code, tokens[1]))
    ctx, _, welcome = knock(client, code, screen=True, screen_token=token)
    ctx.__exit__(None, None, None)
    assert welcome["type"] == "welcome" and welcome["seat"] is None
    assert welcome["screen"] == {"token": token, "paired": True, "code": None}
    err, close = refused(client, code, screen=True)
    assert err["code"] == "crowded" and close == 4429


def test_a_paired_table_screen_gets_in_past_a_full_crowd(
    make_client: Any, players: list[Player]
) -> None:
    client = make_client(max_spectators=1, max_screens=1)
    code, tokens = open_table(client, ["Anna", "Bo"])
    anna = Player(client, code, tokens[0])
    players.append(anna)
    token = paired_screen(client, code, anna)
    players.append(Player(client, code, None))
    assert refused(client, code)[0]["code"] == "crowded"
    ctx, _, welcome = knock(client, code, screen=True, screen_token=token, lang="nb")
    try:
        assert welcome["type"] == "welcome" and welcome["seat"] is None
        # A second screen, not paired, counts as a spectator, and the crowd is full.
        err, close = refused(client, code, screen=True, lang="nb")
        assert err["code"] == "crowded" and close == 4429
    finally:
        ctx.__exit__(None, None, None)


def test_a_seat_holds_a_few_connections(make_client: Any, players: list[Player]) -> None:
    client = make_client(max_seat_connections=2)
    code, tokens = open_table(client, ["Anna", "Bo"])
    players += [Player(client, code, tokens[1]), Player(client, code, tokens[1])]
    err, close = refused(client, code, token=tokens[1], lang="en")
    assert err == {
        "type": "error",
        "code": "crowded",
        "message": "Your seat is open in 2 places already: close one of them, then try again.",
    }
    assert close == 4429
    players.append(Player(client, code, tokens[0]))  # (another seat: in)


def test_spectators_per_network_ipv4_by_address_ipv6_by_64(
    make_client: Any, players: list[Player]
) -> None:
    client = make_client(max_connections_per_address=1)
    code, tokens = open_table(client, ["Anna", "Bo"])
    app = client.app
    pub = TestClient(app, client=("192.0.2.7", 50000))
    home = TestClient(app, client=("2001:db8:1:2::10", 50000))
    same_net = TestClient(app, client=("2001:db8:1:2:ffff::99", 50001))
    next_net = TestClient(app, client=("2001:db8:1:3::10", 50000))
    players += [Player(pub, code, None), Player(home, code, None), Player(next_net, code, None)]
    err, close = refused(same_net, code, lang="nb")
    assert err["code"] == "crowded" and close == 4429
    assert err["message"].startswith("For mange tilkoblinger fra nettverket ditt")
    err, _ = refused(pub, code, lang="en")  # (the same IPv4 address, another port)
    assert "at most 1 spectators" in err["message"]
    # The players on a full network still get in.
    players += [Player(pub, code, tokens[0]), Player(same_net, code, tokens[1])]
    # Once one leaves, another comes in.
    players.pop(0).close()
    players.append(Player(pub, code, None))


def test_comings_and_goings_are_told_together(make_client: Any, players: list[Player]) -> None:
    """With the interval longer than the test, who is online is told once, at the first
    arrival (Anna's own); everyone after it is in the next picture the table draws anyway
    (a move's)."""
    client = make_client(presence_seconds=3600)
    code, tokens = open_table(client, ["Anna"], ["easy"], settings=["format=rounds:3"])
    anna = Player(client, code, tokens[0])
    players.append(anna)
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})

    def received(p: Player) -> list[dict[str, Any]]:
        """Every message up to a pong (a connection's messages come in order)."""
        start = len(p.seen)
        p.send(type="ping")
        p.next("pong")
        return p.seen[start:-1]

    received(anna)
    crowd = [Player(client, code, None) for _ in range(12)]
    players += crowd
    for p in crowd[:6]:
        p.close()
        players.remove(p)
    # The twelve comings and six goings cost Anna nothing.
    assert received(anna) == []
    # A watcher's own arrival is its welcome and its first picture (which Player reads),
    # nothing else.
    for p in crowd[6:]:
        assert [m["type"] for m in p.seen] == ["room"] and received(p) == []
    # The next move's picture carries the count as it is.
    anna.until(lambda r: r["match"] is not None and r["match"]["actor"] == 0)
    room = anna.room
    anna.send(type="roll", version=room["version"])
    after = anna.until(lambda r, v=room["version"]: r["version"] > v)
    assert after["spectators"] == 6
