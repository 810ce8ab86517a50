"""The WebSocket protocol against create_app: full matches, every refusal, persistence.

Runs on a temporary SQLite file and on PostgreSQL (the ``db_url`` fixture's two variants).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select

from shipcaptaincrew.notation import MatchLog, replay
from shipcaptaincrew.web.display.party import REACTIONS
from shipcaptaincrew.web.storage.models import Event, Room
from shipcaptaincrew.web.words import refusals as E
from shipcaptaincrew.web.words.refusals import ErrorCode, RoomError

from .conftest import Player, open_table


def play_out(players: dict[int, Player], watcher: Player, limit: int = 3000) -> dict[str, Any]:
    """Everyone plays the first legal choice until the match is over; returns the final room."""
    watcher.until(lambda r: r["match"] is not None)
    for _ in range(limit):
        room = watcher.room
        match = room["match"]
        if match["over"]:
            return room
        seat = match["actor"]
        if seat in players:
            p = players[seat]
            choice = match["legal"][0]
            if choice == "roll":
                p.send(type="roll", version=room["version"])
            else:
                p.send(type="act", action=choice, version=room["version"])
        watcher.until(lambda r, v=room["version"]: r["version"] > v)
    raise AssertionError("the match did not end")


def event_count(db_url: str, code: str) -> int:
    from shipcaptaincrew.web.settings import Settings

    engine = create_engine(Settings(db_url=db_url).sqlalchemy_url())
    try:
        with engine.connect() as conn:
            room_id = conn.scalar(select(Room.id).where(Room.code == code))
            return int(
                conn.scalar(select(func.count()).select_from(Event).where(Event.room_id == room_id))
                or 0
            )
    finally:
        engine.dispose()


def test_full_match_with_bot_summary_and_verify(
    client: Any, players: list[Player], db_url: str
) -> None:
    code, tokens = open_table(
        client, ["Anna", "Bo"], ["easy"], settings=["format=rounds:3"], publish=True
    )
    a, b = Player(client, code, tokens[0]), Player(client, code, tokens[1])
    players += [a, b]
    assert (a.seat, b.seat) == (0, 1)
    assert (
        client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]}).status_code
        == 200
    )
    a.until(lambda r: r["status"] == "playing")
    commitment = a.room["commitment"]
    assert a.room["server_seed"] is None and len(commitment) == 64
    # Every broadcast comes after its event is in the database.
    seen_versions = []
    orig_next = a.next

    def checked_next(kind: str | None = None) -> dict[str, Any]:
        msg = orig_next(kind)
        if msg["type"] == "room" and msg["room"]["status"] != "lobby":
            assert event_count(db_url, code) >= msg["room"]["version"]
            seen_versions.append(msg["room"]["version"])
        return msg

    a.next = checked_next  # type: ignore[method-assign]
    final = play_out({0: a, 1: b}, a)
    assert seen_versions and final["status"] == "over"
    match = final["match"]
    assert match["winner"] in (0, 1, 2) and len(match["results"]) >= 3
    assert final["server_seed"] and final["commitment"] == commitment
    assert any("wins the match" in line for line in a.lines)
    v = client.get(f"/api/matches/{code}/verify").json()
    assert v["ok"] and v["problems"] == [] and v["dice"] > 0
    # The downloaded log replays with the engine to the same final scores.
    log = MatchLog.from_jsonl(client.get(f"/api/matches/{code}/log").text)
    end = replay(log)
    assert list(end.totals) == match["totals"] and end.winner == match["winner"]
    assert log.server_seed == final["server_seed"]
    steps = client.get(f"/api/matches/{code}/replay").json()["steps"]
    assert len(steps) == len(log.events) + 1 and steps[-1]["match"]["totals"] == match["totals"]
    history = client.get("/api/matches").json()
    assert [h["code"] for h in history] == [code]
    board = {r["name"]: r for r in client.get("/api/stats/leaderboard").json()}
    assert set(board) == {"Anna", "Bo", "Bot 1"}
    assert sum(r["wins"] for r in board.values()) == 1
    assert board[final["players"][match["winner"]]["name"]]["wins"] == 1
    assert all(r["matches"] == 1 for r in board.values())


def test_the_picture_tells_the_table_what_happened(client: Any, players: list[Player]) -> None:
    """Moments on the broadcasts of the events that make them, the last round's card on every
    picture after it, the podium at the end, names and levels in each player's language."""
    r = client.post(
        "/api/rooms",
        json={"name": "Anna", "settings": ["format=rounds:2", "starter=chosen"], "avatar": "🐙"},
    )
    code, host = r.json()["code"], r.json()["token"]
    bo = client.post(f"/api/rooms/{code}/join", json={"name": "Bo", "color": 5}).json()["token"]
    client.post(f"/api/rooms/{code}/bots", json={"level": "easy"}, headers={"X-Seat-Token": host})
    a, b = Player(client, code, host), Player(client, code, bo, lang="de")
    players += [a, b]
    with client.websocket_connect(f"/ws/rooms/{code}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": bo}))
        welcome = ws.receive_json()
    assert welcome == {
        "type": "welcome",
        "seat": 1,
        "host": 0,
        "you": {"seat": 1, "name": "Bo"},
        "reactions": list(REACTIONS),
    }
    assert a.room["host"] == 0 and a.room["title"] == "Classic 6-5-4 · 2 rounds · chosen starter"
    assert b.room["title"] == "Klassisches 6-5-4 · 2 Runden · gewählter Startspieler"
    looks = [(p["color"], p["avatar"], p["level"]) for p in a.room["players"]]
    assert looks[0][1] == "🐙" and looks[1][0] == 5 and looks[2][2] == "easy"
    assert a.room["players"][2]["level_label"] == "Easy"
    assert b.room["players"][2]["level_label"] == "Leicht"
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": host})
    final = play_out({0: a, 1: b}, a)
    pictures = [m["room"] for m in a.seen if m["type"] == "room" and m["room"]["match"]]
    moments = [p["moment"] for p in pictures if p["moment"]]
    kinds = [m["kind"] for m in moments]
    assert kinds.count("turn_end") >= 3 and kinds.count("round_end") >= 1
    assert kinds[-1] == "match_end" and moments[-1]["round"]["kind"] == "round_end"
    for m in moments:
        assert m["kind"] != "turn_end" or m["text"].startswith(
            tuple(p["name"] for p in final["players"])
        )
    first_round = next(m for m in moments if m["kind"] == "round_end")
    later = [p for p in pictures if p["match"]["rounds_played"] >= 1]
    assert all(p["last_result"]["round_no"] >= 1 for p in later)
    assert later[0]["last_result"] == {
        k: v for k, v in first_round.items() if k not in ("turn", "rolloff")
    }
    podium = final["podium"]
    assert podium["winner"] == final["match"]["winner"] and len(podium["ranking"]) == 3
    assert podium["decided_by"] in ("totals", "tie_break") and podium["why"]
    assert b.until(lambda r: r["podium"])["podium"]["why"] != podium["why"]  # in German for Bo
    # A picture that follows no event holds no moment (a reload draws last_result instead).
    again = Player(client, code, None)
    players.append(again)
    assert again.room["moment"] is None and again.room["podium"] == podium


def test_tie_break_is_played_out(client: Any, players: list[Player]) -> None:
    """A 3-round match between two bots and a person, until one ends in a tie-break contest
    (each attempt with dice of its own: the server's seed is fixed, the client seed is not)."""
    for attempt in range(40):
        code, tokens = open_table(
            client,
            [f"Ann{attempt}"],
            ["easy", "easy"],
            settings=["format=rounds:3"],
            client_seed=f"attempt {attempt}",
        )
        a = Player(client, code, tokens[0])
        players.append(a)
        client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
        a.until(lambda r: r["status"] == "playing")
        final = play_out({0: a}, a)
        ties = [line for line in a.lines if line.startswith(("Tie between", "Tie for the match"))]
        if ties:
            assert final["match"]["over"] and final["match"]["winner"] is not None
            assert any(r["tie_breaks"] > 0 for r in final["match"]["results"]) or any(
                "Tie for the match" in line for line in ties
            )
            return
    pytest.fail("no tie-break in 40 matches")


def test_refusals_go_to_that_player_only(client: Any, players: list[Player]) -> None:
    code, tokens = open_table(client, ["Anna", "Bo"], settings=["starter=chosen"])
    a, b = Player(client, code, tokens[0]), Player(client, code, tokens[1])
    spectator = Player(client, code, None)
    players += [a, b, spectator]
    assert spectator.seat is None
    # Before the start.
    a.send(type="roll", version=0)
    assert a.next("error")["code"] == "not_started"
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    for p in (a, b, spectator):
        p.until(lambda r: r["status"] == "playing")
    assert a.room["match"]["actor"] == 0 and a.room["match"]["legal"] == ["roll"]
    # Out of turn.
    b.send(type="roll", version=0)
    err = b.next("error")
    assert err["code"] == "not_your_turn" and "not your turn" in err["message"]
    # Stale version.
    a.send(type="roll", version=7)
    assert a.next("error")["code"] == "stale"
    # A client cannot choose dice.
    a.send(type="act", action="roll:65466", version=0)
    assert a.next("error")["code"] == "illegal"
    # Not an action at all / not a legal one.
    a.send(type="act", action="jump", version=0)
    assert a.next("error")["code"] == "not_an_action"
    a.send(type="act", action="stand", version=0)
    assert a.next("error")["code"] == "illegal"
    # Spectators watch only.
    spectator.send(type="roll", version=0)
    assert spectator.next("error")["code"] == "spectator"
    # Malformed, oversized, unknown fields.
    a.send(type="act", action="stand")
    assert a.next("error")["code"] == "invalid"
    a.ws.send_text("{not json")
    assert a.next("error")["code"] == "invalid"
    a.send(type="act", action="stand", version=0, faces=[6, 6])
    assert a.next("error")["code"] == "invalid"
    a.ws.send_text(json.dumps({"type": "ping", "pad": "x" * 5000}))
    assert a.next("error")["code"] == "too_big"
    # Nobody else heard about any of it, and nothing happened.
    a.send(type="roll", version=0)
    a.until(lambda r: r["version"] == 1)
    b.until(lambda r: r["version"] == 1)
    assert [m["code"] for m in b.seen if m["type"] == "error"] == ["not_your_turn"]
    assert [m["code"] for m in spectator.seen if m["type"] == "error"] == ["spectator"]


def test_refusals_are_in_the_connection_s_language(client: Any, players: list[Player]) -> None:
    """The server's own sentence and the engine's refusal inside it, both in German."""
    code, tokens = open_table(client, ["Anna", "Bo"], settings=["starter=chosen"])
    a, b = Player(client, code, tokens[0], lang="de"), Player(client, code, tokens[1], lang="nb")
    players += [a, b]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    a.until(lambda r: r["status"] == "playing")
    b.send(type="roll", version=0)
    assert b.next("error")["message"] == "Det er ikke din tur."
    a.send(type="act", action="jump", version=0)
    err = a.next("error")
    assert err["code"] == "not_an_action" and "is not an action" not in err["message"]
    assert err["message"].startswith("Das ist in diesem Spiel keine Wahl")
    a.send(type="act", action="stand")
    err = a.next("error")
    assert err == {
        "type": "error",
        "code": "invalid",
        "message": "Version: Bitte ausfüllen.",
        "field": "version",
    }
    a.send(type="roll", version=0, faces=[6, 5, 4, 3, 2])  # a fair room: the server rolls
    assert a.next("error")["code"] == "bad_dice"
    a.send(type="hello", lang="en")  # a change of language applies from now on
    b.send(type="hello", lang="en")
    b.send(type="roll", version=0)
    assert b.next("error")["message"] == "It is not your turn."


def test_seat_tokens_never_leak(client: Any, players: list[Player]) -> None:
    code, tokens = open_table(client, ["Anna", "Bo"], ["easy"])
    assert all(len(t) >= 22 for t in tokens)  # token_urlsafe(32): 256 bits
    a, b, s = (
        Player(client, code, tokens[0]),
        Player(client, code, tokens[1]),
        Player(client, code, None),
    )
    players += [a, b, s]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    play_out({0: a, 1: b}, a)
    s.until(lambda r: r["match"] is not None and r["match"]["over"])
    public = client.get(f"/api/rooms/{code}").text + client.get(f"/api/matches/{code}/log").text
    everything = public + json.dumps(a.seen) + json.dumps(b.seen) + json.dumps(s.seen)
    for token in tokens:
        assert token not in everything
    # Even hashes of tokens stay on the server.
    from shipcaptaincrew.web.table.seats import hash_token

    assert all(hash_token(t) not in everything for t in tokens)


def test_reconnect_gets_the_seat_back(client: Any, players: list[Player]) -> None:
    code, tokens = open_table(client, ["Anna", "Bo"], settings=["starter=chosen"])
    a = Player(client, code, tokens[0])
    players.append(a)
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    a.until(lambda r: r["status"] == "playing")
    a.send(type="roll", version=0)
    a.until(lambda r: r["version"] == 1)
    a.close()
    players.remove(a)
    again = Player(client, code, tokens[0])
    players.append(again)
    assert again.seat == 0 and again.room["version"] == 1
    assert again.lines  # the story so far is sent again
    if again.room["match"]["actor"] == 0:
        choice = again.room["match"]["legal"][0]
        if choice == "roll":
            again.send(type="roll", version=1)
        else:
            again.send(type="act", action=choice, version=1)
        again.until(lambda r: r["version"] == 2)


def test_bad_token_is_refused(client: Any) -> None:
    code, _ = open_table(client, ["Anna", "Bo"])
    with client.websocket_connect(f"/ws/rooms/{code}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": "x" * 43}))
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "bad_token"


@pytest.mark.parametrize("lang", ["de", "nb"])
def test_a_refused_hello_is_answered_in_its_language(client: Any, lang: str) -> None:
    """A hello names its language: its refusal (here a wrong token) is in it, not the table's."""
    code, _ = open_table(client, ["Anna", "Bo"])
    wanted = RoomError(ErrorCode.BAD_TOKEN, E.BAD_TOKEN, 403).message(lang)["message"]
    assert wanted != RoomError(ErrorCode.BAD_TOKEN, E.BAD_TOKEN, 403).message("en")["message"]
    with client.websocket_connect(f"/ws/rooms/{code}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": "x" * 43, "lang": lang}))
        msg = ws.receive_json()
        assert msg == {"type": "error", "code": "bad_token", "message": wanted}


def test_rate_limit(make_client: Any, players: list[Player]) -> None:
    client = make_client(rate_per_second=0.001, rate_burst=5)  # no refill during the test
    code, tokens = open_table(client, ["Anna", "Bo"])
    a = Player(client, code, tokens[0])
    players.append(a)
    for _ in range(8):
        a.send(type="ping")
    kinds: list[str] = []
    while len(kinds) < 8:
        kind = a.next()["type"]
        if kind != "room":
            kinds.append(kind)
    assert kinds.count("pong") == 5 and kinds.count("error") == 3


def test_advice_and_hints_off(client: Any, players: list[Player]) -> None:
    for hints in (True, False):
        code, tokens = open_table(client, ["Anna", "Bo"], hints=hints, settings=["starter=chosen"])
        a = Player(client, code, tokens[0])
        players.append(a)
        client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
        a.until(lambda r: r["status"] == "playing")
        # Roll until there is a choice to advise on (or the turn passes).
        while a.room["match"]["actor"] == 0 and a.room["match"]["legal"] == ["roll"]:
            a.send(type="roll", version=a.room["version"])
            a.until(lambda r, v=a.room["version"]: r["version"] > v)
        a.send(type="advice", version=a.room["version"])
        msg = a.next()
        while msg["type"] == "room":
            msg = a.next()
        if not hints:
            assert msg["type"] == "error" and msg["code"] == "hints_off"
        elif a.room["match"]["actor"] == 0:
            assert msg["type"] == "advice"
            assert {c["action"] for c in msg["choices"]} == set(a.room["match"]["legal"])
            assert all(0 <= c["win_probability"] <= 1 for c in msg["choices"])
        else:
            assert msg["type"] == "error" and msg["code"] == "no_advice"


def test_turn_timer_plays_for_an_absent_player(client: Any, players: list[Player]) -> None:
    code, tokens = open_table(client, ["Anna", "Bo"], turn_timer=5, settings=["starter=chosen"])
    watcher = Player(client, code, None)
    players.append(watcher)
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    watcher.until(lambda r: r["status"] == "playing")
    assert watcher.room["deadline_ms"] is not None
    service = client.app.state.service
    room = service.room(code)
    room.turn_timer = 0.05  # the schema's minimum is 5 s; shorten it for the test
    client.portal.call(service.schedule, room)  # restart the running 5 s timer
    final = watcher.until(lambda r: r["match"]["over"], limit=5000)
    assert final["match"]["winner"] in (0, 1)
    # Every move was made for the players by a bot once their time ran out, and the table was
    # told so: the message, the first line of each turn played for them, and each turn's
    # moment.
    moves = [m for m in watcher.seen if m["type"] == "room" and m["lines"] and not m.get("history")]
    assert moves and all(m["by_timer"] for m in moves)
    firsts = [m for m in moves if m["lines"][0].startswith("Time is up for ")]
    moments = [m["room"]["moment"] or {} for m in moves]
    turns = [m if m.get("kind") == "turn_end" else m.get("turn") for m in moments]
    turns = [t for t in turns if t]
    assert turns and all(t["by"] == "timer" for t in turns)
    assert len(firsts) == len(turns)  # once a turn: the timer plays the whole turn
    # The stored events say so too, so a newcomer's story says it after a restart as well.
    log = client.get(f"/api/matches/{code}/log").text
    assert log.count('"by": "timer"') == final["version"]
    late = Player(client, code, None, lang="de")
    players.append(late)
    assert any(line.startswith("Die Zeit ist um für ") for line in late.lines)


def test_the_host_s_role_passes_on_when_the_host_stays_away(
    make_client: Any, players: list[Player]
) -> None:
    client = make_client(host_grace=0.2)
    code, tokens = open_table(client, ["Anna", "Bo", "Cy"])
    anna, bo = Player(client, code, tokens[0]), Player(client, code, tokens[1])
    players += [anna, bo]
    assert bo.room["host"] == 0
    anna.close()
    players.remove(anna)
    assert bo.until(lambda r: r["host"] != 0)["host"] == 1  # Cy is not online: Bo, next after
    as_bo, as_anna = {"X-Seat-Token": tokens[1]}, {"X-Seat-Token": tokens[0]}
    assert client.post(f"/api/rooms/{code}/bots", json={}, headers=as_bo).status_code == 201
    assert client.post(f"/api/rooms/{code}/bots", json={}, headers=as_anna).json()["code"] == (
        "not_host"
    )
    back = Player(client, code, tokens[0])  # Anna comes back: Bo stays host
    players.append(back)
    assert back.room["host"] == 1
    assert client.delete(f"/api/rooms/{code}/seats/1", headers=as_bo).json()["code"] == "host_seat"
    assert client.delete(f"/api/rooms/{code}/seats/0", headers=as_bo).status_code == 200
    assert client.get(f"/api/rooms/{code}").json()["host"] == 0  # Bo moved up to seat 0
    assert client.post(f"/api/rooms/{code}/start", headers=as_bo).status_code == 200


def test_joining_a_finished_room_says_so(client: Any, players: list[Player]) -> None:
    code, tokens = open_table(client, ["Anna", "Bo"])
    a, b = Player(client, code, tokens[0]), Player(client, code, tokens[1])
    players += [a, b]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    r = client.post(f"/api/rooms/{code}/join", json={"name": "Late"})
    assert r.json()["code"] == "started" and "next match" in r.json()["detail"]
    play_out({0: a, 1: b}, a)
    r = client.post(f"/api/rooms/{code}/join?lang=nb", json={"name": "Later"})
    assert r.status_code == 409 and r.json()["code"] == "over"
    assert r.json()["replay"] == f"/replay/{code}" and f"/replay/{code}" in r.json()["detail"]
    assert r.json()["detail"].startswith("Dette partiet er over")


def test_restart_resumes_from_the_database(make_client: Any, players: list[Player]) -> None:
    first = make_client()
    code, tokens = open_table(first, ["Anna", "Bo"], settings=["starter=chosen", "format=rounds:3"])
    a = Player(first, code, tokens[0])
    players.append(a)
    first.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    a.until(lambda r: r["status"] == "playing")
    a.send(type="roll", version=0)
    before = a.until(lambda r: r["version"] == 1)
    a.close()
    players.remove(a)
    first.__exit__(None, None, None)
    second = make_client()
    a2, b2 = Player(second, code, tokens[0]), Player(second, code, tokens[1])
    players += [a2, b2]
    assert a2.room["match"] == before["match"]
    final = play_out({0: a2, 1: b2}, a2)
    assert final["status"] == "over"
    assert second.get(f"/api/matches/{code}/verify").json()["ok"]


def test_drinking_hand_out_and_pot(client: Any, players: list[Player]) -> None:
    """The captain hands out sips (sip:N choices) and the pot moves chips; all via the engine."""
    code, tokens = open_table(
        client,
        ["Anna", "Bo"],
        ["medium"],
        settings=["drinking=captain_hands_out", "stakes=pot", "format=rounds:3"],
    )
    a, b = Player(client, code, tokens[0]), Player(client, code, tokens[1])
    players += [a, b]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    seen_sip_choice = False
    orig = a.next

    def spy(kind: str | None = None) -> dict[str, Any]:
        nonlocal seen_sip_choice
        msg = orig(kind)
        m = msg.get("room", {}).get("match") if msg["type"] == "room" else None
        # A person's hand-out (the bot's choices are broadcast too, but it makes them itself).
        if m and m["actor"] in (0, 1) and any(x.startswith("sip:") for x in m["legal"]):
            seen_sip_choice = True
        return msg

    a.next = spy  # type: ignore[method-assign]
    final = play_out({0: a, 1: b}, a)["match"]
    assert final["over"]
    assert sum(final["chips"]) + final["pot"] == 3 * 10  # chips are only ever moved
    assert all(r["winner"] is not None for r in final["results"])  # classic: no round is lost
    assert any("gives a sip to" in line for line in a.lines) and sum(final["sips"]) > 0
    human_captain = any(
        final["results"][i]["winner"] in (0, 1) for i in range(len(final["results"]))
    )
    assert seen_sip_choice == human_captain
