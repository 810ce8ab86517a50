"""The table screen (issue 26): three phones and a table screen at 1920x1080 play a whole match
at the captain's table (the captain hands out, a round tie is broken); after every move the
screen shows the very dice the phones show (same faces, the felt and the strip), the round's
card, the tie and the captain's sips as the phones do; the QR code while the seats are open;
the podium with every final total at the end.  Reloaded mid-match, the screen is back within
2 s.  At one moment of the match the screen is opened in en/de/nb, light and dark, at
1920x1080 and 1280x720: it fits, axe-core finds nothing serious, no English is left.  The
phones, with a screen in the room, show their compact view (the switch gives the full view).

Run in its own pytest process: ``pytest tests/web/test_browser_screen.py -m browser``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from .browsing import (
    CHOICE,
    PHONE,
    SMALL_PHONE,
    Pages,
    check,
    english_left,
    fits,
    pair_screen,
    shot,
)
from .conftest import LiveServer
from .humanpace import act, choose, picture, simulate
from .test_browser_human import FINAL_JS, host_table, join, server, strings

pytestmark = pytest.mark.browser

TV = {"width": 1920, "height": 1080}
LAPTOP = {"width": 1280, "height": 720}
#: Two rounds at the captain's table: the captain hands out, the totals tie after round 2 and
#: a turn played off between the tied decides the match (its roll is the deciding one).
RULES = "schiff-kapitaen-crew(drinking=captain_hands_out,format=rounds:2)"
SEED = "8dc504835a9f41ad5cbde882c86612d2f6a5846de498044e211b2c35da1c8d68"
#: The version each page drew last (the pages' scc:drawn event).
DRAWN_JS = """
document.addEventListener('scc:drawn', (e) => {
  window.__sccV = e.detail.version;
  window.__sccLive = e.detail.live;  // drawn from the server's picture, not the one kept here
});
"""
#: What a page shows of the table: the felt's dice, the strip's, the tie, the captain's sips.
SHOWN_JS = """() => ({
  felt: [...document.querySelectorAll('#felt [data-testid=die]')].map((d) => +d.dataset.face),
  strip: [...document.querySelectorAll('#strip [data-testid=die]')].map((d) => +d.dataset.face),
  contenders: [...document.querySelectorAll('#felt .contender')].map((c) => +c.dataset.seat),
  tie: !!document.querySelector('#felt [data-testid=tie]'),
  sips: (document.querySelector('#felt .sips-left b') || {}).textContent || null,
  result: !!document.querySelector('[data-testid=round-result]'),
})"""


def test_the_seed_gives_the_table() -> None:
    """The seed's match, played by the people's policy, has the captain's hand-out."""
    seen = simulate(RULES, 3, SEED)
    assert "hand_out" in seen.phases and seen.splits, seen


@pytest.fixture
def screen_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from server(tmp_path_factory, SEED)


def tv(
    pages: Pages, code: str, lang: str = "en", *, dark: bool = False, size: dict[str, int] = TV
) -> Any:
    page = pages.open("", viewport=size, lang=lang, dark=dark)
    page.add_init_script(DRAWN_JS)
    page.add_init_script(FINAL_JS)
    page.goto(f"{pages.base}/r/{code}/screen")
    return page


def settled(pages: list[Any], version: int, timeout: float = 10000) -> None:
    """Every page has drawn ``version`` and its dice lie still."""
    for page in pages:
        page.wait_for_function(f"window.__sccV >= {version}", timeout=timeout)
        page.wait_for_selector("html:not([data-moving])", state="attached")


def same_table(
    screen: Any, phones: dict[str, Any], where: str, keys: tuple[str, ...] = ("felt", "strip")
) -> dict[str, Any]:
    """The screen shows what every phone shows; returns it."""
    on_screen = screen.evaluate(SHOWN_JS)
    for name, page in phones.items():
        on_phone = page.evaluate(SHOWN_JS)
        for key in (*keys, "contenders", "tie", "sips"):
            assert on_screen[key] == on_phone[key], (where, name, key, on_screen, on_phone)
    return dict(on_screen)


def sweep(pages: Pages, base: str, code: str, tag: str) -> None:
    """The screen at this moment in every language and scheme, at TV and laptop size."""
    for lang in ("en", "de", "nb"):
        for dark in (False, True):
            for size in (TV, LAPTOP) if lang == "en" else (TV,):
                page = tv(pages, code, lang, dark=dark, size=size)
                page.wait_for_selector(
                    "#tv-play:not([hidden]) #felt [data-testid=die], #tv-lobby:not([hidden]) [data-testid=screen-code]"
                )
                page.wait_for_selector("html:not([data-moving])", state="attached")
                name = f"screen-{tag}-{lang}-{'dark' if dark else 'light'}-{size['width']}"
                assert page.evaluate("document.documentElement.lang") == lang
                check(page, name)
                assert not re.search(r"\b(null|undefined|NaN)\b", page.inner_text("#main")), name
                if lang != "en":
                    assert english_left(page, strings(base, lang)) == [], name
                # The acting player's dice are read across a room: at least 6% of the height.
                dice = page.locator("#felt .tray [data-testid=die], #felt .slots [data-testid=die]")
                if dice.count():
                    box = dice.first.bounding_box()
                    assert box and box["height"] >= 0.06 * size["height"], (name, box)
                shot(page, name, full=False)
                page.context.close()


def test_three_phones_and_a_table_screen_play_a_whole_match(
    screen_server: LiveServer, browser: Any
) -> None:
    base = screen_server.url
    pages = Pages(browser, base)
    try:
        host, code = host_table(pages, RULES, PHONE, "en")
        screen = tv(pages, code)
        # Seats open: the join code and its QR code, and no name asked, no control.
        screen.wait_for_selector("[data-testid=screen-qr]")
        assert screen.inner_text("[data-testid=screen-code]").strip() == code
        assert screen.evaluate("document.querySelector('[data-testid=screen-qr]').naturalWidth") > 0
        assert screen.locator("input, #actions, [data-testid=join-table]").count() == 0
        sweep(pages, base, code, "lobby")
        pair_screen(host, screen)  # (an unpaired screen watches; the phones stay whole)
        phones = {
            "en": host,
            "de": join(pages, code, "Bruno", SMALL_PHONE, "de"),
            "nb": join(pages, code, "Kari", PHONE, "nb"),
        }
        for page in phones.values():
            page.add_init_script(DRAWN_JS)
            page.evaluate(DRAWN_JS)
        host.wait_for_function("document.querySelectorAll('#seats li').length === 3")
        host.click("[data-testid=start]:not([disabled])")
        screen.wait_for_selector("#tv-play:not([hidden])")
        # The seats are taken: the QR code goes, the code stays (a spectator may still watch).
        assert screen.locator("[data-testid=screen-qr]").count() == 0
        assert screen.inner_text("[data-testid=screen-code]").strip() == code
        # A screen in the room: each phone is the controller (the switch gives the rest back).
        for name, page in phones.items():
            page.wait_for_selector("body.compact #view-toggle")
            assert not page.locator("#scores").is_visible(), name
            page.click("#view-toggle")
            assert page.locator("#scores").is_visible(), name
            fits(page, f"full view {name}")
            page.click("#view-toggle")
            assert not page.locator("#scores").is_visible(), name
        seats = {0: phones["en"], 1: phones["de"], 2: phones["nb"]}
        seen: dict[str, bool] = {
            "tie": False,
            "sips": False,
            "result": False,
            "reload": False,
            "swept": False,
        }
        moves = 0
        while True:
            room = picture(base, code)
            match = room["match"]
            if match["over"]:
                break
            settled([screen, *phones.values()], room["version"])
            # After the reload the strip is back with the next moment (then compared again).
            lost = seen["reload"] and not screen.evaluate(SHOWN_JS)["strip"]
            keys = ("felt",) if lost else ("felt", "strip")
            shown = same_table(screen, phones, f"version {room['version']}", keys)
            seen["tie"] |= shown["tie"]
            seen["sips"] |= shown["sips"] is not None
            seen["result"] |= shown["result"]
            if shown["result"]:
                assert screen.inner_text("#round-result summary") == phones["en"].inner_text(
                    "#round-result summary"
                )
            if moves == 8 and not seen["reload"]:
                # Reloaded mid-match: the same table is back within 2 s, live.
                seen["reload"] = True
                screen.reload(wait_until="commit")
                screen.wait_for_function(
                    f"window.__sccV >= {room['version']} && window.__sccLive", timeout=2000
                )
                screen.wait_for_selector("html:not([data-moving])", state="attached")
                # (The strip waits for the next moment: a page coming in gets the table,
                # not the moment before it, as a phone reloaded does.)
                same_table(screen, phones, "after the reload", ("felt",))
            if not seen["swept"] and match["turn"] and len(shown["felt"]) >= 4:
                seen["swept"] = True
                sweep(pages, base, code, "felt")
            if shown["tie"] or (shown["sips"] and not seen.get("shot-sips")):
                tag = "tie" if shown["tie"] else "sips"
                seen[f"shot-{tag}"] = True
                shot(screen, f"screen-{tag}-en-light-1920", full=False)
                shot(phones["de"], f"compact-{tag}-de-360", full=False)
            page = seats[match["actor"]]
            page.wait_for_selector(CHOICE)
            act(page, choose(match, room["options"]))
            moves += 1
            while picture(base, code)["version"] == room["version"]:
                screen.wait_for_timeout(30)
        assert (
            seen["tie"] and seen["sips"] and seen["result"] and seen["reload"] and seen["swept"]
        ), seen
        # The deciding roll held on the screen's felt, then the podium with every final total.
        final = picture(base, code)
        screen.wait_for_selector("[data-testid=podium]", timeout=15000)
        held = screen.evaluate("window.__sccFinal")
        assert held["final"] is not None and held["dice"] > 0 and held["podiumThen"] == 0, held
        assert held["podium"] - held["final"] >= 1500, held
        totals = dict(enumerate(final["match"]["totals"]))
        for name, page in {"screen": screen, **phones}.items():
            page.wait_for_selector("[data-testid=podium]", timeout=15000)
            shown_totals = {
                int(el.get_attribute("data-seat")): int(el.inner_text())
                for el in page.locator("[data-testid=final-score]").all()
            }
            assert shown_totals == totals, (name, shown_totals, totals)
            # Beside the podium the cards show no last-round number that could pass for a
            # final score (the round's own card still tells it).
            beside = [x.strip() for x in page.locator(".pcard .posted").all_inner_texts()]
            assert beside and set(beside) == {""}, (name, beside)
        # A TV cannot scroll: the podium and the cards beside it fit its height (the last
        # round's card folded to its headline).
        tall = screen.evaluate("[document.documentElement.scrollHeight, innerHeight]")
        assert tall[0] <= tall[1], tall
        assert screen.get_attribute("#round-result", "open") is None
        check(screen, "podium")
        shot(screen, "screen-podium-en-light-1920", full=False)
        assert pages.errors == []
    finally:
        pages.close()
