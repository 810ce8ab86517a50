"""/api/matches: finished matches, replays, the event log and the fairness check."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request, Response

from ..deps import DbDep, LangDep, ServiceDep
from ..service import MatchService
from ..storage.models import RoomStatus
from ..table.room import LiveRoom
from ..words import refusals as E
from ..words.refusals import ErrorCode, RoomError
from . import queries

router = APIRouter(prefix="/api/matches", tags=["matches"])


async def _finished(service: MatchService, code: str) -> LiveRoom:
    room = service.room(code)
    if room.status is not RoomStatus.OVER:  # another worker may have finished it: read it
        room = await service.fresh_room(code)
    if room.status is not RoomStatus.OVER:
        raise RoomError(ErrorCode.NOT_OVER, E.NOT_OVER, 409)
    return room


@router.get("")
async def list_matches(
    db: DbDep, request: Request, limit: int = Query(50, ge=1, le=500)
) -> list[dict[str, Any]]:
    """Finished matches that chose to publish their result (every one on a server with
    ``open_lists``), newest first."""
    return queries.history(db, limit, request.app.state.settings.open_lists)


@router.get("/{code}/replay")
async def replay(code: str, service: ServiceDep, lang: LangDep) -> dict[str, Any]:
    """Every step of a finished match, with the words in the chosen language."""
    room = await _finished(service, code)
    return queries.replay_view(room, service.translate(lang, "scc"))


@router.get("/{code}/verify")
async def verify(code: str, service: ServiceDep, lang: LangDep) -> dict[str, Any]:
    """Recompute every die from the revealed seed (real dice: say there is none)."""
    return queries.verify_view(await _finished(service, code), lang)


@router.get("/{code}/log")
async def log(code: str, service: ServiceDep) -> Response:
    """The event log (JSON lines, readable by ``scc replay`` and ``scc verify``)."""
    room = await _finished(service, code)
    return Response(
        room.log().to_jsonl(),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="scc-{room.code}.jsonl"'},
    )
