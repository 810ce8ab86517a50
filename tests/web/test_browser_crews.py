"""A crew's season in the browser: four friends on their own phones play three Friday evenings
(the server's clock set by the test, never waited for) with a guest and a bot, at a person's
pace; the first table is kept as the crew from its podium, the next two are opened from the
crew's page and joined as members in one tap.  Then the crew's page on a phone and on a table
screen, in English, German and Norwegian, light and dark, is held against numbers the test
works out itself: the ratings by OpenSkill from the podiums as stored, the records and the
head-to-head counted from the event logs, and a scripted bad choice against the solver's own
figure for it.

Run in its own pytest process: ``pytest tests/web -m browser -k crews``.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from shipcaptaincrew.engine import seat_to_act
from shipcaptaincrew.notation import MatchLog, replay_states
from shipcaptaincrew.provenance import read
from shipcaptaincrew.solver import advise
from shipcaptaincrew.state import Phase

from . import browsing
from .browsing import DESKTOP, PHONE, SMALL_PHONE, Pages, check, english_left, shot
from .conftest import LiveServer
from .crews import (
    counts_by_hand,
    openskill_ratings,
    place_of,
    podium_by_hand,
    set_clock,
    stored_podiums,
)
from .humanpace import choose, play_human, watch

pytestmark = pytest.mark.browser

SEED = "c1a551c0000000000000000000000000000000000000000000000000000000a1"
FRIENDS = ("Anna", "Bo", "Cy", "Dora")
EVENINGS = ("2025-11-07T20:30:00+00:00", "2025-11-14T20:30:00+00:00", "2025-11-21T20:30:00+00:00")
TV = {"width": 1920, "height": 1080}


@pytest.fixture
def crew_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, Path]]:
    clock = tmp_path_factory.mktemp("clock") / "now"
    set_clock(clock, EVENINGS[0])
    for srv in browsing.table_server(
        tmp_path_factory, "crews", SEED, bot_delay=0.9, SCC_CLOCK_FILE=str(clock)
    ):
        yield srv, clock


def phone(pages: Pages, path: str, *, size: dict[str, int] = PHONE, lang: str = "en") -> Any:
    page = pages.open("", viewport=size, lang=lang, calm=False)
    watch(page)
    page.goto(pages.base + path)
    return page


def member_key(page: Any, crew: str) -> str:
    return str(page.evaluate(f"JSON.parse(localStorage.getItem('scc:crew:{crew}')).key"))


def seats_of(base: str, code: str, phones: dict[str, Any]) -> dict[int, Any]:
    room = httpx.get(f"{base}/api/rooms/{code}").json()
    return {p["seat"]: phones[p["name"]] for p in room["players"] if p["name"] in phones}


class Mistake:
    """The scripted mistake: the first friend to get a choice between standing and rerolling
    the cargo (the first evening's match counts too: it is kept as the crew's first) does the
    opposite of what they would (see :func:`humanpace.choose`); who, where and what."""

    def __init__(self) -> None:
        #: Per table: seat -> name, for the four friends.
        self.friends: dict[str, dict[int, str]] = {}
        self.made: tuple[str, str, int, str] | None = None  # (name, table, event, choice)

    def __call__(self, seat: int, room: dict[str, Any]) -> str | None:
        match = room["match"]
        name = self.friends.get(room["code"], {}).get(seat)
        if self.made or name is None:
            return None
        if "stand" not in match["legal"] or "reroll" not in match["legal"]:
            return None
        usual = choose(match, room["options"])
        wrong = "reroll" if usual == "stand" else "stand"
        self.made = (name, room["code"], room["version"], wrong)
        return wrong


def friends_at(base: str, code: str) -> dict[int, str]:
    room = httpx.get(f"{base}/api/rooms/{code}").json()
    return {p["seat"]: p["name"] for p in room["players"] if p["name"] in FRIENDS}


def test_a_crew_s_season_in_the_browser(crew_server: tuple[LiveServer, Path], browser: Any) -> None:
    srv, clock = crew_server
    base = srv.url
    http = httpx.Client(base_url=base, timeout=30)
    codes: list[str] = []
    with browsing.opened_pages(browser, base) as pages:
        # -- evening 1: an ordinary table, kept as the crew from its podium -----------------
        anna = browsing.home_ready(phone(pages, "/?rules=classic"))
        code = browsing.create_table(anna, "Anna")
        people = {"Anna": anna}
        for name, size in (("Bo", SMALL_PHONE), ("Cy", PHONE), ("Dora", PHONE)):
            page = phone(pages, f"/r/{code}", size=size)
            page.wait_for_selector("[data-testid=join-table]")
            browsing.join_table(page, name)
            people[name] = page
        browsing.seat_bots(anna, 1)
        browsing.start_match(anna, 5)
        mistake = Mistake()
        mistake.friends[code] = friends_at(base, code)
        play_human(base, code, seats_of(base, code, people), rng=random.Random(1), policy=mistake)
        codes.append(code)
        anna.click("[data-testid=keep-crew]")
        anna.fill("#keep-name", "Friday Club")
        check(anna, "podium: keep this crew")
        shot(anna, "crew-keep-this-crew-en", full=False)
        anna.click("[data-testid=keep-submit]")
        anna.wait_for_selector("#crew-page")
        crew = str(anna.get_attribute("#crew-page", "href")).split("/c/")[1]
        for name in ("Bo", "Cy", "Dora"):
            page = people[name]
            page.wait_for_selector("[data-testid=join-kept]", timeout=20000)
            page.click("[data-testid=join-kept]")
            page.wait_for_selector("#crew-page")
        shot(people["Bo"], "crew-podium-joined-en", full=False)

        # -- evenings 2 and 3: a table opened from the crew's page, joined as members --------
        gus = None
        for night, host_name in ((1, "Cy"), (2, "Dora")):
            set_clock(clock, EVENINGS[night])
            host = people[host_name]
            host.goto(f"{base}/c/{crew}")
            host.click("#open-table")
            host.wait_for_selector("#bigcode")
            code = host.inner_text("#bigcode").strip()
            for name in FRIENDS:
                if name == host_name:
                    continue
                page = people[name]
                page.goto(f"{base}/r/{code}")
                page.click("[data-testid=join-as-member]")
                page.wait_for_selector("#waiting")
            if gus is None:
                gus = phone(pages, f"/r/{code}", size=SMALL_PHONE, lang="de")
            else:
                gus.goto(f"{base}/r/{code}")
            gus.wait_for_selector("[data-testid=join-table]")
            browsing.join_table(gus, "Gus")
            browsing.seat_bots(host, 1)
            browsing.start_match(host, 6)
            seats = seats_of(base, code, {**people, "Gus": gus})
            mistake.friends[code] = friends_at(base, code)
            play_human(base, code, seats, rng=random.Random(night), policy=mistake)
            codes.append(code)
        assert mistake.made is not None, "nobody had a choice to get wrong"

        # -- the crew's page: its numbers against the test's own ------------------------------
        key = member_key(anna, crew)
        body = _recorded(http, crew, key, len(codes))
        _ratings_are_openskill_s(body, srv.db)
        names = {m["id"]: m["name"] for m in body["members"]}
        _records_and_head_to_head_by_hand(body, http, codes, names)
        _the_mistake_is_the_solver_s(body, http, codes, mistake.made)

        # -- on a phone and on a table screen, in three languages, light and dark -------------
        for lang, size, dark, tag in (
            ("en", SMALL_PHONE, False, "phone-en"),
            ("de", SMALL_PHONE, True, "phone-de-dark"),
            ("nb", PHONE, False, "phone-nb"),
            ("en", TV, True, "screen-en-dark"),
            ("de", DESKTOP, False, "screen-de"),
        ):
            page = pages.open("/", viewport=size, lang=lang, dark=dark)
            page.evaluate(
                "([c, k]) => localStorage.setItem('scc:crew:' + c,"
                " JSON.stringify({crew: c, key: k, member: '', name: ''}))",
                [crew, key],
            )
            page.goto(f"{base}/c/{crew}")
            page.wait_for_selector("#ratings-table")
            assert page.evaluate("document.documentElement.lang") == lang
            if lang != "en":
                strings = http.get(f"/api/i18n/{lang}").json()
                assert english_left(page, strings) == [], f"crew page {tag}: English left"
            _page_shows_the_numbers(page, body, lang)
            check(page, f"crew page {tag}")
            shot(page, f"crew-page-{tag}", full=True)
            for box, what in (("#season-pictures", "pictures"), ("#h2h-box", "h2h")):
                path = browsing.ARTIFACTS / f"crew-{what}-{tag}.png"
                page.locator(box).screenshot(path=str(path))
    print(f"\ncrew {crew}: {len(codes)} matches, the mistake {mistake.made}")


def _recorded(http: httpx.Client, crew: str, key: str, n: int) -> dict[str, Any]:
    """The crew's answer once its ``n`` matches are recorded (in the background)."""
    for _ in range(600):
        body: dict[str, Any] = http.get(f"/api/crews/{crew}", headers={"X-Member-Key": key}).json()
        if body["matches"] >= n and body["pending"] == 0:
            return body
        time.sleep(0.1)
    raise AssertionError("the season was not recorded")


def _ratings_are_openskill_s(body: dict[str, Any], db: str) -> None:
    expected = openskill_ratings(stored_podiums(db, body["crew"]["id"]))
    shown = {r["name"]: (r["mu"], r["sigma"]) for r in body["ratings"]}
    assert set(shown) == set(FRIENDS)
    for name, (mu, sigma) in shown.items():
        assert (mu, sigma) == pytest.approx(expected[name], abs=1e-9), name
    bots = [o for o in body["others"] if o["kind"] == "bot"]
    assert len(bots) == 1 and bots[0]["matches"] == 3
    bot = expected[bots[0]["key"]]
    assert (bots[0]["mu"], bots[0]["sigma"]) == pytest.approx(bot, abs=1e-9)
    gus = next(o for o in body["others"] if o["kind"] == "guest")
    assert gus["name"] == "Gus" and gus["matches"] == 2
    assert (gus["mu"], gus["sigma"]) == pytest.approx(expected["Gus"], abs=1e-9)


def _records_and_head_to_head_by_hand(
    body: dict[str, Any], http: httpx.Client, codes: list[str], names: dict[str, str]
) -> None:
    podiums = [podium_by_hand(http, code) for code in codes]
    for pair in body["head_to_head"]:
        a, b = names[pair["a"]], names[pair["b"]]
        met = [p for p in podiums if any(n == a for n, _ in p) and any(n == b for n, _ in p)]
        ahead = sum(place_of(p, a) < place_of(p, b) for p in met)
        behind = sum(place_of(p, a) > place_of(p, b) for p in met)
        assert (pair["matches"], pair["a_ahead"], pair["b_ahead"]) == (len(met), ahead, behind)
    assert len(body["head_to_head"]) == 6  # every two of the four met
    assert (
        len(body["evenings"]) == 3 and [c for e in body["evenings"] for c in e["matches"]] == codes
    )
    records = {r["record"]: r for r in body["records"]}
    # Per evening: crews completed and 12s, by hand from each evening's log.
    for kind in ("crews", "twelves"):
        best = 0
        for code in codes:
            counts = counts_by_hand(http, [code])
            best = max([best] + [counts.get(n, {}).get(kind, 0) for n in FRIENDS])
        assert records[kind]["value"] == (best or None), kind
    # The longest run of wins, by hand from the podiums.
    runs = dict.fromkeys(FRIENDS, 0)
    longest = 0
    for podium in podiums:
        for n in FRIENDS:
            if any(m == n for m, _ in podium):
                runs[n] = runs[n] + 1 if place_of(podium, n) == 1 else 0  # (1: the winner)
                longest = max(longest, runs[n])
    assert records["streak"]["value"] == (longest or None)


def _the_mistake_is_the_solver_s(
    body: dict[str, Any], http: httpx.Client, codes: list[str], made: tuple[str, str, int, str]
) -> None:
    """The friend's skill for the season is the solver's figure summed over their choices,
    and the scripted mistake is listed with the solver's exact numbers."""
    who, table, event, taken = made
    expected_skill = 0.0
    mistake = None
    for code in codes:
        log = MatchLog.from_jsonl(http.get(f"/api/matches/{code}/log").text)
        seat = log.players.index(who)
        states = replay_states(log)
        for i, ((before, _), (_, action)) in enumerate(zip(states, states[1:])):
            if before.phase is not Phase.TURN or seat_to_act(before) != seat or action is None:
                continue
            choices = advise(before)
            if not choices:
                continue  # dice were due
            chosen = next(c for c in choices if c.action == action)
            assert chosen.win_probability is not None and choices[0].win_probability is not None
            expected_skill += chosen.win_probability - choices[0].win_probability
            if code == table and i == event:
                assert str(action) == taken
                best = choices[0]
                mistake = (chosen.win_probability, best.win_probability, str(best.action))
    assert mistake is not None and mistake[1] - mistake[0] > 0.01, mistake
    member = next(m["id"] for m in body["members"] if m["name"] == who)
    q = next(q for q in body["quality"]["members"] if q["member"] == member)
    assert q["skill"] == pytest.approx(expected_skill, abs=1e-9)
    listed = next(w for w in body["quality"]["worst"] if w["code"] == table and w["event"] == event)
    assert (listed["chance"], listed["best_chance"], listed["best"]) == mistake


def _page_shows_the_numbers(page: Any, body: dict[str, Any], lang: str) -> None:
    """The page's tables say the answer's numbers, in the page's language."""
    decimal = "," if lang in ("de", "nb") else "."
    for r in body["ratings"]:
        cell = page.locator(f"#ratings-table tr[data-member='{r['member']}'] td").first
        shown = cell.inner_text().strip().replace("\u2212", "-")  # (Norwegian writes a minus sign)
        assert shown == f"{r['ordinal']:.1f}".replace(".", decimal), (shown, r["ordinal"])
    for pair in body["head_to_head"]:
        cell = page.locator(f"#h2h td[data-a='{pair['a']}'][data-b='{pair['b']}']")
        assert cell.inner_text().strip() == f"{pair['a_ahead']}–{pair['b_ahead']}"
    assert page.locator("#rating-charts figure").count() == len(body["ratings"])
    assert page.locator("#score-charts figure").count() == len(body["scores"])
    assert page.locator("#worst li").count() == len(body["quality"]["worst"])
    assert json.dumps(body["crew"]["name"])[1:-1] in page.inner_text("#crew-h")


@pytest.mark.parametrize(("lang", "dark"), [("en", False), ("de", True), ("nb", False)])
def test_start_a_crew_from_the_home_page_and_invite_a_friend(
    crew_server: tuple[LiveServer, Path], browser: Any, lang: str, dark: bool
) -> None:
    """The home page's "Start a crew": the crew's empty page says there is nothing yet; the
    invite's link lets a friend in on another phone (named, with a look); a third phone that
    opens the crew's address without the invite sees the closed door."""
    srv, _ = crew_server
    with browsing.opened_pages(browser, srv.url) as pages:
        home = browsing.home_ready(
            pages.open(f"/?lang={lang}", viewport=SMALL_PHONE, lang=lang, dark=dark)
        )
        check(home, f"home with crews {lang}")
        home.fill("#crew-name", "Skål")
        home.fill("#crew-member", "Anna")
        home.click("[data-testid=start-crew] button[type=submit]")
        home.wait_for_selector("#ratings-table")
        assert home.inner_text("#crew-h") == "Skål"
        assert home.locator("#ratings-table tbody tr").count() == 1
        check(home, f"a new crew {lang}")
        shot(home, f"crew-new-{lang}", full=False)
        # The export: one file from the page, its provenance inside (provenance.read).
        home.locator("#export summary").click()
        home.locator("#export").scroll_into_view_if_needed()
        home.locator("#export").screenshot(path=str(browsing.ARTIFACTS / f"crew-export-{lang}.png"))
        with home.expect_download() as got:
            home.click("[data-export='ratings.csv']")
        saved = browsing.ARTIFACTS / f"crew-ratings-{lang}.csv"
        got.value.save_as(saved)
        assert got.value.suggested_filename.endswith("-ratings.csv")
        record = read(saved)
        assert record["table"] == "crew_ratings" and record["command"] is None
        assert record["request"].startswith(srv.url) and record["crew_name"] == "Skål"
        invite = home.get_attribute("#invite .secret-link", "href")
        assert invite and "#invite=" in invite
        friend = pages.open("", viewport=PHONE, lang=lang, dark=dark)
        friend.goto(invite)
        friend.wait_for_selector("[data-testid=join-crew]")
        assert "#invite=" not in friend.url  # the secret leaves the address at once
        check(friend, f"joining a crew {lang}")
        friend.fill("#member-name", "Bo")
        friend.click("[data-testid=join-crew] button[type=submit]")
        friend.wait_for_selector("#ratings-table")
        assert friend.locator("#member-list li").count() == 2
        stranger = pages.open(invite.split("#")[0].removeprefix(srv.url), viewport=PHONE, lang=lang)
        stranger.wait_for_selector("#door-panel")
        assert "Skål" not in stranger.inner_text("body")
        assert stranger.locator("#crew").is_hidden()
        check(stranger, f"a crew's closed door {lang}")
        if lang != "en":
            strings = httpx.get(f"{srv.url}/api/i18n/{lang}").json()
            for page in (home, friend, stranger):
                assert english_left(page, strings) == []
