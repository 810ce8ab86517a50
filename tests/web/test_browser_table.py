"""A table of friends on phones, in headless Chromium: each of four rule sets played from the
home page to the podium by a host on a desktop, a guest on a phone and a spectator on a phone,
each in another language; every screen fits the screen and passes axe-core; the turn banner
is only on the acting player's page; the round's result card and the podium appear; the
classic table plays again with the same seats.  Screenshots of each stage go to artifacts/.

Run in its own pytest process: ``pytest tests/web -m browser``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from .browsing import (
    CHOICE,
    DESKTOP,
    PHONE,
    SMALL_PHONE,
    Pages,
    check,
    create_table,
    fits,
    home_ready,
    join_table,
    play,
    seat_bots,
    shot,
    start_match,
    table_server,
)
from .conftest import LiveServer

pytestmark = pytest.mark.browser

#: The server's dice seed, fixed: every table here rolls the same dice every run.
SEED = "7ab1e5eed0000000000000000000000000000000000000000000000000000014"


@dataclass(frozen=True)
class Table:
    """One rule set as a test plays it: who sees it in which language and size."""

    name: str
    rules: str
    langs: tuple[str, str, str]  # host, guest, spectator
    bots: int
    rounds: bool  # more than one round: a result card shows before the podium
    dark: bool = False
    small: bool = False  # the guest's phone is a 360 px one
    guest: str = "Bo"

    @property
    def guest_view(self) -> dict[str, int]:
        return SMALL_PHONE if self.small else PHONE


TABLES = [
    Table("classic", "classic", ("en", "de", "nb"), 1, rounds=False),
    Table(
        "pot5",
        "ship-captain-crew(format=rounds:5)",
        ("de", "nb", "en"),
        1,
        rounds=True,
        dark=True,
    ),
    Table(
        "captain3",
        "schiff-kapitaen-crew(half_cargo=true,wild_captain=true,"
        "drinking=captain_hands_out,format=rounds:3)",
        ("nb", "en", "de"),
        1,
        rounds=True,
        small=True,
        guest="Bartholomew-Kristoffersen-Lie-Jr",  # the longest name there may be, no spaces
    ),
    Table(
        "tournament", "classic(format=tournament)", ("en", "nb", "de"), 2, rounds=True, dark=True
    ),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from table_server(tmp_path_factory, "table", SEED, bot_delay=0.05)


def open_table(pages: Pages, table: Table) -> tuple[Any, Any, str]:
    """The host creates the table from the home page (rules from ?rules=), the guest joins."""
    host_lang, guest_lang, _ = table.langs
    host = home_ready(
        pages.open(f"/?lang={host_lang}&rules={table.rules}", viewport=DESKTOP, lang=host_lang)
    )
    check(host, f"{table.name}: home")
    code = create_table(host)
    host.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
    host.wait_for_function("document.querySelector('.share img').complete")
    check(host, f"{table.name}: lobby (host)")
    guest = pages.open(
        f"/r/{code}?lang={guest_lang}", viewport=table.guest_view, lang=guest_lang, dark=table.dark
    )
    guest.wait_for_selector("[data-testid=join-table]")
    # Join first: the name field is on screen at once, before anything else.
    box = guest.locator("[data-testid=join-table] [name=name]").bounding_box()
    assert box and box["y"] + box["height"] <= table.guest_view["height"], (
        "the name field is below the fold"
    )
    check(guest, f"{table.name}: join first")
    shot(guest, f"{table.name}-join-{guest_lang}")
    join_table(guest, table.guest)
    fits(guest, f"{table.name}: waiting")
    seat_bots(host, table.bots)
    shot(host, f"{table.name}-lobby-host-{host_lang}", full=False)
    start_match(host)
    return host, guest, code


def play_to_podium(
    pages: Pages,
    table: Table,
    host: Any,
    guest: Any,
    code: str,
    tag: str = "",
    others: tuple[Any, ...] = (),
) -> Any:
    """Everyone seated (host, guest and ``others``) plays the first choice offered until the
    podium, while a new spectator watches; checks each stage on the way."""
    _, guest_lang, watcher_lang = table.langs
    # The spectator on the smallest phone: with the guests' and hosts' languages every
    # language is seen playing at 360 px too.
    watcher = pages.open(
        f"/r/{code}?lang={watcher_lang}",
        viewport=SMALL_PHONE,
        lang=watcher_lang,
        dark=not table.dark,
    )
    watcher.wait_for_selector("#watching")
    seen = {"turn": False, "result": False}

    def on_click(page: Any, n: int) -> None:
        fits(page, f"{table.name}{tag}: click {n}")
        fits(watcher, f"{table.name}{tag}: click {n} (spectator, 360 px)")
        if not seen["turn"] and page is guest:
            seen["turn"] = True
            check(page, f"{table.name}{tag}: the guest's turn")
        if (
            table.rounds
            and not seen["result"]
            and guest.locator("[data-testid=round-result]").count()
        ):
            seen["result"] = True
            guest.wait_for_timeout(300)
            check(guest, f"{table.name}{tag}: round result")
            shot(guest, f"{table.name}{tag}-result-{guest_lang}")

    def pick(page: Any) -> Any:
        # The acting player's page, and only it, has the banner.
        assert page.locator("[data-testid=your-turn]").count() == 1
        assert watcher.locator("[data-testid=your-turn]").count() == 0
        if not seen["turn"] and page is guest:
            shot(guest, f"{table.name}{tag}-turn-{guest_lang}", full=False)
            shot(watcher, f"{table.name}{tag}-watch-{watcher_lang}", full=False)
        return page.locator(CHOICE).first

    play(
        [host, guest, *others],
        lambda: host.locator("[data-testid=podium]").count() > 0,
        on_click=on_click,
        pick=pick,
    )
    for page in (host, guest, watcher, *others):
        page.wait_for_selector("[data-testid=podium]")
    assert seen["turn"]
    assert seen["result"] or not table.rounds
    assert host.locator("#podium-why").inner_text().strip()
    check(guest, f"{table.name}{tag}: podium (guest)")
    check(host, f"{table.name}{tag}: podium (host)", axe=False)
    fits(watcher, f"{table.name}{tag}: podium (spectator)")
    shot(guest, f"{table.name}{tag}-podium-{guest_lang}")
    shot(watcher, f"{table.name}{tag}-podium-{watcher_lang}")
    return watcher


@pytest.mark.parametrize("table", TABLES, ids=[t.name for t in TABLES])
def test_a_match_to_the_podium(pages: Pages, table: Table) -> None:
    host, guest, code = open_table(pages, table)
    watcher = play_to_podium(pages, table, host, guest, code)
    if table.name == "classic":
        # The spectator takes a seat for the next match; then play again: each person
        # confirms, the bots confirm themselves, and the spectator follows with a seat.
        watcher.fill("[data-testid=join-table] [name=name]", "Cy")
        watcher.click("[data-testid=join-table] button[type=submit]")
        watcher.wait_for_selector("#toast:not(:empty)")
        guest.click("[data-testid=rematch]")
        guest.wait_for_selector("#rematch-status")
        host.click("[data-testid=rematch]")
        for page in (host, guest, watcher):
            page.wait_for_url(re.compile(rf"/r/(?!{code})[A-Z0-9]{{6}}$"))
        again = host.url.rsplit("/", 1)[1]
        assert guest.url.endswith(again) and watcher.url.endswith(again)
        for page in (host, guest, watcher):
            page.wait_for_selector("#play:not([hidden])")
        assert watcher.locator("#watching").count() == 0, "the spectator has a seat now"
        play_to_podium(pages, table, host, guest, again, tag="-again", others=(watcher,))
    assert pages.errors == []


def test_real_dice_typed_in(pages: Pages) -> None:
    """A pub table with a cup: each roll's faces are tapped in on the roller's phone only (the
    host's for the bot), exactly as many as the roll takes; the fair-dice panel and the verify
    page say the dice were physical."""
    seen_js = (
        "document.addEventListener('scc:drawn', (e) => {"
        " window.__v = e.detail.version; window.__draws = (window.__draws || 0) + 1; })"
    )
    host = pages.open("", viewport=PHONE)
    host.add_init_script(seen_js)
    host.goto(pages.base + "/?lang=en&rules=classic")
    host.wait_for_selector("input[name=dice]", state="attached")
    code = create_table(host, physical=True)
    guest = pages.open("", viewport=PHONE, lang="de")
    guest.add_init_script(seen_js)
    guest.goto(f"{pages.base}/r/{code}?lang=de")
    join_table(guest, "Bo")
    seat_bots(host, 1)
    start_match(host, 3)
    entry = "[data-testid=faces-entry]"
    rolls = {"host": 0, "guest": 0, "bot": 0}
    for _ in range(600):
        if host.locator("[data-testid=podium]").count():
            break
        acted = False
        room = httpx.get(f"{pages.base}/api/rooms/{code}").json()
        actor = room["match"]["actor"] if room["match"] else None
        for page in (host, guest):  # both phones have drawn this very picture
            page.wait_for_function("v => (window.__v ?? -1) >= v", arg=room["version"])
        if httpx.get(f"{pages.base}/api/rooms/{code}").json()["version"] != room["version"]:
            continue  # the table moved on meanwhile (a bot): look again
        for name, page, other in (("host", host, guest), ("guest", guest, host)):
            if page.locator(entry).count():
                due = int(page.get_attribute(entry, "data-due") or "0")
                # Only the phone whose dice are due shows the keys (the host's for the bot).
                assert other.locator(entry).count() == 0, "two phones can type the same roll"
                typist = {0: "host", 1: "guest"}.get(actor, "host")
                assert typist == name, (name, actor)
                # A crew at once for a turn's first roll; for a roll-off, faces that differ
                # from roll to roll (the same face for everyone would tie for ever).
                n = sum(rolls.values())
                faces = [6, 5, 4, 3, 3] if due == 5 else [1 + (n + 2 * i) % 6 for i in range(due)]
                for f in faces:
                    page.click(f"{entry} .keys button >> nth={f - 1}")
                # Exactly the dice the roll takes: the keys stop, the count says so.
                assert page.locator(f"{entry} .keys button:not([disabled])").count() == 0
                assert f"{due}" in page.inner_text(f"{entry} button[data-action=roll] small")
                page.click(f"{entry} button[data-action=roll]")
                rolls["bot" if actor not in (0, 1) else name] += 1
                acted = True
                break  # the table moves on: look at it again
            if page.locator(CHOICE).count():
                page.locator(CHOICE).first.click()
                acted = True
                break
        host.wait_for_function(
            "v => (window.__v ?? -1) > v", arg=room["version"]
        ) if acted else host.wait_for_timeout(100)
    host.wait_for_selector("[data-testid=podium]")
    assert rolls["host"] and rolls["guest"] and rolls["bot"], rolls
    assert host.text_content("#physical-note")
    check(host, "real dice: podium")
    # The bot says it plays again; the host opens every round's scores.  Someone coming to
    # watch then leaves the podium as it is: "Every round" stays open, the links stay put
    # (a podium built again under a finger loses the tap).
    replay = "[data-testid=podium] a[href^='/replay/']"
    host.wait_for_selector("#rematch-status")
    host.click("#every-round summary")
    host.evaluate(f"document.querySelector(\"{replay}\").dataset.seen = 'yes'")
    draws = host.evaluate("window.__draws")
    watcher = pages.open(f"/r/{code}", viewport=PHONE)
    watcher.wait_for_selector("[data-testid=podium]")
    host.wait_for_function("n => window.__draws > n", arg=draws)
    assert host.get_attribute("#every-round", "open") is not None
    assert host.get_attribute(replay, "data-seen") == "yes"
    host.click(replay)
    host.wait_for_selector("#step")
    host.goto(f"{pages.base}/verify/{code}")
    host.wait_for_selector("#server-check")
    assert host.inner_text("#server-check").strip()
    assert pages.errors == []
