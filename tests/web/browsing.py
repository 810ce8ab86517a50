"""What the browser tests share: a server of their own, pages in a size, language and colour
scheme; a table made, joined, filled with bots and started as a person does it on the pages;
the checks every screen must pass (nothing wider than the screen, axe-core without a serious or
critical finding); screenshots into artifacts/; and playing the choices the page offers.

A helper module, not a test file: the browser test files import it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from .conftest import ARTIFACTS, LiveServer

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
#: Chosen actions: the page offers each as a button whose data-action is its canonical text.
CHOICE = "#actions button[data-action]:not([disabled])"


def table_server(
    tmp_path_factory: pytest.TempPathFactory,
    name: str,
    seed: str,
    *,
    bot_delay: float = 0.05,
    **env: str,
) -> Iterator[LiveServer]:
    """A module's server (``yield from`` it in a fixture): ``scc serve`` on its own SQLite
    file, the dice from the fixed ``seed`` (the same every run), bots at ``bot_delay``, and
    the environment's ``env`` besides."""
    db = tmp_path_factory.mktemp(name) / "scc.sqlite3"
    srv = LiveServer(
        f"sqlite:///{db}", bot_delay=bot_delay, SCC_FIXED_SERVER_SEED=seed, **env
    ).start()
    yield srv
    srv.stop()


def home_ready(page: Any) -> Any:
    """The home page once its create form is drawn: a preset chosen, the rules named."""
    page.wait_for_selector("input[name=preset]:checked", state="attached")
    page.wait_for_function("document.getElementById('rules-title').textContent.length > 0")
    return page


def create_table(
    host: Any, name: str = "Anna", *, physical: bool = False, publish: bool = False
) -> str:
    """The home page's create form sent by ``name`` (with real dice if ``physical``; its
    result shown in the server's lists if ``publish``), the rules as the form has them: the
    join code the lobby shows."""
    host.fill("[data-testid=create-table] [name=name]", name)
    if physical:
        host.check("input[name=dice][value=physical]")
    if publish:
        host.click("#table-box summary")
        host.check("#publish")
    host.click("[data-testid=create-table] button[type=submit]")
    host.wait_for_selector("#bigcode")
    return str(host.inner_text("#bigcode")).strip()


def join_table(page: Any, name: str) -> None:
    """A seat taken by ``name`` from a table's join form: the lobby then says to wait."""
    page.fill("[data-testid=join-table] [name=name]", name)
    page.click("[data-testid=join-table] button[type=submit]")
    page.wait_for_selector("#waiting")


def seat_bots(host: Any, bots: int) -> None:
    """``bots`` bots seated from the host's lobby, each listed before the next is asked for."""
    for _ in range(bots):
        n = host.locator("#seats li").count()
        host.click("[data-testid=add-bot]")
        host.wait_for_function(f"document.querySelectorAll('#seats li').length > {n}")


def start_match(host: Any, players: int | None = None) -> None:
    """The host starts the match (once ``players`` seats are listed, if given): the table is
    drawn."""
    if players is not None:
        host.wait_for_function(f"document.querySelectorAll('#seats li').length === {players}")
    host.click("[data-testid=start]")
    host.wait_for_selector("#play:not([hidden])")


class Pages:
    """Browser pages opened by one test, with the errors any of them raised."""

    def __init__(self, browser: Any, base: str) -> None:
        self.browser, self.base = browser, base
        self.errors: list[str] = []
        self.contexts: list[Any] = []

    def open(
        self,
        path: str = "/",
        *,
        viewport: dict[str, int] = PHONE,
        lang: str = "en",
        dark: bool = False,
        calm: bool = True,
    ) -> Any:
        """A page in its own browser context (its own localStorage: its own seat)."""
        ctx = self.browser.new_context(
            viewport=viewport,
            locale={"en": "en-GB", "de": "de-DE", "nb": "nb-NO"}[lang],
            color_scheme="dark" if dark else "light",
            reduced_motion="reduce" if calm else "no-preference",
            bypass_csp=True,  # the strict CSP would block axe-core's injected script
            service_workers="block",
        )
        ctx.set_default_timeout(15000)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: self.errors.append(f"{path}: {e}"))
        page.on("dialog", lambda d: (self.errors.append(f"dialog: {d.message}"), d.dismiss()))
        if path:
            page.goto(self.base + path)
        return page

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


@contextmanager
def opened_pages(browser: Any, base: str) -> Iterator[Pages]:
    """The pages of one part of a test on the server at ``base``: closed when it ends, and
    none of them may have raised an error or opened a dialog by then."""
    pages = Pages(browser, base)
    try:
        yield pages
        assert pages.errors == [], pages.errors
    finally:
        pages.close()


def pair_screen(phone: Any, screen: Any) -> None:
    """A seated phone pairs a table screen as a person does: reads the code the screen shows,
    opens the screen dialog, types it, one tap; the screen then drops its pairing code."""
    code = screen.inner_text("[data-testid=pair-code]").strip()
    phone.click("#screen-link")
    phone.fill("#pair-code", code)
    check(phone, "the pairing dialog")
    phone.click("[data-testid=pair-go]")
    screen.wait_for_selector("[data-testid=screen-pairing]", state="detached")


def fits(page: Any, name: str) -> None:
    """Nothing on the page is wider than the screen (no sideways scrolling)."""
    width, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width <= inner, f"{name}: the page is {width} px wide on a {inner} px screen"


def audit(page: Any, name: str) -> None:
    """axe-core: no serious or critical violation of WCAG 2.x A/AA (scrollable regions too)."""
    if not AXE.exists():
        pytest.fail(
            f"axe-core missing: run `npm install` in {AXE.parents[2]} (scripts/web-deps.sh)"
        )
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        "async () => await axe.run(document, {runOnly: {type: 'tag', values: "
        "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']},"
        " rules: {'region': {enabled: false}}})"
    )
    bad = [
        f"{v['id']} ({v['impact']}): {v['help']} -> {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert not bad, f"{name}: " + "; ".join(bad)


def check(page: Any, name: str, *, axe: bool = True) -> None:
    """Every screen: it fits, and (where asked) axe-core passes."""
    fits(page, name)
    if axe:
        audit(page, name)


def shot(page: Any, name: str, *, full: bool = True) -> Path:
    """A screenshot under artifacts/ (git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full)
    return path


def english_left(page: Any, strings: dict[str, str]) -> list[str]:
    """Visible texts that are an English message id whose translation differs: not translated."""
    english = {k for k, v in strings.items() if k != v and not re.search(r"\{\w+\}", k)}
    texts = page.evaluate(
        """() => {
          const out = [];
          const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          for (let n = walk.nextNode(); n; n = walk.nextNode()) {
            const el = n.parentElement;
            if (!el || el.closest('script,style,[hidden],.sr-only[aria-hidden]')) continue;
            const s = n.textContent.trim();
            if (s) out.push(s);
          }
          for (const el of document.querySelectorAll('[aria-label],[alt],[title]'))
            for (const a of ['aria-label', 'alt', 'title']) if (el.getAttribute(a)) out.push(el.getAttribute(a).trim());
          out.push(document.title);
          return out;
        }"""
    )
    return sorted({s for s in texts if s in english})


def play(
    pages: Iterable[Any],
    done: Callable[[], bool],
    *,
    limit: int = 4000,
    on_click: Callable[[Any, int], None] | None = None,
    pick: Callable[[Any], Any] | None = None,
) -> int:
    """Click the first choice offered on any page until ``done()``; returns the clicks made."""
    clicks = 0
    pages = list(pages)
    for _ in range(limit):
        if done():
            return clicks
        acted = False
        for page in pages:
            buttons = page.locator(CHOICE)
            if not buttons.count():
                continue
            target = pick(page) if pick else buttons.first
            try:
                target.click(timeout=2000)
            except Exception:
                continue  # the picture moved on under the pointer: look again
            clicks += 1
            acted = True
            if on_click:
                on_click(page, clicks)
        if not acted:
            pages[0].wait_for_timeout(60)
    raise AssertionError("the match did not finish")
