"""/api/stats: per-player statistics and the leaderboard."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request

from ..deps import DbDep
from . import queries

router = APIRouter(prefix="/api/stats", tags=["stats"])


@router.get("/leaderboard")
async def leaderboard(
    db: DbDep, request: Request, limit: int = Query(100, ge=1, le=1000)
) -> list[dict[str, Any]]:
    """Players by wins over the published matches (every one on a server with
    ``open_lists``): matches, wins, average score per round, crews, chips won, sips."""
    return queries.leaderboard(db, limit, request.app.state.settings.open_lists)


@router.get("/players/{name}")
async def player(name: str, db: DbDep, request: Request) -> list[dict[str, Any]]:
    """One name's lines (a person and a bot may share a name; each kind is its own line)."""
    rows = queries.leaderboard(db, 10_000, request.app.state.settings.open_lists)
    return [r for r in rows if r["name"].casefold() == name.casefold()]
