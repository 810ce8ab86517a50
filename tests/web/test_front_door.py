"""``scc serve`` facing the clients with nothing in front: the header deadline, the cap on one
address's HTTP connections, HTTPS without a proxy, and the one line a port it cannot use gets.

Real server processes on loopback; other client addresses are other loopback addresses
(127.0.0.2, 127.0.0.3: every 127.x address is this machine on Linux).
"""

from __future__ import annotations

import os
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .conftest import SCC, LiveServer, free_port

#: Seconds a request's headers may take in these tests (the default is 5).
HEADER_TIMEOUT = 2


def _connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def _answer(sock: socket.socket, wait: float = 2.0) -> bytes:
    """What the server sent before closing or within ``wait`` seconds."""
    sock.settimeout(wait)
    got = b""
    try:
        while chunk := sock.recv(4096):
            got += chunk
    except TimeoutError:
        pass
    return got


@pytest.fixture
def guarded(sqlite_url: str) -> Iterator[LiveServer]:
    server = LiveServer(
        sqlite_url,
        SCC_HEADER_TIMEOUT=str(HEADER_TIMEOUT),
        SCC_MAX_HTTP_CONNECTIONS_PER_ADDRESS="8",
    ).start()
    yield server
    server.stop()


def test_a_request_dripping_its_headers_is_cut_off_at_the_deadline(guarded: LiveServer) -> None:
    """One header line every half second, for ten seconds: the server answers 408 and closes
    after ``HEADER_TIMEOUT`` seconds, long before the client would have finished."""
    sock = _connect(guarded.port)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: pub.example\r\n")
    sock.settimeout(0.5)
    got, lines_sent = b"", 0
    for _ in range(20):
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            sock.sendall(b"X-Slow: yes\r\n")
            lines_sent += 1
            continue
        if not chunk:
            break
        got += chunk
    sock.close()
    assert got.startswith(b"HTTP/1.1 408 "), got
    # The cut came at the deadline (about four lines in), not at the end of the drip.
    assert lines_sent < 20, lines_sent


def test_a_silent_connection_is_closed_too(guarded: LiveServer) -> None:
    sock = _connect(guarded.port)
    assert _answer(sock, wait=3 * HEADER_TIMEOUT).startswith(b"HTTP/1.1 408 ")


def test_a_kept_alive_connection_gets_the_deadline_again_for_its_next_request(
    guarded: LiveServer,
) -> None:
    sock = _connect(guarded.port)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    sock.settimeout(5)
    first = b""
    while not first.endswith(b"}"):  # the answer's headers, then its JSON body
        first += sock.recv(4096)
    assert first.startswith(b"HTTP/1.1 200 ")
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
    assert _answer(sock, wait=3 * HEADER_TIMEOUT).startswith(b"HTTP/1.1 408 ")


def test_one_address_holds_its_share_while_another_still_loads_the_page(
    sqlite_url: str,
) -> None:
    server = LiveServer(
        sqlite_url, SCC_HEADER_TIMEOUT="60", SCC_MAX_HTTP_CONNECTIONS_PER_ADDRESS="8"
    ).start()
    try:
        hog = [_connect(server.port, "127.0.0.2") for _ in range(8)]
        time.sleep(0.5)  # every one of them accepted and counted
        refused = [_connect(server.port, "127.0.0.2") for _ in range(3)]
        for sock in refused:
            assert _answer(sock).startswith(b"HTTP/1.1 429 "), "a ninth connection got in"
        # Another address loads the page and its script while the eight stay open.
        other = _connect(server.port, "127.0.0.3")
        other.sendall(b"GET / HTTP/1.1\r\nHost: pub.example\r\nConnection: close\r\n\r\n")
        page = _answer(other, wait=10)
        assert page.startswith(b"HTTP/1.1 200 ") and b"<html" in page, page[:200]
        # The hog's connections are still there: the cap closed only those past it.
        hog[0].sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert _answer(hog[0], wait=5).startswith(b"HTTP/1.1 200 ")
        for sock in hog + refused + [other]:
            sock.close()
        # Once closed they count no longer: the address gets in again.
        time.sleep(0.5)
        again = _connect(server.port, "127.0.0.2")
        again.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert _answer(again, wait=5).startswith(b"HTTP/1.1 200 ")
    finally:
        server.stop()


def test_a_websocket_leaves_the_http_count(sqlite_url: str) -> None:
    """Live tables are counted by their own limits: eight open WebSockets from one address
    leave its HTTP connections free."""
    from contextlib import ExitStack

    import websockets.sync.client as ws

    server = LiveServer(sqlite_url, SCC_MAX_HTTP_CONNECTIONS_PER_ADDRESS="4").start()
    try:
        code = httpx.post(server.url + "/api/rooms", json={"name": "Anna"}).json()["code"]
        with ExitStack() as stack:
            for _ in range(8):
                stack.enter_context(ws.connect(f"ws://127.0.0.1:{server.port}/ws/rooms/{code}"))
            assert httpx.get(server.url + "/healthz").status_code == 200
    finally:
        server.stop()


# -- HTTPS without a proxy ------------------------------------------------------------------


def _certificate(tmp: Path) -> tuple[Path, Path]:
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
            "-keyout", str(key), "-out", str(cert),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


def test_tls_serves_https_on_the_same_port(tmp_path: Path, sqlite_url: str) -> None:
    cert, key = _certificate(tmp_path)
    port = free_port()
    log = tmp_path / "serve.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", SCC, "serve", "--port", str(port), "--db", sqlite_url,
             "--tls-cert", str(cert), "--tls-key", str(key)],
            stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        trust = ssl.create_default_context(cafile=str(cert))
        deadline = time.monotonic() + 120
        while True:
            try:
                r = httpx.get(f"https://127.0.0.1:{port}/", verify=trust, timeout=5)
                break
            except httpx.HTTPError:
                assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        assert r.status_code == 200 and "<html" in r.text
        assert r.http_version == "HTTP/1.1"
        # The join link it hands out is https too.
        made = httpx.post(
            f"https://127.0.0.1:{port}/api/rooms", json={"name": "Anna"}, verify=trust
        )
        assert made.json()["link"].startswith(f"https://127.0.0.1:{port}/r/")
        # Plain http on that port is not served.
        with pytest.raises(httpx.HTTPError):
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5)
        assert log.read_text().startswith(f"Ship, Captain and Crew: https://127.0.0.1:{port}/")
    finally:
        proc.terminate()
        proc.wait(20)


def _serve(*args: str, unprivileged: bool = False) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", SCC, "serve", *args]
    if unprivileged and os.geteuid() == 0:
        # Root without the capability to bind low ports, as any other user is.
        command = ["setpriv", "--bounding-set", "-net_bind_service", *command]
    env = {**os.environ, "LANG": "C.UTF-8"}
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)


def test_a_key_without_a_certificate_is_one_line(tmp_path: Path, sqlite_url: str) -> None:
    result = _serve("--db", sqlite_url, "--tls-key", str(tmp_path / "key.pem"))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "error: --tls-cert and --tls-key go together: give both, or neither"
    ]


def test_a_port_in_use_is_one_line(sqlite_url: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = _serve("--port", str(port), "--db", sqlite_url)
    assert result.returncode == 2
    assert result.stdout == "", "the banner came before the refusal"
    assert result.stderr.splitlines() == [
        f"error: cannot listen on 127.0.0.1:{port}: the port is in use (another scc serve?); "
        "choose another with --port"
    ]


def test_a_privileged_port_is_one_line(tmp_path: Path) -> None:
    """Port 81 without the right to bind it (as root: without CAP_NET_BIND_SERVICE)."""
    db = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    result = _serve("--port", "81", "--db", db, unprivileged=True)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "error: cannot listen on port 81: ports below 1024 need root; use a port above 1023 "
        "(--port 8654), or HTTPS on 443 through Caddy (bash scripts/deploy.sh, see "
        "docs/deployment.md)"
    ]
