"""A slow table opened from the home page: the pace chosen on the form (across the day, the
hours, a turn passed when they run out) is the table's, as the server tells it; the banner
counts hours and minutes down; the form fits a 360 px phone and passes axe-core in English,
German and Norwegian, with screenshots on a phone and a desktop."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .browsing import DESKTOP, SMALL_PHONE, check, home_ready, opened_pages, shot, table_server
from .conftest import LiveServer

pytestmark = pytest.mark.browser

SEED = "5ab1e5eed0000000000000000000000000000000000000000000000000000040"
#: The pace's legend and the hours' label, by language (what the person reads).
PACE = {"en": "Pace", "de": "Tempo", "nb": "Tempo"}
HOURS = {"en": "Hours to play a turn", "de": "Stunden für einen Zug", "nb": "Timer per tur"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from table_server(tmp_path_factory, "slow", SEED, bot_delay=0.05)


@pytest.mark.parametrize("lang", ["en", "de", "nb"])
def test_a_slow_table_from_the_home_page(server: LiveServer, browser: Any, lang: str) -> None:
    with opened_pages(browser, server.url) as pages:
        host = home_ready(pages.open(f"/?lang={lang}", viewport=SMALL_PHONE, lang=lang))
        assert PACE[lang] in host.inner_text("#pace-box legend")
        assert host.is_hidden("#slow-fields")
        host.click("[data-testid=pace-day]")
        assert HOURS[lang] in host.inner_text("#slow-fields")
        host.fill("[data-testid=turn-hours]", "6")
        host.select_option("[data-testid=late]", "skip")
        host.fill("[data-testid=create-table] [name=name]", "Anna")
        check(host, f"slow-form-{lang}")
        host.locator("#pace-box").scroll_into_view_if_needed()
        shot(host, f"slow-form-phone-{lang}", full=False)
        host.set_viewport_size(DESKTOP)
        host.locator("#pace-box").scroll_into_view_if_needed()
        shot(host, f"slow-form-desktop-{lang}", full=False)
        host.click("[data-testid=create-table] button[type=submit]")
        host.wait_for_selector("#bigcode")
        code = host.inner_text("#bigcode").strip()
        room = httpx.get(f"{server.url}/api/rooms/{code}").json()
        assert (room["turn_hours"], room["late"], room["turn_timer"]) == (6, "skip", None)
        r = httpx.post(f"{server.url}/api/rooms/{code}/join", json={"name": "Bo"})
        assert r.status_code == 201
        host.click("[data-testid=start]")
        host.wait_for_selector("#play:not([hidden])")
        left = host.wait_for_selector("#countdown")
        host.wait_for_function("/\\d/.test(document.getElementById('countdown').textContent)")
        assert left.inner_text().startswith(("5 ", "6 "))  # "5 h 59 min", "5 Std. 59 Min."
        shot(host, f"slow-banner-desktop-{lang}", full=False)
