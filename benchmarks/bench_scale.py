"""Scale-out benchmark: the web load script against 1 and 2 workers on PostgreSQL + Redis.

In one run, on loopback, with N simulated players in rooms of five (the load pattern of
``bench_web.py``: the player to act sends a legal choice after a think time; the latency runs
from the send until *all five* connections of the room have the new state):

1. the single-process default: ``scc serve`` on SQLite (no Redis) — the reference figure;
2. ``scc serve --workers 1 --db postgresql://... --redis redis://...``;
3. ``scc serve --workers 2 ...``: two processes on one port; the kernel spreads the
   connections, so most rooms have players on both workers and every move crosses Redis.

PostgreSQL and Redis are started here (throwaway, loopback, as the tests do).

    .venv/bin/python benchmarks/bench_scale.py               # N = 500, 20 s each
    .venv/bin/python benchmarks/bench_scale.py -n 100 -s 10

Prints p50 / p99 latency, throughput and errors for each; it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from bench_web import ROOM, open_room, percentile, play_tables  # noqa: E402
from served import SCC  # noqa: E402

from tests.scale.conftest import PgCluster, RedisServer, free_port  # noqa: E402


def start(args: list[str], env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", SCC, "serve", "--port", str(port), *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(400):
        try:
            if httpx.get(url + "/readyz", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise SystemExit(f"server exited with {proc.returncode}: {args}")
        time.sleep(0.1)
    raise SystemExit(f"server did not come up: {args}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


async def load(url: str, n: int, seconds: float, think: float) -> tuple[list[float], int]:
    rooms = max(1, n // ROOM)
    async with httpx.AsyncClient(base_url=url, timeout=60) as api:
        tables = [await open_room(api, url, i) for i in range(rooms)]
    return await play_tables(tables, seconds, think)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--players", type=int, default=500, help="players (rooms of 5)")
    ap.add_argument("-s", "--seconds", type=float, default=20.0, help="seconds of play for each")
    ap.add_argument(
        "--think", type=float, default=1.0, help="mean seconds between a room's actions"
    )
    args = ap.parse_args()
    env = {
        **os.environ,
        "SCC_RATE_BURST": "1000",
        "SCC_RATE_PER_SECOND": "1000",
        "SCC_ROOMS_PER_HOUR": "0",  # every table comes from this one address
        "SCC_LOG_JSON": "true",
    }
    pg = PgCluster().start()
    redis = RedisServer().start()
    rows = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            setups = [
                ("1 process, SQLite", ["--db", f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"]),
                (
                    "1 worker, PG+Redis",
                    ["--db", pg.new_database(), "--redis", redis.url, "--workers", "1"],
                ),
                (
                    "2 workers, PG+Redis",
                    ["--db", pg.new_database(), "--redis", redis.url, "--workers", "2"],
                ),
            ]
            for name, argv in setups:
                proc, url = start(argv, env)
                try:
                    lat, errors = asyncio.run(load(url, args.players, args.seconds, args.think))
                finally:
                    stop(proc)
                rows.append((name, lat, errors))
    finally:
        redis.cleanup()
        pg.cleanup()
    print(
        f"\nN = {args.players} players ({args.players // ROOM} rooms of {ROOM}), "
        f"{args.seconds:.0f} s each, think ~{args.think * 1000:.0f} ms, {os.cpu_count()} cores"
    )
    print(
        f"{'server':<22} {'actions':>7} {'per s':>8} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'max ms':>8} {'errors':>6}"
    )
    for name, lat, errors in rows:
        print(
            f"{name:<22} {len(lat):>7} {len(lat) / args.seconds:>8.0f} "
            f"{1000 * percentile(lat, 50):>8.2f} {1000 * percentile(lat, 99):>8.2f} "
            f"{1000 * max(lat, default=float('nan')):>8.2f} {errors:>6}"
        )
    base = rows[0][1]
    for name, lat, _ in rows[1:]:
        if base and lat:
            print(
                f"{name}: p99 {percentile(lat, 99) / percentile(base, 99):.2f}x, "
                f"p50 {percentile(lat, 50) / percentile(base, 50):.2f}x the SQLite process"
            )


if __name__ == "__main__":
    main()
