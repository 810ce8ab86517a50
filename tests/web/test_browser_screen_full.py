"""A full table on the table screen (issue 26): eight seats on a TV of 1280x720 and one of
1920x1080.  A TV cannot scroll, so whatever the moment (a turn, a round's card, the podium)
the screen must fit its height with every player's card on it: the screen packs itself
tighter when it must (the round's card folded to its headline, denser cards, two abreast).
Without that, a table of six ran 563 px off the bottom of a 720 px screen.

The host never opens the table: after the absence grace a bot plays for her, so the match
plays itself at the bots' pace.  Run in its own pytest process:
``pytest tests/web/test_browser_screen_full.py -m browser``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .browsing import Pages, check, shot, table_server
from .conftest import LiveServer

pytestmark = pytest.mark.browser

#: After every picture the screen drew: how far it ran off the bottom (px), and the cards
#: whose bottom was off the screen.
WATCH_JS = """
window.__sccOver = []; window.__sccPictures = 0;
document.addEventListener('scc:drawn', () => {
  window.__sccPictures += 1;
  const over = document.documentElement.scrollHeight - innerHeight;
  const cut = [...document.querySelectorAll('#cards .pcard, .podium .ranking li')]
    .filter((c) => c.getBoundingClientRect().bottom > innerHeight + 1).map((c) => c.dataset.seat);
  if (over > 0 || cut.length) window.__sccOver.push({ over, cut, v: window.__sccPictures });
});
"""


@pytest.fixture
def full_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from table_server(
        tmp_path_factory,
        "full",
        "f011000000000000000000000000000000000000000000000000000000000abc",
        bot_delay=0.3,
        SCC_ABSENT_GRACE="0.2",
    )


def test_eight_seats_fit_a_tv_at_every_moment(full_server: LiveServer, browser: Any) -> None:
    base = full_server.url
    settings = ["format=rounds:2", "stakes=pot", "drinking=captain_hands_out"]
    made = httpx.post(f"{base}/api/rooms", json={"name": "Anna", "settings": settings}).json()
    code, host = made["code"], {"X-Seat-Token": made["token"]}
    for level in ("easy", "medium", "hard", "medium", "easy", "hard", "medium"):
        httpx.post(f"{base}/api/rooms/{code}/bots", json={"level": level}, headers=host)
    pages = Pages(browser, base)
    try:
        screens = {
            "720": pages.open("", viewport={"width": 1280, "height": 720}, lang="de"),
            "1080": pages.open("", viewport={"width": 1920, "height": 1080}, lang="nb"),
        }
        screens["720"].emulate_media(color_scheme="dark")
        for page in screens.values():
            page.add_init_script(WATCH_JS)
            page.goto(f"{base}/r/{code}/screen")
            page.wait_for_selector("[data-testid=screen-code]")
        assert httpx.post(f"{base}/api/rooms/{code}/start", headers=host).status_code == 200
        for name, page in screens.items():
            page.wait_for_selector("[data-testid=round-result]", timeout=120_000)
            shot(page, f"screen-full-result-{name}", full=False)
        for name, page in screens.items():
            page.wait_for_selector("[data-testid=podium]", timeout=240_000)
            shot(page, f"screen-full-podium-{name}", full=False)
            check(page, f"full table {name}")
            # Every player's final total is on the screen (none cut off at the bottom).
            assert page.locator("[data-testid=final-score]").count() == 8
            assert page.evaluate("window.__sccPictures") > 20  # it followed the whole match
            assert page.evaluate("window.__sccOver") == [], name
    finally:
        pages.close()
    assert not pages.errors, pages.errors
