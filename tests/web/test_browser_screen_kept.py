"""A table link opened again is usable before its WebSocket answers (issue 26, the second
visit): the phone keeps the last picture of a table's lobby, draws it at once, and joining
goes over HTTP, so a newcomer can take a seat while the socket's opening round trip (400 ms at
a pub, 2 s on a poor network) is still under way.  Here the socket never answers at all: the
join form is drawn from the kept lobby, and the seat it asks for is taken, as the server says.

Run in its own pytest process: ``pytest tests/web/test_browser_screen_kept.py -m browser``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .browsing import PHONE, SMALL_PHONE, Pages, check, table_server
from .conftest import LiveServer

pytestmark = pytest.mark.browser


@pytest.fixture
def kept_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from table_server(
        tmp_path_factory, "kept", "4e97000000000000000000000000000000000000000000000000000000000abc"
    )


def test_a_lobby_opened_again_joins_without_its_socket(
    kept_server: LiveServer, browser: Any
) -> None:
    base = kept_server.url
    code = httpx.post(f"{base}/api/rooms", json={"name": "Anna"}).json()["code"]
    pages = Pages(browser, base)
    try:
        first = pages.open(f"/r/{code}", viewport=PHONE)
        first.wait_for_selector("[data-testid=join-table]")
        assert "Anna" in first.inner_text("#seats")
        ctx = first.context
        first.close()
        # The link opened again, with a socket that never answers (a network that dropped it).
        again = ctx.new_page()
        again.route_web_socket("**/ws/**", lambda ws: None)
        again.set_viewport_size(SMALL_PHONE)
        again.goto(f"{base}/r/{code}")
        again.wait_for_selector("[data-testid=join-table] button[type=submit]")
        assert "Anna" in again.inner_text("#seats")
        check(again, "kept lobby")
        again.fill("[data-testid=join-table] [name=name]", "Bruno")
        again.click("[data-testid=join-table] button[type=submit]")
        again.wait_for_function(f"!!localStorage.getItem('scc:seat:{code}')")
        players = httpx.get(f"{base}/api/rooms/{code}").json()["players"]
        assert [p["name"] for p in players] == ["Anna", "Bruno"]
    finally:
        pages.close()
