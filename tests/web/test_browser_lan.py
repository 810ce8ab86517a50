"""An honest LAN mode, as a host starts it for the phones at the table: ``scc serve --host
0.0.0.0`` prints the address phones open (never 0.0.0.0) with a QR code that scans to it; the
host's own page, opened at 127.0.0.1 as the README invites, still hands out that address (the
link and the QR code); a phone on plain http sees no control that needs https and one line
saying why; a server that can only give a loopback address says so on the page.

The QR codes are read back with zbarimg from screenshots, as a phone's camera would read them.
"""

from __future__ import annotations

import html
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from shipcaptaincrew.cli.commands.serve_start import lan_address
from tests.need import missing

from .browsing import PHONE, create_table, home_ready, join_table, shot
from .conftest import ARTIFACTS, SCC, SERVER_SEED, LiveServer, free_port
from .https import CHROMIUM_ARGS

pytestmark = pytest.mark.browser

#: Shown on a phone's page over plain http (the header's note).
INSECURE = (
    "This page is plain http: shake to roll, keeping the screen on, the installed app and "
    "copying the link need https."
)


def scan(png: Path) -> str:
    """What a QR code in a picture says (zbarimg)."""
    zbar = shutil.which("zbarimg")
    if zbar is None:
        missing("zbarimg is not installed: zbar-tools (scripts/system-deps.sh)")
    read = subprocess.run([zbar, "--raw", "-q", str(png)], capture_output=True, text=True)
    assert read.returncode == 0, f"no QR code found in {png}"
    return read.stdout.strip()


class LanServer:
    """``scc serve --host 0.0.0.0``, its start-up output kept (what the host reads)."""

    def __init__(self, db: Path) -> None:
        self.port = free_port()
        self.out = db.with_suffix(".out")
        with open(self.out, "wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", SCC, "serve", "--host", "0.0.0.0", "--port",
                 str(self.port), "--db", f"sqlite:///{db}"],
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**LiveServer("x").env, "COLUMNS": "100"},
            )  # fmt: skip
        deadline = time.monotonic() + 120
        while True:
            assert self.proc.poll() is None, self.out.read_text()
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/healthz", timeout=5).is_success:
                    return
            except httpx.HTTPError:
                assert time.monotonic() < deadline, self.out.read_text()
                time.sleep(0.2)

    def said(self) -> str:
        return self.out.read_text(encoding="utf-8").split("\n2", 1)[0]  # before any log line

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(20)


@pytest.fixture(scope="module")
def lan(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LanServer, str]]:
    address = lan_address("0.0.0.0")
    if address is None:
        missing("this machine has no network address besides loopback")
    server = LanServer(tmp_path_factory.mktemp("lan") / "scc.sqlite3")
    yield server, f"http://{address}:{server.port}"
    server.stop()


@pytest.fixture(scope="module")
def phone_browser(playwright: Any) -> Iterator[Any]:
    """Chromium that opens the test name pub.test at the loopback address: a page there is on
    plain http and not this machine's own, as a phone on the Wi-Fi sees the host's laptop."""
    browser = playwright.chromium.launch(
        executable_path="/usr/bin/chromium",
        args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP pub.test 127.0.0.1"],
    )
    yield browser
    browser.close()


def new_page(browser: Any) -> Any:
    ctx = browser.new_context(viewport=PHONE, locale="en-GB", bypass_csp=True)
    ctx.set_default_timeout(30000)
    return ctx.new_page()


def test_the_start_up_line_names_the_phones_address_with_a_qr_code_that_scans_to_it(
    lan: tuple[LanServer, str], phone_browser: Any
) -> None:
    server, phones = lan
    said = server.said()
    lines = said.splitlines()
    assert lines[0].startswith(f"Ship, Captain and Crew: {phones}/  (database: ")
    assert lines[1] == f"Phones at the table: open {phones}/ or scan this code."
    assert lines[-1].startswith("Plain http: phones get no shake to roll, no screen kept awake")
    assert "scc serve --tls-cert FILE --tls-key FILE" in lines[-1]
    assert "0.0.0.0" not in said
    # The terminal as the host sees it, light text on dark, and its QR code read back.
    page = new_page(phone_browser)
    page.set_content(
        "<body style='margin:0;background:#1e1e1e'><pre style='margin:12px;color:#e8e8e8;"
        'font:15px/1 "DejaVu Sans Mono",monospace;letter-spacing:0\'>'
        f"$ scc serve --host 0.0.0.0\n{html.escape(said)}</pre></body>"
    )
    picture = shot(page, "lan-start-up", full=True)
    assert scan(picture) == f"{phones}/"
    page.context.close()


def test_the_hosts_page_at_127_0_0_1_hands_out_the_network_address(
    lan: tuple[LanServer, str], phone_browser: Any
) -> None:
    server, phones = lan
    host = new_page(phone_browser)
    host.goto(f"http://127.0.0.1:{server.port}/")
    home_ready(host)
    code = create_table(host)
    link = f"{phones}/r/{code}"
    host.wait_for_function(
        "(want) => document.getElementById('join-link').textContent === want", arg=link
    )
    assert host.locator("#loopback-warning").count() == 0
    # 127.0.0.1 is this machine's own: a secure context, so the host keeps copy and shake.
    assert host.locator("#copy-link").count() == 1 and host.locator("#shake").count() == 1
    qr = host.locator(".share img").first
    qr.wait_for()
    ARTIFACTS.mkdir(exist_ok=True)
    picture = ARTIFACTS / "lan-join-qr.png"
    qr.screenshot(path=str(picture))
    assert scan(picture) == link
    shot(host, "lan-host-lobby")
    # The table screen, opened on the host's laptop, shows the same address.
    screen = host.context.new_page()
    screen.goto(f"http://127.0.0.1:{server.port}/r/{code}/screen")
    screen.wait_for_function(
        "(want) => { const l = document.querySelector('[data-testid=screen-link]');"
        " return !!l && l.textContent === want; }",
        arg=link.removeprefix("http://"),
    )
    assert screen.locator("#loopback-warning").count() == 0
    screen.close()

    # A phone opens that table over plain http: the page says what it lacks, once, and
    # shows no switch that would do nothing.
    phone = new_page(phone_browser)
    phone.goto(f"http://pub.test:{server.port}/r/{code}")
    assert phone.evaluate("isSecureContext") is False
    join_table(phone, "Bo")
    note = phone.locator("#insecure")
    assert note.is_visible() and note.inner_text() == INSECURE
    assert phone.locator("#shake").count() == 0
    assert phone.locator("#copy-link").count() == 0 and phone.locator("#share").count() == 0
    width, inner = phone.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width <= inner
    shot(phone, "lan-phone-plain-http")
    host.context.close()
    phone.context.close()


def test_a_server_with_only_a_loopback_address_says_so_on_the_page(
    tmp_path: Path, phone_browser: Any
) -> None:
    server = LiveServer(f"sqlite:///{tmp_path / 'scc.sqlite3'}", SCC_FIXED_SERVER_SEED=SERVER_SEED)
    server.start()
    try:
        host = new_page(phone_browser)
        host.goto(server.url + "/")
        home_ready(host)
        create_table(host)
        warning = host.locator("#loopback-warning")
        warning.wait_for()
        assert "Phones cannot open this address" in warning.inner_text()
        # A page of this machine is a secure context: no note about http in its header.
        assert host.locator("#insecure").count() == 0
        assert "null" not in host.inner_text("#top")
        shot(host, "loopback-warning")
        host.context.close()
    finally:
        server.stop()
