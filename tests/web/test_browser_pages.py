"""Every page in three languages, on a phone and a desktop, light and dark: it fits the screen,
axe-core finds nothing serious, and in German and Norwegian no English message id is left on
screen (compared with the web catalogue); numbers take the language's decimal comma.  Also:
the manifest and the service worker, and how much the table page loads first.

Run in its own pytest process: ``pytest tests/web -m browser``.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .browsing import (
    CHOICE,
    DESKTOP,
    PHONE,
    SMALL_PHONE,
    Pages,
    check,
    create_table,
    english_left,
    home_ready,
    play,
    seat_bots,
    shot,
    start_match,
    table_server,
)
from .conftest import LiveServer

pytestmark = pytest.mark.browser

LANGS = ("en", "de", "nb")
#: A fixed seed: the same dice every run, and with them a decision at which advice is offered.
SEED = "5ab1e5eed0000000000000000000000000000000000000000000000000000001"
SIZES = {"phone": PHONE, "small": SMALL_PHONE, "desktop": DESKTOP}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from table_server(tmp_path_factory, "pages", SEED, bot_delay=0.05)


@pytest.fixture(scope="module")
def finished(server: LiveServer, browser: Any) -> Iterator[str]:
    """A finished match (the host and two bots, pot and chips): its code; on the way, advice
    in German shows its chances with a decimal comma."""
    pages = Pages(browser, server.url)
    host = home_ready(pages.open("/?lang=de&rules=ship-captain-crew(format=rounds:4)", lang="de"))
    code = create_table(host, publish=True)
    seat_bots(host, 2)
    start_match(host, 3)
    advised: list[str] = []

    def pick(page: Any) -> Any:
        if not advised and page.locator("#advice").count():
            page.click("#advice")
            page.wait_for_selector("[data-testid=advice]")
            advised.append(" ".join(page.locator("[data-testid=advice]").all_inner_texts()))
        return page.locator(CHOICE).first

    play([host], lambda: host.locator("[data-testid=podium]").count() > 0, pick=pick)
    assert advised, "advice was never offered"
    assert re.search(r"\d,\d\s?%", advised[0]), advised[0]
    assert not re.search(r"\d\.\d\s?%", advised[0]), advised[0]
    assert pages.errors == []
    pages.close()
    yield code


PATHS = {
    "home": ("/", "input[name=preset]:checked"),
    "history": ("/history", "#matches"),
    "stats": ("/stats", "#leaderboard"),
    "replay": ("/replay/{code}", "#step"),
    "verify": ("/verify/{code}", "#browser-check.ok"),
    "room": ("/r/{code}", "[data-testid=podium]"),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_every_page(pages: Pages, finished: str, lang: str, size: str) -> None:
    strings = httpx.get(f"{pages.base}/api/i18n/{lang}").json()
    for name, (path, ready) in PATHS.items():
        dark = name in ("room", "stats")
        page = pages.open(
            path.format(code=finished) + f"?lang={lang}", viewport=SIZES[size], lang=lang, dark=dark
        )
        page.wait_for_selector(ready, state="attached")
        page.wait_for_timeout(150)
        check(page, f"{name} {lang} {size}")
        assert page.evaluate("document.documentElement.lang") == lang
        if lang != "en":
            assert english_left(page, strings) == [], f"{name} {lang}: English left on the page"
            assert page.title() != "Ship, Captain and Crew", f"{name} {lang}: English tab title"
        if size != "desktop":
            shot(page, f"page-{name}-{lang}-{size}-{'dark' if dark else 'light'}")
        if name in ("home", "room"):
            # How to play: the rules text for the chosen rules, in the page's language.
            page.click("#how-to-play" if name == "home" else "#rules-btn")
            page.wait_for_selector("#rules-text h3")
            check(page, f"{name} {lang} {size}: how to play")
            if lang != "en":
                assert english_left(page, strings) == []
            page.click("#rules-close")
    assert pages.errors == []


def test_history_says_when_and_the_rules_by_name(pages: Pages, finished: str) -> None:
    page = pages.open("/history?lang=nb", lang="nb")
    page.wait_for_selector("#matches time")
    assert re.search(r"\d", page.inner_text("#matches time"))
    assert "ship-captain-crew(" not in page.inner_text("#matches")


def test_dark_mode_follows_the_system_and_the_switch(pages: Pages) -> None:
    page = pages.open("/", dark=True)
    page.wait_for_selector("#theme")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    page.click("#theme")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    page.reload()
    page.wait_for_selector("#theme")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    assert page.get_attribute("#theme", "aria-pressed") == "false"


def test_manifest_and_service_worker(server: LiveServer, browser: Any) -> None:
    manifest = httpx.get(server.url + "/manifest.webmanifest").json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {i["sizes"] for i in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert any(i.get("purpose") == "maskable" for i in manifest["icons"])
    for icon in manifest["icons"]:
        assert httpx.get(server.url + icon["src"]).status_code == 200
    ctx = browser.new_context()  # service workers allowed here
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.wait_for_function(
        "navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready"
    )
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    # The shell comes from the cache offline; the API never does.
    cached = page.evaluate(
        "caches.keys().then(k => caches.open(k[0])).then(c => c.keys()).then(r => r.map(x => new URL(x.url).pathname))"
    )
    assert any(re.fullmatch(r"/assets/room\.\w+\.js", p) for p in cached)
    assert not any(p.startswith(("/api/", "/ws/")) for p in cached)
    ctx.set_offline(True)
    page.goto(server.url + "/r/ABCDEF")
    page.wait_for_selector("#main")
    ctx.close()


def test_the_table_page_loads_little(server: LiveServer, browser: Any) -> None:
    """What a phone fetches to draw the table: HTML, CSS and JS, as gzip would send them."""
    ctx = browser.new_context(service_workers="block")
    page = ctx.new_page()
    bodies: dict[str, bytes] = {}
    page.on(
        "response",
        lambda r: (
            bodies.setdefault(r.url, r.body())
            if r.request.resource_type in ("document", "stylesheet", "script")
            else None
        ),
    )
    code = httpx.post(server.url + "/api/rooms", json={"name": "Anna"}).json()["code"]
    page.goto(f"{server.url}/r/{code}")
    page.wait_for_selector("[data-testid=join-table]")  # what a friend's phone opens first
    raw = sum(len(b) for b in bodies.values())
    packed = sum(len(gzip.compress(b, 9)) for b in bodies.values())
    print(
        f"\ntable page first load: {len(bodies)} files, {raw / 1024:.1f} KiB, {packed / 1024:.1f} KiB gzipped"
    )
    assert packed < 60 * 1024
    ctx.close()
