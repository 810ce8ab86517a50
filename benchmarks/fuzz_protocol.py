"""Fuzz the live table's protocol against a running server: thousands of generated messages.

Starts ``scc serve`` on a temporary SQLite file (the main job), opens tables of three people
(English, German and Norwegian) and a spectator, all played by this script, and sends each
connection a stream of messages drawn at random (seeded): valid moves, pings, advice requests
and language changes; malformed JSON and messages of the wrong shape; binary frames; messages
over the server's limit and over the WebSocket frame limit; moves replayed after they were
played; moves sent by a seat whose turn it is not and by the spectator; and hellos that are
wrong in every way on new connections.  Every message is followed by a ping, so whatever the
server answers before the pong is that message's answer.  Checked:

- the server writes no traceback to its log, and still serves at the end;
- a valid move is never refused, an invalid message is always refused (or, for a frame the
  server will not read, answered before the connection closes);
- every refusal is one of the ``web`` catalogue's messages, in the connection's language.

    .venv/bin/python benchmarks/fuzz_protocol.py                  # 10,000 messages
    .venv/bin/python benchmarks/fuzz_protocol.py --messages 50000 --seed 7

Prints the figures; exits 1 naming each kind of problem (with a count and an example).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shipcaptaincrew.i18n import translator  # noqa: E402
from shipcaptaincrew.web.words import refusals as errors  # noqa: E402
from tests.scale.conftest import move_of  # noqa: E402
from tests.web.conftest import SCC, free_port  # noqa: E402

LANGS = ("en", "de", "nb")
SETTINGS = ["format=rounds:3", "starter=chosen"]
#: What each kind of message must get: "ok" no refusal; "refused" at least one refusal.
KINDS: dict[str, str] = {
    "move": "ok",
    "ping": "ok",
    "lang": "ok",
    "advice": "any",
    "garbage": "refused",
    "shape": "refused",
    "too_big": "refused",
    "replayed": "refused",
    "not_your_turn": "refused",
    "spectator": "refused",
    "binary": "refused",
    "oversized_frame": "refused",
}


def catalogue() -> dict[str, list[re.Pattern[str]]]:
    """Per language, every refusal the server can send, as a pattern ({reason} etc.: any text).

    German and Norwegian hold only the translated texts: an English refusal to a German
    player does not pass."""
    ids = [v for k, v in vars(errors).items() if k.isupper() and isinstance(v, str)]
    out: dict[str, list[re.Pattern[str]]] = {}
    for lang in LANGS:
        tr = translator(lang, "web")
        texts = [tr(i) for i in ids if lang == "en" or tr(i) != i]
        out[lang] = [
            re.compile(".*".join(re.escape(p) for p in re.split(r"\{\w+\}", t)) + r"\Z", re.S)
            for t in texts
        ]
    return out


class Server:
    """``scc serve`` on a temporary SQLite file, its log in a file (read at the end)."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="scc-fuzz-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = self.dir / "server.log"
        env = {
            **os.environ,
            "SCC_BOT_DELAY": "0",
            "SCC_RATE_PER_SECOND": "1000",
            "SCC_RATE_BURST": "1000",
            "SCC_ROOMS_PER_HOUR": "0",  # every table comes from this one address
        }
        db = f"sqlite:///{self.dir / 'scc.sqlite3'}"
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", SCC, "serve", "--port", str(self.port), "--db", db],
                env=env,
                stdout=out,
                stderr=out,
            )
        for _ in range(300):
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise SystemExit(f"server did not start: {self.log.read_text()[-2000:]}")

    def stop(self) -> str:
        self.proc.terminate()
        self.proc.wait(20)
        return self.log.read_text(errors="replace")


class Seat:
    """One connection of the fuzzer's (a player's or the spectator's), reopened when closed."""

    def __init__(self, base: str, code: str, token: str | None, lang: str) -> None:
        self.base, self.code, self.token, self.lang = base, code, token, lang
        self.room: dict[str, Any] = {}
        self.ws: ClientConnection | None = None

    async def open(self) -> None:
        self.ws = await connect(f"{self.base}/ws/rooms/{self.code}", max_size=2**22)
        await self.ws.send(json.dumps({"type": "hello", "token": self.token, "lang": self.lang}))
        await self.answer()

    async def answer(self, ping: bool = True) -> tuple[list[dict[str, Any]], int | None]:
        """Everything up to the next pong (a ping asks for it, unless the message was one), or
        the close code if the connection closed."""
        assert self.ws is not None
        got: list[dict[str, Any]] = []
        try:
            if ping:
                await self.ws.send('{"type": "ping"}')
            while True:
                m = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
                if m["type"] == "room":
                    self.room = m["room"]
                if m["type"] == "pong":
                    return got, None
                got.append(m)
        except ConnectionClosed as e:
            return got, e.rcvd.code if e.rcvd else 1006


class Fuzz:
    def __init__(self, args: argparse.Namespace, server: Server) -> None:
        self.args, self.server = args, server
        self.rng = random.Random(args.seed)
        self.patterns = catalogue()
        self.sent: Counter[str] = Counter()
        self.refusals: Counter[str] = Counter()
        self.closes: Counter[str] = Counter()
        self.problems: Counter[str] = Counter()
        self.examples: dict[str, str] = {}
        self.ws_base = server.url.replace("http", "ws", 1)

    def problem(self, what: str, example: Any) -> None:
        self.problems[what] += 1
        self.examples.setdefault(what, str(example)[:300])

    async def table(self) -> list[Seat]:
        async with httpx.AsyncClient(base_url=self.server.url, timeout=10) as api:
            r = await api.post("/api/rooms", json={"name": "Ana", "settings": SETTINGS})
            code, tokens = r.json()["code"], [r.json()["token"]]
            for name in ("Bø", "Cäsar"):
                tokens.append(
                    (await api.post(f"/api/rooms/{code}/join", json={"name": name})).json()["token"]
                )
            await api.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
        seats = [
            Seat(self.ws_base, code, t, lang)
            for t, lang in zip([*tokens, None], [*LANGS, "de"], strict=True)
        ]
        for s in seats:
            await s.open()
        return seats

    # -- the messages -----------------------------------------------------------------------
    def garbage(self) -> str:
        pick = self.rng.randrange(6)
        if pick == 0:
            return "".join(
                chr(self.rng.randrange(32, 0x2FFF)) for _ in range(self.rng.randrange(1, 60))
            )
        if pick == 1:
            full = json.dumps({"type": "act", "action": "stand", "version": 3})
            return full[: self.rng.randrange(1, len(full))]
        if pick == 2:
            return self.rng.choice(["", " ", "null", "[]", "1", '"act"', "true", "{}", "NaN", "{{"])
        if pick == 3:
            return "[" * self.rng.randrange(50, 1000)
        if pick == 4:
            return '{"type": "act", "action": "\\ud800", "version": 0}'
        return "\x00" * self.rng.randrange(1, 100)

    def shape(self, room: dict[str, Any]) -> str:
        v = room.get("version", 0)
        return json.dumps(
            self.rng.choice(
                [
                    {"type": "fly"},
                    {"type": 5},
                    {"type": "act"},
                    {"type": "act", "version": v},
                    {"type": "act", "action": 61, "version": v},
                    {"type": "act", "action": "stand", "version": "x"},
                    {"type": "act", "action": "stand", "version": -1},
                    {"type": "roll", "version": 2**70},
                    {"type": "roll", "version": 1.5},
                    {"type": "act", "action": "take:99", "version": v},
                    {"type": "act", "action": "Stand!", "version": v},
                    {"type": "act", "action": "x" * 30, "version": v},
                    {"type": "act", "action": "roll:6", "version": v},
                    {"type": "ping", "extra": 1},
                    {"type": "hello", "lang": "xx"},
                    {"type": "hello", "token": 7},
                    {"type": "advice"},
                    {"type": "act", "action": "stand", "version": v, "seat": 2},
                ]
            )
        )

    async def one(self, seats: list[Seat]) -> None:
        kind = self.rng.choices(list(KINDS), weights=[30, 6, 3, 4, 10, 12, 4, 6, 8, 5, 3, 2])[0]
        room = max((s.room for s in seats), key=lambda r: r.get("version", -1))
        match = room.get("match") or {}
        actor = match.get("actor")
        players = seats[:3]
        seat = self.rng.choice(seats)
        if kind == "move" and actor is not None:
            seat, payload = (
                players[actor],
                json.dumps(move_of(room, self.rng.randrange(len(match["legal"])))),
            )
        elif kind == "replayed" and actor is not None and room.get("version", 0) > 0:
            stale = {**move_of(room), "version": room["version"] - 1}
            seat, payload = players[actor], json.dumps(stale)
        elif kind == "not_your_turn" and actor is not None:
            seat = self.rng.choice([p for i, p in enumerate(players) if i != actor])
            payload = json.dumps(move_of(room))
        elif kind == "spectator" and match:
            seat, payload = seats[3], json.dumps(move_of(room))
        elif kind == "lang":
            seat.lang = self.rng.choice(LANGS)
            payload = json.dumps({"type": "hello", "lang": seat.lang})
        elif kind == "advice":
            payload = json.dumps({"type": "advice", "version": room.get("version", 0)})
        elif kind == "ping":
            payload = '{"type": "ping"}'
        elif kind == "too_big":
            payload = json.dumps({"type": "ping", "pad": "x" * self.rng.randrange(3000, 60000)})
        elif kind == "oversized_frame":
            payload = json.dumps({"type": "ping", "pad": "x" * self.rng.randrange(70000, 300000)})
        elif kind == "binary":
            payload = "binary"
        elif kind == "shape":
            payload = self.shape(room)
        else:
            kind, payload = "garbage", self.garbage()
        assert seat.ws is not None
        self.sent[kind] += 1
        try:
            if kind == "binary":
                await seat.ws.send(self.rng.randbytes(self.rng.randrange(1, 200)))
            else:
                await seat.ws.send(payload)
        except ConnectionClosed:
            pass
        got, closed = await seat.answer(ping=kind != "ping")
        self.judge(kind, seat, payload, got, closed)
        if closed is not None:
            self.closes[f"{kind}: {closed}"] += 1
            await seat.open()

    def judge(
        self, kind: str, seat: Seat, payload: str, got: list[dict[str, Any]], closed: int | None
    ) -> None:
        refusals = [m for m in got if m["type"] == "error"]
        for m in refusals:
            self.refusals[m["code"]] += 1
            if not any(p.match(m["message"]) for p in self.patterns[seat.lang]):
                self.problem(f"refusal not in the catalogue's {seat.lang}", m)
        want = KINDS[kind]
        if want == "ok" and (refusals or closed is not None):
            self.problem(f"{kind} refused", (payload[:120], refusals, closed))
        if want == "refused" and not refusals:
            self.problem(
                f"{kind} not refused" + (f" (closed {closed} without a message)" if closed else ""),
                payload[:120],
            )
        if closed is not None and kind not in ("binary", "oversized_frame"):
            self.problem(f"{kind} closed the connection", (payload[:120], closed))

    async def hellos(self, code: str) -> None:
        """Wrong first messages on new connections: each is refused, then the connection closes
        (a binary frame excepted: the table still waits for the hello, see ``web/play/routes.py``)."""
        bad: list[tuple[str | bytes, str]] = [
            ("{}", "en"),
            ("hello", "en"),
            ('{"type": "ping"}', "en"),
            ('{"type": "hello", "lang": "xx"}', "en"),
            (json.dumps({"type": "hello", "pad": "x" * 5000}), "en"),
            (b"\x00\x01", "en"),
            # A hello that says its language: the refusal is in that language.
            ('{"type": "hello", "token": "not-a-seat-token-of-this-room", "lang": "de"}', "de"),
            ('{"type": "hello", "token": "not-a-seat-token-of-this-room", "lang": "nb"}', "nb"),
        ]
        for _ in range(self.args.hellos):
            first, lang = self.rng.choice(bad)
            self.sent["bad hello"] += 1
            async with connect(f"{self.ws_base}/ws/rooms/{code}") as ws:
                await ws.send(first)
                try:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if m["type"] != "error":
                        self.problem("bad hello not refused", (first, m))
                    elif not any(p.match(m["message"]) for p in self.patterns[lang]):
                        self.problem(f"bad hello refusal not in the catalogue's {lang}", m)
                    else:
                        self.refusals[m["code"]] += 1
                    if isinstance(first, bytes):
                        # A frame the table cannot read is refused and the table still waits
                        # for the hello (within its deadline): a spectator's hello is welcome.
                        await ws.send(json.dumps({"type": "hello"}))
                        m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                        if m["type"] != "welcome":
                            self.problem("hello after a binary frame not welcome", m)
                        continue
                    await asyncio.wait_for(ws.recv(), 10)
                    self.problem("bad hello: connection left open", first)
                except ConnectionClosed as e:
                    if e.rcvd is None or e.rcvd.code < 4000:
                        self.problem(
                            f"bad hello {str(first)[:20]!r}: closed without a refusal",
                            e.rcvd.code if e.rcvd else 1006,
                        )

    async def run(self) -> None:
        seats = await self.table()
        await self.hellos(seats[0].code)
        for _ in range(self.args.messages):
            if any((s.room.get("match") or {}).get("over") for s in seats):
                self.sent["tables"] += 1
                for s in seats:
                    if s.ws is not None:
                        await s.ws.close()
                seats = await self.table()
            await self.one(seats)


def exceptions(log: str) -> Counter[str]:
    """The exception line ending each traceback in a log, counted."""
    found: Counter[str] = Counter()
    lines = log.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Traceback"):
            rest = (x for x in lines[i + 1 :] if x and not x.startswith(" "))
            found[next(rest, "?")[:200]] += 1
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=10_000)
    ap.add_argument("--hellos", type=int, default=200, help="bad first messages on new connections")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    server = Server()
    fuzz = Fuzz(args, server)
    t0 = time.monotonic()
    try:
        asyncio.run(fuzz.run())
        alive = httpx.get(server.url + "/healthz", timeout=5).status_code == 200
    finally:
        log = server.stop()
    tracebacks = log.count("Traceback")
    total = sum(v for k, v in fuzz.sent.items() if k != "tables")
    print(
        f"fuzz: {total} messages in {time.monotonic() - t0:.0f} s, seed {args.seed}, {fuzz.sent['tables'] + 1} tables"
    )
    print(
        "  sent        "
        + ", ".join(f"{k} {v}" for k, v in sorted(fuzz.sent.items()) if k != "tables")
    )
    print("  refusals    " + ", ".join(f"{k} {v}" for k, v in sorted(fuzz.refusals.items())))
    print(
        "  closes      "
        + (", ".join(f"{k} x{v}" for k, v in sorted(fuzz.closes.items())) or "none")
    )
    print(f"  tracebacks in the server log: {tracebacks}; server alive at the end: {alive}")
    for error, n in exceptions(log).items():
        fuzz.problems[f"traceback in the server log: {error}"] = n
        fuzz.examples[f"traceback in the server log: {error}"] = "see the server log"
    for what, n in sorted(fuzz.problems.items()):
        print(f"  PROBLEM x{n}: {what}; e.g. {fuzz.examples[what]}")
    ok = not fuzz.problems and alive
    print("fuzz: " + ("every check passed" if ok else "FAILED"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
