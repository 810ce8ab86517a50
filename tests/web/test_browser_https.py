"""The table through a real HTTPS proxy, as a public server gives it to the phones: Caddy with
its own local CA in front of ``scc serve``, Chromium trusting that CA (see ``tests/web/https.py``).

Through the proxy the page is a secure context, so everything that needs one works: the
service worker is active and the second visit comes from it, a screen wake lock is granted,
the motion sensors' event exists (shake to roll), and a whole match is played over the proxied
WebSocket.  ``http://`` redirects to ``https://`` with HSTS; two clients coming through the
proxy count as two addresses for the limits, and a forged ``X-Forwarded-For`` from outside
the proxy counts for nothing.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .browsing import PHONE, create_table, home_ready, play, seat_bots, shot, start_match

pytestmark = pytest.mark.browser


def phone(browser: Any) -> Any:
    # bypass_csp: the strict policy would refuse the waits Playwright evaluates.
    ctx = browser.new_context(
        viewport=PHONE, locale="en-GB", service_workers="allow", bypass_csp=True
    )
    ctx.set_default_timeout(30000)
    return ctx


def test_the_page_is_a_secure_context_with_everything_on(
    trusting_browser: Any, https_origin: Any
) -> None:
    ctx = phone(trusting_browser)
    try:
        page = ctx.new_page()
        first = page.goto(https_origin.url + "/")
        assert first is not None and first.ok and not first.from_service_worker
        home_ready(page)
        facts = page.evaluate(
            """async () => {
              const reg = await navigator.serviceWorker.ready;
              const w = reg.active;  // ready comes while it may still be activating
              if (w.state !== "activated") await new Promise((done) =>
                w.addEventListener("statechange", () => w.state === "activated" && done()));
              let lock = null;
              try { lock = (await navigator.wakeLock.request("screen")).type; }
              catch (e) { lock = String(e); }
              return {secure: isSecureContext, motion: typeof DeviceMotionEvent,
                      worker: reg.active && reg.active.state, lock,
                      protocol: performance.getEntriesByType("navigation")[0].nextHopProtocol,
                      clipboard: !!navigator.clipboard};
            }"""
        )
        assert facts == {
            "secure": True,
            "motion": "function",
            "worker": "activated",
            "lock": "screen",
            "protocol": "h2",
            "clipboard": True,
        }
        # Nothing on the page says it lacks HTTPS.
        assert page.locator("#insecure").count() == 0
        # The second visit is answered by the service worker, from the phone itself.
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        second = page.goto(https_origin.url + "/")
        assert second is not None and second.from_service_worker
        home_ready(page)
        shot(page, "https-home-secure")
    finally:
        ctx.close()


def test_a_whole_match_over_the_proxied_websocket(trusting_browser: Any, https_origin: Any) -> None:
    ctx = phone(trusting_browser)
    try:
        host = ctx.new_page()
        host.goto(https_origin.url + "/")
        home_ready(host)
        code = create_table(host)
        # The join link and its QR code carry the public https address.
        assert host.inner_text("#join-link") == f"{https_origin.url}/r/{code}"
        seat_bots(host, 2)
        start_match(host, 3)
        play([host], lambda: host.locator("[data-testid=podium]").count() > 0)
        assert host.evaluate("location.protocol") == "https:"
        shot(host, "https-podium")
        # Every move went over the proxy: the log is complete and its dice verify.
        client = https_origin.client()
        assert client.get(f"/api/matches/{code}/verify").json()["ok"] is True
    finally:
        ctx.close()


def test_http_redirects_to_https_and_hsts_is_set(https_origin: Any) -> None:
    client = https_origin.client()
    plain = client.get(https_origin.plain_url + "/r/ABCDEF?lang=de")
    assert plain.status_code == 308
    assert plain.headers["location"].startswith("https://pub.test")
    assert plain.headers["location"].endswith("/r/ABCDEF?lang=de")
    secure = client.get("/")
    assert secure.status_code == 200
    assert secure.headers["strict-transport-security"].startswith("max-age=31536000")


def test_clients_through_the_proxy_are_told_apart_and_a_forged_header_is_not(
    https_origin: Any,
) -> None:
    """Each client address may open one room an hour here (the module's server)."""

    def open_room(client: httpx.Client, **headers: str) -> int:
        return client.post("/api/rooms", json={"name": "Anna"}, headers=headers).status_code

    anna, bo = https_origin.client("127.0.0.2"), https_origin.client("127.0.0.3")
    assert open_room(anna) == 201
    assert open_room(bo) == 201, "two clients through the proxy were counted as one"
    # Through the proxy, a header of Anna's own does not make her someone else.
    assert open_room(anna, **{"X-Forwarded-For": "198.51.100.7"}) == 429
    # Straight at the server, past the proxy: the header counts for nothing.
    direct = httpx.Client(
        base_url=https_origin.server.url,
        transport=httpx.HTTPTransport(local_address="127.0.0.4"),
    )
    assert open_room(direct, **{"X-Forwarded-For": "198.51.100.8"}) == 201
    assert open_room(direct, **{"X-Forwarded-For": "198.51.100.9"}) == 429
