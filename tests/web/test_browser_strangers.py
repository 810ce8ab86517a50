"""Issue 35 at a person's pace, as people see it: the cargo roll-off that decides a match on a
paired table screen at 1280x720 and 1920x1080 (every name on its line, no die over a name, the
felt using the screen) and on the compact phones beside it (never blank between the deciding
roll and the podium; the confetti off the ranking); a turn the timer hands to a bot, and a
frozen phone's turn the host hands to one (the player sees one button to take it back, no
Roll that would race the bot); and counts said in the singular in en/de/nb.

Run in its own pytest process: ``pytest tests/web/test_browser_strangers.py -m browser``.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from . import browsing
from .browsing import PHONE, SMALL_PHONE, Pages, check, fits, shot
from .conftest import LiveServer
from .humanpace import play_human, simulate
from .test_browser_human import host_table, join, said, start

pytestmark = pytest.mark.browser

TV = {"width": 1920, "height": 1080}
LAPTOP = {"width": 1280, "height": 720}
#: One round of the English sheet, four people: every score 0, and a cargo roll-off among all
#: four decides the match (checked below with the engine).
RULES = "ship-captain-crew(format=rounds:1)"
SEED = "ef19ca3753e22595375f09cd2d4a9c72cc464d3c65941d4f9c92d90da16eb011"
NAMES = ["Anna", "Bo", "Christoph", "Dagny"]


def test_the_seed_ends_in_a_cargo_rolloff() -> None:
    assert "cargo_roll_off" in simulate(RULES, 4, SEED).phases


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from browsing.table_server(
        tmp_path_factory,
        "strangers",
        SEED,
        bot_delay=0.9,
        SCC_SILENT_GRACE="3",
        SCC_ABSENT_GRACE="600",
    )


def tv(pages: Pages, code: str, size: dict[str, int], lang: str, *, dark: bool = False) -> Any:
    page = pages.open("", viewport=size, lang=lang, dark=dark, calm=False)
    page.add_init_script(OVER_STAGE_JS)
    page.goto(f"{pages.base}/r/{code}/screen")
    page.wait_for_selector("[data-testid=pair-code]")
    return page


#: The contest as a screen draws it: each contender's name box and font size, and what sits at
#: the name's centre (a die over a name once hid it).
CONTEST_JS = """() => [...document.querySelectorAll('#felt .contender')].map((c) => {
  const n = c.querySelector('.name'), r = n.getBoundingClientRect();
  const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {seat: +c.dataset.seat, text: n.textContent, width: r.width, height: r.height,
          line: parseFloat(getComputedStyle(n).lineHeight) || parseFloat(getComputedStyle(n).fontSize) * 1.3,
          clear: !!at && n.contains(at), bottom: c.getBoundingClientRect().bottom,
          inner: innerHeight, scroll: document.documentElement.scrollHeight};
})"""


#: Watches, on every frame for a second after the strip changes (its dice dropping in),
#: whether a die of the strip is drawn over the line above it ("Round N of M", the pot):
#: what a person sees at points along that line.
OVER_STAGE_JS = """
(() => {
  window.__sccOverStage = 0;
  const look = () => {
    const line = document.getElementById('stage');
    if (!line || !line.offsetParent) return;
    const r = line.getBoundingClientRect();
    for (let x = r.left + 4; x < r.right; x += 10) {
      const at = document.elementFromPoint(x, r.top + r.height / 2);
      if (at && at.closest('.strip-dice')) { window.__sccOverStage += 1; return; }
    }
  };
  addEventListener('DOMContentLoaded', () => {
    const strip = document.getElementById('strip');
    if (!strip) return;
    new MutationObserver(() => {
      const end = performance.now() + 1000;
      const frame = () => { look(); if (performance.now() < end) requestAnimationFrame(frame); };
      requestAnimationFrame(frame);
    }).observe(strip, { childList: true, subtree: true });
  });
})();
"""


def contest_reads(screen: Any, name: str) -> list[dict[str, Any]]:
    """Every contender's name on one line, whole, nothing over it, all of it on the screen."""
    seen: list[dict[str, Any]] = screen.evaluate(CONTEST_JS)
    assert seen, f"{name}: no contest on the felt"
    for c in seen:
        assert c["height"] < 1.6 * c["line"], f"{name}: {c['text']} squeezed: {c}"
        assert c["clear"], f"{name}: something covers {c['text']}"
        assert c["bottom"] <= c["inner"], f"{name}: {c['text']} below the screen's edge"
        assert c["text"] in NAMES
    assert seen[0]["scroll"] <= seen[0]["inner"], f"{name}: the screen scrolls"
    return seen


def test_the_cargo_rolloff_reads_right_on_the_screens_and_the_compact_phones(
    server: LiveServer, browser: Any
) -> None:
    rng = random.Random(35)
    with browsing.opened_pages(browser, server.url) as pages:
        host, code = host_table(pages, RULES, SMALL_PHONE, "en")
        bo = join(pages, code, NAMES[1], PHONE, "de", dark=True)
        christoph = join(pages, code, NAMES[2], SMALL_PHONE, "nb")
        dagny = join(pages, code, NAMES[3], PHONE, "en")
        seats = {0: host, 1: bo, 2: christoph, 3: dagny}
        screens = {
            "720": tv(pages, code, LAPTOP, "de", dark=True),
            "1080": tv(pages, code, TV, "nb"),
        }
        for screen in screens.values():
            check(screen, "screen waiting to be paired")
            browsing.pair_screen(host, screen)
        start(host, 4)
        for page in seats.values():  # a paired screen is here: every phone is compact
            page.wait_for_selector("body.compact")
        rolloffs: list[str] = []

        def on_turn(page: Any, seat: int, room: dict[str, Any]) -> None:
            if room["match"]["phase"] != "cargo_roll_off":
                return
            for size, screen in screens.items():
                screen.wait_for_selector("#felt .contest")
                screen.wait_for_selector("html:not([data-moving])", state="attached")
                seen = contest_reads(screen, f"{size}: roll-off")
                # The most watched moment uses the screen: the contest reaches its lower half.
                assert max(c["bottom"] for c in seen) > 0.55 * seen[0]["inner"], seen
                if not rolloffs or rolloffs[-1] != f"{size}:{room['version']}":
                    rolloffs.append(f"{size}:{room['version']}")
                    shot(screen, f"strangers-rolloff-{size}-{room['version']}", full=False)

        samples: list[str] = []
        seen_js = """() => {
          if (document.querySelector('[data-testid=podium]')) return 'podium';
          const dice = [...document.querySelectorAll('#felt [data-testid=die]')].filter((d) => {
            const r = d.getBoundingClientRect();
            return r.width > 0 && r.bottom > 0 && r.top < innerHeight;
          });
          return dice.length ? 'dice' : 'blank';
        }"""

        def on_end() -> None:
            # Between the deciding roll and the podium a compact phone is never blank: it
            # shows the deciding roll on its felt, then the podium.
            samples.append(christoph.evaluate(seen_js))
            for size, screen in screens.items():
                screen.wait_for_selector(".felt.final .contest", state="attached")
                # Read as a person reads it: once the dice lie (in the air they fly in from
                # above the names, as a thrown die does).
                screen.wait_for_selector("html:not([data-moving])", state="attached")
                contest_reads(screen, f"{size}: the deciding roll")
                won = screen.evaluate(
                    "+document.querySelector('#felt.final .contender.won').dataset.seat"
                )
                assert won == said(server.url, code, "en")["match"]["winner"]
                shot(screen, f"strangers-deciding-{size}", full=False)
            shot(christoph, "strangers-deciding-compact-phone", full=False)
            end = time.monotonic() + 6
            while time.monotonic() < end and samples[-1] != "podium":
                christoph.wait_for_timeout(150)
                samples.append(christoph.evaluate(seen_js))

        final = play_human(server.url, code, seats, rng=rng, on_turn=on_turn, on_end=on_end)
        assert len(rolloffs) >= 2, rolloffs  # (both screens, at least one roll each)
        for size, screen in screens.items():  # no strip die ever flew over the round's line
            assert screen.evaluate("window.__sccOverStage") == 0, size
        assert samples and "blank" not in samples, samples
        assert "dice" in samples
        for name, page in {**seats, **screens}.items():
            page.wait_for_selector("[data-testid=podium]")
            page.wait_for_timeout(400)
            # The confetti falls over the podium's top, never over its ranking.
            gap = page.evaluate(
                """() => { const c = document.querySelector('.confetti');
                  const r = document.querySelector('.podium .ranking').getBoundingClientRect();
                  return c ? r.top - c.getBoundingClientRect().bottom : 0; }"""
            )
            assert gap >= -1, f"{name}: confetti over the ranking ({gap} px)"
        for size, screen in screens.items():
            shot(screen, f"strangers-podium-{size}", full=False)
            check(screen, f"{size}: podium")
        assert final["podium"]["winner"] == final["match"]["winner"]


def own_turn(page: Any) -> None:
    """The person plays their turn to its end at a person's pace: the first choice offered,
    a second after it shows, until the phone offers none."""
    while True:
        try:
            page.wait_for_selector("#actions button[data-action]:not([disabled])", timeout=3000)
        except Exception:
            return
        page.wait_for_timeout(1000)
        buttons = page.locator("#actions button[data-action]:not([disabled])")
        if buttons.count():
            buttons.first.click()
        page.wait_for_timeout(500)


def test_a_turn_handed_to_a_bot_leaves_one_button_to_take_it_back(
    server: LiveServer, browser: Any
) -> None:
    """The timer runs out on Bo's German phone, and the host hands Cy's frozen Norwegian
    phone's turn to a bot: neither sees a Roll that would race the bot, each takes the turn
    back with one tap."""
    api = httpx.Client(base_url=server.url, timeout=10)
    made = api.post(
        "/api/rooms", json={"name": "Anna", "settings": ["starter=chosen"], "turn_timer": 8}
    ).json()
    code, tokens = made["code"], [made["token"]]
    for name in ("Bo", "Cy"):
        tokens.append(api.post(f"/api/rooms/{code}/join", json={"name": name}).json()["token"])
    with browsing.opened_pages(browser, server.url) as pages:
        people = {}
        for seat, (lang, size) in enumerate((("en", PHONE), ("de", SMALL_PHONE), ("nb", PHONE))):
            page = pages.open("", viewport=size, lang=lang, dark=seat == 1, calm=False)
            page.add_init_script(f"localStorage.setItem('scc:seat:{code}', '{tokens[seat]}')")
            page.goto(f"{server.url}/r/{code}")
            people[seat] = page
        api.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
        anna, bo, cy = people[0], people[1], people[2]
        anna.wait_for_selector("#actions button[data-action=roll]")
        own_turn(anna)
        # Bo lets his time run out: a bot plays his turn, his phone says so.
        bo.wait_for_selector("#actions button[data-action=roll]")
        bo.wait_for_selector("[data-testid=take-turn]", timeout=20000)
        assert bo.locator("#actions button[data-action]").count() == 0  # no Roll to race the bot
        assert "Deine Zeit ist um" in bo.inner_text("#take-back")
        bo.click("[data-testid=take-turn]")  # at once: the bot plays on meanwhile
        bo.wait_for_selector("#actions button[data-action]:not([disabled])")
        assert bo.locator("[data-testid=take-turn]").count() == 0
        own_turn(bo)  # Bo plays the rest of it himself
        # Cy's phone freezes on his turn (connected, silent): after the silent grace the host
        # may hand it to a bot; Cy takes it back.
        cy.wait_for_selector("#actions button[data-action=roll]")
        anna.wait_for_selector("[data-testid=silent-ask]", timeout=20000)
        shot(anna, "strangers-silent-offer-en", full=False)
        anna.click("[data-testid=silent-ask]")
        cy.wait_for_selector("[data-testid=take-turn]")
        assert "Du var stille lenge" in cy.inner_text("#take-back")
        assert cy.locator("#actions button[data-action]").count() == 0
        shot(cy, "strangers-silent-bot-plays-nb", full=False)
        fits(cy, "silent: a bot plays Cy's turn")
        lines = anna.evaluate("[...document.querySelectorAll('#log li')].map((l) => l.textContent)")
        assert "Anna asks a bot to play Cy's turn." in lines
        cy.click("[data-testid=take-turn]")
        cy.wait_for_selector("#actions button[data-action]:not([disabled])")
        check(cy, "silent: Cy plays his turn again")


#: The singular in each language: the phone's own words for one real die (the roll-off for
#: who starts rolls one die each).
ONE_DIE = {
    "en": ("Roll 1 real die and tap what it shows.", "0 of 1 die"),
    "de": ("Wirf 1 echten Würfel und tippe an, was er zeigt.", "0 von 1 Würfel"),
    "nb": ("Kast 1 ekte terning og trykk på det den viser.", "0 av 1 terning"),
}


def test_counts_are_said_in_the_singular_in_three_languages(
    server: LiveServer, browser: Any
) -> None:
    with browsing.opened_pages(browser, server.url) as pages:
        api = httpx.Client(base_url=server.url, timeout=10)
        made = api.post("/api/rooms", json={"name": "Anna", "dice": "physical"}).json()
        code, tokens = made["code"], [made["token"]]
        for name in ("Bo", "Cy"):
            tokens.append(api.post(f"/api/rooms/{code}/join", json={"name": name}).json()["token"])
        api.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": tokens[0]})
        for seat, lang in enumerate(ONE_DIE):
            page = pages.open("", viewport=SMALL_PHONE, lang=lang, dark=seat == 2)
            page.add_init_script(f"localStorage.setItem('scc:seat:{code}', '{tokens[seat]}')")
            page.goto(f"{server.url}/r/{code}")
            # (The roll-off for who starts: each rolls one die, in turn.)
            entry = page.wait_for_selector("[data-testid=faces-entry]", timeout=30000)
            note, button = ONE_DIE[lang]
            text = entry.inner_text()
            assert note in text and button in text, (lang, text)
            shot(page, f"strangers-one-die-{lang}", full=False)
            check(page, f"one die: {lang}")
            page.locator("[data-testid=faces-entry] .keys button").nth(seat).click()
            page.click("[data-testid=faces-entry] button[data-action=roll]")
            page.wait_for_timeout(500)


def test_joining_with_a_code_is_in_reach_at_the_top_of_a_phone(
    server: LiveServer, browser: Any
) -> None:
    with browsing.opened_pages(browser, server.url) as pages:
        for lang, text in (
            ("en", "Join a table"),
            ("de", "Einem Tisch beitreten"),
            ("nb", "Bli med"),
        ):
            page = browsing.home_ready(pages.open("/", viewport=SMALL_PHONE, lang=lang))
            link = page.locator("#jump-join a")
            box = link.bounding_box()
            assert box and box["y"] + box["height"] <= SMALL_PHONE["height"], (lang, box)
            assert text in link.inner_text()
            link.click()
            page.wait_for_function("document.activeElement && document.activeElement.id === 'code'")
            page.wait_for_timeout(800)  # (the smooth scroll)
            code = page.locator("#code").bounding_box()
            assert code and 0 <= code["y"] and code["y"] + code["height"] <= SMALL_PHONE["height"]
            shot(page, f"strangers-join-at-the-top-{lang}", full=False)
            check(page, f"home: join at the top ({lang})")


def test_a_bots_stand_is_worded_with_the_score_it_stood_on(
    server: LiveServer, browser: Any
) -> None:
    """Anna plays a medium bot on her phone at her pace: each time the bot stands, the line
    beside its reason says the score it stood on, the cargo its reason names (it once said
    "Stand on 0 -- cargo 9 is 7 or more" in every match with bots)."""
    api = httpx.Client(base_url=server.url, timeout=10)
    made = api.post(
        "/api/rooms", json={"name": "Anna", "settings": ["starter=chosen", "format=rounds:4"]}
    ).json()
    code, token = made["code"], made["token"]
    api.post(f"/api/rooms/{code}/bots", json={"level": "medium"}, headers={"X-Seat-Token": token})
    with browsing.opened_pages(browser, server.url) as pages:
        anna = pages.open("", viewport=PHONE, lang="en", calm=False)
        anna.add_init_script(f"localStorage.setItem('scc:seat:{code}', '{token}')")
        anna.goto(f"{server.url}/r/{code}")
        api.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": token})
        said: set[str] = set()
        deadline = time.monotonic() + 240
        while not anna.locator("[data-testid=podium]").count() and time.monotonic() < deadline:
            reason = anna.locator("[data-testid=bot-reason]")
            if reason.count():
                text = " ".join(reason.first.inner_text().split())
                if "Stand on" in text and text not in said:
                    said.add(text)
                    shot(anna, f"strangers-bot-stands-{len(said)}", full=False)
            mine = anna.locator("#actions button[data-action]:not([disabled])")
            if mine.count():
                anna.wait_for_timeout(1200)  # (a person's pace)
                if mine.count():
                    mine.first.click()
            anna.wait_for_timeout(150)
        assert said, "the bot never stood"
        for text in said:
            stood = re.search(r"Stand on (\d+)", text)
            cargo = re.search(r"cargo (\d+)|this one is (\d+)", text)
            assert stood and cargo, text
            assert stood.group(1) == next(g for g in cargo.groups() if g), text
