"""A crew is its members' alone: what a stranger with a room code, an old room code, a crew id
or a guessed address gets (nothing about the crew or its members), the server's public lists
(only what a table published), a member moving to a new phone (the rating stays), and a
removed member's phone (no access).

Runs on a temporary SQLite file and on PostgreSQL.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .conftest import Player, open_table
from .crews import Crew, crew_table, play, recorded, set_clock, start_crew
from .test_protocol import play_out


def secrets_of(crew: Crew) -> list[str]:
    """What must never reach a stranger: the crew's id, name, invite, keys, member ids and the
    names of members who were not at the table."""
    invite = crew.invite.split("#invite=")[1]
    return [crew.id, "Friday Club", invite, *crew.keys.values(), *crew.ids.values(), "Dora"]


def visible(text: str, crew: Crew) -> list[str]:
    return [s for s in secrets_of(crew) if s in text]


def test_a_stranger_learns_nothing_about_a_crew(client: Any, players: list[Player]) -> None:
    crew = start_crew(client, "Friday Club", "Anna", "Bo", "Dora")
    table = crew_table(client, crew, "Anna", ["Bo"], guests=["Gus"])
    code = table.code
    # With the live room's code: the room's picture, the lobby, the live table.
    seen = [client.get(f"/api/rooms/{code}").text]
    stranger = Player(client, code, None)
    players.append(stranger)
    seen.append(json.dumps(stranger.room))
    final = play(client, table)
    assert final["status"] == "over"
    recorded(client, crew, "Anna", 1)
    # With the old code: the finished room, its replay, log, verification, the live picture.
    for path in ("", "/replay", "/log", "/verify"):
        url = f"/api/rooms/{code}" if not path else f"/api/matches/{code}{path}"
        r = client.get(url)
        assert r.status_code == 200
        seen.append(r.text)
    late = Player(client, code, None)
    players.append(late)
    seen.append(json.dumps(late.room))
    # A seat at another table asks for the crew it was kept as: none.
    other, tokens = open_table(client, ["Eve", "Finn"])
    seen.append(client.get(f"/api/rooms/{code}/crew", headers={"X-Seat-Token": tokens[0]}).text)
    seen.append(client.get(f"/api/rooms/{code}/crew").text)
    for text in seen:
        assert visible(text, crew) == [], text[:300]
    # With the crew's id, a guessed one, another crew's key or a made-up key: one same 404.
    other_crew = start_crew(client, "Elsewhere", "Eve")
    answers = []
    for crew_id, headers in (
        (crew.id, {}),
        (crew.id, {"X-Member-Key": "x" * 43}),
        (crew.id, other_crew.headers("Eve")),
        ("A" * 16, crew.headers("Anna")),
        ("A" * 16, {}),
    ):
        for path in ("", "/me", "/matches", "/export", f"/rooms/{code}"):
            r = client.get(f"/api/crews/{crew_id}{path}", headers=headers)
            answers.append((r.status_code, r.json()))
    assert {json.dumps(a, sort_keys=True) for a in answers} == {
        json.dumps([404, answers[0][1]], sort_keys=True)
    }
    assert answers[0][1]["code"] == "no_crew"
    # Guessed pages answer the same page whether the crew exists or not.
    assert client.get(f"/c/{crew.id}").text == client.get("/c/" + "A" * 16).text
    # A member of another crew cannot seat themself at this crew's table, nor open one for it.
    r = client.post(f"/api/rooms/{other}/join", json={}, headers=crew.headers("Bo"))
    assert r.status_code == 409 and r.json()["code"] == "no_crew"
    r = client.post("/api/rooms", json={"crew": crew.id}, headers=other_crew.headers("Eve"))
    assert r.status_code == 404


def test_the_public_lists_show_only_what_a_table_published(make_client: Any) -> None:
    client = make_client()
    quiet, q_tokens = open_table(client, ["Anna", "Bo"])
    loud, l_tokens = open_table(client, ["Cy", "Dan"], publish=True)
    for code, tokens in ((quiet, q_tokens), (loud, l_tokens)):
        ps = {i: Player(client, code, t) for i, t in enumerate(tokens)}
        client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
        assert play_out(ps, ps[0])["status"] == "over"
        for p in ps.values():
            p.close()
    assert [m["code"] for m in client.get("/api/matches").json()] == [loud]
    board = {r["name"] for r in client.get("/api/stats/leaderboard").json()}
    assert board == {"Cy", "Dan"}
    assert client.get("/api/stats/players/Anna").json() == []
    # A private server on a home network keeps its open lists.
    open_client = make_client(open_lists=True)
    assert {m["code"] for m in open_client.get("/api/matches").json()} == {quiet, loud}
    board = {r["name"] for r in open_client.get("/api/stats/leaderboard").json()}
    assert board == {"Anna", "Bo", "Cy", "Dan"}


def test_a_member_moves_to_a_new_phone_and_keeps_their_rating(client: Any) -> None:
    crew = start_crew(client, "Friday Club", "Anna", "Bo")
    play(client, crew_table(client, crew, "Anna", ["Bo"]))
    before = recorded(client, crew, "Bo", 1)
    bo_before = next(r for r in before["ratings"] if r["name"] == "Bo")
    old = crew.headers("Bo")
    r = client.post(f"/api/crews/{crew.id}/links", json={"kind": "move"}, headers=old)
    assert r.status_code == 201
    link = r.json()["link"]
    assert link.startswith(f"http://testserver/c/{crew.id}#link=")
    r = client.post(f"/api/crews/{crew.id}/claim", json={"link": link})
    assert r.status_code == 201 and r.json()["member"] == crew.ids["Bo"]
    new = {"X-Member-Key": r.json()["member_key"]}
    after = client.get(f"/api/crews/{crew.id}", headers=new).json()
    bo_after = next(r for r in after["ratings"] if r["name"] == "Bo")
    assert bo_after == bo_before and bo_after["matches"] == 1
    assert client.get(f"/api/crews/{crew.id}/me", headers=new).json()["name"] == "Bo"
    # The old phone moved away: no access; the link works once.
    assert client.get(f"/api/crews/{crew.id}", headers=old).status_code == 404
    again = client.post(f"/api/crews/{crew.id}/claim", json={"link": link})
    assert again.status_code == 404 and again.json()["code"] == "no_crew"
    # Another screen (a table screen): both keep access.
    r = client.post(f"/api/crews/{crew.id}/links", json={"kind": "screen"}, headers=new)
    screen = client.post(f"/api/crews/{crew.id}/claim", json={"link": r.json()["link"]}).json()
    for headers in (new, {"X-Member-Key": screen["member_key"]}):
        assert client.get(f"/api/crews/{crew.id}", headers=headers).status_code == 200
    # The new phone seats Bo as himself.
    r = client.post("/api/rooms", json={"crew": crew.id}, headers=crew.headers("Anna"))
    joined = client.post(f"/api/rooms/{r.json()['code']}/join", json={}, headers=new)
    assert joined.status_code == 201 and joined.json()["seat"] == 1


def test_a_lost_phone_a_new_invite_and_an_old_link(make_client: Any, tmp_path: Path) -> None:
    clock = tmp_path / "clock"
    set_clock(clock, "2025-11-07T20:00:00+00:00")
    client = make_client(clock_file=str(clock))
    crew = start_crew(client, "Friday Club", "Anna", "Bo")
    lost = crew.headers("Bo")
    r = client.post(
        f"/api/crews/{crew.id}/members/{crew.ids['Bo']}/link", headers=crew.headers("Anna")
    )
    assert r.status_code == 201
    fresh = client.post(f"/api/crews/{crew.id}/claim", json={"link": r.json()["link"]}).json()
    assert client.get(f"/api/crews/{crew.id}", headers=lost).status_code == 404
    assert (
        client.get(
            f"/api/crews/{crew.id}", headers={"X-Member-Key": fresh["member_key"]}
        ).status_code
        == 200
    )
    # Only an admin makes a new invite for someone else.
    r = client.post(
        f"/api/crews/{crew.id}/members/{crew.ids['Anna']}/link",
        headers={"X-Member-Key": fresh["member_key"]},
    )
    assert r.status_code == 403
    # A link that waited too long is refused.
    r = client.post(f"/api/crews/{crew.id}/links", json={}, headers=crew.headers("Anna"))
    set_clock(clock, "2025-11-07T21:00:00+00:00")
    late = client.post(f"/api/crews/{crew.id}/claim", json={"link": r.json()["link"]})
    assert late.status_code == 404 and "too old" in late.json()["detail"]


def test_a_removed_member_s_phone_loses_access(client: Any) -> None:
    crew = start_crew(client, "Friday Club", "Anna", "Bo", "Cy")
    play(client, crew_table(client, crew, "Anna", ["Bo", "Cy"]))
    recorded(client, crew, "Cy", 1)
    r = client.delete(f"/api/crews/{crew.id}/members/{crew.ids['Cy']}", headers=crew.headers("Bo"))
    assert r.status_code == 403  # (Bo is no admin)
    r = client.delete(
        f"/api/crews/{crew.id}/members/{crew.ids['Cy']}", headers=crew.headers("Anna")
    )
    assert r.status_code == 200
    for path in ("", "/me", "/matches"):
        assert (
            client.get(f"/api/crews/{crew.id}{path}", headers=crew.headers("Cy")).status_code == 404
        )
    r = client.post("/api/rooms", json={"crew": crew.id}, headers=crew.headers("Cy"))
    assert r.status_code == 404
    # Their matches stay in the crew's history, under their name, among the others.
    body = recorded(client, crew, "Anna", 1)
    assert {m["name"] for m in body["members"]} == {"Anna", "Bo"}
    assert any(o["kind"] == "former" and o["name"] == "Cy" for o in body["others"])
    # The invite they saw still lets them back in only as long as an admin keeps it.
    r = client.post(f"/api/crews/{crew.id}/invite", headers=crew.headers("Anna"))
    renewed = r.json()["invite"]
    old = client.post(f"/api/crews/{crew.id}/members", json={"invite": crew.invite, "member": "Cy"})
    assert old.status_code == 404
    again = client.post(f"/api/crews/{crew.id}/members", json={"invite": renewed, "member": "Cy"})
    assert again.status_code == 201


def test_keep_this_crew_from_the_podium(client: Any, players: list[Player]) -> None:
    code, tokens = open_table(client, ["Anna", "Bo", "Cy"], ["easy"])
    ps = {i: Player(client, code, t) for i, t in enumerate(tokens)}
    players.extend(ps.values())
    r = client.post(
        "/api/crews",
        json={"name": "Friday Club", "member": "Anna"},
        headers={"X-Seat-Token": tokens[0]},
    )
    assert r.status_code == 409 and "once its match is over" in r.json()["detail"]
    client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    play_out(ps, ps[0])
    r = client.post(
        "/api/crews",
        json={"name": "Friday Club", "member": "Anna"},
        headers={"X-Seat-Token": tokens[0]},
    )
    assert r.status_code == 201
    made = r.json()
    crew = Crew(
        made["crew"], made["invite"], {"Anna": made["member_key"]}, {"Anna": made["member"]}
    )
    # Everyone at that table is invited: their podium finds the crew by their seat.
    kept = client.get(f"/api/rooms/{code}/crew", headers={"X-Seat-Token": tokens[1]})
    assert kept.json() == {"crew": crew.id, "name": "Friday Club"}
    r = client.post(
        f"/api/crews/{crew.id}/members", json={"table": code}, headers={"X-Seat-Token": tokens[1]}
    )
    assert r.status_code == 201
    crew.keys["Bo"], crew.ids["Bo"] = r.json()["member_key"], r.json()["member"]
    body = recorded(client, crew, "Bo", 1)
    assert body["matches"] == 1
    assert {f["member"] for f in body["form"]} == {crew.ids["Anna"], crew.ids["Bo"]}
    assert any(o["kind"] == "guest" and o["name"] == "Cy" for o in body["others"])
    # Nobody else joins by a seat: another table's token, a second keeping.
    _, others = open_table(client, ["Eve", "Finn"])
    r = client.post(
        f"/api/crews/{crew.id}/members", json={"table": code}, headers={"X-Seat-Token": others[0]}
    )
    assert r.status_code == 404
    r = client.post(
        "/api/crews", json={"name": "Again", "member": "Cy"}, headers={"X-Seat-Token": tokens[2]}
    )
    assert r.status_code == 409 and r.json()["code"] == "crew"
