"""The pages as files: every page links the manifest and sets its colour scheme before the
first paint, no page has inline script or style (the Content-Security-Policy forbids them),
and the service worker's app shell lists every script there is (what it caches and what it
leaves alone is checked in the browser, tests/web/test_browser_pages.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from shipcaptaincrew.web.routers.pages import STATIC

PAGES = sorted(STATIC.glob("*.html"))
MODULES = sorted(p.name for p in (STATIC / "js").glob("*.js"))


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_page_is_an_app_page(page: Path) -> None:
    html = page.read_text(encoding="utf-8")
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    head = html.split("</head>")[0]
    # theme.js runs before the style sheet is applied to anything: no white flash in the dark.
    assert head.index('src="/static/js/theme.js"') < head.index('type="module"')
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline script"
    assert not re.search(r"<style|\sstyle=", html), "inline style"


def test_the_app_shell_lists_every_script() -> None:
    sw = (STATIC / "sw.js").read_text(encoding="utf-8")
    shell = set(re.findall(r'"(\w+)"', sw.split("const SHELL")[1].split("];")[0]))
    assert {m.removesuffix(".js") for m in MODULES} <= shell


def test_the_pages_take_the_languages_from_the_core(client: Any) -> None:
    """The pages' language menu and fallback come from ``facts`` (served as a module), so no
    page keeps its own list; the service worker keeps the module with the app shell."""
    from shipcaptaincrew.facts import DEFAULT_LANG, LANGUAGE_NAMES, LANGUAGES

    r = client.get("/static/js/facts.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    consts = dict(re.findall(r"export const (\w+) = (.+);", r.text))
    assert json.loads(consts["LANGS"]) == list(LANGUAGES)
    assert json.loads(consts["LANG_NAMES"]) == LANGUAGE_NAMES
    assert json.loads(consts["DEFAULT_LANG"]) == DEFAULT_LANG
    assert 'from "./facts.js"' in (STATIC / "js" / "common.js").read_text(encoding="utf-8")
