"""Shake to roll (issue 26): ``devicemotion`` events dispatched on the phones of a two-person
table.  A weak motion on the acting phone and a shake on the watching phone do nothing; a
strong shake on the acting phone (its switch remembered across a reload) rolls exactly once,
even with a second shake right behind it in the same roll, and the dice land with a buzz.
Everything is judged by what the server shows: its version (one move or none), the turn's
rolls, and no refusal on the watching phone.

On iOS the motion sensors need the person's leave (``DeviceMotionEvent.requestPermission``,
defined here as Safari has it): it is asked once, from the tap on the switch; allowed, the
switch is on and stays on across a reload without a second question; refused, the switch stays
off and the page says why in its own language.

A phone's messages reach the server in order, so a reaction sent after the motions and seen
coming back means every roll the motions might have sent was already taken (or refused).

Run in its own pytest process: ``pytest tests/web/test_browser_shake.py -m browser``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .browsing import CHOICE, PHONE, Pages, create_table, join_table, start_match, table_server
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
        code = create_table(host, "Anna")
        guest = phone(pages, f"/r/{code}")
        join_table(guest, "Bruno")
        start_match(host, players=2)
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


#: iOS's motion permission as Safari has it: ``DeviceMotionEvent.requestPermission()`` shows
#: its question once per site (``window.__answer``: what the person taps, "granted" or
#: "denied"), and later calls resolve to that decision without asking (kept in
#: localStorage, as Safari keeps it across a reload).  Each question records whether it came
#: from a tap (the browser's user activation): iOS refuses one that does not.
IOS_JS = """
(() => {
  const got = () => JSON.parse(localStorage.getItem('__motion') || '{"asked": [], "decided": null}');
  DeviceMotionEvent.requestPermission = async () => {
    const m = got();
    if (m.decided === null) {
      m.asked.push(navigator.userActivation.isActive);
      m.decided = window.__answer;
    }
    localStorage.setItem('__motion', JSON.stringify(m));
    return m.decided;
  };
  window.__asked = () => got().asked;
})();
"""
SWITCH = "[data-testid=shake-to-roll]"


def seated_phone(pages: Pages, lang: str, answer: str) -> tuple[Any, str]:
    """The phone of the player to roll at a new two-person table (the starter chosen: Anna's
    first turn), on iOS answering ``answer``; and the table's code."""
    base = pages.base
    made = httpx.post(f"{base}/api/rooms", json={"name": "Anna", "settings": ["starter=chosen"]})
    code, token = made.json()["code"], made.json()["token"]
    httpx.post(f"{base}/api/rooms/{code}/join", json={"name": "Bo"})
    httpx.post(f"{base}/api/rooms/{code}/start", headers={"X-Seat-Token": token})
    assert picture(base, code)["match"]["actor"] == 0
    page = pages.open("", viewport=PHONE, lang=lang)
    page.add_init_script(
        f"localStorage.setItem('scc:seat:{code}', '{token}'); window.__answer = '{answer}';"
    )
    page.add_init_script(MOTION_JS + IOS_JS)
    page.goto(f"{base}/r/{code}")
    page.wait_for_selector(f"{CHOICE}[data-action=roll]")
    return page, code


def test_ios_asks_for_the_motion_sensors_once_from_a_tap_on_the_switch(
    shake_server: LiveServer, browser: Any
) -> None:
    base = shake_server.url
    pages = Pages(browser, base)
    try:
        # Allowed: the switch turns on, asked once from the tap.
        page, code = seated_phone(pages, "nb", "granted")
        assert page.get_attribute(SWITCH, "aria-pressed") == "false"
        assert page.evaluate("window.__asked()") == []  # never asked before the tap
        page.click(SWITCH)
        page.wait_for_selector(f"{SWITCH}[aria-pressed=true]")
        assert page.evaluate("window.__asked()") == [True]
        # Remembered across a reload, without asking again (a tap on the page included),
        # and a strong shake then rolls: the server counts the roll.
        page.reload()
        page.wait_for_selector(f"{CHOICE}[data-action=roll]")
        assert page.get_attribute(SWITCH, "aria-pressed") == "true"
        page.click("#stage")
        v0 = picture(base, code)["version"]
        page.evaluate("window.__shake(40)")
        while picture(base, code)["version"] == v0:
            page.wait_for_timeout(30)
        assert picture(base, code)["match"]["turn"]["rolls_used"] == 1
        assert page.evaluate("window.__asked()") == [True]
        # Refused, on a German phone: the switch stays off, said in German, and a shake
        # throws nothing.
        page, code = seated_phone(pages, "de", "denied")
        page.click(SWITCH)
        page.wait_for_function("document.getElementById('toast').textContent !== ''")
        assert page.inner_text("#toast") == (
            "Schütteln zum Würfeln braucht die Bewegungssensoren:"
            " Erlaube sie in den Einstellungen des Browsers."
        )
        assert page.get_attribute(SWITCH, "aria-pressed") == "false"
        assert page.evaluate("window.__asked()") == [True]
        v0 = picture(base, code)["version"]
        page.evaluate("window.__shake(40)")
        react_and_see(page, page)
        assert picture(base, code)["version"] == v0
        assert pages.errors == []
    finally:
        pages.close()
