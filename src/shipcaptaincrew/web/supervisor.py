"""``scc serve --workers K``: the process that keeps K workers serving, and says what it does.

uvicorn's own supervisor once left a server with no worker at all for 22 s, with workers
killed 2-5 s apart, and said nothing (its lines go to uvicorn's logger, quiet on a terminal).
It looks at its workers one after another, and asks each whether it is alive with a ping that
may wait up to the health-check time: a worker still starting cannot answer yet, so while it
waited for one, the others that died were not replaced.  And each new worker was a fresh
interpreter importing everything again (seconds on a loaded machine).

This supervisor instead:

- **notices a death at once**: it waits on every worker's process sentinel and pipe at the
  same time (``multiprocessing.connection.wait``), never on one worker's ping, so a worker
  that dies is replaced within milliseconds of its death, however many die meanwhile;
- **keeps a spare warm**: besides the K workers one more has made and started its app (its
  database pool, Redis, the matches under way: a member of the cluster like the others) but
  does not take connections; when a worker dies the spare serves in its place at once (it
  only has to start listening), and a new spare is made.  If the spare is still starting
  (workers dying faster than one starts), it serves as soon as it is up;
- **starts workers warm**: the modules and the pages' release (bundles, compressed files) are
  loaded once here, before any worker, and each worker is forked from this process
  (``fork``: nothing to import, nothing to build); the supervisor itself holds no thread, no
  event loop and no connection when it forks;
- **pings without blocking**: each worker is pinged every few seconds and has
  ``healthcheck`` seconds to answer; one that does not is killed (and so replaced);
- **says what it does** on the server's own logger (``shipcaptaincrew.web.supervisor``):
  each worker started, ready (and how long it took), died (its exit code or signal, and
  which worker took its place how many milliseconds later), hung, stopped.

A worker that dies before it ever became ready with uvicorn's start-up failure code (the app
cannot be imported, the socket cannot be served) would fail again at once: the server stops
instead of restarting it in a loop, as uvicorn's supervisor does.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from socket import socket
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from uvicorn import Config

log = logging.getLogger("shipcaptaincrew.web.supervisor")

#: Seconds between two pings of a worker (each has ``healthcheck`` seconds to answer).
PING_EVERY = 5.0
#: Seconds the supervisor waits on its workers before looking at its clock again.
TICK = 0.5
#: uvicorn's exit code for a worker that failed before it served (``uvicorn.config``).
STARTUP_FAILURE = 3


@dataclass
class Worker:
    """One worker process as the supervisor sees it: serving the socket, or the spare."""

    process: BaseProcess
    conn: Connection
    serving: bool
    started: float = field(default_factory=time.monotonic)
    #: When it had made and started its app, and when it served (told to go, and ready).
    warm: float | None = None
    went: float | None = None
    ready: float | None = None
    #: When the last ping went out unanswered (None: none is waiting), and when the next goes.
    pinged: float | None = None
    next_ping: float = field(default_factory=lambda: time.monotonic() + PING_EVERY)

    @property
    def pid(self) -> int:
        return self.process.pid or 0


def _worker(config: Config, sockets: list[socket], conn: Connection, go_now: bool) -> None:
    """A worker (forked; see the module): make the app and start it (its database, Redis,
    the matches under way), say it is warm, and serve the socket once told to go (at once,
    or, as the spare, when a worker dies); answer the supervisor's pings throughout."""
    import asyncio

    import uvicorn

    for sig in (signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2, signal.SIGTTIN, signal.SIGTTOU):
        signal.signal(sig, signal.SIG_DFL)  # (the supervisor's own handlers stay with it)
    signal.signal(
        signal.SIGINT, signal.SIG_IGN
    )  # Ctrl-C reaches the group: the supervisor stops us
    go, quit_ = threading.Event(), threading.Event()
    if go_now:
        go.set()

    def leave(_signum: int, _frame: object) -> None:  # SIGTERM while waiting as the spare
        quit_.set()
        go.set()

    signal.signal(signal.SIGTERM, leave)
    lock = threading.Lock()

    def say(what: str) -> None:
        with lock, contextlib.suppress(OSError):
            conn.send(what)

    def listen() -> None:
        with contextlib.suppress(EOFError, OSError):
            while True:
                if conn.recv() == "go":
                    go.set()
                else:
                    say("pong")

    threading.Thread(target=listen, daemon=True).start()
    module, _, name = str(config.app).partition(":")
    app = getattr(importlib.import_module(module), name)()  # the app factory
    # The app made, its lifespan run here (around the wait for "go"), not by the server.
    config.app, config.lifespan = app, "off"
    setattr(config, "factory", False)  # noqa: B010 (uvicorn reads it; nothing of ours does)

    async def main() -> None:
        async with app.router.lifespan_context(app):
            say("warm")
            await asyncio.get_running_loop().run_in_executor(None, go.wait)
            if quit_.is_set():
                return
            server = uvicorn.Server(config)

            def up() -> None:
                while not server.started and not server.should_exit:
                    time.sleep(0.01)
                if server.started:
                    say("ready")

            threading.Thread(target=up, daemon=True).start()
            await server.serve(sockets=sockets)

    with asyncio.Runner(loop_factory=config.get_loop_factory()) as runner:
        runner.run(main())


class Supervisor:
    """Keeps ``workers`` forked workers of ``config`` serving one socket (see the module)."""

    def __init__(self, config: Config, workers: int, healthcheck: float) -> None:
        self.config, self.count, self.healthcheck = config, workers, healthcheck
        self.workers: list[Worker] = []
        #: The spare: a worker with its app made and started, not serving yet, that takes a
        #: dead worker's place at once (None: none is being kept, or it died).
        self.spare: Worker | None = None
        self.sockets: list[socket] = []
        self.stopping = False
        self._context = multiprocessing.get_context("fork")
        self._wake_r, self._wake_w = os.pipe()

    def run(self) -> None:
        """Serve until told to stop (SIGINT or SIGTERM)."""
        self.sockets = [self.config.bind_socket()]
        self._preload()
        os.set_blocking(self._wake_w, False)
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, self._signalled)
        log.info(
            "supervisor (pid %d) starting %d workers",
            os.getpid(),
            self.count,
            extra={"pid": os.getpid(), "workers": self.count},
        )
        for _ in range(self.count):
            self.workers.append(self._start(serving=True))
        self.spare = self._start(serving=False)
        try:
            while not self.stopping:
                self._watch()
        finally:
            self._stop_all()

    def _preload(self) -> None:
        """Import the app's module and build the pages' release here, once: every worker
        forked from this process has them (see the module).  The app itself is made in each
        worker (its factory opens the database and Redis there)."""
        from .pages import routes as pages

        importlib.import_module(str(self.config.app).partition(":")[0])
        pages.release()

    def _start(self, serving: bool) -> Worker:
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=_worker, args=(self.config, self.sockets, child, serving), daemon=False
        )
        process.start()
        child.close()
        worker = Worker(process, parent, serving)
        if serving:
            worker.went = worker.started
        what = "worker" if serving else "spare worker"
        log.info("%s (pid %d) started", what, worker.pid, extra={"worker": worker.pid})
        return worker

    def _all(self) -> list[Worker]:
        return [*self.workers, *([self.spare] if self.spare is not None else [])]

    def _signalled(self, _signum: int, _frame: object) -> None:
        self.stopping = True
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"\0")

    def _watch(self) -> None:
        """Wait a tick for any worker to die or speak, then act on it."""
        everyone = self._all()
        by_sentinel = {w.process.sentinel: w for w in everyone}
        by_conn = {id(w.conn): w for w in everyone}
        waited: list[Any] = [*by_sentinel, *(w.conn for w in everyone), self._wake_r]
        for ready in wait(waited, timeout=TICK):
            if ready == self._wake_r:
                with contextlib.suppress(OSError):
                    os.read(self._wake_r, 64)
            elif isinstance(ready, int) and ready in by_sentinel:
                self._died(by_sentinel[ready])
            elif isinstance(ready, Connection) and id(ready) in by_conn:
                self._heard(by_conn[id(ready)])
        self._ping()

    def _heard(self, worker: Worker) -> None:
        try:
            while worker.conn.poll():
                what = worker.conn.recv()
                if what == "warm" and worker.warm is None:
                    worker.warm = time.monotonic()
                    took = (worker.warm - worker.started) * 1000
                    log.info(
                        "worker (pid %d) warm in %.0f ms",
                        worker.pid,
                        took,
                        extra={"worker": worker.pid, "ms": round(took)},
                    )
                elif what == "ready" and worker.ready is None:
                    worker.ready = time.monotonic()
                    took = (worker.ready - (worker.went or worker.started)) * 1000
                    log.info(
                        "worker (pid %d) ready in %.0f ms",
                        worker.pid,
                        took,
                        extra={"worker": worker.pid, "ms": round(took)},
                    )
                worker.pinged = None
        except (EOFError, OSError):
            pass  # it is dying: its sentinel says so

    def _died(self, worker: Worker) -> None:
        """A worker ended: the spare serves in its place at once (or a new worker starts),
        and a new spare is made (unless the server is stopping)."""
        worker.process.join(1)  # (its sentinel can be ready a moment before it is reaped)
        code = worker.process.exitcode
        gone = time.monotonic()
        if worker is self.spare:
            self.spare = None
        with contextlib.suppress(ValueError):
            self.workers.remove(worker)
        worker.conn.close()
        how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        if self.stopping:
            return
        if worker.warm is None and code == STARTUP_FAILURE:
            log.error(
                "worker (pid %d) failed to start (%s): stopping the server",
                worker.pid,
                how,
                extra={"worker": worker.pid, "exit": code},
            )
            self.stopping = True
            return
        if not worker.serving:
            log.warning(
                "spare worker (pid %d) died (%s)", worker.pid, how, extra={"worker": worker.pid}
            )
            self.spare = self._start(serving=False)
            return
        new, was = self._take_place()
        log.warning(
            "worker (pid %d) died (%s); %s (pid %d) took its place %.0f ms later",
            worker.pid,
            how,
            was,
            new.pid,
            ((new.went or gone) - gone) * 1000,
            extra={
                "worker": worker.pid,
                "exit": code,
                "replacement": new.pid,
                "ms": round(((new.went or gone) - gone) * 1000),
                "warm": new.warm is not None,
            },
        )
        if self.spare is None:
            self.spare = self._start(serving=False)

    def _take_place(self) -> tuple[Worker, str]:
        """The worker that serves in a dead one's place: the spare, told to go (warm, or
        still starting: it serves as soon as it can), else a new one; and what it was."""
        spare, self.spare = self.spare, None
        if spare is not None:
            try:
                spare.conn.send("go")
            except OSError:
                spare = None  # it is dying too: its sentinel says so
        if spare is None:
            new = self._start(serving=True)
            self.workers.append(new)
            return new, "a new worker"
        spare.serving, spare.went = True, time.monotonic()
        self.workers.append(spare)
        return spare, "the spare worker" if spare.warm is not None else "the spare (still starting)"

    def _ping(self) -> None:
        """Ping each worker now and then; kill one that leaves a ping unanswered too long."""
        now = time.monotonic()
        for worker in self._all():
            if worker.pinged is not None:
                if now - worker.pinged > self.healthcheck:
                    log.warning(
                        "worker (pid %d) did not answer for %.0f s: killed",
                        worker.pid,
                        now - worker.pinged,
                        extra={"worker": worker.pid},
                    )
                    worker.process.kill()  # (its death is seen next: a new one takes over)
                    worker.pinged = None
                continue
            if now >= worker.next_ping:
                worker.next_ping = now + PING_EVERY
                try:
                    worker.conn.send("ping")
                    worker.pinged = now
                except OSError:
                    pass  # it is dying: its sentinel says so

    def _stop_all(self) -> None:
        """Ask every worker to finish (SIGTERM: moves in progress are waited for), then wait."""
        everyone = self._all()
        log.info("stopping %d workers", len(everyone), extra={"workers": len(everyone)})
        for worker in everyone:
            with contextlib.suppress(OSError):
                worker.process.terminate()
        grace = float(getattr(self.config, "timeout_graceful_shutdown", None) or 10) + 5
        end = time.monotonic() + grace
        for worker in everyone:
            worker.process.join(max(0.1, end - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(5)
        for sock in self.sockets:
            sock.close()
        log.info("supervisor (pid %d) stopped", os.getpid(), extra={"pid": os.getpid()})
