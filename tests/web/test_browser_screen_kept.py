"""A table link opened again draws before its WebSocket answers (issue 26, the second visit):
the phone keeps the last picture of its table and draws it at once, while the socket's opening
round trip (400 ms at a pub, 2 s on a poor network) is still under way.

In a lobby that picture is usable: joining goes over HTTP, so a newcomer can take a seat with a
socket that never answers at all.  In a match the kept picture shows the dice, the cards and
whose turn it is, but the acting player's choices stay inert, saying so, until the live
picture comes (a choice sent from an old picture could be one the table no longer allows).

Run in its own pytest process: ``pytest tests/web/test_browser_screen_kept.py -m browser``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .browsing import PHONE, SMALL_PHONE, Pages, check, shot, table_server
from .conftest import LiveServer

pytestmark = pytest.mark.browser


@pytest.fixture
def kept_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from table_server(
        tmp_path_factory, "kept", "4e97000000000000000000000000000000000000000000000000000000000abc"
    )


#: The version of the last picture a page drew (its scc:drawn event).
DRAWN_VERSION = (
    "document.addEventListener('scc:drawn', (e) => { window.sccDrawnVersion = e.detail.version; });"
)


def felt(page: Any) -> list[int]:
    """The faces on the felt, as drawn."""
    faces: list[int] = page.eval_on_selector_all(
        "#felt-slot [data-testid=die][data-face]", "ds => ds.map((d) => +d.dataset.face)"
    )
    return sorted(faces)


def test_a_match_opened_again_shows_its_dice_at_once_and_acts_only_live(
    kept_server: LiveServer, browser: Any
) -> None:
    base = kept_server.url
    # (The starter chosen: the first roll is Anna's turn, not a roll-off.)
    made = httpx.post(f"{base}/api/rooms", json={"name": "Anna", "settings": ["starter=chosen"]})
    code, tokens = made.json()["code"], [made.json()["token"]]
    tokens.append(httpx.post(f"{base}/api/rooms/{code}/join", json={"name": "Bo"}).json()["token"])
    httpx.post(f"{base}/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    room = httpx.get(f"{base}/api/rooms/{code}").json()
    actor, v0 = room["match"]["actor"], room["version"]
    pages = Pages(browser, base)
    roll = "#actions button[data-action=roll]"
    try:
        first = pages.open("", viewport=PHONE)
        ctx = first.context
        ctx.add_init_script(f"localStorage.setItem('scc:seat:{code}', '{tokens[actor]}')")
        ctx.add_init_script(DRAWN_VERSION)
        first.goto(f"{base}/r/{code}")
        first.click(f"{roll}:not([disabled])")  # a first roll: dice on the felt
        first.wait_for_function(f"window.sccDrawnVersion === {v0 + 1}")
        match = httpx.get(f"{base}/api/rooms/{code}").json()["match"]
        assert match["actor"] == actor and "roll" in match["legal"]  # a second roll is due
        faces = felt(first)
        assert len(faces) == len(match["turn"]["last_roll"]) > 0
        first.close()
        # Opened again with a socket that never answers: the kept picture, inert.
        again = ctx.new_page()
        again.route_web_socket("**/ws/**", lambda ws: None)
        again.goto(f"{base}/r/{code}")
        again.wait_for_selector("#felt-slot [data-testid=die][data-face]")
        assert felt(again) == faces
        assert again.inner_text("[data-testid=your-turn] .who") == "Your turn"
        assert again.is_visible(roll) and again.is_disabled(roll)
        assert again.eval_on_selector_all(
            "#actions button", "bs => bs.length > 0 && bs.every(b => b.disabled)"
        )
        assert again.inner_text("#offline-note") == "Connecting to the table..."
        # Bo is offline, but what the table may do about it waits for the live picture too.
        assert again.locator("#away-box button, [data-testid=play-for]").count() == 0
        check(again, "kept match")
        shot(again, "kept-match-phone", full=False)
        again.close()
        # With the table answering, the same picture comes alive: the roll goes out.
        live = ctx.new_page()
        live.goto(f"{base}/r/{code}")
        version = httpx.get(f"{base}/api/rooms/{code}").json()["version"]
        live.click(f"{roll}:not([disabled])")
        live.wait_for_function(
            f"async () => (await (await fetch('/api/rooms/{code}')).json()).version > {version}"
        )
        assert not live.is_visible("#offline-note")
    finally:
        pages.close()
    assert not pages.errors, pages.errors


def test_a_lobby_opened_again_joins_without_its_socket(
    kept_server: LiveServer, browser: Any
) -> None:
    base = kept_server.url
    code = httpx.post(f"{base}/api/rooms", json={"name": "Anna"}).json()["code"]
    pages = Pages(browser, base)
    try:
        first = pages.open(f"/r/{code}", viewport=PHONE)
        first.wait_for_selector("[data-testid=join-table]")
        assert "Anna" in first.inner_text("#seats")
        ctx = first.context
        first.close()
        # The link opened again, with a socket that never answers (a network that dropped it).
        again = ctx.new_page()
        again.route_web_socket("**/ws/**", lambda ws: None)
        again.set_viewport_size(SMALL_PHONE)
        again.goto(f"{base}/r/{code}")
        again.wait_for_selector("[data-testid=join-table] button[type=submit]")
        assert "Anna" in again.inner_text("#seats")
        check(again, "kept lobby")
        again.fill("[data-testid=join-table] [name=name]", "Bruno")
        again.click("[data-testid=join-table] button[type=submit]")
        again.wait_for_function(f"!!localStorage.getItem('scc:seat:{code}')")
        players = httpx.get(f"{base}/api/rooms/{code}").json()["players"]
        assert [p["name"] for p in players] == ["Anna", "Bruno"]
    finally:
        pages.close()


def test_a_code_that_leads_nowhere_says_so_on_the_phone_and_the_screen(
    kept_server: LiveServer, browser: Any
) -> None:
    pages = Pages(browser, kept_server.url)
    try:
        for path, lang, said in (
            ("/r/ZZZZZZ", "en", "There is no table with this code."),
            ("/r/ZZZZZZ/screen", "de", "Es gibt keinen Tisch mit diesem Code."),
        ):
            page = pages.open(path, viewport=PHONE, lang=lang)
            page.wait_for_selector("main section.panel h2")
            assert page.inner_text("main section.panel h2") == said
            assert page.get_attribute("main section.panel a", "href") == "/"
    finally:
        pages.close()
    assert not pages.errors, pages.errors
