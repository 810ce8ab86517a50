"""The attacks of issue 35 (strangers at a public table), for ``bench_attacks.py --only
strangers``: what each one achieves now, and what an honest table -- two players moving as
fast as they can -- felt meanwhile, with and without the attack, in turns, in the same run.

- ``kick``: at a table of three, a player drops for 0.2 s and comes back, over and over, while
  another player asks, each time, to have them removed and played for (once accepted 5 ms
  after the drop, and it ended a match "won" at 0 points).
- ``squat``: spectators from one address ask for seats at the next match, a connection per
  seat, reconnecting (once six phantom seats filled a table).
- ``screens``: fake table screens (a hello with ``"screen": true``) from one address,
  reconnecting (once four took a table's screen places, and every phone turned compact).
- ``guess``: one address looks up table codes as fast as it can (once 2,648 in 5 s).

Each prints what the attacker got (counts) and the honest table's move p99 and slowest move
alone and attacked.
"""

from __future__ import annotations

import asyncio
import json
import random
import string
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from attack_clients import Seat, open_table, percentile, race
from attack_servers import Served, load

#: An attack: runs against the server until the deadline, counts what it got into ``got``.
Attack = Callable[[Served, float, dict[str, int]], Awaitable[None]]


async def kick(served: Served, until: float, got: dict[str, int]) -> None:
    """A victim who blips; another player asks to remove and play for them each time."""
    async with httpx.AsyncClient(base_url=served.url(0), timeout=60) as api:
        code, tokens = await open_table(api, players=3, settings=["format=rounds:500"])
    mallory = await Seat.open(served.ws(1), code, tokens[1])
    await mallory.until(lambda r: r["match"] is not None)
    while time.monotonic() < until:
        victim = await Seat.open(served.ws(2), code, tokens[2])
        await victim.until(lambda r: r["players"][2]["online"])
        await victim.close()
        room = await mallory.until(lambda r: not r["players"][2]["online"])
        before = len(mallory.errors)
        for ask in (
            {"type": "remove_after_round", "seat": 2, "version": room["version"]},
            {"type": "play_for", "seat": 2},
        ):
            await mallory.ws.send(json.dumps(ask))
        await asyncio.sleep(0.2)
        got["asks"] = got.get("asks", 0) + 2
        got["refused"] = got.get("refused", 0) + len(mallory.errors) - before
    room = mallory.room
    got["removed"] = int(bool(room.get("players") and room["players"][2]["leaving"]))
    await mallory.close()


async def squat(served: Served, until: float, got: dict[str, int]) -> None:
    """Phantom spectators, one connection per seat, each asking for a seat at the next match."""
    async with httpx.AsyncClient(base_url=served.url(0), timeout=60) as api:
        code, _ = await open_table(api)
    rounds = 0
    while time.monotonic() < until:
        phantoms = [await Seat.open(served.ws(i), code, None) for i in range(6)]
        for i, p in enumerate(phantoms):
            await p.ws.send(json.dumps({"type": "seat_next", "name": f"Ghost{rounds}x{i}"}))
        await asyncio.sleep(0.5)
        room = phantoms[0].room
        seats = len((room.get("rematch") or {}).get("next_seats", []))
        got["most held"] = max(got.get("most held", 0), seats)
        got["asked"] = got.get("asked", 0) + 6
        for p in phantoms:
            await p.close()
        rounds += 1


async def screens(served: Served, until: float, got: dict[str, int]) -> None:
    """Fake table screens from one address, reconnecting."""
    async with httpx.AsyncClient(base_url=served.url(0), timeout=60) as api:
        code, tokens = await open_table(api)
    player = await Seat.open(served.ws(0), code, tokens[0])
    while time.monotonic() < until:
        fakes = [await Seat.open(served.ws(i), code, None, screen=True) for i in range(8)]
        await asyncio.sleep(0.5)
        room = player.room
        got["most screens"] = max(got.get("most screens", 0), room.get("screens", 0))
        got["fakes"] = got.get("fakes", 0) + len(fakes)
        for f in fakes:
            await f.close()
    await player.close()


async def guess(served: Served, until: float, got: dict[str, int]) -> None:
    """Table codes looked up as fast as one address can."""
    rng = random.Random(35)
    alphabet = string.ascii_uppercase + "23456789"
    # (From an address of its own: it is barred for a minute, the honest tables are not.)
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.9")
    async with httpx.AsyncClient(base_url=served.url(0), timeout=60, transport=transport) as api:
        while time.monotonic() < until:
            code = "".join(rng.choice(alphabet) for _ in range(6))
            r = await api.get(f"/api/rooms/{code}")
            got["looked up"] = got.get("looked up", 0) + 1
            got["refused"] = got.get("refused", 0) + (r.status_code == 429)


ATTACKS: dict[str, Attack] = {"kick": kick, "squat": squat, "screens": screens, "guess": guess}


async def _phase(
    served: Served, attack: Attack | None, seconds: float
) -> tuple[list[float], dict[str, int]]:
    """The honest table for ``seconds``, attacked or not: its move latencies, what the attack got."""
    async with httpx.AsyncClient(base_url=served.url(0), timeout=60) as api:
        code, tokens = await open_table(api)
    seats = [await Seat.open(served.ws(i), code, t) for i, t in enumerate(tokens)]
    until = time.monotonic() + seconds
    got: dict[str, int] = {}
    attacking = asyncio.create_task(attack(served, until, got)) if attack else None
    result = await race(seats, until)
    if attacking is not None:
        await attacking
    for s in seats:
        await s.close()
    return result.latencies, got


def strangers(setup: Callable[..., Any], seconds: float, phase: float) -> None:
    """Each attack in turns with no attack (``phase`` seconds each, ``seconds`` of each)."""
    pairs = max(1, round(seconds / phase))
    print(
        f"\n== strangers (issue 35): each attack against the server while an honest table of two "
        f"plays as fast as it can; {pairs} pairs of {phase:.0f} s phases without and with it "
        f"(load {load()})"
    )
    env = {"SCC_ABSENT_GRACE": "3600", "SCC_CODE_MISSES_PER_MINUTE": "30"}
    with setup(env) as served:
        asyncio.run(_phase(served, None, min(5.0, phase)))  # (unmeasured: warm up)
        print(
            f"{'setup':<28} {'attack':<8} {'moves':>6} {'p99 ms':>8} {'max ms':>8} "
            f"{'moves':>6} {'p99 ms':>8} {'max ms':>8} {'p99 x':>6} {'max x':>6}   "
            "what the attacker got"
        )
        print(f"{'':<28} {'':<8} {'--- alone ---':>24} {'--- attacked ---':>24} {'ratio':>13}")
        for name, attack in ATTACKS.items():
            alone: list[float] = []
            attacked: list[float] = []
            got: dict[str, Any] = {}
            for k in range(pairs):
                for on in (False, True) if k % 2 == 0 else (True, False):
                    lat, seen = asyncio.run(_phase(served, attack if on else None, phase))
                    (attacked if on else alone).extend(lat)
                    for key, n in seen.items():
                        got[key] = (
                            max(got.get(key, 0), n)
                            if "most" in key or key == "removed"
                            else got.get(key, 0) + n
                        )
            p99 = percentile(alone, 99), percentile(attacked, 99)
            worst = max(alone, default=0), max(attacked, default=0)
            print(
                f"{served.name:<28} {name:<8} {len(alone):>6} {1000 * p99[0]:>8.2f} "
                f"{1000 * worst[0]:>8.2f} {len(attacked):>6} {1000 * p99[1]:>8.2f} "
                f"{1000 * worst[1]:>8.2f} {p99[1] / max(p99[0], 1e-9):>6.2f} "
                f"{worst[1] / max(worst[0], 1e-9):>6.2f}   "
                + ", ".join(f"{k} {v}" for k, v in got.items())
            )
    print(
        "  (ratio: attacked over alone, the same table in turns in this run; the attacker's "
        f"counts summed over its phases, 'most' and 'removed' at their highest)  (load {load()})"
    )
