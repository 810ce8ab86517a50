"""The HTML pages (static files shipped in the package; the JavaScript fetches the data), and
the installable app's manifest and service worker at the root, where browsers look for them."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response
from starlette.exceptions import HTTPException

from ...facts import DEFAULT_LANG, LANGUAGE_NAMES, LANGUAGES

STATIC = Path(__file__).resolve().parent.parent / "static"

router = APIRouter(tags=["pages"], include_in_schema=False)


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, media_type="text/html; charset=utf-8")


def _shipped(name: str, media_type: str, headers: dict[str, str] | None = None) -> FileResponse:
    """A file of the pages' own (``static/NAME``) served at the root, or 404 without it."""
    path = STATIC / name
    if not path.is_file():
        raise HTTPException(404)
    return FileResponse(path, media_type=media_type, headers=headers)


@router.get("/static/js/facts.js")
async def facts_module() -> Response:
    """The core's facts the pages need before anything else loads (which languages there are,
    their names, the default), as a module the pages import: the list lives once, in
    :mod:`shipcaptaincrew.facts`, and a language added there appears in every page's menu."""
    body = (
        f"export const LANGS = {json.dumps(list(LANGUAGES))};\n"
        f"export const LANG_NAMES = {json.dumps(LANGUAGE_NAMES, ensure_ascii=False)};\n"
        f"export const DEFAULT_LANG = {json.dumps(DEFAULT_LANG)};\n"
    )
    return Response(body, media_type="text/javascript; charset=utf-8")


@router.get("/manifest.webmanifest")
async def manifest() -> FileResponse:
    """The web app manifest (name, icons, colours): what makes the table installable."""
    return _shipped("manifest.webmanifest", "application/manifest+json")


@router.get("/sw.js")
async def service_worker() -> FileResponse:
    """The service worker, from the root so that its scope is the whole app; never cached,
    so a new version reaches every phone at its next visit."""
    return _shipped(
        "sw.js",
        "text/javascript; charset=utf-8",
        {"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"},
    )


@router.get("/")
async def home() -> FileResponse:
    """Create a table or join one by code."""
    return _page("index.html")


@router.get("/r/{code}")
async def room(code: str) -> FileResponse:
    """The table: lobby, play, summary."""
    del code
    return _page("room.html")


@router.get("/verify/{code}")
async def verify(code: str) -> FileResponse:
    """Recompute a finished match's dice."""
    del code
    return _page("verify.html")


@router.get("/history")
async def history() -> FileResponse:
    """Finished matches."""
    return _page("history.html")


@router.get("/replay/{code}")
async def replay(code: str) -> FileResponse:
    """Step through a finished match."""
    del code
    return _page("replay.html")


@router.get("/stats")
async def stats() -> FileResponse:
    """The leaderboard."""
    return _page("stats.html")
