"""The create form as the server's option table makes it, and the choices the newer options
bring to the table, in headless Chromium: every option, choice, label and format of
``/api/options`` is on the form in en, de and nb; options that do not go together are refused
beside the form with the server's own words; a session at the captain's table is played on
phones -- the captain shares sips out in one step and stops early, the table calls another
round and then stops -- to the podium, with no English left on the German and Norwegian
screens.

Run in its own pytest process: ``pytest tests/web -m browser``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from playwright.sync_api import Error as PlaywrightError

from .browsing import (
    CHOICE,
    DESKTOP,
    PHONE,
    SMALL_PHONE,
    Pages,
    check,
    create_table,
    english_left,
    fits,
    home_ready,
    join_table,
    seat_bots,
    shot,
    start_match,
    table_server,
)
from .conftest import LiveServer
from .humanpace import share_out, sharers

pytestmark = pytest.mark.browser

#: The server's dice seed, fixed: the same dice every run, whoever clicks first.
SEED = "0b710e5eed000000000000000000000000000000000000000000000000000015"
LANGS = ("en", "de", "nb")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from table_server(tmp_path_factory, "options", SEED, bot_delay=0.05)


def home(pages: Pages, lang: str, rules: str = "classic", **kw: Any) -> Any:
    return home_ready(pages.open(f"/?lang={lang}&rules={quote(rules)}", lang=lang, **kw))


@pytest.mark.parametrize("lang", LANGS)
def test_the_form_is_the_servers_option_table(pages: Pages, lang: str) -> None:
    table = httpx.get(f"{pages.base}/api/options?lang={lang}").json()
    page = home(pages, lang)
    page.click("#options-box summary")
    for o in table["options"]:
        control = page.locator(f"[data-option={o['name']}]")
        assert control.count() == 1, o["name"]
        label = page.locator(f"label[for=opt-{o['name']}]").inner_text()
        assert o["label"] in label, (o["name"], label)
        if o["help"]:
            assert page.inner_text(f"#opt-{o['name']}-help") == o["help"]
        if o["kind"] == "choice":
            offered = control.locator("option").evaluate_all(
                "els => els.map(e => [e.value, e.textContent])"
            )
            assert offered == [[c["value"], c["label"]] for c in o["choices"]], o["name"]
        if o["kind"] == "format":
            offered = control.locator("option").evaluate_all(
                "els => els.map(e => [e.value, e.textContent])"
            )
            assert offered == [[f["kind"], f["label"]] for f in table["formats"]]
    titles = page.locator("input[name=preset] + span").all_inner_texts()
    assert titles == [p["title"] for p in table["presets"]]
    for size in (PHONE, SMALL_PHONE, DESKTOP):
        page.set_viewport_size(size)
        check(page, f"home {lang} {size['width']}: every option open", axe=size is PHONE)
    shot(page, f"home-options-{lang}")
    assert pages.errors == []


@pytest.mark.parametrize(
    ("pick", "value", "n"),
    [
        ("tie_break", "no_winner", None),
        ("tie_break", "round", None),
        ("rotation", "loser", None),
        ("rotation", "none", None),
        ("format", "wins", "2"),
        ("format", "session", None),
    ],
)
def test_a_choice_names_the_rules_as_the_server_does(
    pages: Pages, pick: str, value: str, n: str | None
) -> None:
    """Choosing an option on the form gives the rule set the server names (in German here)."""
    page = home(pages, "de")
    page.click("#options-box summary")
    page.select_option(f"#opt-{pick}", value)
    if n is not None:
        page.fill(f"#opt-{pick}-n", n)
    rules = f"classic({pick}={value}{':' + n if n else ''})"
    title = httpx.get(f"{pages.base}/api/rules-text", params={"rules": rules, "lang": "de"}).json()[
        "title"
    ]
    page.wait_for_function(
        "t => document.getElementById('rules-title').textContent === t", arg=title
    )
    assert "(" not in title and "=" not in title


@pytest.mark.parametrize("lang", LANGS)
def test_options_that_do_not_go_together_are_refused_in_words(pages: Pages, lang: str) -> None:
    rules = "classic(hand_out=up_to)"
    said = httpx.get(f"{pages.base}/api/rules-text", params={"rules": rules, "lang": lang})
    assert said.status_code == 400
    refusal = said.json()["detail"]
    page = home(pages, lang, "classic")
    page.click("#options-box summary")
    page.select_option("#opt-hand_out", "up_to")
    page.wait_for_function(
        "t => document.getElementById('rules-problem').textContent === t", arg=refusal
    )
    check(page, f"home {lang}: a refusal beside the options")
    page.fill("[data-testid=create-table] [name=name]", "Anna")
    page.click("[data-testid=create-table] button[type=submit]")
    page.wait_for_function(
        "t => document.getElementById('personal').textContent === t", arg=refusal
    )
    assert not re.search(r"/r/", page.url)
    # The option it needs: the refusal goes, the rules get their name.
    page.select_option("#opt-drinking", "captain_hands_out")
    page.wait_for_function("document.getElementById('rules-problem').textContent === ''")
    shot(page, f"home-refusal-fixed-{lang}")
    assert pages.errors == []


def test_a_session_at_the_captains_table(pages: Pages) -> None:
    """Schiff, Kapitän & Crew as a session with the captain handing out up to the die: the
    captain shares sips out with the steppers in one step and stops early; the next round's
    first player calls another round, then stops; the totals decide on the podium.  The bot's
    moves come with its reason."""
    rules = "schiff-kapitaen-crew(drinking=captain_hands_out,hand_out=up_to)"
    host = home(pages, "de", rules, viewport=DESKTOP)
    code = create_table(host)
    guest = pages.open(f"/r/{code}?lang=nb", viewport=SMALL_PHONE, lang="nb", dark=True)
    join_table(guest, "Bo")
    seat_bots(host, 1)
    start_match(host, 3)
    seen: dict[str, Any] = {
        "split": {},
        "stop_sips": False,
        "another": 0,
        "stopped": False,
        "reason": "",
        "sip_advice": "",
        "strings": {
            lang: httpx.get(f"{pages.base}/api/i18n/{lang}").json() for lang in ("de", "nb")
        },
    }
    for _ in range(4000):
        if host.locator("[data-testid=podium]").count():
            break
        acted = False
        for page in (host, guest):
            if page.locator(CHOICE).count() == 0:
                continue
            acted = True
            said = page.locator("[data-testid=bot-reason]")
            if not seen["reason"] and said.count():
                seen["reason"] = said.first.inner_text()
                check(page, "session: a bot's reason beside its move")
                assert english_left(page, seen["strings"][page_lang(page)]) == []
            try:
                act(page, seen)
            except PlaywrightError:
                continue  # the picture moved on under the pointer: look again
            page.wait_for_timeout(60)
        if not acted:
            host.wait_for_timeout(80)
    host.wait_for_selector("[data-testid=podium]")
    assert len(seen["split"]) >= 2, seen  # two players or more took sips in one move
    assert seen["stop_sips"] and seen["another"] >= 1 and seen["stopped"], seen
    assert "Bot 1" in seen["reason"] and seen["sip_advice"], (
        seen
    )  # the bot's name, its move and why
    for page in (host, guest):
        page.wait_for_selector("[data-testid=podium]")
        fits(page, "session: podium")
    check(guest, "session: podium (guest)")
    assert pages.errors == []


def act(page: Any, seen: dict[str, Any]) -> None:
    """One choice at the session table, steering towards what the test wants to see."""
    if page.locator("[data-action=next_round]").count():
        assert page.locator("[data-action=stop]").count() == 1
        if not seen["another"]:
            check(page, "session: another round?")
            assert english_left(page, seen["strings"][page_lang(page)]) == []
            shot(page, f"session-another-round-{page_lang(page)}", full=False)
        done = seen["split"] and seen["stop_sips"] and seen["another"] >= 1
        if done or seen["another"] >= 12:
            page.click("[data-action=stop]")
            seen["stopped"] = True
        else:
            page.click("[data-action=next_round]")
            seen["another"] += 1
        return
    if not seen["split"] and page.locator("#share-go").count():
        # Advice on a sip says in words that it changes nobody's chance: no numbers.
        page.click("#advice")
        page.wait_for_selector("#advice-note")
        seen["sip_advice"] = page.inner_text("#advice-note")
        assert "%" not in page.inner_text("#actionbar")
        check(page, "session: sharing sips out")
        assert english_left(page, seen["strings"][page_lang(page)]) == []
        seats = sharers(page)
        share_out(page, dict.fromkeys(seats, 1))  # a sip for each of them, in one move
        code = page.url.rsplit("/", 1)[1]
        before = httpx.get(f"{page.url.split('/r/')[0]}/api/rooms/{code}").json()
        shot(page, f"session-share-{page_lang(page)}", full=False)
        page.click("#share-go")
        after = httpx.get(f"{page.url.split('/r/')[0]}/api/rooms/{code}").json()
        for _ in range(100):
            if after["version"] > before["version"]:
                break
            page.wait_for_timeout(50)
            after = httpx.get(f"{page.url.split('/r/')[0]}/api/rooms/{code}").json()
        # What a person sees: each of them drank from that one move, the cards say how much.
        drank = {s: after["match"]["sips"][s] - before["match"]["sips"][s] for s in seats}
        assert after["version"] == before["version"] + 1 and all(n >= 1 for n in drank.values())
        label = seen["strings"][page_lang(page)]["Sips"]
        for seat in seats:
            page.wait_for_function(
                "([s, n]) => document.querySelector(`.pcard[data-seat='${s}'] .sub`).textContent"
                ".includes(n)",
                arg=[seat, f"{label} {after['match']['sips'][seat]}"],
            )
        seen["split"] = drank
        return
    stop = page.locator('[data-action="sip:stop"]')
    if seen["split"] and not seen["stop_sips"] and stop.count() and stop.first.is_visible():
        stop.first.click(timeout=2000)
        seen["stop_sips"] = True
        return
    if not page.locator(CHOICE).first.is_visible() and page.locator(".sips-share[open]").count():
        page.click(".sips-share summary")  # folded, the one-sip buttons are back in reach
    page.locator(CHOICE).first.click(timeout=2000)


def page_lang(page: Any) -> str:
    return str(page.evaluate("document.documentElement.lang"))
