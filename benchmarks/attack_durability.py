"""``bench_attacks.py durability``: kill -9 and power loss lose no move a player's page showed.

Two players move as fast as they can.  On one process (SQLite):

- ten times, at an instant chosen at random while a move is on its way, the server is frozen
  (SIGSTOP), its database files are copied -- what the disk holds at that instant -- and it is
  thawed; each copy is opened afterwards and must hold every move a page had shown;
- five times the server is killed (SIGKILL) right after a move was sent and started again on
  the same file: it must come back with every move a page had shown;
- a copy of the page cache is not a power cut (what was never synced may still be in it), so
  the server is also traced (strace, if installed) for a few seconds of play: each new
  version written to a socket must follow the sync of the write-ahead log that holds it.
  With ``synchronous=NORMAL`` (the old setting) the same count shows what a power cut could
  take.

On three workers (PostgreSQL, Redis) a worker is killed the same way, five times, and the
pages on it reconnect to another worker.  (The throwaway PostgreSQL of the tests runs with
fsync off: a power cut there is PostgreSQL's own business, not measured here.)
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx
from attack_clients import Seat, open_table
from attack_servers import Served, load, one_process, start_process, stop, three_workers

COPIES, KILLS = 10, 5


def events(db: Path, code: str) -> int:
    with sqlite3.connect(db) as conn:
        row = conn.execute(
            "SELECT count(*) FROM events JOIN rooms ON rooms.id = events.room_id "
            "WHERE rooms.code = ?",
            (code,),
        ).fetchone()
    return int(row[0])


async def _move(seats: list[Seat]) -> int:
    """The player to act sends a move; returns the version the pages showed before it."""
    room = seats[0].room
    m = room["match"]
    choice, v = m["legal"][0], room["version"]
    move = {"type": "roll"} if choice == "roll" else {"type": "act", "action": choice}
    await seats[m["actor"]].ws.send(__import__("json").dumps({**move, "version": v}))
    return int(v)


async def _play(seats: list[Seat], moves: int) -> None:
    for _ in range(moves):
        v = await _move(seats)
        for s in seats:
            await s.until(lambda r, v=v: r["version"] > v)


def shown(seats: list[Seat]) -> int:
    return max(int(s.room.get("version", 0)) for s in seats)


async def _seats(served: Served, code: str, tokens: list[str]) -> list[Seat]:
    seats = [await Seat.open(served.ws(i), code, t) for i, t in enumerate(tokens)]
    for s in seats:
        await s.until(lambda r: r["match"] is not None)
    return seats


async def copies(served: Served, rng: random.Random) -> tuple[int, int, int]:
    """Frozen copies; (copies taken, the moves pages showed at the last, moves lost)."""
    assert served.db is not None
    async with httpx.AsyncClient(base_url=served.url(0), timeout=60) as api:
        code, tokens = await open_table(api)
    seats = await _seats(served, code, tokens)
    lost = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(COPIES):
            await _play(seats, rng.randrange(5, 40))
            v = await _move(seats)  # on its way: being committed, or not yet
            await asyncio.sleep(rng.random() * 0.004)
            seen = shown(seats)
            os.kill(served.pid, signal.SIGSTOP)
            copy = Path(tmp) / f"copy{k}.sqlite3"
            for suffix in ("", "-wal"):
                if Path(f"{served.db}{suffix}").exists():
                    shutil.copyfile(f"{served.db}{suffix}", f"{copy}{suffix}")
            os.kill(served.pid, signal.SIGCONT)
            lost += max(0, seen - events(copy, code))
            for s in seats:
                await s.until(lambda r, v=v: r["version"] > v)
    for s in seats:
        await s.close()
    return COPIES, seen, lost


async def kills(
    served: Served, rng: random.Random, kill: Callable[[Served], int], revive: Callable[[int], None]
) -> tuple[int, int]:
    """SIGKILLs right after a move was sent (``kill`` returns the worker killed, -1 for the one
    process, which it started again); (the moves pages showed at the last, lost)."""
    async with httpx.AsyncClient(base_url=served.url(0), timeout=60) as api:
        code, tokens = await open_table(api)
    lost = seen = 0
    for _ in range(KILLS):
        seats = await _seats(served, code, tokens)
        await _play(seats, rng.randrange(5, 40))
        await _move(seats)
        seen = shown(seats)
        victim = kill(served)
        for s in seats:
            await s.close()
        watcher = await Seat.open(served.ws(victim + 1), code, None)
        room = await watcher.until(lambda r: r["match"] is not None)
        lost += max(0, seen - int(room["version"]))
        await watcher.close()
        revive(victim)
    return seen, lost


def trace(served: Served, seconds: float = 3.0) -> tuple[int, int] | None:
    """(new versions written to a socket, of which after the log that holds them was synced);
    None without strace."""
    if shutil.which("strace") is None:
        return None
    out = Path(tempfile.mkstemp(suffix=".strace")[1])
    tracer = subprocess.Popen(
        [
            "strace",
            "-f",
            "-y",
            "-s",
            "160",
            "-o",
            str(out),
            "-p",
            str(served.pid),
            "-e",
            "trace=pwrite64,fdatasync,fsync,write,writev,sendmsg",
        ],
        stderr=subprocess.DEVNULL,
    )
    time.sleep(0.5)

    async def play() -> None:
        async with httpx.AsyncClient(base_url=served.url(0), timeout=60) as api:
            code, tokens = await open_table(api)
        seats = await _seats(served, code, tokens)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            await _play(seats, 1)
        for s in seats:
            await s.close()

    asyncio.run(play())
    tracer.send_signal(signal.SIGINT)
    tracer.wait(30)
    dirty, newest, told, synced = False, -1, 0, 0
    version = re.compile(r'\\"version\\":(\d+)')  # (strace escapes the quotes)
    pending: dict[str, str] = {}  # thread -> the log's call it is in ("write" or "sync")
    for line in out.read_text(errors="replace").splitlines():
        pid = line.split(" ", 1)[0]
        kind = None
        if "-wal>" in line and "pwrite64(" in line:
            kind = "write"
        elif "-wal>" in line and ("fdatasync(" in line or "fsync(" in line):
            kind = "sync"
        elif "resumed>" in line:
            kind = pending.pop(pid, None)
        if "<unfinished" in line:
            if kind is not None:
                pending[pid] = kind  # (it is done at its "resumed" line)
            kind = None
        if kind == "write":
            dirty = True
        elif kind == "sync":
            dirty = False
        elif "socket:[" in line and "write" in line:
            found = version.search(line)
            if found and int(found[1]) > newest:
                newest = int(found[1])
                told += 1
                synced += not dirty
    out.unlink(missing_ok=True)
    return told, synced


def durability(setup: str) -> None:
    rng = random.Random(28)
    print(f"\n== durability: kill -9 and frozen copies while moves are committed (load {load()})")
    if setup == "one":
        with one_process({}) as served:
            n, seen, lost = asyncio.run(copies(served, rng))
            print(
                f"1 process, SQLite: {n} copies of the files frozen mid-move, opened: "
                f"{lost} moves lost of those the pages showed (last showed {seen})"
            )

            def restart(s: Served) -> int:
                stop(s, kill=True)
                fresh = start_process(s.db, {})  # type: ignore[arg-type]
                s.urls, s.procs = fresh.urls, fresh.procs
                return -1

            seen, lost = asyncio.run(kills(served, rng, restart, lambda victim: None))
            print(
                f"1 process, SQLite: {KILLS} kill -9 right after a move was sent: {lost} "
                f"moves lost of those the pages showed (last showed {seen})"
            )
            full = trace(served)
        with one_process({"SCC_SQLITE_SYNCHRONOUS": "normal"}) as served:
            normal = trace(served)
        if full is None or normal is None:
            print("  (no strace: the order of syncs and sends was not traced)")
        else:
            print(
                f"  traced: synchronous=FULL: {full[1]} of {full[0]} moves sent after their "
                f"write-ahead log was synced; synchronous=NORMAL (before): {normal[1]} of "
                f"{normal[0]} -- the rest a power cut could take after the pages showed them"
            )
        return
    with three_workers({}) as served:

        def kill_one(s: Served) -> int:
            victim = rng.randrange(2)  # a worker a player is on
            s.workers[victim].kill()
            return victim

        def revive(victim: int) -> None:
            served.workers[victim].start()
            served.procs[victim] = served.workers[victim].proc  # type: ignore[call-overload]

        seen, lost = asyncio.run(kills(served, rng, kill_one, revive))
        print(
            f"3 workers, PostgreSQL+Redis: {KILLS} kill -9 of a player's worker right after "
            f"a move was sent, pages reconnected elsewhere: {lost} moves lost of those shown "
            f"(last showed {seen})  (load {load()})"
        )
