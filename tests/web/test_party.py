"""The table as a party: emoji reactions, play again with the same table, seats for the next
match -- a real server on a real SQLite file (and PostgreSQL), every message through the
WebSocket."""

from __future__ import annotations

from typing import Any

from shipcaptaincrew.web.display.party import REACTIONS

from .conftest import Player, open_table
from .test_protocol import play_out


def test_reactions_reach_everyone_and_are_kept_nowhere(
    make_client: Any, players: list[Player]
) -> None:
    client = make_client(reaction_rate=0.001, reaction_burst=3)  # no refill during the test
    code, tokens = open_table(client, ["Anna", "Bo"])
    a, b, s = (
        Player(client, code, tokens[0]),
        Player(client, code, tokens[1]),
        Player(client, code, None),
    )
    players += [a, b, s]
    with client.websocket_connect(f"/ws/rooms/{code}") as ws:
        ws.send_text('{"type": "hello"}')
        assert ws.receive_json()["reactions"] == list(REACTIONS)
    a.send(type="react", emoji="🎉")
    s.send(type="react", emoji="🍻")
    for p in (a, b, s):
        assert p.next("reaction") == {"type": "reaction", "seat": 0, "emoji": "🎉"}
        assert p.next("reaction") == {"type": "reaction", "seat": None, "emoji": "🍻"}
    a.send(type="react", emoji="💩")
    err = a.next("error")
    assert err["code"] == "invalid" and err["field"] == "emoji"
    for _ in range(3):
        a.send(type="react", emoji="👍")
    got: list[dict[str, Any]] = []
    while len(got) < 3:
        got += [m for m in [a.next()] if m["type"] != "room"]
    assert sorted(m["type"] for m in got) == ["error", "reaction", "reaction"]  # burst spent
    assert next(m for m in got if m["type"] == "error")["code"] == "rate"
    assert client.get(f"/api/rooms/{code}").json()["version"] == 0  # nothing was played


def test_play_again_with_the_same_table(client: Any, players: list[Player]) -> None:
    code, tokens = open_table(
        client, ["Anna", "Bo"], ["easy"], settings=["starter=chosen", "format=rounds:2"]
    )
    a, b = Player(client, code, tokens[0]), Player(client, code, tokens[1], lang="de")
    cy, watcher = Player(client, code, None), Player(client, code, None)
    players += [a, b, cy, watcher]
    a.send(type="rematch", version=0)
    assert a.next("error")["code"] == "no_rematch"  # not even started
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    cy.send(type="seat_next", name="Cy", avatar="🦀")
    ack = cy.next("seat_next")
    assert ack["name"] == "Cy" and len(ack["token"]) >= 43
    cy.send(type="seat_next", name="Cy again")
    assert cy.next("error")["code"] == "no_rematch"
    watcher.send(type="seat_next", name="anna")
    assert watcher.next("error")["code"] == "name_taken"
    final = play_out({0: a, 1: b}, a)
    version = final["version"]
    assert final["rematch"] == {
        "confirmed": [2],  # the bot wants to play again by itself
        "needed": [0, 1],
        "moved_on": False,
        "next_seats": [{"name": "Cy", "color": None, "avatar": "🦀"}],
    }
    watcher.send(type="rematch", version=version)
    assert watcher.next("error")["code"] == "spectator"
    a.send(type="rematch", version=version - 1)
    assert a.next("error")["code"] == "stale"
    a.send(type="rematch", version=version)
    room = b.until(lambda r: (r["rematch"] or {}).get("confirmed") == [0, 2])
    assert room["rematch"]["needed"] == [1] and room["players"][0]["rematch"]
    b.send(type="rematch", version=version)
    moves = {p: p.next("moved") for p in (a, b, cy)}
    new = moves[a]["code"]
    assert {m["code"] for m in moves.values()} == {new} and new != code
    assert [moves[p]["seat"] for p in (a, b, cy)] == [0, 1, 3]
    assert moves[a]["token"] == tokens[0] and moves[cy]["token"] == ack["token"]
    # A spectator watching when it is made goes along (the code, no seat); the finished
    # room itself never shows it.
    assert watcher.next("moved") == {"type": "moved", "code": new}
    seen = watcher.until(lambda r: (r["rematch"] or {}).get("moved_on"))
    assert seen["rematch"]["needed"] == [] and new not in str(seen)
    assert new not in client.get(f"/api/rooms/{code}").text
    # The next match: the same seats and bot, the newcomer at the end, the start moved on by
    # the rules' rotation (the host chose seat 0 last time; classic rotates to the left).
    a2, b2, c2 = (Player(client, new, moves[p]["token"]) for p in (a, b, cy))
    players += [a2, b2, c2]
    nxt = a2.until(lambda r: r["match"] is not None)
    assert [p["name"] for p in nxt["players"]] == ["Anna", "Bo", "Bot 1", "Cy"]
    assert nxt["players"][2]["level"] == "easy" and nxt["players"][3]["avatar"] == "🦀"
    assert nxt["status"] == "playing" and nxt["match"]["actor"] == 1 and nxt["host"] == 0
    assert (a2.seat, b2.seat, c2.seat) == (0, 1, 3)
    # (Its dice come from a seed of its own, committed afresh like any new room's; the test
    # server's seed is fixed, so the commitment is the same one here.)
    assert nxt["commitment"] and nxt["code"] != code
    done = play_out({0: a2, 1: b2, 3: c2}, a2)
    assert done["status"] == "over" and done["podium"]["winner"] == done["match"]["winner"]
    # Coming back to the old room after the next one was made sends one on again.
    late = Player(client, code, tokens[1])
    players.append(late)
    assert late.next("moved")["code"] == new


def test_play_again_does_not_wait_for_someone_who_left(client: Any, players: list[Player]) -> None:
    code, tokens = open_table(client, ["Anna", "Bo", "Cy"], settings=["starter=chosen"])
    a, b, c = (Player(client, code, t) for t in tokens)
    players += [a, b, c]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    final = play_out({0: a, 1: b, 2: c}, a)
    a.send(type="rematch", version=final["version"])
    a.until(lambda r: (r["rematch"] or {}).get("confirmed") == [0])
    c.close()
    players.remove(c)
    a.until(lambda r: (r["rematch"] or {}).get("needed") == [1])
    b.send(type="rematch", version=final["version"])
    new = a.next("moved")["code"]
    assert b.next("moved") == {"type": "moved", "code": new, "token": tokens[1], "seat": 1}
    names = [p["name"] for p in client.get(f"/api/rooms/{new}").json()["players"]]
    assert names == ["Anna", "Bo"]
