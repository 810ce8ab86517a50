"""Fixtures for the web tests: apps on a temporary SQLite file or a PostgreSQL server started
here, WebSocket players, live servers in subprocesses, and Chromium from the system package."""

from __future__ import annotations

import json
import os
import shutil
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

#: The newest PostgreSQL server installed by apt (initdb and pg_ctl are not on PATH on Debian).
PG_BIN = max(
    Path("/usr/lib/postgresql").glob("*/bin"),
    default=Path("/usr/lib/postgresql/15/bin"),
    key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
)
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
#: Every room a test server creates uses this server seed (``Settings.fixed_server_seed``), so
#: its dice, and the bots' choices drawn from the seed, are the same on every run: a failure
#: comes back when the test is run again.  A test may still pass another seed.
SERVER_SEED = "5eed" * 16


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "browser: Playwright end-to-end tests (run in their own pytest process)"
    )
    config.addinivalue_line("markers", "postgres: needs the PostgreSQL server binaries")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests run only when asked for (``-m browser``), in a pytest process of their own."""
    if "browser" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(
        reason="browser test: run separately with `pytest tests/web -m browser`"
    )
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": "/usr/bin/chromium",
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
        ],
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- PostgreSQL -----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A throwaway PostgreSQL cluster (initdb + pg_ctl) on a free port; yields its base URL."""
    if not (PG_BIN / "initdb").exists():
        missing(f"PostgreSQL server binaries not found in {PG_BIN} (scripts/system-deps.sh)")
    base = Path(tempfile.mkdtemp(prefix="scc-pg-"))
    data, sock = base / "data", base / "sock"
    sock.mkdir()
    as_root = os.geteuid() == 0
    if as_root:
        shutil.chown(base, "postgres")
        shutil.chown(sock, "postgres")
        os.chmod(base, 0o755)
    run = (lambda *a: ["runuser", "-u", "postgres", "--", *a]) if as_root else (lambda *a: list(a))
    port = free_port()
    subprocess.run(
        run(
            str(PG_BIN / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "--no-sync",
            "-E",
            "UTF8",
        ),
        check=True,
        capture_output=True,
    )
    subprocess.run(
        run(
            str(PG_BIN / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(base / "log"),
            "-w",
            "-o",
            f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off",
            "start",
        ),
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run(
            run(str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"),
            capture_output=True,
        )
        shutil.rmtree(base, ignore_errors=True)


_db_counter = 0


def _new_pg_database(base_url: str) -> str:
    import psycopg

    global _db_counter
    _db_counter += 1
    name = f"scc_test_{os.getpid()}_{_db_counter}"
    with psycopg.connect(base_url + "/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{base_url}/{name}"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database: a SQLite file, or a new database on the test PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'scc.sqlite3'}"
    return _new_pg_database(request.getfixturevalue("postgres_server"))


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'scc.sqlite3'}"


# -- apps and players ------------------------------------------------------------------------------


@pytest.fixture
def make_client(db_url: str) -> Iterator[Any]:
    """``make_client(**settings)`` -> a started TestClient on the test database."""
    from fastapi.testclient import TestClient

    from shipcaptaincrew.web import Settings, create_app

    clients: list[Any] = []

    def make(**overrides: Any) -> Any:
        # Scripted players act far faster than people; only the rate-limit test limits them.
        options = {
            "bot_delay": 0.0,
            "rate_per_second": 1000.0,
            "rate_burst": 1000,
            "fixed_server_seed": SERVER_SEED,
            # Tests open many rooms from one address (the limit's own tests set it).
            "rooms_per_hour": 0,
            **overrides,
        }
        settings = Settings(db_url=db_url, **options)
        client = TestClient(create_app(settings))
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for c in clients:
        c.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client()


class Player:
    """One WebSocket at a table (a TestClient session), with the last room picture it saw."""

    def __init__(self, client: Any, code: str, token: str | None, lang: str = "en") -> None:
        self.ctx = client.websocket_connect(f"/ws/rooms/{code}")
        self.ws = self.ctx.__enter__()
        self.ws.send_text(json.dumps({"type": "hello", "token": token, "lang": lang}))
        welcome = self.ws.receive_json()
        assert welcome["type"] == "welcome", welcome
        self.seat: int | None = welcome["seat"]
        self.room: dict[str, Any] = {}
        self.lines: list[str] = []
        self.seen: list[dict[str, Any]] = []
        self.next("room")

    def send(self, **msg: Any) -> None:
        self.ws.send_text(json.dumps(msg))

    def next(self, kind: str | None = None) -> dict[str, Any]:
        """The next message (of ``kind``, skipping others but keeping room pictures current)."""
        while True:
            msg = self.ws.receive_json()
            self.seen.append(msg)
            if msg["type"] == "room":
                self.room = msg["room"]
                self.lines += msg["lines"]
            if kind is None or msg["type"] == kind:
                return msg

    def until(self, predicate: Any, limit: int = 2000) -> dict[str, Any]:
        """Read room pictures until ``predicate(room)`` holds."""
        if self.room and predicate(self.room):
            return self.room
        for _ in range(limit):
            self.next("room")
            if predicate(self.room):
                return self.room
        raise AssertionError("the room never reached the expected state")

    def close(self) -> None:
        self.ctx.__exit__(None, None, None)


@pytest.fixture
def players() -> Iterator[list[Player]]:
    opened: list[Player] = []
    yield opened
    for p in opened:
        try:
            p.close()
        except Exception:
            pass


def open_table(
    client: Any, names: list[str], bots: list[str] = (), **room: Any
) -> tuple[str, list[str]]:
    """Create a room with the first name as host, join the others, seat bots; returns (code, tokens)."""
    r = client.post("/api/rooms", json={"name": names[0], **room})
    assert r.status_code == 201, r.text
    code, tokens = r.json()["code"], [r.json()["token"]]
    for name in names[1:]:
        r = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    for level in bots:
        r = client.post(
            f"/api/rooms/{code}/bots", json={"level": level}, headers={"X-Seat-Token": tokens[0]}
        )
        assert r.status_code == 201, r.text
    return code, tokens


# -- live servers -----------------------------------------------------------------------------------

#: Runs the installed ``scc`` command line in this interpreter.
SCC = "import sys; from shipcaptaincrew.cli import main; sys.argv[0] = 'scc'; main()"


class LiveServer:
    """``scc serve`` in a subprocess (a real server process that a test can stop and restart)."""

    def __init__(
        self,
        db: str,
        port: int | None = None,
        bot_delay: float = 0.0,
        args: tuple[str, ...] = (),
        **env: str,
    ) -> None:
        self.db, self.port, self.args = db, port or free_port(), args
        self.env = {
            **os.environ,
            "SCC_BOT_DELAY": str(bot_delay),
            "SCC_FIXED_SERVER_SEED": SERVER_SEED,
            "SCC_ROOMS_PER_HOUR": "0",
            **env,
        }
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = Path(tempfile.mkstemp(prefix="scc-server-", suffix=".log")[1])
        #: What the server wrote to stderr, kept by :meth:`stop` when it removes the log.
        self.output = ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        import httpx

        # The server's log goes to a file: a pipe nobody reads fills up (64 KiB) and then
        # blocks the server in the middle of a test.
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
                    *self.args,
                ],
                env=self.env,
                stdout=subprocess.DEVNULL,
                stderr=out,
            )
        # Generous: on a loaded machine a cold start (imports, the schema) takes its time.
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.proc = None
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/api/bots", timeout=5).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        self.kill()  # not left running behind the failed test
        raise RuntimeError(f"server did not come up within 120 s: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """Stop the process abruptly (SIGKILL): nothing gets a chance to flush or say goodbye."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None

    def stop(self) -> None:
        """Stop the process (SIGTERM, then SIGKILL after 10 s) and remove its log, whose text
        stays in :attr:`output` (a test may read what the server said at shutdown)."""
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
            self.proc = None
        if self.log.exists():
            self.output = self.log.read_text(encoding="utf-8", errors="replace")
        self.log.unlink(missing_ok=True)


@pytest.fixture
def live_server(sqlite_url: str) -> Iterator[LiveServer]:
    server = LiveServer(sqlite_url).start()
    yield server
    server.stop()


@pytest.fixture
def pages(server: LiveServer, browser: Any) -> Iterator[Any]:
    """Browser pages of a test, on its module's ``server``; closed after it."""
    from .browsing import Pages

    opened = Pages(browser, server.url)
    yield opened
    opened.close()


# -- a real HTTPS origin (Caddy with its local CA) and a browser that trusts it ----------------


@pytest.fixture(scope="module")
def https_origin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Caddy (``tls internal``) at ``https://pub.test:PORT`` in front of a module's own
    ``scc serve`` (``.server``; it trusts the proxy's ``X-Forwarded-For`` and links to the
    https origin); see :mod:`tests.web.https`.  ``SCC_ROOMS_PER_HOUR=1``: each client address
    opens one room an hour, so the limits show who the server takes a client for."""
    from .https import HttpsOrigin

    db = tmp_path_factory.mktemp("https") / "scc.sqlite3"
    origin = HttpsOrigin(free_port())
    server = LiveServer(
        f"sqlite:///{db}",
        port=origin.backend,
        bot_delay=0.05,
        args=("--forwarded-allow-ips", "127.0.0.1"),
        SCC_PUBLIC_URL=origin.url,
        SCC_ROOMS_PER_HOUR="1",
    ).start()
    origin.server = server
    try:
        yield origin.start()
    finally:
        origin.stop()
        server.stop()


@pytest.fixture(scope="module")
def trusting_browser(playwright: Any, https_origin: Any) -> Iterator[Any]:
    """Chromium resolving pub.test to loopback and trusting the origin's local CA."""
    from .https import trusting_chromium

    with trusting_chromium(playwright, https_origin) as browser:
        yield browser
