"""Fast on a pub's network, in Chromium with the page's real security policy: a first visit
fetches one style sheet and one script and none of the start-up answers (they come inline),
with nothing blocked by the policy; a second visit opens from the service worker's cache with
no network at all; and a new release replaces every cached file at the next visit.

How fast is the benchmark's to print (``benchmarks/bench_load.py``); these tests assert what
the phone fetched, kept and shows.  Run in their own pytest process:
``pytest tests/web/test_browser_load.py -m browser``.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .browsing import PHONE, table_server
from .conftest import ROOT, LiveServer

pytestmark = pytest.mark.browser

SEED = "5ab1e5eed0000000000000000000000000000000000000000000000000000002"
#: Collects what the security policy blocked, from the page's very start.
VIOLATIONS = (
    "window.sccBlocked = []; document.addEventListener('securitypolicyviolation',"
    " (e) => window.sccBlocked.push(e.violatedDirective + ' ' + e.blockedURI));"
)
HEAD_COLOUR = "getComputedStyle(document.getElementById('top')).backgroundColor"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from table_server(tmp_path_factory, "load", SEED)


def context(browser: Any, *, locale: str = "en-GB") -> Any:
    """A phone's browser profile: the page's own security policy, service workers allowed."""
    ctx = browser.new_context(viewport=PHONE, locale=locale)
    ctx.set_default_timeout(20000)
    ctx.add_init_script(VIOLATIONS)
    return ctx


def new_table(base: str, **room: Any) -> str:
    code: str = httpx.post(base + "/api/rooms", json={"name": "Anna", **room}).json()["code"]
    return code


@pytest.mark.parametrize(
    ("path", "ready"),
    [
        ("/r/{code}", "[data-testid=join-table] button[type=submit]"),
        ("/", "input[name=preset]:checked"),
    ],
    ids=["table", "home"],
)
def test_a_first_visit_fetches_one_style_sheet_and_one_script(
    server: LiveServer, browser: Any, path: str, ready: str
) -> None:
    ctx = context(browser)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    fetched: list[tuple[str, str]] = []
    page.on("request", lambda r: fetched.append((r.resource_type, r.url.removeprefix(server.url))))
    page.on("requestfinished", lambda r: fetched.append(("done", r.url.removeprefix(server.url))))
    page.on("websocket", lambda ws: fetched.append(("websocket", ws.url)))
    # A slow network (as Chromium emulates it), so that what overlaps shows in the order.
    cdp = ctx.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": 150,
            "downloadThroughput": 200_000,
            "uploadThroughput": 200_000,
        },
    )
    page.goto(server.url + path.format(code=new_table(server.url, lang="de")))
    page.wait_for_selector(ready)
    asked = [(kind, url) for kind, url in fetched if kind not in ("done", "websocket")]
    kinds = [kind for kind, _ in asked]
    assert kinds.count("stylesheet") == 1 and kinds.count("script") == 1, fetched
    assert [u for k, u in asked if k in ("stylesheet", "script")] == [
        u for u in (re.sub(r"\?.*", "", u) for _, u in asked) if u.startswith("/assets/")
    ]
    # The strings and the option table came with the page: none fetched, in either language
    # (the table's is German, this phone's English).
    assert not [u for _, u in asked if u.startswith(("/api/i18n/", "/api/options", "/static/js/"))]
    assert page.evaluate("window.sccBlocked") == [] and errors == []
    if path != "/":
        # One line to the table, dialled by the page's head before its script was in.
        order = [
            kind
            for kind, url in fetched
            if kind == "websocket" or (kind == "done" and url.endswith(".js"))
        ]
        assert order == ["websocket", "done"], fetched
        assert page.evaluate("window.sccLine") is None  # taken over by line.js
        # The page is in the phone's own language, never the table's (nothing fetched).
        assert page.evaluate("document.documentElement.lang") == "en"
        assert page.inner_text("[data-testid=join-table] button[type=submit]") == "Join"
    ctx.close()


def keep_the_app(page: Any) -> None:
    """Wait until the service worker has kept this release and is in charge of the page."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def test_a_second_visit_opens_from_the_service_worker_offline(
    server: LiveServer, browser: Any
) -> None:
    ctx = context(browser, locale="de-DE")
    code = new_table(server.url)
    page = ctx.new_page()
    page.goto(f"{server.url}/r/{code}")
    page.wait_for_selector("[data-testid=join-table]")
    online_colour = page.evaluate(HEAD_COLOUR)
    keep_the_app(page)
    page.close()
    ctx.set_offline(True)
    for path in (f"/r/{code}", "/r/OTHERS", "/"):
        page = ctx.new_page()
        page.goto(server.url + path)
        # The script ran (it drew the header in the page's language) with the whole style
        # sheet applied, everything from the phone's own cache.
        page.wait_for_selector("#top nav a")
        assert page.inner_text("#top nav a >> nth=0") == "Start"
        assert page.evaluate(HEAD_COLOUR) == online_colour
        assert page.evaluate("document.styleSheets.length") == 2  # the shell's and the sheet
        assert (
            page.evaluate("performance.getEntriesByType('navigation')[0].deliveryType")
            == "cache-storage"
        )
        if path == "/":
            # The installed app's start: the create form, its presets from the inline options.
            page.wait_for_selector("input[name=preset]:checked", state="attached")
            assert page.inner_text("#create-btn") == "Tisch eröffnen"
        assert page.evaluate("window.sccBlocked") == []
        page.close()
    ctx.close()


@pytest.fixture
def own_package(tmp_path: Path) -> Path:
    """A copy of the package that a test may change (a release of its own)."""
    src = tmp_path / "src"
    shutil.copytree(
        ROOT / "src" / "shipcaptaincrew",
        src / "shipcaptaincrew",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    return src


def test_a_new_release_replaces_the_cached_files_at_the_next_visit(
    own_package: Path, tmp_path: Path, browser: Any
) -> None:
    server = LiveServer(
        f"sqlite:///{tmp_path / 'scc.sqlite3'}", PYTHONPATH=str(own_package)
    ).start()
    try:
        ctx = context(browser)
        page = ctx.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#top nav a")
        keep_the_app(page)
        old = page.evaluate(HEAD_COLOUR)
        old_release = page.evaluate("caches.keys()")
        page.close()
        # A release: a new colour for the header.
        style = own_package / "shipcaptaincrew" / "web" / "static" / "style.css"
        text = style.read_text(encoding="utf-8")
        assert "--head: #17466e;" in text
        style.write_text(text.replace("--head: #17466e;", "--head: #6e1746;"), encoding="utf-8")
        server.stop()
        server.start()  # the same address: the same service worker's scope
        page = ctx.new_page()
        page.goto(server.url + "/")  # opens from the cache; the new worker takes over
        deadline = time.monotonic() + 30
        while (colour := colour_now(page)) != "rgb(110, 23, 70)":
            assert time.monotonic() < deadline, f"still {colour} (was {old})"
            page.wait_for_timeout(100)
        # Only the new release is kept, and every file of it.
        kept = page.evaluate(
            "caches.keys().then(async (names) => [names, ...await Promise.all(names.map("
            "async (n) => (await (await caches.open(n)).keys()).map((r) => new URL(r.url).pathname)))])"
        )
        names, files = kept[0], kept[1]
        assert names != old_release and len(names) == 1
        sw = httpx.get(server.url + "/sw.js").text
        assert names[0] == "scc-" + re.search(r'const RELEASE = "(\w+)"', sw)[1]  # type: ignore[index]
        # One joined sheet a page (style.css alone, or with the table's or the screen's own).
        css = [f for f in files if f.endswith(".css")]
        assert css and all(httpx.get(server.url + f).text.count("#6e1746") == 1 for f in css)
        assert page.evaluate("window.sccBlocked") == []
        ctx.close()
    finally:
        server.stop()


def colour_now(page: Any) -> str | None:
    """The header's colour, or None while the page is reloading onto the new release."""
    try:
        colour: str = page.evaluate(HEAD_COLOUR)
        return colour
    except Exception:
        return None
