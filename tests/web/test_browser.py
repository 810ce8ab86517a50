"""End to end in headless Chromium (the system package): three people and a bot play a full
3-round match with a tie-break; one reloads mid-match, one plays by keyboard alone; a
spectator watches; a name that looks like markup stays text; a phone that goes offline says
so and disables its buttons; reactions float up; the verify page recomputes the dice (and
catches a tampered one); axe-core audits the pages; screenshots go to artifacts/.

Run in its own pytest process (pytest-playwright's event loop disturbs later asyncio tests):
``pytest tests/web -m browser``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from .browsing import CHOICE, DESKTOP, PHONE, Pages, check, shot, table_server
from .conftest import LiveServer

pytestmark = pytest.mark.browser

#: Found by searching seeds: with everyone taking the first choice, this match has a tie-break.
SEED = "8c24fb8a931bb2e317e3bc98ee1cc7235feb8cec5bf2ffd0383587d5591b159c"
HTML_NAME = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from table_server(tmp_path_factory, "browser", SEED, bot_delay=0.15)


def join(pages: Pages, link: str, name: str, viewport: dict[str, int]) -> Any:
    page = pages.open(link.replace(pages.base, ""), viewport=viewport)
    page.fill("[data-testid=join-table] [name=name]", name)
    page.click("[data-testid=join-table] button[type=submit]")
    page.wait_for_selector("#waiting")
    return page


def test_full_match_in_the_browser(pages: Pages) -> None:
    host = pages.open("/?rules=classic(format=rounds:3)", viewport=DESKTOP)
    host.wait_for_selector("input[name=preset]:checked", state="attached")
    host.fill("#name", "Anna")
    host.click("#table-box summary")
    host.check("#publish")  # (the leaderboard below lists only what a table published)
    host.click("#create-btn")
    host.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
    link = host.get_attribute("#join-link", "href")
    assert link and link.startswith(pages.base)
    code = link.rsplit("/", 1)[1]
    # A blank name is refused in words, before anything is sent.
    bo = pages.open(f"/r/{code}", viewport=PHONE)
    bo.click("[data-testid=join-table] button[type=submit]")
    assert bo.inner_text("#personal").strip()
    bo.close()
    bo = join(pages, link, HTML_NAME, PHONE)
    cy = join(pages, link, "Cy", DESKTOP)
    host.wait_for_selector("#seats li:has-text('Cy')")
    host.wait_for_function("document.querySelector('.share img').complete")
    host.click("#copy-link")
    host.wait_for_selector("#toast:not(:empty)")  # visible feedback (or how to copy by hand)
    check(host, "lobby")
    shot(host, "lobby-desktop")
    host.select_option("#bot-level", "easy")
    host.click("[data-testid=add-bot]")
    host.wait_for_selector("#seats li:has-text('Bot 1')")
    # The name is shown as text, not markup.
    assert host.locator("#lobby").inner_text().count(HTML_NAME) == 1
    host.click("[data-testid=start]")
    host.wait_for_selector("#play:not([hidden])")

    spectator = pages.open(f"/r/{code}", viewport=PHONE)
    spectator.wait_for_selector("#watching")

    players = {"host": host, "bo": bo, "cy": cy}
    clicks = 0
    reloaded = offline = reacted = False
    for _ in range(3000):
        if host.locator("[data-testid=podium]").count():
            break
        acted = False
        for who, page in players.items():
            button = page.locator(CHOICE)
            if not button.count():
                continue
            if who == "bo" and not reloaded and clicks >= 3:
                # Reload mid-turn: the seat token in localStorage brings Bo back to the seat.
                page.reload()
                page.wait_for_selector(CHOICE)
                reloaded = True
            if who == "bo" and not offline and clicks >= 6:
                # Offline: the page says so, and the buttons are disabled and say why.
                page.context.set_offline(True)
                page.wait_for_selector("#offline:not([hidden])")
                assert page.locator(CHOICE).count() == 0
                assert page.locator("#offline-note").count() == 1
                page.context.set_offline(False)
                page.wait_for_selector(CHOICE)
                offline = True
            if who == "cy" and not reacted:
                page.click(".reactions button >> nth=0")
                host.wait_for_selector(".bubble")
                reacted = True
            if who == "cy":
                # Cy plays by keyboard alone: Tab to the first choice and press Enter.
                for _ in range(80):
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
            if clicks == 6:
                page.wait_for_timeout(300)
                shot(host, "table-desktop")
                shot(bo, "table-phone")
                check(host, "table")
            page.wait_for_timeout(60)
        if not acted:
            host.wait_for_timeout(100)
    assert reloaded and offline and reacted
    for page in (host, bo, cy, spectator):
        page.wait_for_selector("[data-testid=podium]")
    podium = host.inner_text("[data-testid=podium]")
    assert "wins the match!" in podium
    log = host.text_content("#log") or ""
    assert "Tie between" in log or "Tie for the match" in log
    # The spectator saw the same table (the host's page also marks the host's own line).
    assert spectator.inner_text(".ranking") == host.inner_text(".ranking").replace(" (you)", "")
    assert spectator.text_content("#commitment") == host.text_content("#commitment")
    assert host.text_content("#server-seed") == SEED
    shot(host, "podium-desktop")
    shot(bo, "podium-phone")
    check(host, "podium")
    assert HTML_NAME in podium

    # The verify page recomputes every die, on the server and in the browser.
    host.click("[data-testid=podium] a[href^='/verify/']")
    host.wait_for_selector("#browser-check.ok")
    assert "match the seed" in host.inner_text("#server-check")
    shot(host, "verify-desktop")
    check(host, "verify")

    # The browser's own check is real: a tampered die is caught without the server's word.
    def tamper(route: Any) -> None:
        body = route.fetch().json()
        body["rolls"][3][0] = body["rolls"][3][0] % 6 + 1
        route.fulfill(json=body)

    host.route("**/api/matches/*/verify*", tamper)
    host.reload()
    host.wait_for_selector("#browser-check.bad")
    assert "roll 4" in host.inner_text("#browser-check")
    host.unroute("**/api/matches/*/verify*")

    host.goto(pages.base + f"/replay/{code}")
    host.wait_for_selector("#next")
    host.focus("#next")
    host.keyboard.press("Enter")
    host.wait_for_selector("text=Step 1 of")
    shot(host, "replay-desktop")
    host.goto(pages.base + "/stats")
    host.wait_for_selector("#leaderboard")
    assert "Bot 1" in host.inner_text("#leaderboard")
    assert pages.errors == []
