"""A real server process killed mid-match and started again on the same database."""

from __future__ import annotations

import json
from typing import Any

import httpx
from websockets.sync.client import connect

from shipcaptaincrew.notation import MatchLog, replay_states

from .conftest import LiveServer


class WsPlayer:
    def __init__(self, server: LiveServer, code: str, token: str | None) -> None:
        self.ws = connect(
            f"ws://127.0.0.1:{server.port}/ws/rooms/{code}", open_timeout=60
        ).__enter__()
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.seat = json.loads(self.ws.recv(60))["seat"]
        self.room: dict[str, Any] = {}
        self.lines: list[str] = []

    def until(self, predicate: Any) -> dict[str, Any]:
        while not (self.room and predicate(self.room)):
            msg = json.loads(self.ws.recv(60))
            if msg["type"] == "room":
                self.room = msg["room"]
                self.lines += msg["lines"]
        return self.room

    def play(self, choice: str, version: int) -> None:
        msg = (
            {"type": "roll", "version": version}
            if choice == "roll"
            else {"type": "act", "action": choice, "version": version}
        )
        self.ws.send(json.dumps(msg))


def test_kill_and_restart_mid_match(sqlite_url: str) -> None:
    server = LiveServer(sqlite_url, SCC_RATE_PER_SECOND="1000", SCC_RATE_BURST="1000").start()
    try:
        api = httpx.Client(base_url=server.url, timeout=10)
        r = api.post(
            "/api/rooms", json={"name": "Anna", "settings": ["format=rounds:3", "starter=chosen"]}
        )
        code, host = r.json()["code"], r.json()["token"]
        bo = api.post(f"/api/rooms/{code}/join", json={"name": "Bo"}).json()["token"]
        api.post(
            f"/api/rooms/{code}/bots", json={"level": "medium"}, headers={"X-Seat-Token": host}
        )
        api.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": host})
        seats = {0: WsPlayer(server, code, host), 1: WsPlayer(server, code, bo)}
        watcher = seats[0]
        room = watcher.until(lambda r: r["status"] == "playing")

        # Play until the first round is over and the second under way.
        def mid_match(r: dict[str, Any]) -> bool:  # a person to act, so nothing moves while down
            return (
                r["match"]["rounds_played"] >= 1
                and r["version"] >= 12
                and r["match"]["actor"] in (0, 1)
            )

        while not mid_match(room):
            m = room["match"]
            if m["actor"] in seats:
                seats[m["actor"]].play(m["legal"][0], room["version"])
            room = watcher.until(lambda r, v=room["version"]: r["version"] > v)
        before = room
        server.kill()  # SIGKILL mid-match
        server.start()  # same port, same database
        seats = {0: WsPlayer(server, code, host), 1: WsPlayer(server, code, bo)}
        watcher = seats[0]
        room = watcher.until(lambda r: r["version"] >= before["version"])
        assert room["version"] == before["version"] and room["match"] == before["match"]
        assert room["commitment"] == before["commitment"]
        while not room["match"]["over"]:
            m = room["match"]
            if m["actor"] in seats:
                seats[m["actor"]].play(m["legal"][0], room["version"])
            room = watcher.until(lambda r, v=room["version"]: r["version"] > v)
        assert room["status"] == "over" and room["server_seed"]
        # No event lost: the log replays with the engine, one event per version, dice fair.
        log = MatchLog.from_jsonl(api.get(f"/api/matches/{code}/log").text)
        assert len(log.events) == room["version"]
        assert replay_states(log)[-1][0].totals == tuple(room["match"]["totals"])
        assert api.get(f"/api/matches/{code}/verify").json()["ok"]
        for p in seats.values():
            p.ws.close()
    finally:
        server.stop()
