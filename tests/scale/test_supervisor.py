"""Killing the workers of ``scc serve --workers 3``: 10 kills, 2 s apart, and every worker
comes back every time, the server answering throughout; the server's log says what the
supervisor did (each worker started, ready, died and by which it was replaced).

How fast a worker is replaced is measured here and printed (``-s``), never asserted: a test
does not assert on wall time.  (docs/deployment.md has the figures.)
"""

from __future__ import annotations

import json
import os
import pathlib
import signal
import subprocess
import time
from typing import Any

import httpx
import pytest

from .conftest import PgCluster, RedisServer, Worker

KILLS = 10
APART = 2.0


def workers_of(supervisor: int) -> set[int]:
    """The live worker processes of the supervisor (its children: the workers serving, and
    the spare)."""
    out = subprocess.run(["pgrep", "-P", str(supervisor)], capture_output=True, text=True)
    alive = set()
    for pid in (int(p) for p in out.stdout.split()):
        try:
            state = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":  # (a zombie is dead, only not reaped yet)
            alive.add(pid)
    return alive


def log_lines(worker: Worker) -> list[dict[str, Any]]:
    """The server's log (JSON lines), what the supervisor said in it."""
    lines = []
    for raw in worker.log.read_text(encoding="utf-8", errors="replace").splitlines():
        if raw.startswith("{"):
            lines.append(json.loads(raw))
    return lines


def serving(server: Worker, supervisor: int, wait: bool = False) -> set[int]:
    """The workers serving now: alive, and said they were ready (``wait``: until three are)."""
    end = time.monotonic() + (60 if wait else 0)
    while True:
        ready = {d["worker"] for d in log_lines(server) if " ready in " in d["msg"]}
        now = workers_of(supervisor) & ready
        if len(now) >= 3 or time.monotonic() >= end:
            return now
        time.sleep(0.05)


def answers(url: str) -> bool:
    try:
        return httpx.get(url + "/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


@pytest.mark.timeout(600)
def test_killed_workers_come_back_every_time_and_the_log_says_so(
    pg: PgCluster, redis_server: RedisServer
) -> None:
    server = Worker(pg.new_database(), redis_server.url, workers=3).start()
    try:
        assert server.proc is not None
        supervisor = server.proc.pid
        killed: list[int] = []
        for _ in range(KILLS):
            victim = min(serving(server, supervisor, wait=True))
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)
            time.sleep(APART)
            assert answers(server.url), "the server stopped answering"
        # Every worker comes back: three serving again, none of them one that was killed.
        end = time.monotonic() + 60
        while time.monotonic() < end:
            alive = serving(server, supervisor)
            if len(alive) == 3:
                break
            time.sleep(0.1)
        alive = serving(server, supervisor)
        said = log_lines(server)
        told = [d["msg"] for d in said if d["logger"] == "shipcaptaincrew.web.supervisor"]
        assert len(alive) == 3 and not alive & set(killed), (alive, killed, told)
        said = log_lines(server)
        ours = [d for d in said if d["logger"] == "shipcaptaincrew.web.supervisor"]
        died = {d["worker"]: d for d in ours if "died" in d["msg"]}
        assert set(killed) <= set(died), (killed, ours)
        for pid in killed:
            line = died[pid]
            assert line["level"] == "warning" and line["exit"] == -signal.SIGKILL
            assert line["msg"].startswith(f"worker (pid {pid}) died (signal 9); ")
            assert f"(pid {line['replacement']}) took its place " in line["msg"]
        ready = {d["worker"]: d["ms"] for d in ours if "ready" in d["msg"]}
        assert alive <= set(ready)  # each worker there now said when it became ready
        # What it took, from each death to its replacement serving (printed, not asserted).
        took = [
            died[pid]["ms"] + ready[died[pid]["replacement"]]
            for pid in killed
            if died[pid]["replacement"] in ready
        ]
        print(f"\nfrom a death to its replacement ready (ms): {sorted(took)}")
    finally:
        server.stop()
