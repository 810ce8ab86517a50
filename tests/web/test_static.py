"""The pages as files: every page links the manifest and sets its colour scheme before the
first paint, and no page as written has inline script or style (the server puts the page's
small classic scripts and its critical style inline itself, each allowed by its hash: see
tests/web/test_release.py); every page is served (an entry of ``pages.PAGES``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from shipcaptaincrew.web.pages import routes as pages
from shipcaptaincrew.web.pages.routes import STATIC

PAGES = sorted(STATIC.glob("*.html"))


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_page_is_an_app_page(page: Path) -> None:
    html = page.read_text(encoding="utf-8")
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    head = html.split("</head>")[0]
    # theme.js runs before the style sheet is applied to anything: no white flash in the dark.
    assert head.index('src="/static/js/theme.js"') < head.index('type="module"')
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline script"
    assert not re.search(r"<style|\sstyle=", html), "inline style"


def test_every_page_is_served() -> None:
    """A page file nobody routes to is a page the release never builds: each is an entry."""
    assert sorted(spec.file for spec in pages.PAGES) == sorted(p.name for p in PAGES)


def test_the_pages_take_the_languages_from_the_core(client: Any) -> None:
    """The pages' language menu and fallback come from ``facts`` (served as a module, and
    bundled into each page's script), so no page keeps its own list."""
    from shipcaptaincrew.facts import DEFAULT_LANG, LANGUAGE_NAMES, LANGUAGES

    r = client.get("/static/js/facts.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    consts = dict(re.findall(r"export const (\w+) = (.+);", r.text))
    assert json.loads(consts["LANGS"]) == list(LANGUAGES)
    assert json.loads(consts["LANG_NAMES"]) == LANGUAGE_NAMES
    assert json.loads(consts["DEFAULT_LANG"]) == DEFAULT_LANG
    assert 'from "./facts.js"' in (STATIC / "js" / "common.js").read_text(encoding="utf-8")
