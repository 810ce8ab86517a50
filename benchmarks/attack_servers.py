"""The servers ``bench_attacks.py`` attacks: one ``scc serve`` process on SQLite, or three worker
processes on PostgreSQL and Redis (started here, throwaway, on loopback, with the helpers of
``tests/scale/conftest.py``), each worker on its own port as behind a load balancer."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.scale.conftest import PgCluster, RedisServer, Worker, free_port  # noqa: E402

#: Runs the installed ``scc`` command line in this interpreter.
SCC = "import sys; from shipcaptaincrew.cli import main; sys.argv[0] = 'scc'; main()"

#: What every attacked server is told: the players may move as fast as they can (the rate
#: limit is a per-connection matter, not what is measured), and the tables the benchmark
#: opens for its players from one address are not limited (the flood sets the limit back).
BASE_ENV = {
    "SCC_RATE_PER_SECOND": "1000",
    "SCC_RATE_BURST": "1000",
    "SCC_BOT_DELAY": "0.2",
    "SCC_ROOMS_PER_HOUR": "0",
}


@dataclass
class Served:
    """A server under attack: its workers' URLs, and how to stop them."""

    name: str
    urls: list[str]
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    #: The SQLite file (one process only).
    db: Path | None = None
    #: The worker objects (three workers only), to kill and start again.
    workers: list[Worker] = field(default_factory=list)

    def ws(self, i: int) -> str:
        return self.urls[i % len(self.urls)].replace("http", "ws", 1)

    def url(self, i: int) -> str:
        return self.urls[i % len(self.urls)]

    @property
    def pid(self) -> int:
        return self.procs[0].pid


def _wait(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    for _ in range(1200):
        if proc.poll() is not None:
            raise SystemExit(f"server exited: {log.read_text()[-2000:]}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "/readyz", timeout=2).status_code == 200:
                return
        time.sleep(0.1)
    raise SystemExit(f"server did not come up: {log.read_text()[-2000:]}")


def start_process(db: Path, env: dict[str, str], args: tuple[str, ...] = ()) -> Served:
    """``scc serve`` on the SQLite file ``db`` (kept if it exists: a restart)."""
    port = free_port()
    log = Path(tempfile.mkstemp(prefix="scc-attack-", suffix=".log")[1])
    with open(log, "ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", SCC, "serve", "--port", str(port), "--db", f"sqlite:///{db}"]
            + list(args),
            env={**os.environ, **BASE_ENV, **env},
            stdout=out,
            stderr=out,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    _wait(url, proc, log)
    return Served("1 process, SQLite", [url], [proc], db)


def stop(served: Served, kill: bool = False) -> None:
    for proc in served.procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL if kill else signal.SIGTERM)
    for proc in served.procs:
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@contextlib.contextmanager
def one_process(env: dict[str, str], args: tuple[str, ...] = ()) -> Iterator[Served]:
    with tempfile.TemporaryDirectory() as tmp:
        served = start_process(Path(tmp) / "attack.sqlite3", env, args)
        try:
            yield served
        finally:
            stop(served)


@contextlib.contextmanager
def three_workers(env: dict[str, str], args: tuple[str, ...] = ()) -> Iterator[Served]:
    """Three ``scc serve --workers 1`` processes on one PostgreSQL database and one Redis."""
    pg, redis = PgCluster().start(), RedisServer().start()
    workers: list[Worker] = []
    try:
        db = pg.new_database()
        extra = {**BASE_ENV, **env, "SCC_LOG_JSON": "true"}
        workers += [Worker(db, redis.url, seed=None, **extra) for _ in range(3)]
        for w in workers:
            if args:
                _start_with_args(w, args)
            else:
                w.start()
        procs = [w.proc for w in workers if w.proc is not None]
        yield Served("3 workers, PostgreSQL+Redis", [w.url for w in workers], procs, None, workers)
    finally:
        for w in workers:
            w.stop()
            w.log.unlink(missing_ok=True)
        redis.cleanup()
        pg.cleanup()


def _start_with_args(worker: Worker, args: tuple[str, ...]) -> None:
    """A worker started with extra ``scc serve`` flags (Worker knows none)."""
    with open(worker.log, "ab") as out:
        worker.proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                SCC,
                "serve",
                "--port",
                str(worker.port),
                "--db",
                worker.db,
                "--redis",
                worker.redis,
                *args,
            ],
            env=worker.env,
            stdout=out,
            stderr=out,
            start_new_session=True,
        )
    _wait(worker.url, worker.proc, worker.log)


def cpu_seconds(served: Served) -> float:
    """CPU time the server's processes have used so far (user and system, from /proc): what
    an attack costs the server, whatever else runs on the machine meanwhile."""
    total = 0
    for proc in served.procs:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / os.sysconf("SC_CLK_TCK")


def load() -> str:
    """The machine's load averages, as ``uptime`` says them."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())
