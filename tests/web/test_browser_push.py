"""Your turn, on your lock screen, in a real browser through the HTTPS set-up (Caddy with its
local CA in front of ``scc serve``, Chromium trusting it: see ``tests/web/https.py``).

A person at a slow table taps "Tell me when it is my turn": the browser is asked for
permission then and only then (inside the tap's user activation), the page subscribes through
the service worker's registration with the server's key, and the server keeps the
subscription.  The person closes the table; the other player plays; the server sends the
notification to the tests' push service, which decrypts it with the subscription's key and
checks its VAPID signature; the decrypted message is delivered to the real service worker
(Chromium's DevTools ``ServiceWorker.deliverPushMessage``), which shows the notification; its
``notificationclick`` handler names the table to open, and that page opens at the person's
turn.  In English, German and Norwegian, with screenshots of the permission step, the
notification and the home page's list.

Chromium's own push service is Google's (FCM), out of reach of a test machine: the browser's
``PushManager.subscribe`` is answered here with a subscription of the tests' push service (its
endpoint and keys, the key the page asked with checked), and the push reaches the service
worker through DevTools rather than from FCM.  Everything else is the browser's and the
server's own.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.need import need_module
from tests.push_service import Message, PushService

from .browsing import DESKTOP, PHONE, SMALL_PHONE, check, shot
from .conftest import LiveServer, free_port
from .pushing import play_turn_ws

pytestmark = pytest.mark.browser
need_module("pywebpush")

#: The notification's title and the banner of one's turn, by language.
TITLE = {"en": "Your turn at table {code}", "de": "Du bist dran an Tisch {code}",
         "nb": "Din tur ved bord {code}"}  # fmt: skip
YOUR_TURN = {"en": "Your turn", "de": "Du bist dran", "nb": "Din tur"}
LOCALE = {"en": "en-GB", "de": "de-DE", "nb": "nb-NO"}

#: Before any page script: a record of every permission request and whether a tap's user
#: activation was live then; the browser's subscribe answered with the test push service's
#: subscription (window.__sub, set by the test), the key it was asked with kept.
INIT = """
(() => {
  window.__asked = [];
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...a) => {
    window.__asked.push(navigator.userActivation.isActive);
    return ask(...a);
  };
  let made = null;
  PushManager.prototype.getSubscription = async function () { return made; };
  PushManager.prototype.subscribe = async function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    const sub = JSON.parse(localStorage.getItem("test:sub"));
    made = { endpoint: sub.endpoint, options: { applicationServerKey: key.buffer, userVisibleOnly: options.userVisibleOnly },
      toJSON: () => ({ ...sub, expirationTime: null }), unsubscribe: async () => { made = null; return true; } };
    localStorage.setItem("test:key", btoa(String.fromCharCode(...key)));
    return made;
  };
})();
"""


@pytest.fixture(scope="module")
def push() -> Iterator[PushService]:
    service = PushService().start()
    yield service
    service.stop()


@pytest.fixture(scope="module")
def origin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Caddy in front of a server that may send to the test push service at loopback."""
    from .https import HttpsOrigin

    db = tmp_path_factory.mktemp("push-https") / "scc.sqlite3"
    https = HttpsOrigin(free_port())
    server = LiveServer(
        f"sqlite:///{db}",
        port=https.backend,
        bot_delay=0.05,
        args=("--forwarded-allow-ips", "127.0.0.1"),
        SCC_PUBLIC_URL=https.url,
        SCC_PUSH_LOCAL_ENDPOINTS="1",
        SCC_PUSH_WAIT="0",
        SCC_PUSH_POLL="0.1",
    ).start()
    https.server = server
    try:
        yield https.start()
    finally:
        https.stop()
        server.stop()


@pytest.fixture(scope="module")
def chromium(playwright: Any, origin: Any) -> Iterator[Any]:
    from .https import trusting_chromium

    with trusting_chromium(playwright, origin) as browser:
        yield browser


def slow_table(api: httpx.Client, lang: str) -> tuple[str, list[str]]:
    """Anna's slow table, Bo seated: (code, [Anna's token, Bo's])."""
    r = api.post("/api/rooms", json={"name": "Anna", "turn_hours": 8, "lang": lang})
    assert r.status_code == 201, r.text
    code, anna = r.json()["code"], r.json()["token"]
    r = api.post(f"/api/rooms/{code}/join", json={"name": "Bo"})
    assert r.status_code == 201, r.text
    return code, [anna, r.json()["token"]]


def worker_ready(page: Any) -> None:
    page.evaluate(
        """async () => {
          const reg = await navigator.serviceWorker.ready;
          const w = reg.active;
          if (w.state !== "activated") await new Promise((done) =>
            w.addEventListener("statechange", () => w.state === "activated" && done()));
        }"""
    )


def deliver(ctx: Any, page: Any, base: str, message: Message) -> None:
    """The decrypted message handed to the page's service worker as a push event."""
    cdp = ctx.new_cdp_session(page)
    found: list[str] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: found.extend(
            r["registrationId"] for r in e["registrations"] if r["scopeURL"] == base + "/"
        ),
    )
    cdp.send("ServiceWorker.enable")
    end = time.monotonic() + 30
    while not found and time.monotonic() < end:
        page.wait_for_timeout(50)
    assert found, "no service worker registration"
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": base, "registrationId": found[-1], "data": json.dumps(message.data)},
    )


def shown(page: Any) -> list[dict[str, Any]]:
    """The notifications the service worker shows now."""
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await (await navigator.serviceWorker.ready).getNotifications())
             .map((n) => ({title: n.title, body: n.body, tag: n.tag, data: n.data}))"""
    )
    return found


def tapped(ctx: Any) -> str:
    """The service worker's own notificationclick handler run on the notification shown, as
    a tap runs it: the address it opens (no window exists for it yet)."""
    (worker,) = ctx.service_workers
    opened: str = worker.evaluate(
        """async () => {
          const [n] = await self.registration.getNotifications();
          const opened = [];
          const waits = [];
          Object.defineProperty(self, "clients", { configurable: true, value: {
            matchAll: async () => [], openWindow: async (url) => { opened.push(url); return null; } } });
          const ev = new NotificationEvent("notificationclick", { notification: n });
          ev.waitUntil = (p) => waits.push(p);
          self.dispatchEvent(ev);
          await Promise.all(waits);
          delete self.clients;
          return opened.join(" ");
        }"""
    )
    return opened


def card(ctx: Any, note: dict[str, Any], name: str) -> None:
    """A picture of the notification as shown (its title, text and icon, read from the
    service worker's registration): headless Chromium draws no system notifications."""
    page = ctx.new_page()
    try:
        page.set_content(
            "<body style='margin:0;background:#223;font:16px system-ui;padding:24px'>"
            "<div style='background:#f4f4f8;border-radius:18px;padding:14px 16px;display:flex;"
            "gap:12px;max-width:420px'><img id=i width=40 height=40 style='border-radius:8px'>"
            "<div><b id=t></b><div id=b style='margin-top:4px;color:#333'></div></div></div>"
        )
        page.evaluate(
            """([n, icon]) => { document.getElementById("t").textContent = n.title;
              document.getElementById("b").textContent = n.body;
              document.getElementById("i").src = icon; }""",
            [note, note.get("icon", "")],
        )
        shot(page, name, full=False)
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["en", "de", "nb"])
def test_told_on_the_lock_screen_and_the_tap_opens_the_turn(
    chromium: Any, origin: Any, push: PushService, lang: str
) -> None:
    base = origin.url
    with origin.client() as api:
        push.server_key = api.get("/api/push/key").json()["key"]
        code, (anna, bo) = slow_table(api, lang)
    sub = push.subscribe()
    ctx = chromium.new_context(
        viewport=PHONE, locale=LOCALE[lang], service_workers="allow", bypass_csp=True
    )
    ctx.set_default_timeout(30000)
    try:
        ctx.grant_permissions(["notifications"], origin=base)
        ctx.add_init_script(INIT)
        page = ctx.new_page()
        page.goto(base + "/")
        worker_ready(page)
        page.evaluate(
            "([code, token, sub]) => { localStorage.setItem(`scc:seat:${code}`, token);"
            " localStorage.setItem('test:sub', JSON.stringify(sub)); }",
            [code, bo, sub.json()],
        )
        page.goto(f"{base}/r/{code}")
        page.wait_for_selector("[data-testid=notify]")
        assert page.evaluate("window.__asked") == []  # nothing asked before the tap
        check(page, f"push-permission-{lang}")
        shot(page, f"push-permission-{lang}")
        page.click("[data-testid=notify]")
        page.wait_for_selector("[data-testid=notify-on]")
        assert page.evaluate("window.__asked") == [True]  # once, inside the tap
        asked_with = page.evaluate("localStorage.getItem('test:key')")
        assert asked_with.rstrip("=").replace("+", "-").replace("/", "_") == push.server_key
        page.wait_for_selector("#quiet-form")
        check(page, f"push-subscribed-{lang}")
        shot(page, f"push-subscribed-{lang}")
        page.goto(base + "/")  # Bo leaves the table
        with origin.client() as api:
            r = api.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": anna})
            assert r.status_code == 200, r.text
            ws = f"ws://127.0.0.1:{origin.backend}"
            while (room := api.get(f"/api/rooms/{code}").json())["match"]["actor"] == 0:
                play_turn_ws(ws, code, anna, 0)
        assert room["turn_deadline"] is not None
        end = time.monotonic() + 30
        while not (told := push.received(sub)) and time.monotonic() < end:
            time.sleep(0.05)
        assert len(told) == 1, (push.messages, push.refused, origin.server.log.read_text()[-6000:])
        (message,) = told
        assert message.data["title"] == TITLE[lang].format(code=code)
        assert (message.data["seat"], message.data["turn"]) == (1, room["version"])
        deliver(ctx, page, base, message)
        page.wait_for_function(
            "async () => (await (await navigator.serviceWorker.ready).getNotifications()).length > 0"
        )
        (note,) = shown(page)
        assert (note["title"], note["body"]) == (message.data["title"], message.data["body"])
        card(ctx, {**note, "icon": base + "/static/icons/icon-192.png"}, f"push-note-{lang}")
        opened = tapped(ctx)
        assert opened == f"{base}/r/{code}"
        table = ctx.new_page()
        table.goto(opened)
        banner = table.wait_for_selector("[data-testid=your-turn]")
        assert YOUR_TURN[lang] in banner.inner_text()
        shot(table, f"push-opened-{lang}")
        # The home page lists the table, Bo's turn first, with the time left.
        home = ctx.new_page()
        home.set_viewport_size(SMALL_PHONE)
        home.goto(base + "/")
        row = home.wait_for_selector(f'[data-testid=my-table][data-code="{code}"]')
        assert YOUR_TURN[lang] in row.inner_text()
        check(home, f"push-home-list-{lang}")
        shot(home, f"push-home-list-{lang}", full=False)
        home.set_viewport_size(DESKTOP)
        shot(home, f"push-home-list-desktop-{lang}", full=False)
    finally:
        ctx.close()


def test_a_member_subscribes_once_for_the_crew(
    chromium: Any, origin: Any, push: PushService
) -> None:
    """On the crew's page, one tap subscribes the member for every table of the crew (the
    member key, not a seat's token), with the quiet hours to set; a slow crew table opened
    from that page then tells the member of their turn."""
    with origin.client() as api:
        push.server_key = api.get("/api/push/key").json()["key"]
        r = api.post("/api/crews", json={"name": "Friday", "member": "Anna"})
        assert r.status_code == 201, r.text
        crew, anna_key = r.json()["crew"], r.json()["member_key"]
        r = api.post(
            f"/api/crews/{crew}/members", json={"invite": r.json()["invite"], "member": "Bo"}
        )
        assert r.status_code == 201, r.text
        bo_key, bo_id = r.json()["member_key"], r.json()["member"]
    sub = push.subscribe()
    ctx = chromium.new_context(
        viewport=PHONE, locale="nb-NO", service_workers="allow", bypass_csp=True
    )
    ctx.set_default_timeout(30000)
    try:
        ctx.grant_permissions(["notifications"], origin=origin.url)
        ctx.add_init_script(INIT)
        page = ctx.new_page()
        page.goto(origin.url + "/")
        worker_ready(page)
        page.evaluate(
            "([crew, key, member, sub]) => {"
            " localStorage.setItem(`scc:crew:${crew}`, JSON.stringify({crew, key, member, name: 'Friday'}));"
            " localStorage.setItem('test:sub', JSON.stringify(sub)); }",
            [crew, bo_key, bo_id, sub.json()],
        )
        page.goto(f"{origin.url}/c/{crew}")
        page.wait_for_selector("#crew-notify [data-testid=notify]")
        assert page.evaluate("window.__asked") == []
        page.click("#crew-notify [data-testid=notify]")
        page.wait_for_selector("#crew-notify [data-testid=notify-on]")
        page.wait_for_selector("#crew-notify #quiet-form")
        assert page.evaluate("window.__asked") == [True]
        check(page, "push-crew-subscribed-nb")
        shot(page, "push-crew-subscribed-nb")
        with origin.client() as api:
            r = api.post(
                "/api/rooms",
                json={"crew": crew, "turn_hours": 12},
                headers={"X-Member-Key": anna_key},
            )
            code, anna = r.json()["code"], r.json()["token"]
            r = api.post(f"/api/rooms/{code}/join", json={}, headers={"X-Member-Key": bo_key})
            assert r.status_code == 201, r.text
            assert (
                api.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": anna}).status_code
                == 200
            )
            ws = f"ws://127.0.0.1:{origin.backend}"
            while api.get(f"/api/rooms/{code}").json()["match"]["actor"] == 0:
                play_turn_ws(ws, code, anna, 0)
        end = time.monotonic() + 30
        while not (told := push.received(sub)) and time.monotonic() < end:
            time.sleep(0.05)
        assert [(m.data["code"], m.data["seat"]) for m in told] == [(code, 1)]
        assert told[0].data["title"] == TITLE["nb"].format(code=code)
    finally:
        ctx.close()
