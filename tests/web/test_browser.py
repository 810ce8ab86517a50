"""End to end in headless Chromium (the system package): three people and a bot play a full
3-round match with a tie-break; one reloads mid-match; a spectator watches; the verify page
recomputes the dice; axe-core audits every page; screenshots go to artifacts/.

Run in its own pytest process (pytest-playwright's event loop disturbs later asyncio tests):
``pytest tests/web -m browser``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import ARTIFACTS, LiveServer

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
#: Found by searching seeds: with everyone taking the first choice, this match has a tie-break.
SEED = "8c24fb8a931bb2e317e3bc98ee1cc7235feb8cec5bf2ffd0383587d5591b159c"
HTML_NAME = "<img src=x onerror=alert(1)>"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("browser") / "scc.sqlite3"
    srv = LiveServer(f"sqlite:///{db}", bot_delay=0.15, SCC_FIXED_SERVER_SEED=SEED).start()
    yield srv
    srv.stop()


def audit(page: Any, name: str) -> None:
    """axe-core on the page: no serious or critical violation (WCAG 2.x A/AA rules)."""
    if not AXE.exists():
        pytest.fail(
            f"axe-core missing: run `npm install` in {AXE.parents[2]} (scripts/web-deps.sh)"
        )
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        "async () => await axe.run(document, {runOnly: {type: 'tag', values: "
        "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']}})"
    )
    bad = [
        f"{v['id']} ({v['impact']}): {v['help']} -> {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert not bad, f"{name}: " + "; ".join(bad)


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_full_match_in_the_browser(server: LiveServer, browser: Any) -> None:
    dialogs: list[str] = []
    errors: list[str] = []

    def context(viewport: dict[str, int]) -> Any:
        ctx = browser.new_context(viewport=viewport, bypass_csp=True)  # CSP would block axe
        page = ctx.new_page()
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page

    host = context(DESKTOP)
    host.goto(server.url + "/")
    host.wait_for_selector("#preset option", state="attached")
    audit(host, "home")
    host.fill("#name", "Anna")
    host.select_option("#format", "rounds:3")
    host.click("#create-btn")
    host.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
    host.wait_for_selector("#join-link")
    link = host.get_attribute("#join-link", "href")
    assert link and link.startswith(server.url)
    code = link.rsplit("/", 1)[1]

    guests = []
    for name, viewport in ((HTML_NAME, PHONE), ("Cy", DESKTOP)):
        g = context(viewport)
        g.goto(link)
        g.fill("#join-name", name)
        g.click("#join-form button[type=submit]")
        g.wait_for_selector("text=Waiting for the host to start.")
        guests.append(g)
    bo, cy = guests
    host.wait_for_selector("li:has-text('Cy')")
    host.wait_for_function("document.querySelector('.share img').complete")
    audit(host, "lobby")
    shot(host, "lobby-desktop")
    host.select_option("#bot-level", "easy")
    host.click("#add-bot")
    host.wait_for_selector("text=Bot 1")
    # The name is shown as text, not markup.
    assert host.locator("#lobby").inner_text().count(HTML_NAME) == 1
    host.click("#start")
    host.wait_for_selector("#play:not([hidden])")

    spectator = context(PHONE)
    spectator.goto(link)
    spectator.wait_for_selector("#watching")

    pages = {"host": host, "bo": bo, "cy": cy}
    clicks = 0
    reloaded = False
    shots = False
    rounds_of_polling = 0
    while not host.locator("#summary:not([hidden])").count():
        rounds_of_polling += 1
        assert rounds_of_polling < 3000, "the match did not finish"
        acted = False
        for who, page in pages.items():
            button = page.locator("#actions button[data-action]")
            if not button.count():
                continue
            if who == "bo" and not reloaded and clicks >= 3:
                # Reload mid-turn: the seat token in localStorage brings Bo back to the seat.
                page.reload()
                page.wait_for_selector("#actions button[data-action]")
                reloaded = True
            if who == "cy":
                # Cy plays by keyboard alone: Tab to the first choice and press Enter.
                for _ in range(60):
                    if page.evaluate(
                        "document.activeElement && document.activeElement.dataset"
                        " && document.activeElement.dataset.action !== undefined"
                    ):
                        break
                    page.keyboard.press("Tab")
                page.keyboard.press("Enter")
            else:
                button.first.click()
            clicks += 1
            acted = True
            if clicks == 6 and not shots:
                page.wait_for_timeout(300)
                shot(host, "table-desktop")
                shot(bo, "table-phone")
                audit(host, "table")
                shots = True
            page.wait_for_timeout(60)
        if not acted:
            host.wait_for_timeout(100)
    assert reloaded and shots
    for page in (host, bo, cy, spectator):
        page.wait_for_selector("#summary:not([hidden])")
    summary = host.inner_text("#summary")
    assert "wins the match!" in summary
    log = host.inner_text("#log")
    assert "Tie between" in log or "Tie for the match" in log
    # The spectator saw the same table.
    assert spectator.inner_text("#summary-body") == host.inner_text("#summary-body")
    assert spectator.inner_text("#commitment") == host.inner_text("#commitment")
    assert host.inner_text("#server-seed") == SEED
    shot(host, "summary-desktop")
    shot(bo, "summary-phone")
    audit(host, "summary")
    assert dialogs == [] and errors == []
    assert HTML_NAME in summary

    # The verify page recomputes every die, on the server and in the browser.
    host.click("#summary a[href^='/verify/']")
    host.wait_for_selector("#browser-check.ok")
    assert "match the seed" in host.inner_text("#server-check")
    shot(host, "verify-desktop")
    audit(host, "verify")

    # The browser's own check is real: a tampered die is caught without the server's word.
    def tamper(route: Any) -> None:
        body = route.fetch().json()
        body["rolls"][3][0] = body["rolls"][3][0] % 6 + 1
        route.fulfill(json=body)

    host.route("**/api/matches/*/verify", tamper)
    host.reload()
    host.wait_for_selector("#browser-check.bad")
    assert "roll 4" in host.inner_text("#browser-check")
    host.unroute("**/api/matches/*/verify")

    for path, ready in (
        (f"/replay/{code}", "#step"),
        ("/history", "table"),
        ("/stats", "#leaderboard"),
    ):
        host.goto(server.url + path)
        host.wait_for_selector(ready)
        audit(host, path)
    host.goto(server.url + f"/replay/{code}")
    host.wait_for_selector("#next")
    host.focus("#next")
    host.keyboard.press("Enter")
    host.wait_for_selector("text=Step 1 of")
    shot(host, "replay-desktop")
    host.goto(server.url + "/stats")
    host.wait_for_selector("#leaderboard")
    assert "Bot 1" in host.inner_text("#leaderboard")


def test_german_and_norwegian_pages(server: LiveServer, browser: Any) -> None:
    for lang in ("de", "nb"):
        ctx = browser.new_context(viewport=PHONE, locale=lang, bypass_csp=True)
        page = ctx.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#preset option", state="attached")
        assert page.evaluate("document.documentElement.lang") == lang
        strings = page.evaluate(f"fetch('/api/i18n/{lang}').then(r => r.json())")
        assert strings["Create table"] != "Create table"
        assert page.inner_text("#create-btn") == strings["Create table"]
        audit(page, f"home-{lang}")
        shot(page, f"home-phone-{lang}")
        ctx.close()
