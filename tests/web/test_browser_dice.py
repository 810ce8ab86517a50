"""A table of six dice in the cup (``dice=6``, a cargo of three), played in the browser.

Three people (English, German and Norwegian phones, one of them 360 px wide) and a bot play
two rounds at a person's pace, with a table screen at 1280x720 in the room.  What each of
them sees is read against the rule set: the felt has three cargo slots on every phone and on
the screen, and a completed crew shows its three cargo dice there with the picture's faces;
a turn's moment in the strip shows the crew and the three cargo dice; the story of each phone,
in its language, says every full crew as a sum of three dice that adds up to the score (once
"Cargo 1 + 2 = 6", and two slots for three dice); and the bot's reason names the stand it
made -- "Stand on 12 · cargo 12 is 7 or more", not "Stand on 0" of the turn the table had
moved on to.  Screenshots of the felt with three cargo dice on a phone and on the screen
(artifacts/).

Run in its own pytest process: ``pytest tests/web/test_browser_dice.py -m browser``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from .browsing import PHONE, SMALL_PHONE, Pages, check, fits, shot
from .conftest import LiveServer
from .humanpace import play_human, report
from .test_browser_human import host_table, join, server, start

pytestmark = pytest.mark.browser

RULES = "classic(dice=6,format=rounds:2)"
#: The server's dice: with the people's policy every person decides on a full crew, and the bot
#: twice (test_the_seed_gives_every_seat_a_crew).
SEED = "6d1ce6d1ce000000000000000000000000000000000000000000000000000002"
SCREEN = {"width": 1280, "height": 720}
CARGO = 3
#: A full crew in each language's story: the cargo said as a sum, and the score.
FULL_CREW = {
    "en": re.compile(r"Full crew! Cargo ([\d +]+) = (\d+)\."),
    "de": re.compile(r"Volle Crew! Ladung ([\d +]+) = (\d+)\."),
    "nb": re.compile(r"Fullt mannskap! Last ([\d +]+) = (\d+)\."),
}
#: Every bot's reason as it appears on a page (kept: it shows for a few seconds only).
REASONS_JS = """
window.__reasons = [];
new MutationObserver(() => {
  for (const el of document.querySelectorAll('[data-testid=bot-reason]')) {
    const text = el.innerText;
    if (text && window.__reasons[window.__reasons.length - 1] !== text) window.__reasons.push(text);
  }
}).observe(document.body, { childList: true, subtree: true, characterData: true });
"""
#: The felt's cargo: every slot, and the dice lying in them; how many rows the roles' slots and
#: the cargo's take, and how many dice lie past the felt's edge (the felt clips: they are cut).
FELT_JS = """() => {
  const felt = document.querySelector('#felt').getBoundingClientRect();
  const top = (sel) => new Set([...document.querySelectorAll(sel)].map((s) => Math.round(s.getBoundingClientRect().top))).size;
  const dice = [...document.querySelectorAll('#felt [data-testid=die], #felt .die.blank')].map((d) => d.getBoundingClientRect());
  return {
    slots: document.querySelectorAll('#felt .slot.cargo').length,
    faces: [...document.querySelectorAll('#felt .slot.cargo [data-testid=die]')].map((d) => +d.dataset.face),
    rows: [top('#felt .slots .held .slot'), top('#felt .slots .cargo-group .slot')],
    outside: dice.filter((r) => r.left < felt.left - 1 || r.right > felt.right + 1).length,
  };
}"""


@pytest.fixture(scope="module")
def dice_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from server(tmp_path_factory, SEED)


def test_the_seed_gives_every_seat_a_crew() -> None:
    """The match the browser will see: every seat decides on a full crew (the people by their
    policy; the bot, medium, stands on 7 or more as they do), the bot twice."""
    from shipcaptaincrew.actions import parse_action
    from shipcaptaincrew.engine import apply, initial_state, is_chance, sample_chance, seat_to_act
    from shipcaptaincrew.fair import FairDice
    from shipcaptaincrew.rules import Rules
    from shipcaptaincrew.web.display.state_view import state_view

    from .humanpace import choose, split_text

    rules = Rules.from_str(RULES)
    state, dice = initial_state(rules, 4), FairDice(bytes.fromhex(SEED), [])
    crews = [0, 0, 0, 0]
    while not state.is_over:
        if is_chance(state):
            action = sample_chance(state, dice)
        else:
            picked = choose(state_view(state, results=False), rules.options())
            action = parse_action(picked if isinstance(picked, str) else split_text(picked))
            if state.turn is not None and state.turn.complete:
                crews[seat_to_act(state) or 0] += 1
        state = apply(state, action)
    assert min(crews) >= 1 and crews[3] >= 2, crews


def felt(page: Any) -> dict[str, Any]:
    return dict(page.evaluate(FELT_JS))


def test_six_dice_are_drawn_and_told_in_three_languages(
    dice_server: LiveServer, browser: Any
) -> None:
    base = dice_server.url
    pages = Pages(browser, base)
    try:
        host, code = host_table(pages, RULES, PHONE, "en")
        phones = {
            "en": host,
            "de": join(pages, code, "Bruno", SMALL_PHONE, "de"),
            "nb": join(pages, code, "Kari", PHONE, "nb"),
        }
        host.evaluate(REASONS_JS)  # (the host's page is already the table's: no reload)
        screen = pages.open("", viewport=SCREEN, lang="en")
        screen.goto(f"{base}/r/{code}/screen")
        start(host, 4, bots=1)
        screen.wait_for_selector("#tv-play:not([hidden])")
        seats = {0: phones["en"], 1: phones["de"], 2: phones["nb"]}
        langs = {page: lang for lang, page in phones.items()}
        seen = {"crews": 0, "screen": False, "strip": 0}
        shots: set[str] = set()

        def on_turn(page: Any, seat: int, room: dict[str, Any]) -> None:
            lang = langs[page]
            turn = room["match"]["turn"]
            if turn is None:
                return  # the roll-off for who starts: one die each, no cargo
            page.wait_for_selector("html:not([data-moving])", state="attached")  # dice landed
            on_felt = felt(page)
            assert on_felt["slots"] == CARGO, (lang, on_felt)  # three slots, full or empty
            # The roles in a row, the cargo in a row (the same or its own), and no die cut off
            # by the felt's edge (360 px too).
            assert on_felt["rows"] == [1, 1] and on_felt["outside"] == 0, (lang, on_felt)
            if turn["complete"]:
                page.wait_for_selector("html:not([data-moving])", state="attached")
                on_felt = felt(page)
                assert sorted(on_felt["faces"]) == sorted(turn["cargo"]), (lang, on_felt, turn)
                assert len(turn["cargo"]) == CARGO
                seen["crews"] += 1
                if lang not in shots:  # each language's phone once, with its crew
                    shots.add(lang)
                    check(page, f"dice6-crew-{lang}")
                    shot(page, f"dice6-crew-{lang}", full=False)
                screen.wait_for_selector("html:not([data-moving])", state="attached")
                on_screen = felt(screen)
                assert on_screen["rows"] == [1, 1] and on_screen["outside"] == 0, on_screen
                if on_screen["faces"]:
                    assert on_screen["slots"] == CARGO and len(on_screen["faces"]) == CARGO
                    assert sorted(on_screen["faces"]) == sorted(turn["cargo"]), on_screen
                    if not seen["screen"]:
                        seen["screen"] = True
                        fits(screen, "dice6-screen")
                        shot(screen, "dice6-screen-en-1280", full=False)
            # The strip's last moment: a turn that ended with a crew shows its six dice.
            strip = page.locator("#strip .strip-item[data-kind=turn_end] [data-testid=die]")
            if strip.count() == 6:
                seen["strip"] += 1
                if f"strip-{lang}" not in shots:
                    shots.add(f"strip-{lang}")
                    shot(page, f"dice6-strip-{lang}", full=False)

        final = play_human(base, code, seats, rng=random.Random(6), on_turn=on_turn)
        assert final["match"]["over"]
        assert seen["crews"] >= 2 and seen["screen"] and seen["strip"], seen
        assert {"en", "de", "nb"} <= shots, shots  # a crew of three cargo dice on each phone
        for lang, page in phones.items():
            # The story is folded under "What happened": opened as a person opens it.
            if not page.locator("#log-box").evaluate("d => d.open"):
                page.locator("#log-box > summary").click()
            story = page.locator("#log li").all_inner_texts()
            crews = [m for line in story for m in FULL_CREW[lang].finditer(line)]
            assert crews, (lang, story[:12])
            for m in crews:
                terms = [int(t) for t in m.group(1).split(" + ")]
                assert len(terms) == CARGO and sum(terms) == int(m.group(2)), (lang, m.group(0))
            assert report(page)["bad"] == [], (lang, report(page)["bad"][:3])
        # The bot stood on its cargo: its reason says the same number twice (the words of the
        # turn it chose on, not of the next one's 0).
        reasons = host.evaluate("window.__reasons")
        stands = [re.search(r"Stand on (\d+).*cargo (\d+) is", r, re.S) for r in reasons]
        stands = [m for m in stands if m]
        assert stands, reasons
        for m in stands:
            assert m.group(1) == m.group(2), reasons
        assert pages.errors == [], pages.errors
    finally:
        pages.close()
