"""The table at a person's pace, on phones: whole matches where each choice comes 1.0-2.5 s
after it reached the phone and the bots take their normal pause, with every phone checked after
every picture (the acting player's dice and choices never covered, see :mod:`.humanpace`), each
phone in its own language (German and Norwegian phones that open an English host's link get
their own), the roll that decided the match held on the felt before the podium, and the podium
with every player's final total.

Run in its own pytest process: ``pytest tests/web -m browser``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from shipcaptaincrew.i18n import translator
from shipcaptaincrew.messages import Message

from . import browsing
from .browsing import CHOICE, PHONE, SMALL_PHONE, Pages, check, english_left, fits, shot
from .conftest import LiveServer
from .humanpace import act, play_human, report, simulate, watch

pytestmark = pytest.mark.browser

#: Placed where the final roll is drawn and the podium comes (see ``scc:drawn``).
FINAL_JS = """
(() => {
  const seen = window.__sccFinal = { final: null, podium: null, dice: 0 };
  document.addEventListener('scc:drawn', (e) => {
    if (e.detail.final && seen.final === null) {
      seen.final = performance.now();
      seen.dice = document.querySelectorAll('#felt.final [data-testid=die]').length;
      seen.podiumThen = document.querySelectorAll('[data-testid=podium]').length;
    }
    if (!e.detail.final && document.querySelector('[data-testid=podium]') && seen.podium === null)
      seen.podium = performance.now();
  });
})();
"""


def server(tmp_path_factory: pytest.TempPathFactory, seed: str, **env: str) -> Iterator[LiveServer]:
    """A table's server at a person's pace: bots take 0.9 s a move."""
    return browsing.table_server(tmp_path_factory, "human", seed, bot_delay=0.9, **env)


def strings(base: str, lang: str) -> dict[str, str]:
    return dict(httpx.get(f"{base}/api/i18n/{lang}").json())


def said(base: str, code: str, lang: str) -> dict[str, Any]:
    """The room's picture with its texts in ``lang`` (what the server says to that phone)."""
    return dict(httpx.get(f"{base}/api/rooms/{code}", params={"lang": lang}).json())


def phone(pages: Pages, path: str, size: dict[str, int], locale: str, *, dark: bool = False) -> Any:
    """A phone in a language of its own: its browser says so (no ?lang= in the link)."""
    page = pages.open("", viewport=size, lang=locale, dark=dark, calm=False)
    watch(page)
    page.add_init_script(FINAL_JS)
    page.goto(pages.base + path)
    return page


def host_table(pages: Pages, rules: str, size: dict[str, int], lang: str = "en") -> tuple[Any, str]:
    host = browsing.home_ready(phone(pages, f"/?lang={lang}&rules={rules}", size, lang))
    return host, browsing.create_table(host)


def join(pages: Pages, code: str, name: str, size: dict[str, int], lang: str, **kw: Any) -> Any:
    page = phone(pages, f"/r/{code}", size, lang, **kw)
    page.wait_for_selector("[data-testid=join-table]")
    browsing.join_table(page, name)
    return page


def start(host: Any, players: int, bots: int = 0) -> None:
    browsing.seat_bots(host, bots)
    host.wait_for_function(f"document.querySelectorAll('#seats li').length === {players}")
    # Measured in the page in one step: the lobby is drawn anew with each picture (someone's
    # presence), and a locator's box of a button replaced meanwhile came back None.
    box = host.evaluate(
        "() => { const r = document.querySelector('[data-testid=start]').getBoundingClientRect();"
        " return r.height ? {y: r.y, height: r.height} : null; }"
    )
    size = host.viewport_size
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (
        "the host's Start is not on the screen"
    )
    browsing.start_match(host)


def no_cover(pages: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Every phone's check found nothing covering the dice or the choices; returns, per phone,
    (pictures drawn, pictures checked)."""
    out = {}
    for name, page in pages.items():
        seen = report(page)
        assert seen["bad"] == [], f"{name}: covered {seen['bad'][:5]}"
        assert seen["checked"] >= 10, f"{name}: only {seen['checked']} pictures checked"
        out[name] = (seen["drawn"], seen["checked"])
    return out


def final_then_podium(pages: dict[str, Any], room: dict[str, Any], base: str, code: str) -> None:
    """On every phone: the deciding roll on the felt with no podium yet, for 1.5 s at least,
    then the podium listing every player with the final total (in the phone's language)."""
    totals = room["match"]["totals"]
    for name, page in pages.items():
        page.wait_for_selector("[data-testid=podium]")
        seen = page.evaluate("window.__sccFinal")
        assert seen["final"] is not None and seen["dice"] > 0 and seen["podiumThen"] == 0, name
        assert seen["podium"] - seen["final"] >= 1500, (name, seen)
        shown = {
            int(el.get_attribute("data-seat")): int(el.inner_text())
            for el in page.locator("[data-testid=final-score]").all()
        }
        assert shown == dict(enumerate(totals)), (name, shown, totals)
        lang = page.evaluate("document.documentElement.lang")
        assert page.inner_text("#podium-why") == said(base, code, lang)["podium"]["why"], name


def last_roll(pages: dict[str, Any], tag: str) -> Callable[[], None]:
    """Screenshots of the roll that decided the match, on the felt before the podium."""

    def take() -> None:
        for page in pages.values():
            page.wait_for_selector("#felt.final [data-testid=die]")
            page.wait_for_selector("html:not([data-moving])")
            assert page.locator("[data-testid=podium]").count() == 0
            fits(page, f"{tag}: the last roll")
            shot(
                page,
                f"human-{tag}-last-roll-{page.evaluate('document.documentElement.lang')}",
                full=False,
            )

    return take


def in_language(page: Any, base: str, code: str, lang: str, where: str) -> None:
    """Every word the page shows is in its language: no English message id left, and the
    room's shared words (the rules' name, bot levels) as the server says them in it."""
    assert page.evaluate("document.documentElement.lang") == lang, where
    if lang != "en":
        assert english_left(page, strings(base, lang)) == [], f"{where}: English left"
    there = said(base, code, lang)
    assert page.inner_text("#rules-btn").strip() == there["title"], where
    for p in there["players"]:
        if p["level_label"] and page.locator(f".pcard[data-seat='{p['seat']}']").count():
            assert p["level_label"] in page.inner_text(f".pcard[data-seat='{p['seat']}']"), where


# -- the tables ---------------------------------------------------------------------------------


CLASSIC_SEED = "c1a551c0000000000000000000000000000000000000000000000000000000a1"


@pytest.fixture
def classic_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from server(tmp_path_factory, CLASSIC_SEED)


def test_classic_with_three_phones_in_three_languages(
    classic_server: LiveServer, browser: Any
) -> None:
    with browsing.opened_pages(browser, classic_server.url) as pages:
        base = classic_server.url
        host, code = host_table(pages, "classic", PHONE)
        de = join(pages, code, "Bo", SMALL_PHONE, "de")
        nb = join(pages, code, "Cy", PHONE, "nb", dark=True)
        for page, lang in ((de, "de"), (nb, "nb")):
            in_language(page, base, code, lang, f"lobby {lang}")
        start(host, 4, bots=1)
        phones = {"en 390": host, "de 360": de, "nb 390": nb}
        seats = {0: host, 1: de, 2: nb}
        shots: dict[str, bool] = {}

        def on_turn(page: Any, seat: int, room: dict[str, Any]) -> None:
            lang = page.evaluate("document.documentElement.lang")
            if lang not in shots and room["match"]["turn"] and room["match"]["turn"]["rolls_used"]:
                shots[lang] = True
                page.wait_for_selector("html:not([data-moving])")
                fits(page, f"classic {lang}: own roll")
                # Its own first roll on the felt while the turn before shows in the strip.
                assert page.locator("#strip .strip-item").count() == 1
                # The dice lie in one row (a 360 px phone too), the slots' labels readable.
                tops = page.locator("#tray .die").evaluate_all(
                    "els => els.map((d) => Math.round(d.getBoundingClientRect().top))"
                )
                assert len(set(tops)) == 1, tops
                label = page.locator(".slot-label").first.evaluate(
                    "el => parseFloat(getComputedStyle(el).fontSize)"
                )
                assert label >= 12, label
                shot(page, f"human-classic-own-roll-{lang}", full=False)
                in_language(page, base, code, lang, f"classic {lang}: own roll")

        final = play_human(
            base,
            code,
            seats,
            rng=random.Random(1),
            on_turn=on_turn,
            on_end=last_roll(phones, "classic"),
        )
        final_then_podium(phones, final, base, code)
        for name, page in phones.items():
            lang = page.evaluate("document.documentElement.lang")
            in_language(page, base, code, lang, f"podium {name}")
            check(page, f"podium {name}")
            shot(page, f"human-classic-podium-{lang}")
        print(f"\nclassic at human pace: pictures drawn/checked {no_cover(phones)}")


#: ship-captain-crew over 5 rounds, three people each playing :func:`humanpace.choose`: a round
#: ends level and goes to the cargo dice (see ``test_the_seeds_give_the_tables``).
POT_SEED = "95547f538e498a07e4cfebbb885aed2cf590b2add2815e392aef2b46491bd134"
POT_RULES = "ship-captain-crew(format=rounds:5)"


@pytest.fixture
def pot_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from server(tmp_path_factory, POT_SEED)


def test_the_pot_over_five_rounds_with_a_cargo_tie_break(
    pot_server: LiveServer, browser: Any
) -> None:
    with browsing.opened_pages(browser, pot_server.url) as pages:
        base = pot_server.url
        host, code = host_table(pages, POT_RULES, SMALL_PHONE)
        de = join(pages, code, "Bo", PHONE, "de", dark=True)
        nb = join(pages, code, "Cy", SMALL_PHONE, "nb")
        start(host, 3)
        phones = {"en 360": host, "de 390": de, "nb 360": nb}
        seen = {"tie": False, "round1": False}

        def on_turn(page: Any, seat: int, room: dict[str, Any]) -> None:
            match = room["match"]
            if not seen["round1"] and match["phase"] == "turn":
                # From the first round the cards say what decides the match: points, not chips.
                seen["round1"] = True
                for p in phones.values():
                    lang = p.evaluate("document.documentElement.lang")
                    there = said(base, code, lang)["decides"]
                    assert p.inner_text("#decides") == f"{there['text']} {there['note']}"
                    assert p.locator(".pcard .decides").count() == 3
            if match["phase"] == "cargo_roll_off" and not seen["tie"]:
                seen["tie"] = True
                tie = said(base, code, "en")["tie"]
                for name, p in phones.items():
                    lang = p.evaluate("document.documentElement.lang")
                    p.wait_for_selector("[data-testid=tie]")
                    p.wait_for_selector("html:not([data-moving])")
                    assert (
                        p.inner_text("[data-testid=tie]") == said(base, code, lang)["tie"]["text"]
                    )
                    # Who is tied, and nothing of last round's card left open under it.
                    assert p.locator("[data-testid=round-result]").count() == 0, name
                    assert p.locator("#felt .contender").count() == len(tie["seats"]), name
                    fits(p, f"tie-break {name}")
                    shot(p, f"human-tie-break-{lang}", full=False)

        final = play_human(
            base,
            code,
            {0: host, 1: de, 2: nb},
            rng=random.Random(2),
            on_turn=on_turn,
            on_end=last_roll(phones, "pot"),
        )
        assert seen["tie"] and seen["round1"]
        final_then_podium(phones, final, base, code)
        for name, page in phones.items():
            # Chips beside every total on the podium, as the pot's stakes have them.
            chips = [
                int(re.sub(r"\D", "", t))
                for t in page.locator(".ranking .stats .chips b").all_inner_texts()
            ]
            ranking = final["podium"]["ranking"]
            assert chips == [r["chips"] for r in ranking], name
            shot(page, f"human-pot-podium-{page.evaluate('document.documentElement.lang')}")
        print(f"\npot over 5 rounds at human pace: pictures drawn/checked {no_cover(phones)}")


def test_the_seeds_give_the_tables() -> None:
    """The seeds above give what their tests need when everyone plays the people's policy."""
    assert "cargo_roll_off" in simulate(POT_RULES, 3, POT_SEED).phases
    assert simulate(CAPTAIN_EXACT, 3, CAPTAIN_EXACT_SEED).splits == ["sip:0x3,1x3"]
    assert simulate(CAPTAIN_UP_TO, 3, CAPTAIN_UP_TO_SEED).splits == ["sip:1x2,2x2"]


#: One round at the captain's table, three people: the round's captain shares the die's sips
#: out in one move (exactly: all six; up to: four of five, then stops).
CAPTAIN_EXACT = "schiff-kapitaen-crew(drinking=captain_hands_out,format=rounds:1)"
CAPTAIN_EXACT_SEED = "1c6e997bf3ce0289be4a1e7d7c7d2f3b06e2177aacbeaab49b5d715aff607323"
CAPTAIN_UP_TO = "schiff-kapitaen-crew(drinking=captain_hands_out,hand_out=up_to,format=rounds:1)"
CAPTAIN_UP_TO_SEED = "d760a992b95602f6bf1dd4eed46f683bfd3ef2843e7e5154d1e1196bae8b530e"


@pytest.fixture
def captain_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, LiveServer]]:
    exact = server(tmp_path_factory, CAPTAIN_EXACT_SEED)
    up_to = server(tmp_path_factory, CAPTAIN_UP_TO_SEED)
    yield {"exact": next(exact), "up_to": next(up_to)}
    for gen in (exact, up_to):
        next(gen, None)


def refuse_first_split(page: Any, armed: dict[str, bool]) -> None:
    """Between this phone and the server: the first split the phone sends asks for nine sips
    for its first player (more than any die gives), so the server refuses it."""

    def handler(ws: Any) -> None:
        server = ws.connect_to_server()

        def up(message: str | bytes) -> None:
            if armed["on"] and isinstance(message, str) and re.search(r'"sip:\d+x', message):
                armed["on"] = False
                seat = re.search(r'"sip:(\d+)x', message)
                assert seat
                message = re.sub(r'"sip:[^"]*"', f'"sip:{seat.group(1)}x9"', message)
            server.send(message)

        ws.on_message(up)

    page.route_web_socket(re.compile(r".*/ws/rooms/.*"), handler)


@pytest.mark.parametrize("amount", ["exact", "up_to"])
def test_the_captain_shares_the_sips_out_at_once(
    captain_servers: dict[str, LiveServer], browser: Any, amount: str
) -> None:
    srv = captain_servers[amount]
    base = srv.url
    rules = CAPTAIN_EXACT if amount == "exact" else CAPTAIN_UP_TO
    armed = {"on": True}
    with browsing.opened_pages(browser, base) as pages:
        host, code = host_table(pages, rules, PHONE, "de")
        nb = join(pages, code, "Bo", SMALL_PHONE, "nb", dark=amount == "up_to")
        en = join(pages, code, "Cy", SMALL_PHONE, "en")
        phones = {"de 390": host, "nb 360": nb, "en 360": en}
        for page in phones.values():
            refuse_first_split(page, armed)
            page.reload()
            page.wait_for_selector("#lobby:not([hidden]), #play:not([hidden])")
        start(host, 3)
        splits: list[tuple[str, dict[int, int], list[int]]] = []

        def on_choice(page: Any, seat: int, room: dict[str, Any], choice: Any) -> None:
            if not isinstance(choice, dict):
                return
            lang = page.evaluate("document.documentElement.lang")
            if armed["on"]:
                # The server refuses a split beside the steppers, in words of the phone's
                # language (never in notation); the captain shares them out again.
                act(page, choice)
                page.wait_for_selector("#action-note")
                note = page.inner_text("#action-note")
                assert "9" in note and "sip:" not in note and "x9" not in note, note
                left = room["match"]["hand_out_left"]
                reason = Message(
                    "that hands out {given} sips, and only {left} is left to hand out",
                    {"given": 9, "left": left},
                    plural="that hands out {given} sips, and only {left} are left to hand out",
                    count="left",
                ).render(translator(lang, "scc"))
                assert note == translator(lang, "web")("That is not allowed now: {reason}").format(
                    reason=reason
                ), note
                fits(page, f"captain {amount}: a split refused")
                shot(page, f"human-split-refused-{lang}", full=False)
            if not page.locator(".sips-share[open]").count():
                page.click(".sips-share summary")
            shot(page, f"human-split-{amount}-{lang}", full=False)
            splits.append((lang, choice, list(room["match"]["sips"])))

        final = play_human(
            base, code, {0: host, 1: nb, 2: en}, rng=random.Random(3), on_choice=on_choice
        )
        assert splits and not armed["on"], "no split was shared out"
        # What a person sees: the sips each player drank, on every podium, as the server
        # counted them from the splits (and under "up to", the stop).
        sips = final["match"]["sips"]
        assert sum(sum(c.values()) for _, c, _ in splits) <= sum(sips)
        for name, page in phones.items():
            page.wait_for_selector("[data-testid=podium]")
            shown = {
                int(li.get_attribute("data-seat")): int(
                    re.sub(r"\D", "", li.locator(".sips b").inner_text())
                )
                for li in page.locator(".ranking li").all()
            }
            assert shown == dict(enumerate(sips)), (name, shown, sips)
        print(
            f"\ncaptain ({amount}) at human pace: splits {splits}; pictures drawn/checked {no_cover(phones)}"
        )


TOURNAMENT_SEED = "70a12a3e0000000000000000000000000000000000000000000000000000b001"


@pytest.fixture
def tournament_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # Quick bots: three of them play a full share of a six-seat tournament.
    yield from browsing.table_server(tmp_path_factory, "tournament", TOURNAMENT_SEED, bot_delay=0.4)


def test_a_six_seat_tournament(tournament_server: LiveServer, browser: Any) -> None:
    base = tournament_server.url
    with browsing.opened_pages(browser, base) as pages:
        host, code = host_table(pages, "classic(format=tournament)", SMALL_PHONE, "nb")
        de = join(pages, code, "Bo", PHONE, "de", dark=True)
        en = join(pages, code, "Cy", SMALL_PHONE, "en", dark=True)
        start(host, 6, bots=3)
        phones = {"nb 360": host, "de 390": de, "en 360": en}
        final = play_human(base, code, {0: host, 1: de, 2: en}, rng=random.Random(4))
        assert final["match"]["results"][-1]["stage"] == "final"
        final_then_podium(phones, final, base, code)
        for name, page in phones.items():
            check(page, f"tournament podium {name}")
            shot(page, f"human-tournament-podium-{page.evaluate('document.documentElement.lang')}")
        print(f"\nsix-seat tournament at human pace: pictures drawn/checked {no_cover(phones)}")


def tap(page: Any, action: str | None = None) -> None:
    """A quick tap on a choice (here the pace is not what is tested)."""
    sel = CHOICE if action is None else f"{CHOICE}[data-action='{action}']"
    page.locator(sel).first.click()


def turn_of(page: Any, base: str, code: str, seat: int) -> None:
    """``page`` plays seat ``seat``'s whole turn with quick taps (the people's policy)."""
    from .humanpace import choose, picture

    while True:
        room = picture(base, code)
        if room["match"]["over"] or room["match"]["actor"] != seat:
            return
        page.wait_for_selector(CHOICE)
        act(page, choose(room["match"], room["options"]))
        until_moved(base, code, room["version"])


def until_moved(base: str, code: str, version: int) -> dict[str, Any]:
    from .humanpace import _wait_for_new, picture

    _wait_for_new(base, code, version)
    return picture(base, code)


@pytest.fixture
def away_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, LiveServer]]:
    short = server(tmp_path_factory, CLASSIC_SEED, SCC_ABSENT_GRACE="3")
    long = server(tmp_path_factory, CLASSIC_SEED, SCC_ABSENT_GRACE="600")
    yield {"short": next(short), "long": next(long)}
    for gen in (short, long):
        next(gen, None)


def test_a_phone_closed_mid_turn_and_the_host_s_buttons(
    away_servers: dict[str, LiveServer], browser: Any
) -> None:
    """Bo closes his page mid-turn: within the grace a bot plays his turn, every phone says so,
    and Bo's link gives him the seat back for his next turn.  At the other table the host lets
    a bot play for Bo at once, then has him leave after the round."""
    srv = away_servers["short"]
    base = srv.url
    with browsing.opened_pages(browser, base) as pages:
        host, code = host_table(pages, "classic(format=rounds:3,starter=chosen)", PHONE)
        bo = join(pages, code, "Bo", SMALL_PHONE, "de")
        cy = join(pages, code, "Cy", PHONE, "nb")
        start(host, 3)
        turn_of(host, base, code, 0)
        bo.wait_for_selector("[data-testid=your-turn]")
        room = picture_of(base, code)
        tap(bo, "roll")
        until_moved(base, code, room["version"])
        his = bo.context  # (his phone keeps its seat token)
        bo.close()  # his page closes mid-turn
        for name, page in (("en 390", host), ("nb 390", cy)):
            # In the banner while the bot plays, in the strip once it is done: every page.
            page.wait_for_selector("[data-testid=played-for]")
            lang = page.evaluate("document.documentElement.lang")
            expected = translator(lang, "web")("A bot plays for {name}").format(name="Bo")
            said_there = page.locator("[data-testid=played-for]").all_inner_texts()
            assert any(expected in text for text in said_there), (name, said_there)
            fits(page, f"played for ({name})")
            page.wait_for_selector("html:not([data-moving])")
            # (the strip keeps saying it once Bo's turn is over)
            assert page.locator("[data-testid=played-for]").count() >= 1, name
            shot(page, f"human-played-for-{lang}", full=False)
        cy.wait_for_selector("[data-testid=your-turn]")
        turn_of(cy, base, code, 2)
        # Bo opens his link again: the seat is his (his name, "you"); his next turn is his own.
        bo = watch(his.new_page())
        bo.goto(f"{base}/r/{code}")
        bo.wait_for_selector(".pcard[data-seat='1'] .name .muted")
        mine = False
        for _ in range(40):
            room = picture_of(base, code)
            if room["match"]["over"]:
                break
            seat = room["match"]["actor"]
            if seat == 1 and not mine:
                bo.wait_for_selector("[data-testid=your-turn]")
                mine = True
            turn_of({0: host, 1: bo, 2: cy}[seat], base, code, seat)
        assert mine, "Bo's turn never came back to him"
        for page in (host, bo, cy):
            page.wait_for_selector("[data-testid=podium]")
        log = [e for e in srv_events(base, code) if e.get("seat") == 1]
        assert log[-1].get("by") is None and any(e.get("by") == "away" for e in log)
    # The other table: the host's buttons for someone away.
    srv = away_servers["long"]
    base = srv.url
    with browsing.opened_pages(browser, base) as pages:
        host, code = host_table(pages, "classic(format=rounds:2,starter=chosen)", SMALL_PHONE)
        bo = join(pages, code, "Bo", PHONE, "de")
        cy = join(pages, code, "Cy", SMALL_PHONE, "nb", dark=True)
        start(host, 3)
        bo.close()
        turn_of(host, base, code, 0)
        # Bo's turn: the host may let a bot play it at once, right in the banner (and in the
        # list of who is away, under the felt).
        host.wait_for_selector("#banner [data-testid=play-for][data-seat='1']")
        assert host.locator("#away [data-testid=play-for][data-seat='1']").count() == 1
        assert cy.locator("[data-testid=play-for]").count() == 0  # the host is here: theirs
        check(host, "someone away: the host's buttons")
        shot(host, "human-away-buttons-en", full=False)
        host.click("#banner [data-testid=play-for][data-seat='1']")
        cy.wait_for_selector("#banner [data-testid=played-for]")
        cy.wait_for_selector("[data-testid=your-turn]")  # Bo's turn was played: Cy's now
        host.click("[data-testid=remove-after-round][data-seat='1']")
        for page in (host, cy):
            page.wait_for_selector(".pcard[data-seat='1'] .tag.off >> nth=1")
        turn_of(cy, base, code, 2)
        for _ in range(40):
            room = picture_of(base, code)
            if room["match"]["over"]:
                break
            seat = room["match"]["actor"]
            turn_of({0: host, 2: cy}[seat], base, code, seat)
        host.wait_for_selector("[data-testid=podium]")
        bo_line = host.locator(".ranking li[data-seat='1']")
        assert "left the match" in bo_line.inner_text()
        room = picture_of(base, code)
        assert 1 not in room["match"]["results"][-1]["seats"]


def picture_of(base: str, code: str) -> dict[str, Any]:
    from .humanpace import picture

    return picture(base, code)


def srv_events(base: str, code: str) -> list[dict[str, Any]]:
    from shipcaptaincrew.notation import MatchLog

    return MatchLog.from_jsonl(httpx.get(f"{base}/api/matches/{code}/log").text).events
