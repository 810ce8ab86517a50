"""A web server for the benchmarks to measure: ``scc serve`` on a temporary SQLite database."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

#: Runs the installed ``scc`` command line in this interpreter.
SCC = "import sys; from shipcaptaincrew.cli import main; sys.argv[0] = 'scc'; main()"


@contextlib.contextmanager
def server(
    port: int, pin: bool = True, src: Path | None = None, env: dict[str, str] | None = None
) -> Iterator[str]:
    """``scc serve`` on a temporary SQLite database, pinned to a core of its own if it can be;
    yields its URL.  ``src``: run the package from this source tree instead (another
    revision, for a comparison: see ``bench_web_compare.py``); ``env``: more settings.

    On a machine with two or more cores the server gets the last core and this process the
    others (see ``bench_web.py`` for why), until the server stops."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "SCC_ECHO_ENDPOINT": "true",
            "SCC_RATE_BURST": "1000",
            "SCC_RATE_PER_SECOND": "1000",
            # Every table comes from this one address (servers without the limit ignore it).
            "SCC_ROOMS_PER_HOUR": "0",
            **(env or {}),
        }
        if src is not None:
            env["PYTHONPATH"] = str(src)
        db = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
        pin = pin and len(cpus) >= 2
        proc = subprocess.Popen(
            [sys.executable, "-c", SCC, "serve", "--port", str(port), "--db", db],
            env=env,
            preexec_fn=(lambda: os.sched_setaffinity(0, {cpus[-1]})) if pin else None,
        )
        if pin:
            os.sched_setaffinity(0, set(cpus[:-1]))
            print(f"server pinned to core {cpus[-1]}, load generator to {cpus[:-1]}")
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(100):
                try:
                    if httpx.get(url + "/api/bots").status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            yield url
        finally:
            proc.terminate()
            proc.wait()
            if pin:
                os.sched_setaffinity(0, set(cpus))
