"""Every ``scc serve`` command of README.md and docs/ starts and serves.

Each is started as shown, with only what must change on a test machine changed: its port
(a free one), and the addresses of a database and a Redis server the documents name by
placeholder (``db``, ``cache:6379``, ``SECRET``) or on fixed ports, which become this test's
own PostgreSQL database and Redis server.  It must answer ``/healthz``, and ``/readyz`` with
every check ready (the database, and Redis where it is given), and stop cleanly on
``SIGTERM``.  Its first line is in the language it is run in.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.english import english_left
from tests.test_docs_commands import DC, ITEMS
from tests.web.conftest import free_port

from .conftest import PgCluster, RedisServer

#: A clean stop on SIGTERM: uvicorn finishes, then ends by the signal it caught (a supervisor
#: of several workers exits 0).
STOPPED = (0, -signal.SIGTERM)
#: Seconds a server may take to answer ready: a guard against a hang, not a speed target.
#: ``--workers 4`` builds the app five times (the supervisor, then each worker: imports, the
#: schema check, the pages' release), about 12 s of CPU; on two cores shared with other
#: test runs that took over the 90 s this once was, and the server was fine.  Under the
#: suite's 600 s timeout, so that a server that never gets ready fails with its own message.
READY_WITHIN = 420
SERVES = [i for i in ITEMS if re.match(r"^(\.venv/bin/)?scc serve\b", " ".join(i.words))]


def adapted(words: list[str], port: int, pg: PgCluster, redis: RedisServer) -> list[str]:
    """The shown command with a free port and this test's PostgreSQL and Redis."""
    out: list[str] = ["scc"]
    rest = [w for w in words[1:] if w != "&"]
    i = 0
    while i < len(rest):
        w = rest[i]
        value = rest[i + 1] if i + 1 < len(rest) else ""
        if w == "--port":
            out += [w, str(port)]
        elif w == "--db" and value.startswith("postgresql://"):
            out += [w, pg.new_database()]
        elif w == "--redis":
            out += [w, redis.url]
        elif w == "--workers" and not value.isdigit():
            out += [w, "2"]  # --workers K
        elif w in ("--tls-cert", "--tls-key") and value == "FILE":
            out += [w, w[2:] + ".pem"]  # made by serve() in the directory it runs in
        else:
            out.append(w)
            i += 1
            continue
        i += 2
    if "--port" not in out:
        out += ["--port", str(port)]
    return out


def serve(words: list[str], cwd: Path, lang: str, port: int) -> tuple[int, str]:
    env = DC.environment(lang) | {"XDG_DATA_HOME": str(cwd / "data")}
    env.pop("SCC_DB_URL", None)
    env.pop("SCC_REDIS_URL", None)
    https = "--tls-cert" in words
    if https:  # a throwaway certificate for the shown --tls-cert FILE --tls-key FILE
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
             "-subj", "/CN=localhost", "-keyout", "tls-key.pem", "-out", "tls-cert.pem"],
            cwd=cwd, check=True, capture_output=True,
        )  # fmt: skip
    proc = subprocess.Popen(
        DC.argv(words), cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, start_new_session=True,
    )  # fmt: skip
    try:
        url = f"{'https' if https else 'http'}://127.0.0.1:{port}"
        end = time.monotonic() + READY_WITHIN
        ready: dict[str, Any] = {}
        while time.monotonic() < end and proc.poll() is None:
            try:
                if httpx.get(url + "/healthz", timeout=2, verify=False).status_code == 200:
                    r = httpx.get(url + "/readyz", timeout=5, verify=False)
                    ready = r.json()
                    if r.status_code == 200:
                        break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        assert proc.poll() is None, f"{words} stopped: {proc.communicate()[0]}"
        assert ready.get("status") == "ready", (words, ready)
        expected = {"database": "ok"} | ({"redis": "ok"} if "--redis" in words else {})
        assert ready["checks"] == expected, ready
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        told, _ = proc.communicate(timeout=60)
    return proc.returncode, told


def test_the_documents_show_every_way_to_serve() -> None:
    shown = {" ".join(i.words) for i in SERVES}
    assert any("--workers" in s and "--redis" in s for s in shown), shown
    assert any("sqlite:///" in s for s in shown) and any(s == "scc serve" for s in shown)
    assert len(SERVES) >= 8


@pytest.mark.parametrize("item", SERVES, ids=str)
def test_every_serve_command_shown_serves(
    item: Any, tmp_path: Path, pg: PgCluster, redis_server: RedisServer
) -> None:
    port = free_port()
    status, told = serve(adapted(item.words, port, pg, redis_server), tmp_path, "en", port)
    assert status in STOPPED, told
    assert told.splitlines()[0].startswith("Ship, Captain and Crew: http"), told


@pytest.mark.parametrize("lang", ["de", "nb"])
def test_serve_says_where_it_serves_in_the_language(
    tmp_path: Path, pg: PgCluster, redis_server: RedisServer, lang: str
) -> None:
    port = free_port()
    status, told = serve(["scc", "serve", "--port", str(port)], tmp_path, lang, port)
    first = told.splitlines()[0]
    assert status in STOPPED and english_left(first, lang) == [], told
