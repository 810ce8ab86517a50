"""A slow table opened from the home page: the pace chosen on the form (across the day, the
hours, a turn passed when they run out) is the table's, as the server tells it; the banner
counts hours and minutes down; the form fits a 360 px phone and passes axe-core in English,
German and Norwegian, with screenshots on a phone and a desktop."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .browsing import (
    DESKTOP,
    SMALL_PHONE,
    check,
    home_ready,
    join_table,
    opened_pages,
    shot,
    table_server,
)
from .conftest import LiveServer
from .pushing import play_turn_ws

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
        assert (
            left.inner_text().replace("\xa0", " ").startswith(("5 ", "6 "))
        )  # "5 h 59 min", "5 Std. 59 Min."
        shot(host, f"slow-banner-desktop-{lang}", full=False)


#: The strip's texts as they change (a MutationObserver, from the page's first script).
STRIPS_JS = """
window.__strips = [];
addEventListener('DOMContentLoaded', () => {
  const strip = document.getElementById('strip');
  new MutationObserver(() => {
    const text = strip.innerText.replace(/\\s+/g, ' ').trim();
    if (text && window.__strips[window.__strips.length - 1] !== text) window.__strips.push(text);
  }).observe(strip, { childList: true, subtree: true });
});
"""
#: "While you were away, {i} of {n}" as each language says it.
AWAY = {
    "en": "While you were away, {i} of {n}",
    "de": "Während du weg warst, {i} von {n}",
    "nb": "Mens du var borte, {i} av {n}",
}


@pytest.mark.parametrize("lang", ["en", "de", "nb"])
def test_a_phone_opened_again_plays_what_it_missed(
    server: LiveServer, browser: Any, lang: str
) -> None:
    """Anna looks at the slow table, closes her phone; Bo and Cy play their turns; when she
    opens it again the strip plays their two turns in order, fast, saying which of how many
    each is, and then it is her turn, her Roll button in reach."""
    made = httpx.post(
        f"{server.url}/api/rooms",
        json={"name": "Bo", "turn_hours": 8, "settings": ["starter=chosen", "format=rounds:1"]},
    ).json()
    code, bo = made["code"], made["token"]
    cy = httpx.post(f"{server.url}/api/rooms/{code}/join", json={"name": "Cy"}).json()["token"]
    ws = server.url.replace("http://", "ws://")
    with opened_pages(browser, server.url) as pages:
        anna = pages.open(f"/r/{code}", viewport=SMALL_PHONE, lang=lang, calm=False)
        join_table(anna, "Anna")
        assert httpx.post(f"{server.url}/api/rooms/{code}/start", headers={"X-Seat-Token": bo})
        anna.wait_for_selector("#play:not([hidden])")
        looked = httpx.get(f"{server.url}/api/rooms/{code}").json()["version"]
        anna.wait_for_function(
            f"JSON.parse(localStorage.getItem('scc:seen'))['{code}'] === {looked}"
        )
        context = anna.context
        anna.close()  # her phone goes back into her pocket
        play_turn_ws(ws, code, bo, 0)
        room = play_turn_ws(ws, code, cy, 1)
        assert room["match"]["actor"] == 2
        again = context.new_page()
        again.on("pageerror", lambda e: pages.errors.append(f"again: {e}"))
        again.add_init_script(STRIPS_JS)
        again.goto(f"{server.url}/r/{code}")
        first = AWAY[lang].format(i=1, n=2)
        second = AWAY[lang].format(i=2, n=2)
        again.wait_for_function(
            f"window.__strips.some((s) => s.includes({second!r}))", timeout=10_000
        )
        again.wait_for_selector("html:not([data-moving])", state="attached")
        shot(again, f"slow-missed-{lang}", full=False)
        seen = [s for s in again.evaluate("window.__strips") if AWAY[lang][:8] in s]
        # In order: Bo's turn (1 of 2), then Cy's (2 of 2), each with its player's name.
        assert len(seen) == 2 and first in seen[0] and second in seen[1], seen
        assert "Bo" in seen[0] and "Cy" in seen[1], seen
        roll = again.locator("#actions button[data-action=roll]")
        roll.wait_for()
        box = roll.bounding_box()
        assert box is not None
        covered = again.evaluate(
            "([x, y]) => !document.querySelector('#actions button[data-action=roll]').contains(document.elementFromPoint(x, y))",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert not covered, "something covers Anna's Roll button"
        # Bo and Cy are away, as people at a slow table are most of the day: Anna, not the
        # host, is offered nothing about them (the clock passes a turn; only the host may ask).
        assert again.locator("#away").count() == 0, again.locator("#away").inner_text()
        shot(again, f"slow-missed-after-{lang}")
        check(again, f"slow-missed-{lang}")
