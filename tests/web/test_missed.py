"""A slow table's phone opened again is told what it missed: the moments of the moves made
since it last looked, oldest first, in its own language, before its first picture
(``web/play/missed.py``); the phone plays them through its strip.  The same moments the
phones that were open saw live, also after the server restarted; none for a live table or a
phone that saw everything."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shipcaptaincrew.notation import replay_states
from shipcaptaincrew.web.play import missed as missed_module

from .conftest import Player, open_table
from .pushing import server
from .test_absent import play_turn

SETTINGS = ["format=rounds:2", "starter=chosen"]


def opened(client: Any, code: str, token: str, seen: int | None, lang: str = "de") -> list[Any]:
    """A phone opening the table, saying the version it last drew: the messages up to and
    including its first picture."""
    with client.websocket_connect(f"/ws/rooms/{code}") as ws:
        hello = {"type": "hello", "token": token, "lang": lang, "seen": seen}
        ws.send_text(json.dumps(hello))
        got = [ws.receive_json()]
        while got[-1]["type"] != "room":
            got.append(ws.receive_json())
    return got


def live_moments(p: Player, after: int) -> list[dict[str, Any]]:
    """The moments a phone that stayed open was shown with the pictures after version ``after``."""
    return [
        m["room"]["moment"]
        for m in p.seen
        if m["type"] == "room" and m["room"]["version"] > after and m["room"]["moment"]
    ]


def test_a_phone_opened_again_is_told_what_it_missed_in_order(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    replays: list[int] = []

    def counted(log: Any) -> Any:
        replays.append(len(log.events))
        return replay_states(log)

    monkeypatch.setattr(missed_module, "replay_states", counted)
    with server(sqlite_url) as client:
        code, tokens = open_table(client, ["Anna", "Bo", "Cy"], turn_hours=6, settings=SETTINGS)
        client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
        bo, cy = Player(client, code, tokens[1], "de"), Player(client, code, tokens[2], "de")
        try:
            anna = Player(client, code, tokens[0], "de")
            seen = play_turn(anna, 0)["version"]  # Anna plays her turn, then closes her phone
            anna.close()
            back = anna.room
            while back["match"]["round_no"] < 2 or back["match"]["actor"] != 0:
                seat = back["match"]["actor"]  # Bo and Cy play on, round 1 ends, round 2 goes
                back = play_turn({1: bo, 2: cy}[seat], seat)
            bo.until(lambda r: r["version"] == back["version"])
        finally:  # (open sockets would hold the server's shutdown)
            bo.close()
            cy.close()
        told = opened(client, code, tokens[0], seen)
        assert [m["type"] for m in told] == ["welcome", "missed", "room"], told
        missed = told[1]["moments"]
        shown = live_moments(bo, seen)
        # Bo's turn, Cy's that ended round 1, and those of round 2 before Anna's: the same
        # moments, in order, in Anna's language (German), as Bo's phone (German too) showed
        # them live.
        assert missed == shown
        kinds = [m["kind"] for m in missed]
        assert kinds[:2] == ["turn_end", "round_end"] and set(kinds[2:]) == {"turn_end"}, kinds
        assert missed[0]["seat"] == 1 and missed[1]["turn"]["seat"] == 2
        assert missed[1]["text"].startswith("Runde 1:"), missed[1]["text"]
        assert told[2]["room"]["version"] == back["version"]
        # A phone that saw everything, or says a version this match never had: nothing.
        assert [m["type"] for m in opened(client, code, tokens[0], back["version"])] == [
            "welcome",
            "room",
        ]
        assert "missed" not in [m["type"] for m in opened(client, code, tokens[0], 10_000)]
        # Opened again and again at one version, the match is stepped once: the same moments.
        for _ in range(5):
            assert opened(client, code, tokens[0], seen)[1]["moments"] == missed
        assert replays == [back["version"]], replays
        # A move later the table is stepped again: Anna's turn, which ended the match, is news.
        anna = Player(client, code, tokens[0], "de")
        try:
            now = play_turn(anna, 0)["version"]
        finally:
            anna.close()
        moments = opened(client, code, tokens[0], seen)[1]["moments"]
        assert moments[-1]["kind"] == "match_end" and moments[:-1] == missed[1 - len(moments) :]
        assert replays == [back["version"], now], replays
    # The server restarted: the moments are the story's, stepped again from the events.
    with server(sqlite_url) as client:
        again = opened(client, code, tokens[0], seen)
        assert again[1]["type"] == "missed" and again[1]["moments"] == moments


def test_a_live_table_sends_nothing_missed(client: Any, players: list[Player]) -> None:
    code, tokens = open_table(client, ["Anna", "Bo"], settings=SETTINGS)
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    anna = Player(client, code, tokens[0])
    players.append(anna)
    seen = anna.room["version"]
    version = play_turn(anna, 0)["version"]
    assert version > seen
    told = opened(client, code, tokens[1], seen, lang="en")
    assert [m["type"] for m in told] == ["welcome", "room"]
