"""Shake to roll (issue 26): ``devicemotion`` events dispatched on the phones of a two-person
table.  A weak motion on the acting phone and a shake on the watching phone do nothing; a
strong shake on the acting phone (its switch remembered across a reload) rolls exactly once,
even with a second shake right behind it in the same roll, and the dice land with a buzz.
Everything is judged by what the server shows: its version (one move or none), the turn's
rolls, and no refusal on the watching phone.

A phone's messages reach the server in order, so a reaction sent after the motions and seen
coming back means every roll the motions might have sent was already taken (or refused).

Run in its own pytest process: ``pytest tests/web/test_browser_shake.py -m browser``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .browsing import CHOICE, PHONE, Pages, table_server
from .conftest import LiveServer
from .humanpace import picture

pytestmark = pytest.mark.browser

#: Counts the phone's buzzes (navigator.vibrate), and lets a test shake it: ``shake(size)``
#: dispatches a jolt one way then the other along x (m/s^2, gravity left out), 50 ms apart
#: in the events' own clock.
MOTION_JS = """
window.__buzz = 0;
navigator.vibrate = () => { window.__buzz += 1; return true; };
window.__shake = (size) => {
  for (const x of [size, -size]) {
    window.dispatchEvent(new DeviceMotionEvent('devicemotion', {
      acceleration: { x, y: 0, z: 0 },
      accelerationIncludingGravity: { x, y: 0, z: 9.81 },
      interval: 16,
    }));
  }
};
"""


@pytest.fixture
def shake_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from table_server(
        tmp_path_factory,
        "shake",
        "5ba4e0000000000000000000000000000000000000000000000000000000005a",
    )


def phone(pages: Pages, path: str) -> Any:
    page = pages.open("", viewport=PHONE)
    page.add_init_script(MOTION_JS)
    page.goto(pages.base + path)
    return page


def react_and_see(sender: Any, receiver: Any) -> None:
    """``sender`` sends a reaction and ``receiver`` shows it: whatever ``sender`` sent before
    has been handled by the server."""
    before = receiver.locator(".bubble").count()
    sender.evaluate("document.querySelector('#reactions button').click()")
    receiver.wait_for_function(f"document.querySelectorAll('.bubble').length > {before}")


def test_a_strong_shake_on_the_acting_phone_rolls_once(
    shake_server: LiveServer, browser: Any
) -> None:
    base = shake_server.url
    pages = Pages(browser, base)
    try:
        host = phone(pages, "/?lang=en")
        host.fill("[data-testid=create-table] [name=name]", "Anna")
        host.click("[data-testid=create-table] button[type=submit]")
        host.wait_for_selector("#bigcode")
        code = host.inner_text("#bigcode").strip()
        guest = phone(pages, f"/r/{code}")
        guest.fill("[data-testid=join-table] [name=name]", "Bruno")
        guest.click("[data-testid=join-table] button[type=submit]")
        guest.wait_for_selector("#waiting")
        host.wait_for_function("document.querySelectorAll('#seats li').length === 2")
        host.click("[data-testid=start]:not([disabled])")
        seats = {0: host, 1: guest}
        for page in seats.values():
            page.wait_for_selector("#play:not([hidden])")
            page.click("[data-testid=shake-to-roll]")
        # The roll-off by the buttons, up to the first turn.
        while (room := picture(base, code))["match"]["phase"] != "turn":
            seats[room["match"]["actor"]].click(f"{CHOICE}[data-action=roll]")
            while picture(base, code)["version"] == room["version"]:
                host.wait_for_timeout(30)
        room = picture(base, code)
        actor = room["match"]["actor"]
        acting, watching = seats[actor], seats[1 - actor]
        # The switch is remembered on this phone: after a reload it still shakes.
        acting.reload()
        acting.wait_for_selector(f"{CHOICE}[data-action=roll]")
        watching.wait_for_selector("#play:not([hidden])")
        v0 = room["version"]
        assert room["match"]["turn"]["rolls_used"] == 0
        # A phone carried about (a weak motion), and a shake on the watching phone: nothing.
        acting.evaluate("window.__shake(12)")
        watching.evaluate("window.__shake(40)")
        react_and_see(acting, watching)
        react_and_see(watching, acting)
        assert picture(base, code)["version"] == v0
        assert watching.inner_text("#personal") == ""
        # A strong shake, and another right behind it in the same roll: one roll.
        acting.evaluate("window.__shake(40); window.__shake(40)")
        while picture(base, code)["version"] == v0:
            acting.wait_for_timeout(30)
        react_and_see(acting, watching)
        after = picture(base, code)
        assert after["version"] == v0 + 1, "not exactly one move"
        turn = after["match"]["turn"]
        assert after["match"]["actor"] == actor and turn["rolls_used"] == 1, turn
        # The acting phone shows that roll's dice, and buzzed as they landed.
        shown = f"document.querySelectorAll('#felt [data-testid=die]').length >= {len(turn['last_roll'])}"
        acting.wait_for_function(shown)
        acting.wait_for_selector("html:not([data-moving])", state="attached")
        assert acting.evaluate("window.__buzz") >= 1
        assert pages.errors == []
    finally:
        pages.close()
