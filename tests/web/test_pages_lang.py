"""The language a page's start-up words come in is the one the page will choose
(``currentLang`` in ``static/js/common.js``): ``?lang=``, else the language this device
remembers (the ``scc_lang`` cookie the page sets), else the first of the browser's languages
that is ours, walking its whole Accept-Language list.  Never the table's language."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shipcaptaincrew.web.pages.release import PRELOAD_ID
from shipcaptaincrew.web.pages.routes import LANG_COOKIE, browser_lang

from .test_release import open_app


@pytest.fixture
def web(sqlite_url: str) -> Iterator[TestClient]:
    with open_app(sqlite_url) as client:
        yield client


def words(html: str) -> set[str]:
    """The languages whose strings the page got inline."""
    found = re.search(
        rf'<script type="application/json" id="{PRELOAD_ID}">(.*?)</script>', html, re.S
    )
    assert found, "no start-up data in the page"
    data: dict[str, Any] = json.loads(found[1])
    return {url.rsplit("/", 1)[1] for url in data if url.startswith("/api/i18n/")}


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("de-DE,de;q=0.9,en;q=0.5", "de"),
        ("fr-FR,fr;q=0.9,nb;q=0.8,en;q=0.5", "nb"),  # French is not ours: the next one is
        ("fr-CH, nn;q=0.7", "nb"),
        ("es, it;q=0.5", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_the_browser_s_languages_are_walked_in_order(header: str | None, lang: str) -> None:
    assert browser_lang(header) == lang


def test_a_remembered_language_comes_inline_and_the_table_s_never(web: TestClient) -> None:
    code = web.post("/api/rooms", json={"name": "Kari", "lang": "nb"}).json()["code"]
    french_then_german = {"accept-language": "fr-FR,fr;q=0.9,de;q=0.8"}
    for path in ("/", f"/r/{code}", f"/r/{code}/screen"):
        assert words(web.get(path, headers=french_then_german).text) == {"de"}, path
        # The device chose Norwegian in the menu: its cookie says so, the words come in it.
        web.cookies.set(LANG_COOKIE, "nb")
        assert words(web.get(path, headers=french_then_german).text) == {"nb"}, path
        # ?lang= still wins; a cookie that is no language of ours is ignored.
        assert words(web.get(path + "?lang=en", headers=french_then_german).text) == {"en"}
        web.cookies.set(LANG_COOKIE, "xx")
        assert words(web.get(path, headers=french_then_german).text) == {"de"}, path
        web.cookies.clear()
    # The table is Norwegian, the English phone gets English only.
    assert words(web.get(f"/r/{code}", headers={"accept-language": "en-GB"}).text) == {"en"}


def test_the_qr_code_is_kept_by_the_browser(web: TestClient) -> None:
    """The table screen's QR code comes from the browser's cache at its next visit."""
    code = web.post("/api/rooms", json={"name": "Kari"}).json()["code"]
    r = web.get(f"/api/rooms/{code}/qr.svg")
    assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
    assert r.headers["cache-control"] == "private, max-age=86400"
