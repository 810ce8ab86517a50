"""Hostile traffic against the web server, and what it does to the honest tables (issue 28).

Each part attacks a fresh server, once as one ``scc serve`` process on SQLite and once as three
worker processes on PostgreSQL and Redis (started here, on loopback), and prints its figures:

- ``slow``: two players move as fast as they can for ``--seconds`` while spectators come and
  go (one every 50 ms), alone and with five stalled spectators (1 KB receive buffer, never
  reading a byte, reconnected every 6 s as an attacker would) in turns of ``--phase``
  seconds; the players' move latency (send until both pages show the move): p99 with the
  stalled peers at most twice the p99 without (over all phases; each pair's ratio printed
  too), and no move over a second.
- ``crowd``: 100, 300 and 1,000 spectators join one table and leave again; the messages and
  bytes everyone at that table received (growing with the crowd, not its square), and the
  round trips of pings at five other tables meanwhile (p99 under 100 ms).  The pinging pages
  run in a process of their own (see ``attack_clients.PingProcess``): in the process of the
  thousand spectator clients, a ping's round trip once measured that process's own busy
  event loop (every client decoding every picture) rather than the server's answer.
- ``flood``: one address creates rooms as fast as it can for ``--seconds`` (spoofing a new
  X-Forwarded-For each time) while twenty other addresses (127.0.0.2 and up) each open a
  room every 3 s; how many each got, and the others' latency; then the same spoofed header
  through a server told to trust 127.0.0.1 as its proxy.
- ``durability`` (see ``attack_durability.py``): kill -9 and frozen copies of the database
  files while moves are committed; no move a page showed may be missing.
- ``strangers`` (issue 35, see ``attack_strangers.py``): a player kicking another who blips,
  phantom seats at the next match, fake table screens, table codes guessed: what each attack
  got, and an honest table's move p99 and slowest move without and with it, in turns.

    .venv/bin/python benchmarks/bench_attacks.py                       # everything, 60 s parts
    .venv/bin/python benchmarks/bench_attacks.py --only slow --seconds 20 --setups one

It prints the machine's load before and after each part (the figures are latencies on a
shared machine), and a line per target: met or NOT met.  It asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import socket
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from attack_clients import (
    PingProcess,
    Race,
    Seat,
    StalledPeer,
    Tally,
    churn,
    open_table,
    percentile,
    race,
)
from attack_durability import durability
from attack_servers import Served, cpu_seconds, load, one_process, three_workers
from attack_strangers import strangers

SETUPS: dict[str, Callable[..., contextlib.AbstractContextManager[Served]]] = {
    "one": one_process,
    "three": three_workers,
}


#: The stalled peers' receive buffers as the kernel set them (asked: 1 KB).
BUFFERS: set[int] = set()


def ms(x: float) -> str:
    return f"{1000 * x:8.2f}"


# -- slow readers ------------------------------------------------------------------------------


async def slow_run(served: Served, stalled: int, seconds: float) -> tuple[Race, int, int]:
    """One run: (the race, spectators that came and went, stalled sockets opened)."""
    async with httpx.AsyncClient(base_url=served.url(0), timeout=60) as api:
        code, tokens = await open_table(api)
    seats = [await Seat.open(served.ws(i), code, t) for i, t in enumerate(tokens)]
    until = time.monotonic() + seconds
    opened = 0

    async def stall() -> None:
        nonlocal opened
        while time.monotonic() < until:
            peers = await asyncio.gather(
                *(StalledPeer.open(served.ws(opened + i), code) for i in range(stalled))
            )
            opened += len(peers)
            BUFFERS.update(p.sock.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF) for p in peers)
            await asyncio.sleep(min(6.0, max(0.0, until - time.monotonic())))
            for p in peers:
                p.close()

    attackers = asyncio.gather(stall()) if stalled else asyncio.gather()
    comers = asyncio.create_task(churn(served.ws, code, until))
    result = await race(seats, until)
    came = await comers
    await attackers
    for s in seats:
        await s.close()
    return result, came, opened


def slow(setup: str, seconds: float, phase: float) -> None:
    """Alone and stalled in turns (``phase`` seconds each, ``seconds`` of each in all, in the
    order alone, stalled, stalled, alone, ...): whatever else loads the machine meanwhile
    weighs on both alike, and each pair of phases gives a ratio of its own."""
    pairs = max(1, round(seconds / phase))
    print(
        f"\n== slow readers: two players as fast as they can, spectators coming and going; "
        f"{pairs} pairs of {phase:.0f} s phases without and with 5 stalled spectators, in "
        f"turns ({pairs * phase:.0f} s of each; load {load()})"
    )
    # The tables of the phases before, left by their players, are not played out by bots
    # meanwhile (after the grace, as fast as nobody watches): their moves, at three workers'
    # cost, fell on the last phases alone, at three times the CPU a move.
    with SETUPS[setup]({"SCC_ABSENT_GRACE": "3600"}) as served:
        print(
            f"{'setup':<28} {'phase':>5} {'stalled':>7} {'moves':>6} {'per s':>6} "
            f"{'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'cpu/move':>8} {'refused':>7} "
            f"{'churn':>5}"
        )
        # Unmeasured first: SQLite's write-ahead log grows to its size in use (a sync of a
        # growing file costs several times one of a file whose pages are reused).
        asyncio.run(slow_run(served, 0, min(10.0, seconds)))
        pooled: dict[int, list[float]] = {0: [], 5: []}
        cpu: dict[int, list[float]] = {0: [], 5: []}
        ratios: list[float] = []
        for k in range(pairs):
            p99: dict[int, float] = {}
            for stalled in (0, 5) if k % 2 == 0 else (5, 0):
                used = cpu_seconds(served)
                r, came, opened = asyncio.run(slow_run(served, stalled, phase))
                used = cpu_seconds(served) - used
                lat = r.latencies
                pooled[stalled] += lat
                cpu[stalled] += [used, len(lat)]
                p99[stalled] = percentile(lat, 99)
                print(
                    f"{served.name:<28} {k + 1:>5} {stalled:>7} {len(lat):>6} "
                    f"{len(lat) / phase:>6.0f} {ms(percentile(lat, 50))} {ms(p99[stalled])} "
                    f"{ms(max(lat, default=0))} {ms(used / max(1, len(lat)))} "
                    f"{r.refused:>7} {came:>5}"
                    + (f"  ({opened} stalled sockets)" if opened else "")
                )
            ratios.append(p99[5] / p99[0])
        alone, stalled_ = pooled[0], pooled[5]
        if not (alone and stalled_):
            return
        ratio = percentile(stalled_, 99) / percentile(alone, 99)
        worst = max(stalled_)
        met = ratio <= 2 and worst <= 1.0
        print(
            f"  all phases: p99 {1000 * percentile(alone, 99):.2f} ms alone, "
            f"{1000 * percentile(stalled_, 99):.2f} ms with 5 stalled peers (receive buffer "
            f"{max(BUFFERS)} B): {ratio:.2f}x (target <= 2x); pairs' ratios median "
            f"{statistics.median(ratios):.2f}x, from {min(ratios):.2f}x to {max(ratios):.2f}x; "
            f"slowest move {1000 * max(alone):.0f} ms alone, {1000 * worst:.0f} ms stalled "
            f"(target <= 1000 ms): {'met' if met else 'NOT met'}  (load {load()})"
        )
        per_move = {k: sum(v[::2]) / max(1, sum(v[1::2])) for k, v in cpu.items()}
        print(
            f"  the server's CPU time per move (the whole process: moves, churn, attackers): "
            f"{1000 * per_move[0]:.2f} ms alone, {1000 * per_move[5]:.2f} ms stalled "
            f"({per_move[5] / per_move[0]:.2f}x)"
        )


# -- the crowd ---------------------------------------------------------------------------------


def forwarded(i: int) -> dict[str, str]:
    """The i-th spectator's own network, as the trusted proxy names it (IPv6 documentation
    prefix: never an address anything is sent to)."""
    return {"X-Forwarded-For": f"2001:db8:{i >> 16:x}:{i & 0xFFFF:x}::1"}


async def crowd_run(served: Served, n: int) -> tuple[Tally, list[float], int]:
    """N spectators join one table, then leave; (what the table received, other tables'
    ping round trips meanwhile, spectators refused)."""
    async with httpx.AsyncClient(base_url=served.url(0), timeout=60) as api:
        code, tokens = await open_table(api)
        others = [await open_table(api) for _ in range(5)]
    tally = Tally()
    players = [await Seat.open(served.ws(0), code, t, tally) for t in tokens]
    for p in players:
        await p.until(lambda r: True)
    pinging = PingProcess([(served.ws(i + 1), c, t[0]) for i, (c, t) in enumerate(others)])
    await pinging.start()
    gate = asyncio.Semaphore(50)
    refused = 0

    async def join(i: int) -> Seat | None:
        nonlocal refused
        async with gate:
            ws = await _connect(served.ws(i), code, forwarded(i))
            seat = Seat(ws, tally)
            await ws.send('{"type":"hello"}')
            try:
                await seat.until(lambda r: True)
            except (TimeoutError, ConnectionError):
                refused += 1
                return None
            return seat

    crowd = [s for s in await asyncio.gather(*(join(i) for i in range(n))) if s is not None]
    await asyncio.gather(*(s.close() for s in crowd))
    await asyncio.sleep(3.0)  # (past the presence interval: the last telling is counted)
    rtts = await pinging.finish()
    for s in players:
        await s.close()
    return tally, rtts, refused


async def _connect(ws_url: str, code: str, headers: dict[str, str]) -> Any:
    from websockets.asyncio.client import connect

    return await connect(
        f"{ws_url}/ws/rooms/{code}", additional_headers=headers, open_timeout=60, max_size=2**22
    )


def crowd(setup: str, sizes: list[int]) -> None:
    print(
        f"\n== the crowd: spectators join one table and leave, five other tables ping "
        f"(load {load()}); the spectators' cap raised to 5000, each its own network through "
        "a proxy the server trusts"
    )
    env = {"SCC_MAX_SPECTATORS": "5000"}
    with SETUPS[setup](env, ("--forwarded-allow-ips", "127.0.0.1")) as served:
        print(
            f"{'setup':<28} {'crowd':>6} {'messages':>9} {'per head':>8} {'bytes':>12} "
            f"{'per head':>9} {'refused':>7} {'ping p50':>8} {'ping p99':>8} {'max':>8}"
        )
        p99s = []
        for n in sizes:
            tally, rtts, refused = asyncio.run(crowd_run(served, n))
            p99s.append(percentile(rtts, 99))
            print(
                f"{served.name:<28} {n:>6} {tally.messages:>9} {tally.messages / n:>8.2f} "
                f"{tally.bytes:>12} {tally.bytes / n:>9.0f} {refused:>7} "
                f"{ms(percentile(rtts, 50))} {ms(percentile(rtts, 99))} {ms(max(rtts))}"
            )
        worst = max(p99s)
        print(
            f"  other tables' ping p99 at most {1000 * worst:.1f} ms (target < 100 ms): "
            f"{'met' if worst < 0.1 else 'NOT met'}; before the fix 1,000 spectators made "
            f"502,500 messages (n(n+1)/2 pictures)  (load {load()})"
        )


# -- the flood ---------------------------------------------------------------------------------


async def flood_run(served: Served, seconds: float) -> dict[str, list[float] | int]:
    until = time.monotonic() + seconds
    tally: dict[str, list[float] | int] = {"flood": 0, "flood_ok": 0, "others": 0, "lat": []}
    rng = random.Random(28)

    async def attacker(k: int) -> None:
        async with httpx.AsyncClient(base_url=served.url(k), timeout=60) as api:
            while time.monotonic() < until:
                spoof = f"198.51.100.{rng.randrange(256)}"
                r = await api.post(
                    "/api/rooms", json={"name": "X"}, headers={"X-Forwarded-For": spoof}
                )
                tally["flood"] += 1  # type: ignore[operator]
                tally["flood_ok"] += r.status_code == 201  # type: ignore[operator]

    async def honest(k: int) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=f"127.0.0.{k + 2}")
        async with httpx.AsyncClient(
            base_url=served.url(k), timeout=60, transport=transport
        ) as api:
            await asyncio.sleep(rng.random() * 3)
            while time.monotonic() < until:
                t0 = time.perf_counter()
                r = await api.post("/api/rooms", json={"name": f"H{k}"})
                if r.status_code == 201:
                    tally["lat"].append(time.perf_counter() - t0)  # type: ignore[union-attr]
                tally["others"] += 1  # type: ignore[operator]
                await asyncio.sleep(3.0)

    await asyncio.gather(*(attacker(k) for k in range(8)), *(honest(k) for k in range(20)))
    return tally


def flood(setup: str, seconds: float) -> None:
    print(
        f"\n== the flood: one address creating rooms as fast as it can for {seconds:.0f} s "
        f"(8 connections, a new spoofed X-Forwarded-For each time), 20 other addresses a room "
        f"every 3 s each (load {load()})"
    )
    limit = {"SCC_ROOMS_PER_HOUR": "30"}  # (the default, which the other parts lift)
    with SETUPS[setup](limit) as served:
        t = asyncio.run(flood_run(served, seconds))
        lat = t["lat"]
        assert isinstance(lat, list)
        print(
            f"{served.name}: the flooding address sent {t['flood']} requests, got "
            f"{t['flood_ok']} rooms (its hourly share: 30); the others got {len(lat)} of "
            f"{t['others']} (p50 {1000 * percentile(lat, 50):.1f} ms, p99 "
            f"{1000 * percentile(lat, 99):.1f} ms, max {1000 * max(lat, default=0):.1f} ms): "
            f"{'met' if len(lat) == t['others'] and t['flood_ok'] == 30 else 'NOT met'}  "
            f"(load {load()})"
        )
    with SETUPS[setup](limit, ("--forwarded-allow-ips", "127.0.0.1")) as served:
        got = [
            httpx.post(
                served.url(i) + "/api/rooms",
                json={"name": "X"},
                headers={"X-Forwarded-For": f"198.51.100.{i}"},
            ).status_code
            for i in range(40)
        ]
    print(
        f"  told 127.0.0.1 is its proxy (--forwarded-allow-ips), the server takes the "
        f"header's word: {got.count(201)} of 40 requests naming 40 clients got a room"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="slow,crowd,flood,durability,strangers")
    ap.add_argument("--setups", default="one,three", help="one (SQLite), three (PG+Redis)")
    ap.add_argument("-s", "--seconds", type=float, default=60.0)
    ap.add_argument("--crowd", default="100,300,1000")
    ap.add_argument(
        "--phase", type=float, default=10.0, help="slow: seconds of each alone or stalled phase"
    )
    args = ap.parse_args()
    parts, setups = args.only.split(","), args.setups.split(",")
    print(f"load before: {load()}")
    for setup in setups:
        if "slow" in parts:
            slow(setup, args.seconds, args.phase)
        if "crowd" in parts:
            crowd(setup, [int(n) for n in args.crowd.split(",")])
        if "flood" in parts:
            flood(setup, args.seconds)
        if "durability" in parts:
            durability(setup)
        if "strangers" in parts:
            strangers(SETUPS[setup], args.seconds, args.phase)
    print(f"\nload after: {load()}")


if __name__ == "__main__":
    main()
