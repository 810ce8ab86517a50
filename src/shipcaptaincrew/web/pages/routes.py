"""The HTML pages, the generated files they load, and the installable app's manifest and
service worker at the root, where browsers look for them.

Every page is one entry of :data:`PAGES`: its HTML file under ``static/``, its routes, the
start-up answers it gets inline (so it draws without fetching them one after another) and
whether a phone keeps it from the first visit.  A new page is a new entry: its routes, its
script bundle and its place in the service worker's cache follow from it (see
:mod:`shipcaptaincrew.web.pages.release`, which makes what the entries serve).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response
from starlette.exceptions import HTTPException

from ...facts import DEFAULT_LANG, LANGUAGES
from ..setup.forms import option_table
from ..setup.routes import ui_strings
from . import release as rel
from .release import IMMUTABLE, PageSpec, Release

STATIC = Path(__file__).resolve().parent.parent / "static"

#: The pages.  ``data`` names entries of :data:`START_DATA`; ``offline``: the service worker
#: keeps the page from the first visit (the installed app's start page, a table link and the
#: table screen).
PAGES: tuple[PageSpec, ...] = (
    PageSpec("home", "index.html", ("/",), data=("strings", "options"), offline=True),
    PageSpec("room", "room.html", ("/r/{code}",), ("strings", "options"), offline=True),
    PageSpec("screen", "screen.html", ("/r/{code}/screen",), data=("strings",), offline=True),
    PageSpec("verify", "verify.html", ("/verify/{code}",), data=("strings",)),
    PageSpec("history", "history.html", ("/history",), data=("strings",)),
    PageSpec("replay", "replay.html", ("/replay/{code}",), data=("strings",)),
    PageSpec("stats", "stats.html", ("/stats",), data=("strings", "options")),
    PageSpec("crew", "crew.html", ("/c/{crew}",), data=("strings", "options")),
)

#: What a page may get inline: for a language, the URL the page would fetch and the answer,
#: made by the same functions as the API's answers (the page uses it as if it had fetched it).
START_DATA: rel.StartData = {
    "strings": lambda lang: (f"/api/i18n/{lang}", ui_strings(lang)),
    "options": lambda lang: (f"/api/options?lang={lang}", option_table(lang)),
}

router = APIRouter(tags=["pages"], include_in_schema=False)


def release() -> Release:
    """The release of the files under :data:`STATIC` (built once per set of sources)."""
    return rel.load(STATIC, PAGES, START_DATA)


def current(request: Request) -> Release:
    """The app's release: made at start-up (see ``create_app``), or now if the app never
    started up (an app used without its lifespan)."""
    made: Release | None = getattr(request.app.state, "release", None)
    if made is None:
        made = request.app.state.release = release()
    return made


#: The cookie a page sets when this device remembers a language chosen in its menu
#: (``remember`` in ``static/js/common.js``): the server then inlines that language's words.
LANG_COOKIE = "scc_lang"


def _ours(tag: str) -> str | None:
    """One language tag as a language of ours ("de-DE" is German; "nb", "nn", "no" bokmål)."""
    first = tag.split(";")[0].strip()[:2].lower()
    first = "nb" if first in ("no", "nn") else first
    return first if first in LANGUAGES else None


def browser_lang(accept_language: str | None) -> str:
    """The language a page chooses for a browser that never chose one: the first of its
    languages that is ours, in the browser's order, as ``browserLang`` in
    ``static/js/common.js`` walks ``navigator.languages``."""
    for tag in (accept_language or "").split(","):
        found = _ours(tag)
        if found is not None:
            return found
    return DEFAULT_LANG


def page_lang(request: Request) -> str:
    """The language the page will choose (``currentLang`` in ``static/js/common.js``):
    ``?lang=``, else the one this device remembers (its cookie), else the browser's.  Never
    the table's: each phone, and each table screen, in its own."""
    for asked in (request.query_params.get("lang"), request.cookies.get(LANG_COOKIE)):
        if asked in LANGUAGES:
            return str(asked)
    return browser_lang(request.headers.get("accept-language"))


def _encoded(request: Request, body: rel.Body, headers: dict[str, str]) -> Response:
    """``body`` compressed as the client accepts, or 304 if it has these very bytes."""
    headers = {**headers, "ETag": f"W/{body.etag}", "Vary": "Accept-Encoding"}
    if body.etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    content, coding = body.encoded(request.headers.get("accept-encoding", ""))
    if coding:
        headers["Content-Encoding"] = coding
    return Response(content, media_type=body.media_type, headers=headers)


def _page_route(spec: PageSpec) -> Any:
    async def page(request: Request) -> Response:
        made = current(request)
        served = made.pages[spec.name]
        headers = {
            # Never kept without asking: a new release is seen at the next visit.
            "Cache-Control": "no-cache",
            "Content-Security-Policy": served.policy,
            "Link": served.preload,
        }
        langs = [page_lang(request)]
        body = made.made(spec.name, langs)
        if body is None:
            body = await asyncio.to_thread(made.html, spec.name, langs)
        response = _encoded(request, body, headers)
        response.headers["Vary"] = "Accept-Encoding, Accept-Language, Cookie"
        return response

    page.__name__ = f"page_{spec.name}"
    page.__doc__ = f"The page {spec.file}."
    return page


for _spec in PAGES:
    for _route in _spec.routes:
        router.add_api_route(_route, _page_route(_spec), methods=["GET"])


@router.get("/assets/{name}")
async def asset(name: str, request: Request) -> Response:
    """A generated file (a page's script or style sheet), named by its content: cached for a
    year.  A name of another release is not found (its page asks for the new names)."""
    body = current(request).assets.get(name)
    if body is None:
        raise HTTPException(404)
    return _encoded(request, body, {"Cache-Control": IMMUTABLE})


@router.get("/static/js/facts.js")
async def facts_module() -> Response:
    """The core's facts the pages need before anything else loads (which languages there are,
    their names, the default), as a module the pages import: the list lives once, in
    :mod:`shipcaptaincrew.facts`, and a language added there appears in every page's menu."""
    return Response(rel.facts_module(), media_type="text/javascript; charset=utf-8")


def _shipped(name: str, media_type: str, headers: dict[str, str] | None = None) -> FileResponse:
    """A file of the pages' own (``static/NAME``) served at the root, or 404 without it."""
    path = STATIC / name
    if not path.is_file():
        raise HTTPException(404)
    return FileResponse(path, media_type=media_type, headers=headers)


@router.get("/manifest.webmanifest")
async def manifest() -> FileResponse:
    """The web app manifest (name, icons, colours): what makes the table installable."""
    return _shipped("manifest.webmanifest", "application/manifest+json")


@router.get("/sw.js")
async def service_worker(request: Request) -> Response:
    """The service worker, from the root so that its scope is the whole app, with this
    release's id and files in front; never cached, so that the browser, which compares it at
    every visit, sees a new release at the next one."""
    path = STATIC / "sw.js"
    if not path.is_file():
        raise HTTPException(404)
    text = current(request).service_worker() + path.read_text(encoding="utf-8")
    return Response(
        text,
        media_type="text/javascript; charset=utf-8",
        headers={"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"},
    )
