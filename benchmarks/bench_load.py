"""How fast a page opens on a pub's network: this tree's server against an older revision's,
in the same run.

Each page is opened in Chromium (the system's, through Playwright) with the network emulated
through the DevTools protocol (``Network.emulateNetworkConditions``: a latency added to every
request, a shared download and upload rate), in a fresh browser profile (empty caches, no
service worker): the **first visit**.  Then the same profile, once its service worker is in
charge, opens the page again: the **second visit** (the installed app, or the link opened
again).  Chromium's emulation adds its latency to every HTTP request and to the WebSocket's
opening handshake, slows the WebSocket's frames only by its rate (about 50 ms a frame at
60 kB/s), and leaves alone what the service worker fetches on its own.

A page counts as **interactive** when a person can use it (what they do is checked by the
server: the table's live data, or the same moment of the table, below): the same test for the
old code and the new, on hooks both have, and with every style sheet of the page applied:

* the table (``/r/CODE``, a table in its lobby, opened by a newcomer): the join form with its
  button, from the server's first room picture or, on a second visit, from the picture kept
  on the phone (joining goes over HTTP and is checked there);
* the table mid-match (``/r/CODE`` of a match under way, its first roll due, opened by the
  player whose roll it is, their seat token on the phone): that player's Roll button drawn and
  enabled.  On a second visit the new code draws it from the picture kept on the phone, and a
  tap on it waits for the table's answer (it goes if the live picture shows the same moment,
  else it is dropped and the phone says so); older revisions enable it only on the live
  picture.  So that nobody has to take "usable" on trust, the second visit also taps Roll the
  moment it is usable and times **rolled**: the first frame with the rolled dice on the felt
  (the server's roll; the tumble starts).  That figure always includes the WebSocket's opening
  round trip, which no cache can save;
* the home page (``/``): the create form with its rule presets drawn from the option table;
* the table screen (``/r/CODE/screen``, the table in its lobby, on a TV): the join code and its
  QR code, drawn.  Older revisions have no table screen: its row shows the new code only.

The time is the page's own clock (``performance.now()`` from the start of the navigation) at
the first animation frame where the test holds; requests and bytes (as sent over the network,
headers included, the WebSocket as one request) are counted until then.  Beside them: the first
contentful paint of the first visit, and when the second visit's page was **drawn** from the
phone's cache alone, styled: its header drawn by its script, and for the table mid-match the
felt and the acting player's buttons too (the picture kept on the phone; older revisions draw
no match before the server answers).  ``--base`` is checked out of git (``git archive``)
into a temporary folder and served from there by the same interpreter and packages.  Old and
new are measured alternately, ``--rounds`` times each, and each figure is the median.

    .venv/bin/python benchmarks/bench_load.py                 # against e4ea62f, 3 rounds
    .venv/bin/python benchmarks/bench_load.py --base main --rounds 5

Prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from served import server

ROOT = Path(__file__).resolve().parents[1]
#: main before the pages were made fast: one file per module, the strings fetched after them.
BASE = "e4ea62f"
#: (latency ms, download and upload bytes per second): a pub's network, and a poor one.
NETWORKS = {"400 ms / 60 kB/s": (400, 60_000), "2 s / 50 kB/s": (2000, 50_000)}
STYLED = "[...document.querySelectorAll('link[rel=stylesheet]')].every((l) => l.sheet)"
#: The page drawn by its script (the header's links), whatever the live data.
DRAWN = "!!document.querySelector('#top nav a')"
#: The match drawn: the felt and the acting player's Roll button (live or kept, usable or not).
MATCH_DRAWN = (
    DRAWN + " && !!document.querySelector('#felt-slot > *')"
    " && !!document.querySelector('#actions button[data-action=roll]')"
)
#: The second visit of a match taps its Roll button once it is usable ...
TAP = "document.querySelector('#actions button[data-action=roll]').click();"
#: ... and its dice are rolled once the felt shows a die with a face (none before the first roll).
ROLLED = "!!document.querySelector('#felt-slot [data-testid=die][data-face]')"
#: Each page: its path ({code}: a new table's) and the test that it is interactive.
PAGES = {
    "table": (
        "/r/{code}",
        "(() => { const b = document.querySelector('[data-testid=join-table] button[type=submit]');"
        " return !!b && !b.disabled && b.offsetParent !== null; })()",
    ),
    "match": (
        "/r/{code}",
        "(() => { const b = document.querySelector('#actions button[data-action=roll]');"
        " return !!b && !b.disabled && b.offsetParent !== null; })()",
    ),
    "screen": (
        "/r/{code}/screen",
        "(() => { const c = document.querySelector('[data-testid=screen-code]');"
        " const q = document.querySelector('[data-testid=screen-qr]');"
        " return !!c && c.offsetParent !== null && !!q && q.complete && q.naturalWidth > 0; })()",
    ),
    "home": (
        "/",
        "(() => { const b = document.querySelector('#create-btn');"
        " return !!document.querySelector('input[name=preset]:checked') && !!b"
        " && b.offsetParent !== null; })()",
    ),
}
#: Pages the old revision does not have.
NEW_ONLY = {"screen"}
#: Pages of a match under way, opened by the player to act (see ``table``).
PLAYING = {"match"}
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@dataclass
class Visit:
    """One page load: when it was interactive (ms), what it fetched until then."""

    ms: float
    requests: int
    bytes: int
    paint: float
    drawn: float  # the page drawn by its script, styled: what the page does without the network
    rolled: float  # a match: Roll tapped once usable, its dice on the felt (NaN: not tapped)


def _visit(page: Any, url: str, cdp: Any) -> Visit:
    """Open ``url`` and wait until the page is interactive; count what went over the network
    (a response from the service worker or the browser's cache is not counted)."""
    net: set[str] = set()
    done: dict[str, int] = {}

    def response(e: dict[str, Any]) -> None:
        r = e["response"]
        if not (r.get("fromServiceWorker") or r.get("fromDiskCache") or r.get("fromPrefetchCache")):
            net.add(e["requestId"])

    cdp.on("Network.responseReceived", response)
    cdp.on(
        "Network.loadingFinished",
        lambda e: done.__setitem__(e["requestId"], int(e["encodedDataLength"])),
    )
    cdp.on("Network.webSocketHandshakeResponseReceived", lambda e: net.add("ws:" + e["requestId"]))
    page.goto(url, wait_until="commit", timeout=120_000)
    page.wait_for_function("() => window.sccReadyAt !== undefined", timeout=120_000)
    at = page.evaluate("window.sccReadyAt")
    paint = page.evaluate(
        "(performance.getEntriesByName('first-contentful-paint')[0] || {startTime: NaN}).startTime"
    )
    drawn = page.evaluate("window.sccDrawnAt")
    rolled = float("nan")
    if page.evaluate("window.sccTapAt !== undefined"):
        page.wait_for_function("() => window.sccRolledAt !== undefined", timeout=120_000)
        rolled = page.evaluate("window.sccRolledAt")
    return Visit(
        float(at), len(net), sum(done.get(r, 0) for r in net), float(paint), float(drawn), rolled
    )


def _emulate(cdp: Any, latency: int, rate: int) -> None:
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": latency,
            "downloadThroughput": rate,
            "uploadThroughput": rate,
        },
    )


def table(base: str, playing: bool) -> tuple[str, str | None]:
    """A new table's code: in its lobby, or with a match of two under way; and then the seat
    token of the player whose roll it is."""
    made = httpx.post(base + "/api/rooms", json={"name": "Anna"}).json()
    if not playing:
        return made["code"], None
    code, tokens = made["code"], [made["token"]]
    tokens.append(httpx.post(f"{base}/api/rooms/{code}/join", json={"name": "Bo"}).json()["token"])
    httpx.post(f"{base}/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    actor = httpx.get(f"{base}/api/rooms/{code}").json()["match"]["actor"]
    return code, tokens[actor]


def measure(
    browser: Any,
    base: str,
    page_name: str,
    network: tuple[int, int],
    api: str | None = None,
    worker: bool = True,
) -> tuple[Visit, Visit]:
    """The first and the second visit of one page in a new profile (``api``: where the table
    is made, when the browser's address is not the benchmark's, as behind a proxy; ``worker``:
    whether the page gets a service worker, which a page over plain http to another machine
    does not)."""
    path, ready = PAGES[page_name]
    code, token = table(api or base, page_name in PLAYING)
    url = base + path.format(code=code)
    drawn = MATCH_DRAWN if page_name in PLAYING else DRAWN
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    if token is not None:  # the player's phone holds their seat
        ctx.add_init_script(f"localStorage.setItem('scc:seat:{code}', {json.dumps(token)});")
    # The page itself looks at every frame from its start (Playwright's own polling starts
    # only once the page is there, and may come late).
    ctx.add_init_script(
        f"(function look() {{ if (window.sccDrawnAt === undefined && ({drawn}) && {STYLED})"
        " window.sccDrawnAt = performance.now();"
        f" if (window.sccReadyAt === undefined && ({ready}) && {STYLED}) {{"
        "   window.sccReadyAt = performance.now();"
        f"   if (window.sccTap) {{ window.sccTapAt = window.sccReadyAt; {TAP} }} }}"
        f" if (window.sccTapAt !== undefined && {ROLLED}) window.sccRolledAt = performance.now();"
        " const done = window.sccRolledAt !== undefined"
        "   || (window.sccReadyAt !== undefined && window.sccTapAt === undefined);"
        " if (!done) requestAnimationFrame(look); })();"
    )
    try:
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        _emulate(cdp, *network)
        first = _visit(page, url, cdp)
        # The service worker: registered, its files kept, in charge of the next visit.
        if worker:
            page.wait_for_function(
                "() => navigator.serviceWorker.controller !== null", timeout=120_000
            )
        page.close()
        again = ctx.new_page()
        if page_name in PLAYING:
            again.add_init_script("window.sccTap = true;")
        cdp = ctx.new_cdp_session(again)
        _emulate(cdp, *network)
        second = _visit(again, url, cdp)
        return first, second
    finally:
        ctx.close()


@contextlib.contextmanager
def old_tree(ref: str) -> Iterator[Path]:
    """The package's sources at ``ref`` in a temporary folder (its ``src``)."""
    data = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", ref, "src"],
        check=True,
        capture_output=True,
    ).stdout
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(tmp, filter="data")
        yield Path(tmp) / "src"


def _rolled(visits: list[Visit]) -> str:
    """The median time a tap on Roll was answered, or a dash where the page was not a match."""
    times = [v.rolled for v in visits if not math.isnan(v.rolled)]
    return f"{statistics.median(times) / 1000:.2f}s" if times else "-"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--base", default=BASE, help="the revision to compare with (default: %(default)s)"
    )
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--port", type=int, default=8771)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    print(
        f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores"
    )
    results: dict[tuple[str, str, str], list[tuple[Visit, Visit]]] = {}
    with old_tree(args.base) as old_src, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        trees = {f"old ({args.base})": old_src, "new": None}
        for _ in range(args.rounds):
            for label, src in trees.items():
                with (
                    contextlib.redirect_stdout(io.StringIO()),
                    server(args.port, pin=False, src=src) as base,
                ):
                    for page in PAGES:
                        if page in NEW_ONLY and src is not None:
                            continue  # the old code has no such page
                        for net, network in NETWORKS.items():
                            key = (page, net, label)
                            results.setdefault(key, []).append(
                                measure(browser, base, page, network)
                            )
        browser.close()
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"median of {args.rounds} rounds; visit = usable and styled, rolled = a tap on Roll"
        " answered (see the docstring)\n"
    )
    head = (
        f"{'page':6} {'network':17} {'code':14} {'1st visit':>9} {'1st paint':>9} {'requests':>8}"
        f" {'kB':>6} {'2nd visit':>9} {'2nd drawn':>9} {'2nd rolled':>10} {'2nd requests':>12}"
    )
    print(head)
    print("-" * len(head))
    med = statistics.median
    for (page, net, label), runs in results.items():
        firsts = [f for f, _ in runs]
        seconds = [s for _, s in runs]
        print(
            f"{page:6} {net:17} {label:14} {med(v.ms for v in firsts) / 1000:8.2f}s"
            f" {med(v.paint for v in firsts) / 1000:8.2f}s {med(v.requests for v in firsts):8.0f}"
            f" {med(v.bytes for v in firsts) / 1000:6.1f} {med(v.ms for v in seconds) / 1000:8.2f}s"
            f" {med(v.drawn for v in seconds) / 1000:8.2f}s {_rolled(seconds):>10}"
            f" {med(v.requests for v in seconds):12.0f}"
        )


if __name__ == "__main__":
    main()
