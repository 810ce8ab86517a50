"""/api/rooms: create, look at, join, seat bots, remove seats, start; the QR code."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response

from ..connections.transport import dumps
from ..crews.identity import MaybeMemberDep, no_crew
from ..deps import LangDep, ServiceDep, TokenDep
from ..storage.models import RoomStatus
from ..table.schemas import AddBot, CreateRoom, JoinRoom
from ..words import refusals as E
from ..words.catalogue import Label
from ..words.refusals import ErrorCode, RoomError

router = APIRouter(prefix="/api/rooms", tags=["rooms"])


def join_link(request: Request, code: str) -> str:
    """The link friends open to join (``public_url`` when the server sits behind a proxy)."""
    base = request.app.state.settings.public_url.rstrip("/") or str(request.base_url).rstrip("/")
    return f"{base}/r/{code}"


def _named(name: str | None) -> None:
    """A table's seat needs a name (a crew's member has theirs)."""
    if name is None:
        raise RoomError(
            ErrorCode.INVALID, E.MISSING, 422, {"field": "name"}, field=Label(E.FIELD_NAME)
        )


@router.post("", status_code=201)
async def create_room(
    req: CreateRoom, request: Request, service: ServiceDep, member: MaybeMemberDep
) -> dict[str, Any]:
    """Open a table; the creator is the host in seat 0 and gets the seat token (only they do).

    For a crew (``crew``, with a member's ``X-Member-Key``) the room counts for the crew's
    season and its host sits under their crew name and look."""
    if req.crew is not None:
        if member is None or member.crew != req.crew:
            raise no_crew()
        req = req.model_copy(update=member.looks())
    _named(req.name)
    address = request.client.host if request.client is not None else None
    code, token = await service.create_room(req, address)
    if req.crew is not None and member is not None:
        await request.app.state.crews.opened(member, code, token)
    return {"code": code, "seat": 0, "token": token, "link": join_link(request, code)}


@router.get("/{code}")
async def get_room(code: str, request: Request, service: ServiceDep, lang: LangDep) -> Response:
    """The public picture of a table (no tokens; the seed only once the match is over), its
    texts in the request's language."""
    room = await service.fresh_room(code)
    picture = {**room.public(), "link": join_link(request, room.code)}
    return Response(dumps(picture, lang), media_type="application/json")


@router.post("/{code}/join", status_code=201)
async def join_room(
    code: str, req: JoinRoom, request: Request, service: ServiceDep, member: MaybeMemberDep
) -> dict[str, Any]:
    """Take a seat; the answer carries this seat's token, for this player only.  A crew's
    member (``X-Member-Key``) sits at their crew's table as themselves."""
    crews = request.app.state.crews
    if member is not None:
        await crews.check_room(member, code)
        req = req.model_copy(update=member.looks())
    _named(req.name)
    seat, token = await service.join(code, req)
    if member is not None:
        await crews.seated(member, code, token)
    return {"code": code.upper(), "seat": seat, "token": token}


@router.post("/{code}/bots", status_code=201)
async def add_bot(
    code: str, req: AddBot, service: ServiceDep, token: TokenDep = None
) -> dict[str, Any]:
    """The host seats a bot."""
    seat = await service.add_bot(code, token, req)
    return {"seat": seat}


@router.delete("/{code}/seats/{seat}")
async def remove_seat(
    code: str, seat: int, service: ServiceDep, token: TokenDep = None
) -> dict[str, Any]:
    """The host removes a seat before the start."""
    await service.remove_seat(code, token, seat)
    return {"removed": seat}


@router.post("/{code}/start")
async def start(code: str, service: ServiceDep, token: TokenDep = None) -> dict[str, Any]:
    """The host starts the match."""
    await service.start(code, token)
    return {"status": RoomStatus.PLAYING.value}


@router.get("/{code}/qr.svg")
async def qr_code(
    code: str,
    request: Request,
    service: ServiceDep,
    pair: Annotated[str | None, Query(pattern=r"^[0-9]{4}$")] = None,
) -> Response:
    """The join link as an SVG QR code (``pair``: the link a table screen shows while it
    waits to be paired, which opens the table on a seated phone asking to pair it)."""
    import io

    import segno

    room = service.room(code)
    link = join_link(request, room.code) + (f"?pair={pair}" if pair else "")
    buf = io.BytesIO()
    segno.make(link, error="m").save(
        buf, kind="svg", scale=6, border=2, dark="#000", light="#fff", title="QR code"
    )
    # A code's join link never changes: the browser keeps it (a table screen opened again
    # shows it without a round trip).
    return Response(
        buf.getvalue(),
        media_type="image/svg+xml",
        headers={"Cache-Control": "private, max-age=86400"},
    )
