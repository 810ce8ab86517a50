"""What the crew tests share: a crew started and joined through the API, a crew's match
played over WebSockets with scripted choices, waiting for the match to be recorded, and the
test's own recomputation of the ratings with OpenSkill from the stored podiums.

A helper module, not a test file: the crew test files import it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

from shipcaptaincrew.notation import MatchLog, replay_states

from .conftest import Player

#: Chooses an action from the picture (``None``: the first legal one).
Chooser = Callable[[dict[str, Any]], str]


@dataclass
class Crew:
    """A crew as the test knows it: its id, invite and each member's key and id."""

    id: str
    invite: str
    keys: dict[str, str] = field(default_factory=dict)
    ids: dict[str, str] = field(default_factory=dict)

    def headers(self, name: str) -> dict[str, str]:
        return {"X-Member-Key": self.keys[name]}


def start_crew(client: Any, name: str, first: str, *others: str) -> Crew:
    r = client.post("/api/crews", json={"name": name, "member": first})
    assert r.status_code == 201, r.text
    body = r.json()
    crew = Crew(body["crew"], body["invite"], {first: body["member_key"]}, {first: body["member"]})
    for other in others:
        join(client, crew, other)
    return crew


def join(client: Any, crew: Crew, name: str) -> None:
    r = client.post(f"/api/crews/{crew.id}/members", json={"invite": crew.invite, "member": name})
    assert r.status_code == 201, r.text
    crew.keys[name], crew.ids[name] = r.json()["member_key"], r.json()["member"]


@dataclass
class Table:
    """A crew's room: its code and every person's seat token, by name."""

    code: str
    tokens: dict[str, str]
    host: str


def crew_table(
    client: Any,
    crew: Crew,
    host: str,
    members: list[str],
    guests: list[str] = (),  # type: ignore[assignment]
    bots: list[str] = (),  # type: ignore[assignment]
) -> Table:
    """A room opened by ``host`` for the crew, the members seated by their keys, guests by
    name, bots by the host."""
    r = client.post("/api/rooms", json={"crew": crew.id}, headers=crew.headers(host))
    assert r.status_code == 201, r.text
    code, tokens = r.json()["code"], {host: r.json()["token"]}
    for name in members:
        r = client.post(f"/api/rooms/{code}/join", json={}, headers=crew.headers(name))
        assert r.status_code == 201, r.text
        tokens[name] = r.json()["token"]
    for name in guests:
        r = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert r.status_code == 201, r.text
        tokens[name] = r.json()["token"]
    for level in bots:
        r = client.post(
            f"/api/rooms/{code}/bots", json={"level": level}, headers={"X-Seat-Token": tokens[host]}
        )
        assert r.status_code == 201, r.text
    return Table(code, tokens, host)


def play(
    client: Any, table: Table, choose: Chooser | None = None, start: bool = True
) -> dict[str, Any]:
    """Start the table (``start``; a next match starts by itself) and play it out: every
    person's choice by ``choose`` (or the first legal one), the server's dice; returns the
    final picture."""
    players = {name: Player(client, table.code, tok) for name, tok in table.tokens.items()}
    try:
        if start:
            r = client.post(
                f"/api/rooms/{table.code}/start",
                headers={"X-Seat-Token": table.tokens[table.host]},
            )
            assert r.status_code == 200, r.text
        watcher = players[table.host]
        by_seat = {p.seat: p for p in players.values()}
        watcher.until(lambda room: room["match"] is not None)
        for _ in range(3000):
            room = watcher.room
            match = room["match"]
            if match["over"]:
                return room
            seat = match["actor"]
            if seat in by_seat:
                p = by_seat[seat]
                choice = match["legal"][0] if choose is None else choose(room)
                if choice == "roll":
                    p.send(type="roll", version=room["version"])
                else:
                    p.send(type="act", action=choice, version=room["version"])
            watcher.until(lambda r, v=room["version"]: r["version"] > v)
        raise AssertionError("the match did not end")
    finally:
        for p in players.values():
            p.close()


def recorded(client: Any, crew: Crew, member: str, matches: int, **params: Any) -> dict[str, Any]:
    """The crew's answer once ``matches`` matches are recorded (recording runs in the
    background once a match is over)."""
    body: dict[str, Any] = {}
    for _ in range(600):
        r = client.get(f"/api/crews/{crew.id}", headers=crew.headers(member), params=params)
        assert r.status_code == 200, r.text
        body = r.json()
        if body["matches"] >= matches and body["pending"] == 0:
            return body
        time.sleep(0.05)
    raise AssertionError(f"not recorded: {body.get('matches')} of {matches}")


def stored_podiums(db_url: str, crew: str) -> list[list[tuple[str, str, int]]]:
    """Every recorded match of a crew as the database holds it, oldest first: per seat
    (name, kind, place) -- read with plain SQL, not the server's code."""
    from shipcaptaincrew.web.settings import Settings

    engine = create_engine(Settings(db_url=db_url).sqlalchemy_url())
    try:
        with engine.connect() as c:
            rows = c.execute(
                text(
                    "SELECT l.room_id, l.name, l.kind, l.place FROM crew_lines l "
                    "JOIN crew_rooms r ON r.room_id = l.room_id JOIN crews c ON c.id = r.crew_id "
                    "WHERE c.public_id = :crew ORDER BY r.played_at, l.room_id, l.position"
                ),
                {"crew": crew},
            ).all()
    finally:
        engine.dispose()
    out: dict[int, list[tuple[str, str, int]]] = {}
    for room, name, kind, place in rows:
        out.setdefault(room, []).append((name, kind, place))
    return list(out.values())


def openskill_ratings(podiums: list[list[tuple[str, str, int]]]) -> dict[str, tuple[float, float]]:
    """The ratings OpenSkill gives these podiums, one match after another (each seat a team
    of one, ranked by place, ties as ties): name (bots: ``bot:LEVEL``) -> (mu, sigma)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    for podium in podiums:
        keys = [name if kind == "human" else f"bot:{kind}" for name, kind, _ in podium]
        teams = [[ratings.setdefault(k, model.rating())] for k in keys]
        new = model.rate(teams, ranks=[float(place) for _, _, place in podium])
        for k, team in zip(keys, new):
            ratings[k] = team[0]
    return {k: (r.mu, r.sigma) for k, r in ratings.items()}


def set_clock(path: Path, when: str) -> None:
    """The server's clock (``Settings.clock_file``) at ``when``, written whole at once (a
    server reading it mid-write would find it empty)."""
    part = path.with_name(path.name + ".part")
    part.write_text(when)
    os.replace(part, path)


def podium_by_hand(client: Any, code: str) -> list[tuple[str, int]]:
    """A classic match's places from its log: the winner first, the others by their
    points, equal points sharing a place."""
    log = MatchLog.from_jsonl(client.get(f"/api/matches/{code}/log").text)
    final = replay_states(log)[-1][0]
    order = sorted(range(final.players), key=lambda s: (s != final.winner, -final.totals[s]))
    places: dict[int, int] = {}
    for i, s in enumerate(order):
        prev = order[i - 1] if i else None
        same = prev is not None and prev != final.winner and final.totals[prev] == final.totals[s]
        places[s] = places[prev] if same and prev is not None else i + 1
    return [(log.players[s], places[s]) for s in range(final.players)]


def place_of(match: list[tuple[str, int]], name: str) -> int:
    return next(p for n, p in match if n == name)


def counts_by_hand(client: Any, codes: list[str]) -> dict[str, dict[str, int]]:
    """Crews completed and turns ending on 6+6 cargo, per name, from the logs' events."""
    from shipcaptaincrew.engine import apply, is_terminal, seat_to_act
    from shipcaptaincrew.state import Phase

    out: dict[str, dict[str, int]] = {}
    for code in codes:
        log = MatchLog.from_jsonl(client.get(f"/api/matches/{code}/log").text)
        states = replay_states(log)
        for (before, _), (_, action) in zip(states, states[1:]):
            if before.phase is not Phase.TURN or before.turn is None or action is None:
                continue
            turn = apply(before.turn, action)
            seat = seat_to_act(before)
            if is_terminal(turn) and seat is not None:
                mine = out.setdefault(log.players[seat], {"crews": 0, "twelves": 0})
                mine["crews"] += turn.complete
                mine["twelves"] += turn.complete and tuple(turn.cargo) == (6, 6)
    return out
