"""Soak test of the scaled-out server: tables keep playing while workers die and Redis restarts.

Starts a throwaway PostgreSQL cluster, a Redis server and ``--workers`` ``scc serve`` processes
on loopback (the helpers of ``tests/scale/conftest.py``).  ``--tables`` tables of scripted
players (random legal choices, English, German and Norwegian), bots and a spectator play match
after match; every ``--kill-every`` seconds a random worker is killed with SIGKILL (and started
again), and once, half-way, Redis is killed and started again.  The players' pages reconnect
to a live worker with their seat token, as the browser does.  After ``--minutes`` no new match
starts, the last ones finish, and every connection's record is checked against the database:

- each live picture's narration is exactly the events committed since the previous picture
  (nothing lost, nothing twice), each reconnection's first picture the latest events, in order;
- each player's and spectator's last picture is the final event of the match, which is over;
- the stored log replays with the engine and its dice verify.

    .venv/bin/python benchmarks/soak.py --minutes 3
    .venv/bin/python benchmarks/soak.py --minutes 10 --tables 8 --workers 3

Prints the figures; exits 1 (naming each problem) if any check fails.  Bounded: no new match
after --minutes, then at most --drain seconds for the last ones.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shipcaptaincrew.fair import seed_format, verify_fair_rolls  # noqa: E402
from shipcaptaincrew.i18n import translator  # noqa: E402
from shipcaptaincrew.narrate import narrate  # noqa: E402
from shipcaptaincrew.notation import MatchLog, replay_states  # noqa: E402
from shipcaptaincrew.web.table.room import RECENT_EVENTS  # noqa: E402
from tests.scale.conftest import PgCluster, RedisServer, Worker, move_of  # noqa: E402

LANGS = ("en", "de", "nb")
#: Refusals a scripted player may meet without anything being wrong: it moved on a picture the
#: table had left (two sends of one move across a reconnection), or Redis was away.
EXPECTED_REFUSALS = {"stale", "not_your_turn", "unavailable"}
#: Seconds a connection stays after the final picture (for lines that follow it).
LINGER = 1.0


@dataclass
class Figures:
    moves: int = 0  # choices and rolls the scripted players had accepted
    events: int = 0  # events committed, every table
    matches: int = 0
    kills: int = 0
    redis_restarts: int = 0
    reconnects: int = 0
    recovery: list[float] = field(default_factory=list)
    failed: Counter[str] = field(default_factory=Counter)  # connections lost or refused, by error
    events_checked: int = 0
    pictures_checked: int = 0
    early_pictures: int = 0  # live pictures that reached a connection before its first one
    late_narration: int = 0  # pictures of a new version whose lines came in a later picture
    refusals: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)


class Soak:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args, self.fig = args, Figures()
        self.rng = random.Random(args.seed)
        self.pg = PgCluster().start()
        self.redis = RedisServer().start()
        db = self.pg.new_database()
        env = {"SCC_BOT_DELAY": str(args.bot_delay)}
        # A fresh server seed per room, as in production: every match's dice differ.
        self.workers = [Worker(db, self.redis.url, seed=None, **env) for _ in range(args.workers)]
        for w in self.workers:
            w.start()
        self.started = time.monotonic()
        self.end = self.started + args.minutes * 60

    def live(self) -> list[Worker]:
        return [w for w in self.workers if w.alive()]

    # -- chaos ------------------------------------------------------------------------------
    async def chaos(self) -> None:
        """Kill a random worker every --kill-every seconds (and start it again); Redis once."""
        redis_at = self.started + self.args.minutes * 30
        next_kill = self.started + self.args.kill_every
        while time.monotonic() < self.end:
            await asyncio.sleep(0.2)
            if self.fig.redis_restarts == 0 and time.monotonic() >= redis_at:
                self.redis.stop()
                await asyncio.sleep(2.0)
                await asyncio.to_thread(self.redis.start)
                self.fig.redis_restarts += 1
            if time.monotonic() >= next_kill:
                next_kill += self.args.kill_every
                victim = self.rng.choice(self.live())
                await asyncio.to_thread(victim.kill)
                self.fig.kills += 1
                await asyncio.sleep(1.0)
                await asyncio.to_thread(victim.start)

    # -- tables -----------------------------------------------------------------------------
    async def api(self, method: str, path: str, **kw: Any) -> httpx.Response | None:
        """One request to a random live worker (None if it failed: the caller gives up)."""
        try:
            async with httpx.AsyncClient(base_url=self.rng.choice(self.live()).url) as api:
                return await api.request(method, path, timeout=10, **kw)
        except (httpx.HTTPError, IndexError):
            return None

    async def open_table(self, n: int) -> tuple[str, list[Member]] | None:
        names = [f"P{n}a", f"P{n}b"]
        r = await self.api("POST", "/api/rooms", json={"name": names[0], "settings": SETTINGS})
        if r is None or r.status_code != 201:
            return None
        code, tokens = r.json()["code"], [r.json()["token"]]
        r = await self.api("POST", f"/api/rooms/{code}/join", json={"name": names[1]})
        if r is None or r.status_code != 201:
            return None
        tokens.append(r.json()["token"])
        host = {"X-Seat-Token": tokens[0]}
        for level in ("medium", "easy"):
            r = await self.api(
                "POST", f"/api/rooms/{code}/bots", json={"level": level}, headers=host
            )
            if r is None or r.status_code != 201:
                return None
        r = await self.api("POST", f"/api/rooms/{code}/start", headers=host)
        if r is None or r.status_code != 200:
            return None
        members = [Member(self, code, t, self.rng.choice(LANGS)) for t in tokens]
        return code, [*members, Member(self, code, None, self.rng.choice(LANGS))]

    async def table(self, n: int) -> None:
        """Match after match at one table until the soak's time is up."""
        while time.monotonic() < self.end:
            opened = await self.open_table(n)
            if opened is None:  # a worker died under the request: open another table
                await asyncio.sleep(0.5)
                continue
            code, members = opened
            try:
                await asyncio.wait_for(
                    asyncio.gather(*(m.run() for m in members)),
                    self.end + self.args.drain - time.monotonic(),
                )
            except TimeoutError:
                self.fig.problems.append(f"{code}: the match did not finish in time")
                return
            await self.check(code, members)
            self.fig.matches += 1

    # -- checks -----------------------------------------------------------------------------
    async def check(self, code: str, members: list[Member]) -> None:
        r = None
        for _ in range(50):
            r = await self.api("GET", f"/api/matches/{code}/log")
            if r is not None and r.status_code == 200:
                break
            await asyncio.sleep(0.2)
        if r is None or r.status_code != 200:
            self.fig.problems.append(f"{code}: log not readable")
            return
        log = MatchLog.from_jsonl(r.text)
        states = replay_states(log)  # raises on an event the engine refuses
        dice = log.dice or {}
        if log.server_seed is None or verify_fair_rolls(
            log.server_seed,
            dice.get("commitment", ""),
            dice.get("client_seeds", []),
            log.rolls(),
            seed_format(dice),
        ):
            self.fig.problems.append(f"{code}: the dice do not verify against the revealed seed")
        self.fig.events += len(log.events)
        story = {lang: narration(states, log.players, lang) for lang in {m.lang for m in members}}
        for m in members:
            for n, conn in enumerate(m.conns):
                final = n == len(m.conns) - 1
                problem = check_connection(conn, story[m.lang], final, self.fig)
                if problem:
                    self.fig.problems.append(f"{code} seat {m.seat} ({m.lang}): {problem}")
                    dump = Path(tempfile.gettempdir()) / f"scc-soak-{code}-{m.seat}-{n}.json"
                    dump.write_text(json.dumps({"messages": conn, "story": story[m.lang]}))
                    self.fig.problems.append(f"  (its messages and the events: {dump})")
            last = m.last_room()
            if last.get("version") != len(log.events) or last.get("status") != "over":
                self.fig.problems.append(
                    f"{code} seat {m.seat}: last picture v{last.get('version')}, "
                    f"{last.get('status')}; database has {len(log.events)} events"
                )
            self.fig.events_checked += len(log.events)

    def report(self, seconds: float) -> None:
        f = self.fig
        worst = max(f.recovery, default=0.0)
        median = sorted(f.recovery)[len(f.recovery) // 2] if f.recovery else 0.0
        logs = [w.log.read_text(errors="replace") for w in self.workers]
        tracebacks = sum(text.count("Traceback") for text in logs)
        print(f"soak: {seconds:.0f} s, {len(self.workers)} workers, {self.args.tables} tables")
        print(f"  matches finished      {f.matches}")
        print(f"  events committed      {f.events}")
        print(f"  moves by players      {f.moves}")
        print(f"  worker kills          {f.kills} (SIGKILL)")
        print(f"  Redis restarts        {f.redis_restarts}")
        print(f"  reconnects            {f.reconnects}")
        print(
            f"  recovery              max {worst:.2f} s, median {median:.2f} s (lost -> table again)"
        )
        print(f"  lost or refused       {dict(f.failed) or 'none'} (connections, by error)")
        print(
            f"  events checked        {f.events_checked} (x each client), pictures {f.pictures_checked}"
        )
        print(f"  early pictures        {f.early_pictures} (live, before a connection's first)")
        print(f"  lines after the state {f.late_narration} (a new version shown before its lines)")
        print(f"  refusals              {dict(f.refusals) or 'none'}")
        print(f"  tracebacks in logs    {tracebacks}")
        if tracebacks:
            first = next(t for t in logs if "Traceback" in t)
            at = first.index("Traceback")
            f.problems.append(
                f"{tracebacks} tracebacks in the worker logs; the first: ...{first[max(0, at - 1500) : at + 2500]}"
            )
        for p in f.problems:
            print(f"  PROBLEM: {p}")
        print("soak: " + ("FAILED" if f.problems else "every check passed"))

    async def main(self) -> None:
        chaos = asyncio.create_task(self.chaos())
        await asyncio.gather(*(self.table(n) for n in range(self.args.tables)))
        await chaos

    def cleanup(self) -> None:
        for w in self.workers:
            w.stop()
            w.log.unlink(missing_ok=True)
        self.redis.cleanup()
        self.pg.cleanup()


SETTINGS = ["format=rounds:2", "starter=chosen"]


def narration(states: list[Any], names: list[str], lang: str) -> list[list[str]]:
    """The lines of each committed event, as the server narrates it in ``lang``."""
    tr = translator(lang, "scc")
    return [
        [m.render(tr) for m in narrate(before, action, after, names)]
        for (before, _), (after, action) in zip(states, states[1:], strict=False)
    ]


def check_connection(
    msgs: list[dict[str, Any]], story: list[list[str]], final: bool, fig: Figures
) -> str:
    """One connection's messages against the committed events, as the page keeps them ('' if
    they agree): a connection's first picture replaces the narration with the latest events,
    every later picture appends its lines.  The last connection must end with every event from
    there on, once each and in order; one cut off by a kill, with a prefix of them."""
    kept: list[str] = []
    start: int | None = None
    last = -1
    for i, m in enumerate(msgs):
        if m["type"] != "room":
            continue
        v = m["room"]["version"]
        fig.pictures_checked += 1
        if v < last:
            return f"message {i}: picture v{v} after v{last} (older after newer)"
        if m.get("history"):
            start = max(0, v - RECENT_EVENTS)
            kept = list(m["lines"])
            if kept != [line for ev in story[start:v] for line in ev]:
                return f"message {i}: the first picture (v{v}) is not the latest events"
        else:
            if start is None:
                fig.early_pictures += 1  # drawn, then replaced by the first picture
            elif v > last and not m["lines"]:
                fig.late_narration += 1  # the new state shown first, its lines follow
            kept += m["lines"]
        last = v
    if start is None:
        return "" if not final else "the last connection never got its first picture"
    want = [line for ev in story[start:last] for line in ev]
    if kept == want or (not final and want[: len(kept)] == kept):
        return ""
    i = next((i for i, (a, b) in enumerate(zip(kept, want, strict=False)) if a != b), None)
    i = min(len(kept), len(want)) if i is None else i
    return (
        f"narration ({len(kept)} lines) is not the events {start + 1}..{last} ({len(want)} "
        f"lines); from line {i}: {kept[i : i + 3]} != {want[i : i + 3]}"
    )


class Member:
    """A seat's player (or a spectator) across reconnections: one page, many connections."""

    def __init__(self, soak: Soak, code: str, token: str | None, lang: str) -> None:
        self.soak, self.code, self.token, self.lang = soak, code, token, lang
        self.seat: int | None = None
        self.conns: list[list[dict[str, Any]]] = []
        self.ws: ClientConnection | None = None
        self.changed = asyncio.Event()
        #: When the connection was lost (None while connected and shown the table).
        self.lost: float | None = None

    def last_room(self) -> dict[str, Any]:
        rooms = [m["room"] for c in self.conns for m in c if m["type"] == "room"]
        return rooms[-1] if rooms else {}

    async def run(self) -> None:
        """Stay at the table (reconnecting like the page does) until the match is over."""
        player = asyncio.create_task(self.play()) if self.token else None
        try:
            while self.last_room().get("status") != "over":
                live = self.soak.live()
                if not live:
                    await asyncio.sleep(0.2)
                    continue
                try:
                    await self.session(self.soak.rng.choice(live))
                except (OSError, WebSocketException, TimeoutError) as e:
                    self.soak.fig.failed[type(e).__name__] += 1
                if self.last_room().get("status") != "over":
                    self.lost = self.lost or time.monotonic()
                    await asyncio.sleep(0.1)
        finally:
            if player is not None:
                player.cancel()

    async def session(self, worker: Worker) -> None:
        """One connection, until it drops or the match is over (then a moment more: lines
        may follow the final picture, as they follow any picture)."""
        async with connect(f"{worker.ws}/ws/rooms/{self.code}", open_timeout=5) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token, "lang": self.lang}))
            msgs: list[dict[str, Any]] = []
            self.conns.append(msgs)
            self.ws = ws
            over: float | None = None
            while True:
                wait = None if over is None else over + LINGER - time.monotonic()
                try:
                    m = json.loads(await asyncio.wait_for(ws.recv(), wait))
                except TimeoutError:
                    return
                msgs.append(m)
                if m["type"] == "welcome":
                    self.seat = m["seat"]
                elif m["type"] == "error":
                    self.soak.fig.refusals[m["code"]] += 1
                    if m["code"] not in EXPECTED_REFUSALS:
                        self.soak.fig.problems.append(f"{self.code}: refused {m}")
                elif m["type"] == "room":
                    if self.lost is not None:
                        self.soak.fig.reconnects += 1
                        self.soak.fig.recovery.append(time.monotonic() - self.lost)
                        self.lost = None
                    if m["room"]["status"] == "over" and over is None:
                        over = time.monotonic()
                self.changed.set()

    async def play(self) -> None:
        """Play a random legal choice whenever the newest picture says it is this seat's turn;
        again if the table has not moved a second later (the move may have been lost)."""
        sent: tuple[int, float] = (-1, 0.0)
        while True:
            self.changed.clear()
            room = self.last_room()
            match = room.get("match") or {}
            if match.get("actor") == self.seat and self.seat is not None and not match["over"]:
                v = room["version"]
                if sent[0] != v or time.monotonic() - sent[1] > 1.0:
                    await asyncio.sleep(self.soak.rng.uniform(0.0, self.soak.args.think))
                    if self.ws is not None and self.last_room().get("version") == v:
                        move = move_of(room, self.soak.rng.randrange(len(match["legal"])))
                        try:
                            await self.ws.send(json.dumps(move))
                            if sent[0] != v:
                                self.soak.fig.moves += 1
                            sent = (v, time.monotonic())
                        except ConnectionClosed:
                            pass
            try:
                await asyncio.wait_for(self.changed.wait(), 0.5)
            except TimeoutError:
                pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--tables", type=int, default=6)
    ap.add_argument("--workers", type=int, default=3)
    ap.add_argument("--kill-every", type=float, default=30.0, help="seconds between SIGKILLs")
    ap.add_argument("--drain", type=float, default=120.0, help="seconds for the last matches")
    ap.add_argument("--think", type=float, default=0.1, help="a player's longest pause (s)")
    ap.add_argument("--bot-delay", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    soak = Soak(args)
    t0 = time.monotonic()
    try:
        asyncio.run(soak.main())
        soak.report(time.monotonic() - t0)
    finally:
        soak.cleanup()
    sys.exit(1 if soak.fig.problems else 0)


if __name__ == "__main__":
    main()
