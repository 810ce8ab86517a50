"""The server's edges: HEAD wherever GET works, the app shell's manifest and service worker,
and WebSocket frames the table cannot read (binary, oversized) answered with a clear message
-- against a real server process whose log must show no traceback."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from shipcaptaincrew.web.history import routes as matches
from shipcaptaincrew.web.history import stats_routes as stats
from shipcaptaincrew.web.pages import routes as pages
from shipcaptaincrew.web.play import routes as live
from shipcaptaincrew.web.rooms import routes as rooms
from shipcaptaincrew.web.setup import routes as meta

from .conftest import LiveServer, open_table

ROUTERS = (rooms, matches, stats, meta, live, pages)
#: What a route's path parameters are filled with.
SAMPLES = {"lang": "de", "name": "Anna", "seat": "0"}


def test_head_answers_wherever_get_does(client: Any) -> None:
    code, _ = open_table(client, ["Anna", "Bo"])
    paths = ["/static/style.css"]
    routes = [*client.app.routes, *(r for m in ROUTERS for r in m.router.routes)]
    for route in routes:
        if isinstance(route, APIRoute) and "GET" in route.methods:
            paths.append(re.sub(r"\{(\w+)\}", lambda m: SAMPLES.get(m[1], code), route.path))
    assert {"/", "/healthz", "/readyz", "/api/options", f"/r/{code}"} <= set(paths)
    for path in paths:
        get, head = client.get(path), client.head(path)
        assert head.status_code == get.status_code, path
        assert head.content == b"", path
        for header in ("content-type", "content-length", "content-security-policy"):
            assert head.headers.get(header) == get.headers.get(header), (path, header)
    assert client.head("/api/rooms").status_code == 405  # POST only: no GET, no HEAD


def test_manifest_and_service_worker_at_the_root(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pages, "STATIC", tmp_path)
    assert client.get("/manifest.webmanifest").status_code == 404  # the pages ship them
    assert client.get("/sw.js").status_code == 404
    (tmp_path / "manifest.webmanifest").write_text('{"name": "Ship, Captain and Crew"}')
    (tmp_path / "sw.js").write_text("self.addEventListener('fetch', () => {});")
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200 and r.headers["content-type"] == "application/manifest+json"
    assert r.json()["name"] == "Ship, Captain and Crew"
    r = client.get("/sw.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert r.headers["service-worker-allowed"] == "/" and r.headers["cache-control"] == "no-cache"
    assert client.head("/sw.js").headers["service-worker-allowed"] == "/"


def _next(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.recv(10))
        if msg["type"] == kind:
            return dict(msg)


def test_unreadable_frames_get_a_clear_answer_and_no_traceback(sqlite_url: str) -> None:
    server = LiveServer(sqlite_url).start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as api:
            assert api.head("/").status_code == 200
            assert api.head("/healthz").status_code == 200
            code = api.post("/api/rooms", json={"name": "Anna", "lang": "de"}).json()["code"]
        url = f"ws://127.0.0.1:{server.port}/ws/rooms/{code}"
        with connect(url) as ws:
            ws.send(b"\x00\x01binary")  # before the hello: in the table's language
            err = _next(ws, "error")
            assert err["code"] == "bad_message" and "Binärnachricht" in err["message"]
            ws.send(json.dumps({"type": "hello", "lang": "en"}))
            _next(ws, "room")
            ws.send(b"\x00\x01binary")  # after it: in the connection's; the line stays open
            err = _next(ws, "error")
            assert err["message"] == (
                "This table talks in text messages: a binary message cannot be read."
            )
            ws.send(json.dumps({"type": "ping"}))
            assert _next(ws, "pong") == {"type": "pong"}
            ws.send("x" * 70000)  # over the frame limit: the answer, then the close
            err = _next(ws, "error")
            assert err["code"] == "bad_message" and "70000 bytes" in err["message"]
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        # The table goes on for everyone else.
        with connect(url) as ws:
            ws.send(json.dumps({"type": "hello"}))
            assert _next(ws, "welcome")["seat"] is None
    finally:
        server.stop()
    log = server.output
    assert "Traceback" not in log and "KeyError" not in log, log


def test_the_test_client_runs_on_httpx2_without_a_deprecation() -> None:
    """Starlette's TestClient warns when it falls back on plain httpx: the dev tools install
    httpx2 (fixed at the cause, not silenced), so importing it under ``-W error`` works."""
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", "import starlette.testclient"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_pages_may_connect_to_their_own_server_only(client: Any) -> None:
    csp = client.get("/").headers["content-security-policy"]
    assert "connect-src 'self';" in csp and "ws:" not in csp


def _hello(client: Any, code: str, origin: str | None) -> dict[str, Any]:
    """The first answer to a hello sent from a page of ``origin`` (None: no page, a program)."""
    headers = {} if origin is None else {"origin": origin}
    with client.websocket_connect(f"/ws/rooms/{code}", headers=headers) as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        return dict(ws.receive_json())


def test_websockets_from_other_sites_are_refused(make_client: Any) -> None:
    client = make_client()
    code = client.post("/api/rooms", json={"name": "Anna", "lang": "de"}).json()["code"]
    assert _hello(client, code, None)["type"] == "welcome"
    assert _hello(client, code, "http://testserver")["type"] == "welcome"  # its own pages
    assert _hello(client, code, "https://TESTSERVER")["type"] == "welcome"  # behind TLS
    with client.websocket_connect(
        f"/ws/rooms/{code}", headers={"origin": "https://evil.example"}
    ) as ws:
        err = ws.receive_json()
        assert err["code"] == "bad_origin" and "https://evil.example" in err["message"]
        assert "eigenen Seiten" in err["message"]  # in the table's language
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    friends = make_client(
        allowed_origins=["https://friends.example/"], public_url="https://scc.example"
    )
    code = friends.post("/api/rooms", json={"name": "Anna"}).json()["code"]
    for origin in ("https://friends.example", "https://scc.example"):
        assert _hello(friends, code, origin)["type"] == "welcome", origin
    assert _hello(friends, code, "https://evil.example")["code"] == "bad_origin"
    anyone = make_client(allowed_origins=["*"])
    code = anyone.post("/api/rooms", json={"name": "Anna"}).json()["code"]
    assert _hello(anyone, code, "https://evil.example")["type"] == "welcome"


def test_access_log_when_asked_and_a_line_at_shutdown(sqlite_url: str) -> None:
    """A real ``scc serve``: quiet about requests by default, one line each with
    ``--access-log``; a line when it shuts down; ``--allow-origin`` lets that site's pages in."""
    logs = {}
    for args in ((), ("--access-log", "--allow-origin", "https://friends.example")):
        server = LiveServer(sqlite_url, args=args).start()
        try:
            with httpx.Client(base_url=server.url, timeout=10) as api:
                assert api.get("/healthz").status_code == 200
                code = api.post("/api/rooms", json={"name": "Anna"}).json()["code"]
            url = f"ws://127.0.0.1:{server.port}/ws/rooms/{code}"
            with connect(url, origin="https://friends.example") as ws:  # type: ignore[arg-type]
                if args:
                    ws.send(json.dumps({"type": "hello"}))
                # A page from a site not allowed is refused as it connects, before any hello
                # (sending one could race the close and fail the send).
                logs[args] = [json.loads(ws.recv(10))["type"]]
        finally:
            server.stop()
        logs[args].append(server.output)
    (quiet, quiet_log), (talkative, log) = logs.values()
    assert (quiet, talkative) == ("error", "welcome")  # another site's page: only when allowed
    assert "GET /healthz" not in quiet_log and "POST /api/rooms" not in quiet_log
    assert "GET /healthz" in log and "POST /api/rooms" in log and '" 201' in log
    for text in (quiet_log, log):
        assert "shut down: " in text and "Traceback" not in text
