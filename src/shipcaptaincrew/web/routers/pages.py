"""The HTML pages (static files shipped in the package; the JavaScript fetches the data)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

STATIC = Path(__file__).resolve().parent.parent / "static"

router = APIRouter(tags=["pages"], include_in_schema=False)


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, media_type="text/html; charset=utf-8")


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
