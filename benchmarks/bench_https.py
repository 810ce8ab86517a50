"""The first load of a table link through Caddy (TLS 1.3, HTTP/2), beside plain HTTP, in the
same run, on a pub's network.

What a public server costs a phone: ``scripts/deploy.sh`` puts Caddy in front of ``scc serve``
(a TLS handshake, HTTP/2), where a laptop on the Wi-Fi serves plain HTTP.  Both are measured on
one server, with Chromium's network emulation as ``bench_load.py`` does it (a latency added to
every request and the WebSocket's handshake, a shared rate; see its docstring for what counts
as interactive: for a table link, the join form usable and styled):

* **https**: ``https://pub.test:PORT/r/CODE`` through Caddy with its local CA (``tls
  internal``, trusted by the browser as in the tests, ``tests/web/https.py``); HTTP/2 over
  TLS 1.3, both read back from the browser and printed.  The second visit comes from the
  service worker that HTTPS allows.
* **http**: ``http://pub.test:PORT/r/CODE`` straight to ``scc serve``, as a phone on the
  Wi-Fi opens the laptop: not a secure context, so no service worker; its second visit is
  the browser's own cache (and the network).

The emulated latency is added per request by Chromium, not per TCP or TLS round trip, so the
handshakes cost what they cost on loopback: the figures compare what the pages fetch, and a
real TLS 1.3 handshake adds one round trip (QUIC is off: HTTP/3 would save it).  Targets
(issue "A table every phone can reach"): first visit through Caddy at most 2.5 s at 400 ms and
60 kB/s, a second visit at most 0.5 s.

    .venv/bin/python benchmarks/bench_https.py              # 3 rounds
    .venv/bin/python benchmarks/bench_https.py --rounds 5

Prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_load import NETWORKS, Visit, measure
from served import server

from tests.web.conftest import free_port
from tests.web.https import HOST, HttpsOrigin, trusting_chromium

#: The network of a pub (bench_load's first): 400 ms added to each request, 60 kB/s.
PUB = "400 ms / 60 kB/s"


def protocol(browser: Any, url: str) -> tuple[str, str]:
    """The HTTP version and the TLS version of a page load (read from the browser)."""
    ctx = browser.new_context(bypass_csp=True)
    try:
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        cdp.send("Network.enable")
        seen: dict[str, str] = {}

        def response(e: dict[str, Any]) -> None:
            if e.get("type") == "Document":
                details = e["response"].get("securityDetails") or {}
                seen["tls"] = details.get("protocol", "none")

        cdp.on("Network.responseReceived", response)
        page.goto(url)
        http = page.evaluate("performance.getEntriesByType('navigation')[0].nextHopProtocol")
        return str(http), seen.get("tls", "none")
    finally:
        ctx.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    backend = free_port()
    origin = HttpsOrigin(backend)
    env = {
        "SCC_PUBLIC_URL": origin.url,
        "SCC_FORWARDED_ALLOW_IPS": '["127.0.0.1"]',
    }
    results: dict[str, list[tuple[Visit, Visit]]] = {"https (Caddy)": [], "http": []}
    with (
        contextlib.redirect_stdout(io.StringIO()),
        server(backend, pin=False, env=env) as api,
        sync_playwright() as pw,
    ):
        origin.start()
        try:
            with trusting_chromium(pw, origin, "--disable-quic") as browser:
                plain = f"http://{HOST}:{backend}"
                versions = {"https (Caddy)": protocol(browser, origin.url + "/")}
                versions["http"] = protocol(browser, plain + "/")
                for _ in range(args.rounds):
                    net = NETWORKS[PUB]
                    results["https (Caddy)"].append(
                        measure(browser, origin.url, "table", net, api=api)
                    )
                    results["http"].append(
                        measure(browser, plain, "table", net, api=api, worker=False)
                    )
        finally:
            origin.stop()
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"a table link (/r/CODE), {PUB}, median of {args.rounds} rounds\n")
    head = (
        f"{'served':14} {'protocol':14} {'1st visit':>9} {'requests':>8} {'kB':>6}"
        f" {'2nd visit':>9} {'2nd requests':>12}"
    )
    print(head)
    print("-" * len(head))
    med = statistics.median
    for label, runs in results.items():
        firsts, seconds = [f for f, _ in runs], [s for _, s in runs]
        http, tls = versions[label]
        print(
            f"{label:14} {http + ' ' + tls:14} {med(v.ms for v in firsts) / 1000:8.2f}s"
            f" {med(v.requests for v in firsts):8.0f} {med(v.bytes for v in firsts) / 1000:6.1f}"
            f" {med(v.ms for v in seconds) / 1000:8.2f}s {med(v.requests for v in seconds):12.0f}"
        )
    print("\ntargets through Caddy: 1st visit at most 2.50 s, 2nd visit at most 0.50 s")


if __name__ == "__main__":
    main()
