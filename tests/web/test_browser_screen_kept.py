"""A table link opened again draws before its WebSocket answers (issue 26, the second visit):
the phone keeps the last picture of its table and draws it at once, while the socket's opening
round trip (400 ms at a pub, 2 s on a poor network) is still under way.

In a lobby that picture is usable: joining goes over HTTP, so a newcomer can take a seat with a
socket that never answers at all.  In a match the kept picture shows the dice, the cards and
whose turn it is, and the acting player's choices are usable at once: a choice made on it waits
for the table's answer and goes only if the live picture shows the very same moment; if the
table moved on meanwhile it is dropped, and the phone says so in its language.

Run in its own pytest process: ``pytest tests/web/test_browser_screen_kept.py -m browser``.
"""

from __future__ import annotations

import contextlib
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


class Gate:
    """The page's WebSockets held (opened on the page's side, never answered) until
    :meth:`open`: then the held ones are closed (the page dials again by itself) and every
    later one goes through to the server."""

    def __init__(self, page: Any) -> None:
        self.held: list[Any] = []
        self.through = False
        page.route_web_socket("**/ws/**", self._route)

    def _route(self, ws: Any) -> None:
        if self.through:
            ws.connect_to_server()
        else:
            self.held.append(ws)

    def drop(self) -> None:
        """The held sockets fail (a network that drops them); the page's next are held too."""
        held, self.held = self.held, []
        for ws in held:
            ws.close()

    def open(self) -> None:
        self.through = True
        self.drop()


@contextlib.contextmanager
def kept_match(
    server: LiveServer, browser: Any, lang: str
) -> Iterator[tuple[str, str, list[str], int, Pages, Any]]:
    """A match of Anna and Bo, its first roll due (the starter chosen: no roll-off), that the
    acting player's phone saw live (and kept) and was then put away: the server's URL, the
    table's code, the seat tokens, whose roll it is, the pages, and that phone's browser
    context to open the link again in.  Every page is closed after, none with an error."""
    base = server.url
    made = httpx.post(f"{base}/api/rooms", json={"name": "Anna", "settings": ["starter=chosen"]})
    code, tokens = made.json()["code"], [made.json()["token"]]
    tokens.append(httpx.post(f"{base}/api/rooms/{code}/join", json={"name": "Bo"}).json()["token"])
    httpx.post(f"{base}/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
    actor = httpx.get(f"{base}/api/rooms/{code}").json()["match"]["actor"]
    pages = Pages(browser, base)
    try:
        first = pages.open("", viewport=PHONE, lang=lang)
        ctx = first.context
        ctx.add_init_script(f"localStorage.setItem('scc:seat:{code}', '{tokens[actor]}')")
        ctx.add_init_script(DRAWN_VERSION)
        first.goto(f"{base}/r/{code}")
        version = httpx.get(f"{base}/api/rooms/{code}").json()["version"]
        first.wait_for_function(f"window.sccDrawnVersion === {version}")
        first.close()
        yield base, code, tokens, actor, pages, ctx
    finally:
        pages.close()
    assert not pages.errors, pages.errors


ROLL = "#actions button[data-action=roll]"
#: Counts the phone's buzzes (navigator.vibrate).
BUZZ_JS = "window.__buzz = 0; navigator.vibrate = () => { window.__buzz += 1; return true; };"


def test_a_roll_tapped_on_the_kept_picture_goes_once_the_table_answers(
    kept_server: LiveServer, browser: Any
) -> None:
    with kept_match(kept_server, browser, "en") as (base, code, _, actor, _, ctx):
        before = httpx.get(f"{base}/api/rooms/{code}").json()
        # Opened again while the socket's opening is still under way (held): the kept picture,
        # the Roll button usable at once.
        again = ctx.new_page()
        gate = Gate(again)
        again.add_init_script(BUZZ_JS)
        again.goto(f"{base}/r/{code}")
        again.wait_for_selector(f"{ROLL}:not([disabled])")
        assert again.inner_text("[data-testid=your-turn] .who") == "Your turn"
        assert again.inner_text("#offline-note") == "Connecting to the table..."
        # Bo is offline, but what the table may do about it waits for the live picture.
        assert again.locator("#away-box button, [data-testid=play-for]").count() == 0
        check(again, "kept match")
        again.click(ROLL)
        again.wait_for_selector("#offline-note:has-text('as soon as the table answers')")
        assert again.inner_text("#offline-note") == "Your choice goes as soon as the table answers."
        assert again.is_disabled(ROLL)  # one tap, one roll: nothing more to press meanwhile
        shot(again, "kept-match-phone", full=False)
        assert httpx.get(f"{base}/api/rooms/{code}").json()["version"] == before["version"]
        # The network drops the socket: the phone says it is offline, the roll still waits.
        gate.drop()
        again.wait_for_selector("#offline:not([hidden])")
        assert again.inner_text("#offline") == "Offline: reconnecting..."
        assert again.inner_text("#offline-note") == "Your choice goes as soon as the table answers."
        # A poor network: the table answers seconds after the tap (past the 3 s a tap's buzz
        # used to wait for its dice), with the same moment: the roll goes, once, and its dice
        # land on the felt with a buzz.
        again.wait_for_timeout(3500)
        gate.open()
        again.wait_for_function(f"window.sccDrawnVersion === {before['version'] + 1}")
        after = httpx.get(f"{base}/api/rooms/{code}").json()
        turn = after["match"]["turn"]
        assert after["version"] == before["version"] + 1
        assert after["match"]["actor"] == actor
        assert turn["rolls_used"] == before["match"]["turn"]["rolls_used"] + 1
        again.wait_for_function(
            "(n) => document.querySelectorAll('#felt-slot [data-testid=die][data-face]').length"
            " === n && !document.querySelector('#offline-note')",
            arg=len(turn["last_roll"]),
        )
        assert felt(again) == sorted(turn["last_roll"])  # the turn's first roll: all five
        again.wait_for_function("window.__buzz > 0")
        assert again.is_hidden("#offline")


def test_a_choice_made_on_an_old_picture_is_dropped_and_said_in_german(
    kept_server: LiveServer, browser: Any
) -> None:
    with kept_match(kept_server, browser, "de") as (base, code, tokens, actor, pages, ctx):
        kept_version = httpx.get(f"{base}/api/rooms/{code}").json()["version"]
        # Meanwhile the player rolled on their other phone: the kept picture is an old one.
        other = pages.open("", viewport=PHONE, lang="de")
        other.context.add_init_script(f"localStorage.setItem('scc:seat:{code}', '{tokens[actor]}')")
        other.goto(f"{base}/r/{code}")
        other.click(f"{ROLL}:not([disabled])")
        other.wait_for_function(
            f"async () => (await (await fetch('/api/rooms/{code}')).json()).version > {kept_version}"
        )
        other.close()
        moved = httpx.get(f"{base}/api/rooms/{code}").json()
        assert "roll" in moved["match"]["legal"]  # the Roll button is there on both pictures
        again = ctx.new_page()
        gate = Gate(again)
        again.add_init_script(DRAWN_VERSION)
        again.goto(f"{base}/r/{code}")
        again.click(f"{ROLL}:not([disabled])")
        again.wait_for_selector("#offline-note:has-text('sobald der Tisch antwortet')")
        gate.open()
        # The live picture is another moment: the tap made on the old one is not sent.
        again.wait_for_selector("#action-note")
        assert again.inner_text("#action-note") == (
            "Am Tisch ging es weiter, während sich dieses Handy verbunden hat: Deine Wahl wurde"
            " nicht gesendet."
        )
        assert again.evaluate("window.sccDrawnVersion") == moved["version"]
        shot(again, "kept-match-moved-phone-de", full=False)
        # Its own choice, made now on the live picture, is the only one the table gets.
        again.click(f"{ROLL}:not([disabled])")
        again.wait_for_function(f"window.sccDrawnVersion === {moved['version'] + 1}")
        after = httpx.get(f"{base}/api/rooms/{code}").json()
        assert after["version"] == moved["version"] + 1
        assert after["match"]["turn"]["rolls_used"] == moved["match"]["turn"]["rolls_used"] + 1
        assert not again.is_visible("#action-note")


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
