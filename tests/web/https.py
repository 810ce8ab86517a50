"""A real HTTPS origin for the tests, and a browser that trusts it: Caddy (the distribution's,
as ``scripts/deploy.sh`` installs it) with its own local certificate authority (``tls
internal``) in front of a ``scc serve`` of the test's, on a test host name that Chromium is
told to resolve to the loopback address, and whose root certificate sits in a certificate
database the test made for that browser (Chromium on Linux reads ``$HOME/.pki/nssdb``).

Everything is the test's own: Caddy's ports are free high ports (its ``http_port`` and
``https_port``), its admin endpoint is off, its data (the local CA) in a temporary directory;
the browser gets a HOME of its own.  So tests run in parallel without meeting.

Use the fixtures of ``tests/web/conftest.py``: ``https_origin`` (an :class:`HttpsOrigin` in
front of the module's server) and ``trusting_browser`` (Chromium trusting it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from tests.need import missing

from .conftest import free_port

#: The test host name: never a real one (.test is reserved for testing, RFC 2606).
HOST = "pub.test"
#: Chromium's own arguments in the browser tests (see conftest.browser_type_launch_args).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def caddyfile(http_port: int, https_port: int, backend: int, storage: Path) -> str:
    """The site the tests put in front of ``scc serve``: what deploy.sh installs, with the
    local CA for the certificate instead of Let's Encrypt, on free ports."""
    return f"""{{
	admin off
	http_port {http_port}
	https_port {https_port}
	local_certs
	skip_install_trust
	storage file_system {storage}
	servers {{
		timeouts {{
			read_header 10s
		}}
	}}
}}

{HOST} {{
	tls internal
	encode zstd gzip
	header Strict-Transport-Security "max-age=31536000; includeSubDomains"
	reverse_proxy 127.0.0.1:{backend}
}}
"""


class HttpsOrigin:
    """Caddy on free ports in front of the server on ``backend``; ``url`` is its https origin."""

    def __init__(self, backend: int) -> None:
        caddy = shutil.which("caddy")
        if caddy is None:
            missing("caddy is not installed (scripts/system-deps.sh)")
        self.caddy = caddy
        self.backend = backend
        self.dir = Path(tempfile.mkdtemp(prefix="scc-caddy-"))
        self.http_port, self.https_port = free_port(), free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        #: The server behind it, where a fixture started one (see conftest.https_origin).
        self.server: Any = None

    @property
    def url(self) -> str:
        return f"https://{HOST}:{self.https_port}"

    @property
    def plain_url(self) -> str:
        return f"http://{HOST}:{self.http_port}"

    @property
    def root_certificate(self) -> Path:
        """The local CA's root (Caddy makes it at its first start)."""
        return self.dir / "storage" / "pki" / "authorities" / "local" / "root.crt"

    def start(self) -> HttpsOrigin:
        config = self.dir / "Caddyfile"
        config.write_text(
            caddyfile(self.http_port, self.https_port, self.backend, self.dir / "storage")
        )
        env = {**os.environ, "HOME": str(self.dir), "XDG_DATA_HOME": str(self.dir / "data")}
        with open(self.dir / "caddy.log", "ab") as out:
            self.proc = subprocess.Popen(
                [self.caddy, "run", "--adapter", "caddyfile", "--config", str(config)],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log()
            if self.root_certificate.exists():
                try:
                    if self.client().get("/healthz").status_code == 200:
                        return self
                except httpx.HTTPError:
                    pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"Caddy did not come up: {self.log()}")

    def client(self, source: str | None = None, **kw: Any) -> httpx.Client:
        """An HTTP client of the proxy that trusts its CA (from ``source``, a loopback address
        of its own: a client the proxy sees as that address)."""
        import ssl

        trust = ssl.create_default_context(cafile=str(self.root_certificate))
        transport = httpx.HTTPTransport(verify=trust, local_address=source, retries=0)
        # The test name is resolved by hand: the connection goes to loopback, TLS and the
        # Host header name pub.test.
        return httpx.Client(
            base_url=self.url,
            transport=_Resolved(transport, self.https_port, self.http_port),
            timeout=30,
            **kw,
        )

    def log(self) -> str:
        path = self.dir / "caddy.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
            self.proc = None
        shutil.rmtree(self.dir, ignore_errors=True)


class _Resolved(httpx.BaseTransport):
    """Connects pub.test to 127.0.0.1 (the browser's --host-resolver-rules for httpx), keeping
    the name for TLS (SNI, the certificate check) and the Host header."""

    def __init__(self, inner: httpx.HTTPTransport, *ports: int) -> None:
        self.inner, self.ports = inner, ports

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.host == HOST:
            request.extensions = {**request.extensions, "sni_hostname": HOST}
            request.url = request.url.copy_with(host="127.0.0.1")
        return self.inner.handle_request(request)

    def close(self) -> None:
        self.inner.close()


def trust_store(home: Path, root_certificate: Path) -> None:
    """An NSS certificate database under ``home`` (Chromium's on Linux) trusting the CA."""
    certutil = shutil.which("certutil")
    if certutil is None:
        missing("certutil is not installed: libnss3-tools (scripts/system-deps.sh)")
    db = home / ".pki" / "nssdb"
    db.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [certutil, "-d", f"sql:{db}", "-N", "--empty-password"], check=True, capture_output=True
    )
    subprocess.run(
        [certutil, "-d", f"sql:{db}", "-A", "-t", "C,,", "-n", "scc-test-ca", "-i",
         str(root_certificate)],
        check=True,
        capture_output=True,
    )  # fmt: skip


@contextmanager
def trusting_chromium(playwright: Any, origin: HttpsOrigin, *args: str) -> Iterator[Any]:
    """Chromium with a HOME of its own whose certificate database trusts ``origin``'s CA, and
    the test host name resolved to the loopback address (``args``: more of Chromium's)."""
    home = Path(tempfile.mkdtemp(prefix="scc-chromium-home-"))
    try:
        trust_store(home, origin.root_certificate)
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1", *args],
            env={**os.environ, "HOME": str(home)},
        )
        try:
            yield browser
        finally:
            browser.close()
    finally:
        shutil.rmtree(home, ignore_errors=True)
