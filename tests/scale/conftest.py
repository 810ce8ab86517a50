"""Fixtures for the scale-out tests: a real PostgreSQL cluster and a real Redis server on
loopback (both can be stopped and started again mid-test), and ``scc serve`` worker processes
on one database and one Redis, each on its own port as behind a load balancer.

Skips (with the reason) only when redis-server, the PostgreSQL binaries or the Python redis
client are absent; ``scripts/system-deps.sh`` and ``scripts/setup.sh`` install them.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.need import missing
from tests.web.conftest import PG_BIN, SCC, free_port

REDIS_SERVER = shutil.which("redis-server")


def _need() -> None:
    if REDIS_SERVER is None:
        missing("redis-server not installed (run scripts/system-deps.sh as root)")
    if not (PG_BIN / "initdb").exists():
        missing(f"PostgreSQL server binaries not found in {PG_BIN} (scripts/system-deps.sh)")
    try:
        import redis  # noqa: F401
    except ImportError:
        missing("the Python redis client is not installed (bash scripts/setup.sh)")


def wait_port(port: int, up: bool, timeout: float = 20.0) -> None:
    """Wait until something listens on (or nothing listens on) a loopback port."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                listening = True
        except OSError:
            listening = False
        if listening == up:
            return
        time.sleep(0.05)
    raise RuntimeError(f"port {port} still {'closed' if up else 'open'} after {timeout} s")


class RedisServer:
    """redis-server on loopback, no persistence; stop() and start() keep the port."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="scc-redis-"))
        self.port = free_port()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        subprocess.run(
            [
                str(REDIS_SERVER),
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--daemonize",
                "yes",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
                "--pidfile",
                str(self.dir / "redis.pid"),
                "--logfile",
                str(self.dir / "redis.log"),
            ],
            check=True,
            capture_output=True,
        )
        wait_port(self.port, up=True)
        return self

    def stop(self) -> None:
        pidfile = self.dir / "redis.pid"
        if pidfile.exists():
            pid = int(pidfile.read_text().strip() or 0)
            if pid:
                try:
                    os.kill(pid, signal.SIGKILL)  # as abrupt as a crash
                except ProcessLookupError:
                    pass
            pidfile.unlink(missing_ok=True)
        wait_port(self.port, up=False)

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class PgCluster:
    """A throwaway PostgreSQL cluster (initdb + pg_ctl as the postgres user when root)."""

    def __init__(self) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="scc-pg-scale-"))
        self.data, self.sock = self.base / "data", self.base / "sock"
        self.sock.mkdir()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.base, "postgres")
            shutil.chown(self.sock, "postgres")
            os.chmod(self.base, 0o755)
        self.port = free_port()
        self._run(
            str(PG_BIN / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "--no-sync",
            "-E",
            "UTF8",
        )
        self.count = 0

    def _run(self, *args: str) -> None:
        cmd = ["runuser", "-u", "postgres", "--", *args] if self.as_root else list(args)
        subprocess.run(cmd, check=True, capture_output=True)

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}"

    def start(self) -> PgCluster:
        self._run(
            str(PG_BIN / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.base / "log"),
            "-w",
            "-o",
            f"-p {self.port} -k {self.sock} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c max_connections=200",
            "start",
        )
        return self

    def stop(self, mode: str = "fast") -> None:
        cmd = [str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"]
        full = ["runuser", "-u", "postgres", "--", *cmd] if self.as_root else cmd
        subprocess.run(full, capture_output=True)

    def new_database(self) -> str:
        import psycopg

        self.count += 1
        name = f"scc_scale_{os.getpid()}_{self.count}"
        with psycopg.connect(self.url + "/postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"{self.url}/{name}"

    def cleanup(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.base, ignore_errors=True)


@pytest.fixture(scope="session")
def pg() -> Iterator[PgCluster]:
    _need()
    cluster = PgCluster().start()
    yield cluster
    cluster.cleanup()


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    _need()
    server = RedisServer().start()
    yield server
    server.cleanup()


class Worker:
    """One ``scc serve`` process on the shared database and Redis, on its own port."""

    def __init__(self, db: str, redis: str, workers: int = 1, **env: str) -> None:
        self.db, self.redis, self.workers = db, redis, workers
        self.port = free_port()
        self.env = {
            **os.environ,
            "SCC_BOT_DELAY": "0",
            "SCC_RATE_PER_SECOND": "1000",
            "SCC_RATE_BURST": "1000",
            "SCC_FAILOVER_GRACE": "1.0",
            "SCC_LOG_JSON": "true",
            **env,
        }
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = Path(tempfile.mkstemp(prefix="scc-worker-", suffix=".log")[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Worker:
        import httpx

        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    SCC,
                    "serve",
                    "--port",
                    str(self.port),
                    "--db",
                    self.db,
                    "--redis",
                    self.redis,
                    "--workers",
                    str(self.workers),
                ],
                env=self.env,
                stdout=out,
                stderr=out,
                start_new_session=True,
            )
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"worker exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/readyz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"worker did not become ready: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL (the whole process group): no goodbye, no flush."""
        if self.proc is not None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
            self.proc = None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


@pytest.fixture
def make_cluster(pg: PgCluster, redis_server: RedisServer) -> Iterator[Any]:
    """``make_cluster(n=2, db=None, **env)``: n workers (separate processes and ports) on one
    database (a fresh one on the session cluster unless given) and the test's Redis."""
    started: list[Worker] = []

    def make(n: int = 2, db: str | None = None, **env: str) -> list[Worker]:
        url = db or pg.new_database()
        workers = [Worker(url, redis_server.url, **env) for _ in range(n)]
        started.extend(workers)
        for w in workers:
            w.start()
        return workers

    yield make
    for w in started:
        w.stop()
        w.log.unlink(missing_ok=True)


@pytest.fixture
def cluster(make_cluster: Any) -> list[Worker]:
    """Two workers on a fresh database and one Redis."""
    workers: list[Worker] = make_cluster()
    return workers


def wait_ready(worker: Worker, ready: bool, timeout: float = 20.0) -> dict[str, Any]:
    """Wait until ``/readyz`` says ready (200) or not ready (503); returns its answer."""
    import httpx

    end = time.monotonic() + timeout
    body: dict[str, Any] = {}
    while time.monotonic() < end:
        try:
            r = httpx.get(worker.url + "/readyz", timeout=3)
            body = r.json()
            if (r.status_code == 200) == ready:
                return body
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"worker never became {'ready' if ready else 'not ready'}: {body}")


# -- clients ----------------------------------------------------------------------------------


class Client:
    """An asyncio WebSocket at a table that records every message it receives, in order."""

    def __init__(self, base_ws: str, code: str, token: str | None, name: str = "") -> None:
        self.base, self.code, self.token, self.name = base_ws, code, token, name
        self.messages: list[dict[str, Any]] = []
        self.room: dict[str, Any] = {}
        self.seat: int | None = None
        self.closed: int | None = None
        self._changed = asyncio.Event()

    async def open(self) -> Client:
        from websockets.asyncio.client import connect

        self.ws = await connect(
            f"{self.base}/ws/rooms/{self.code}", open_timeout=10, max_size=2**22
        )
        await self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        welcome = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
        assert welcome["type"] == "welcome", welcome
        self.seat = welcome["seat"]
        self._reader = asyncio.get_running_loop().create_task(self._read())
        return self

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in self.ws:
                msg = json.loads(raw)
                self.messages.append(msg)
                if msg["type"] == "room":
                    self.room = msg["room"]
                elif msg["type"] == "welcome":
                    self.seat = msg["seat"]
                self._changed.set()
        except ConnectionClosed as e:
            self.closed = e.rcvd.code if e.rcvd else 1006
        finally:
            if self.closed is None:
                self.closed = 1000
            self._changed.set()

    async def send(self, **msg: Any) -> None:
        await self.ws.send(json.dumps(msg))

    async def send_raw(self, text: str) -> None:
        await self.ws.send(text)

    async def until(self, predicate: Any, timeout: float = 15.0) -> dict[str, Any]:
        """Wait until the newest room picture satisfies ``predicate``."""
        end = time.monotonic() + timeout
        while not (self.room and predicate(self.room)):
            if self.closed is not None:
                raise AssertionError(f"{self.name}: connection closed ({self.closed})")
            self._changed.clear()
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(
                    f"{self.name}: room never reached the state; last "
                    f"version {self.room.get('version')}"
                )
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except TimeoutError:
                pass
        return self.room

    async def next_reply(self, after: int, timeout: float = 10.0) -> dict[str, Any]:
        """The first error, pong or advice message received after index ``after``."""
        end = time.monotonic() + timeout
        while True:
            for m in self.messages[after:]:
                if m["type"] in ("error", "pong", "advice"):
                    return m
            self._changed.clear()
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name}: no reply after message {after}")
            with __import__("contextlib").suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)

    def lines(self) -> list[str]:
        """Every narration line of live broadcasts (history replays excluded), in order."""
        return [
            line
            for m in self.messages
            if m["type"] == "room" and not m.get("history")
            for line in m["lines"]
        ]

    def versions(self) -> list[int]:
        return [m["room"]["version"] for m in self.messages if m["type"] == "room"]

    def errors(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "error"]

    async def close(self) -> None:
        with __import__("contextlib").suppress(Exception):
            await self.ws.close()
        with __import__("contextlib").suppress(Exception):
            await asyncio.wait_for(self._reader, 5)


def make_room(
    api: Any,
    names: list[str],
    bots: list[str] = (),
    start: bool = True,
    settings: list[str] | None = None,
) -> tuple[str, list[str]]:
    """Create a room (host = first name), join the others, seat bots, start; (code, tokens)."""
    r = api.post(
        "/api/rooms",
        json={"name": names[0], "settings": settings or ["format=rounds:2", "starter=chosen"]},
    )
    assert r.status_code == 201, r.text
    code, tokens = r.json()["code"], [r.json()["token"]]
    for name in names[1:]:
        r = api.post(f"/api/rooms/{code}/join", json={"name": name})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    for level in bots:
        r = api.post(
            f"/api/rooms/{code}/bots", json={"level": level}, headers={"X-Seat-Token": tokens[0]}
        )
        assert r.status_code == 201, r.text
    if start:
        r = api.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
        assert r.status_code == 200, r.text
    return code, tokens


def move_of(room: dict[str, Any], pick: int = 0) -> dict[str, Any]:
    """The message that plays a legal choice (or rolls) for the player to act."""
    m = room["match"]
    legal = m["legal"]
    choice = legal[pick % len(legal)]
    if choice == "roll":
        return {"type": "roll", "version": room["version"]}
    return {"type": "act", "action": choice, "version": room["version"]}
