"""Table codes cannot be guessed (issue 35): 2,648 lookups in 5 s from one address once went
unchecked.  A network that has looked up ``code_misses_per_minute`` codes that do not exist
is refused every lookup for a minute -- over HTTP and the live table alike, said in its
language -- while another network, and the tables themselves, go on."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from .conftest import open_table

GUESSER = {"X-Forwarded-For": "192.0.2.7"}
FRIEND = {"X-Forwarded-For": "192.0.2.8"}


def test_a_network_that_guesses_codes_is_refused_for_a_while(make_client: Any) -> None:
    client = make_client(code_misses_per_minute=5, forwarded_allow_ips=["*"])
    code, _ = open_table(client, ["Anna", "Bo"])
    for i in range(5):
        r = client.get(f"/api/rooms/ZZZZZ{i}", headers=GUESSER)
        assert r.status_code == 404 and r.json()["code"] == "not_found"
    # Its next lookup is refused, even of a table that exists; and the live table too.
    r = client.get(f"/api/rooms/{code}?lang=de", headers=GUESSER)
    assert r.status_code == 429 and r.json()["code"] == "rate"
    assert r.json()["detail"].startswith("Von deiner Adresse wurden zu viele Tischcodes versucht")
    r = client.post(f"/api/rooms/{code}/join", json={"name": "Mallory"}, headers=GUESSER)
    assert r.status_code == 429
    with client.websocket_connect(f"/ws/rooms/{code}", headers=GUESSER) as ws:
        said = ws.receive_json()
        assert said["type"] == "error" and said["code"] == "rate"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4429
    # Another network, and the table, are not held up by it.
    r = client.get(f"/api/rooms/{code}", headers=FRIEND)
    assert r.status_code == 200 and r.json()["code"] == code
    with client.websocket_connect(f"/ws/rooms/{code}", headers=FRIEND) as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        assert ws.receive_json()["type"] == "welcome"


def test_looking_up_a_table_that_exists_costs_nothing(make_client: Any) -> None:
    client = make_client(code_misses_per_minute=3, forwarded_allow_ips=["*"])
    code, _ = open_table(client, ["Anna", "Bo"])
    for _ in range(50):  # a phone reloading its own table's page, again and again
        assert client.get(f"/api/rooms/{code}", headers=FRIEND).status_code == 200
    with client.websocket_connect("/ws/rooms/NOSUCH", headers=FRIEND) as ws:  # one miss
        assert ws.receive_json()["code"] == "not_found"
    assert client.get(f"/api/rooms/{code}", headers=FRIEND).status_code == 200
