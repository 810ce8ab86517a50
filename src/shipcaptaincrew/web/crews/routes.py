"""/api/crews: start a crew, join it, move to a new phone, run it, and read its season.

Every answer about a crew needs a member's key (``X-Member-Key``, see :mod:`.identity`);
without one, or with a key of another crew, the answer is the same 404 as for a crew that
does not exist.  Links that carry a secret put it after ``#`` (``/c/ID#invite=...``): the
part of a URL a browser never sends, so it reaches no server log.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute

from ..deps import TokenDep
from ..table.seats import hash_token
from ..words import refusals as E
from ..words.catalogue import Label
from ..words.invalid import invalid
from ..words.refusals import ErrorCode, RoomError
from . import tables
from .export import export
from .identity import AdminDep, MemberDep, MemberKey, no_crew
from .schemas import (
    AddSeason,
    ClaimLink,
    CreateCrew,
    JoinCrew,
    LinkKind,
    MakeLink,
    MatchGuest,
    MemberChange,
    RenameCrew,
    UpdateMe,
)
from .service import CrewService
from .store import Looks, bump
from .view import match_list

#: What a crew request's fields are called in a refusal (a crew's ``name`` is the crew's).
FIELDS = {
    "name": E.FIELD_CREW_NAME,
    "member": E.FIELD_NAME,
    "invite": E.FIELD_INVITE,
    "link": E.FIELD_LINK,
    "season": E.FIELD_SEASON,
    "starts": E.FIELD_STARTS,
    "ends": E.FIELD_ENDS,
    "guest": E.FIELD_GUEST,
}


class CrewRoute(APIRoute):
    """A route whose refusals of a malformed request name the crew's fields as people know
    them (see :data:`FIELDS`)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def route(request: Request) -> Response:
            try:
                return await handler(request)
            except RequestValidationError as e:
                raise invalid(e.errors(), fields=FIELDS) from None

        return route


router = APIRouter(tags=["crews"], route_class=CrewRoute)


def get_crews(request: Request) -> CrewService:
    """The app's crews."""
    crews: CrewService = request.app.state.crews
    return crews


CrewsDep = Annotated[CrewService, Depends(get_crews)]


def base_url(request: Request) -> str:
    """Where people reach the server (``public_url`` behind a proxy)."""
    public: str = request.app.state.settings.public_url
    return public.rstrip("/") or str(request.base_url).rstrip("/")


def crew_link(request: Request, crew: str, name: str, secret: str) -> str:
    """A crew page's link carrying a secret after ``#`` (``invite`` or ``link``)."""
    return f"{base_url(request)}/c/{crew}#{name}={secret}"


def qr_svg(link: str) -> str:
    """A link as an SVG QR code (the page shows it as an image: a phone held up to another
    reads it)."""
    import io

    import segno

    buf = io.BytesIO()
    segno.make(link, error="m").save(
        buf, kind="svg", scale=5, border=2, dark="#000", light="#fff", title="QR code"
    )
    return buf.getvalue().decode()


# -- a crew begins, and people join ------------------------------------------------------------
@router.post("/api/crews", status_code=201)
async def create_crew(
    req: CreateCrew, request: Request, crews: CrewsDep, token: TokenDep = None
) -> dict[str, Any]:
    """Start a crew; with ``X-Seat-Token`` of a seat at a finished table, keep that table
    (its match is the crew's first, and everyone seated at it may join from its podium)."""
    seat_hash = hash_token(token) if token else None

    def run() -> tuple[str, str, str, str, str | None]:
        with crews.store.change() as db:
            seat = tables.finished_seat(db, seat_hash, req.table, True) if seat_hash else None
            looks = Looks(
                req.member,
                req.color if req.color is not None or seat is None else seat.color,
                req.avatar if req.avatar is not None or seat is None else seat.avatar,
            )
            crew, member, key = crews.store.create(db, req.name, looks)
            if seat is not None:
                tables.keep(db, crew.id, seat, member.id)
            return crew.public_id, crew.invite, key, member.public_id, seat.code if seat else None

    crew, invite, key, member, kept = await asyncio.to_thread(run)
    if kept is not None:
        crews.record_soon(kept)
    return {
        "crew": crew,
        "invite": crew_link(request, crew, "invite", invite),
        "member_key": key,
        "member": member,
    }


@router.post("/api/crews/{crew}/members", status_code=201)
async def join_crew(
    crew: str, req: JoinCrew, crews: CrewsDep, token: TokenDep = None
) -> dict[str, Any]:
    """Join with the invite a member showed, or (``X-Seat-Token`` and ``table``) as someone
    who sat at the table the crew was kept from."""
    seat_hash = hash_token(token) if token else None

    def run() -> tuple[str, str]:
        with crews.store.change() as db:
            seat = None
            if seat_hash is not None and req.table is not None:
                seat = tables.finished_seat(db, seat_hash, req.table)
            if req.invite is not None:
                row = crews.store.crew_by_invite(db, crew, req.invite)
            elif seat is not None:
                row = tables.kept_crew(db, seat)
                if row.public_id != crew:
                    raise no_crew()
            else:
                raise no_crew()
            name = req.member or (seat.name if seat is not None else None)
            if name is None:
                raise RoomError(
                    ErrorCode.INVALID,
                    E.MISSING,
                    422,
                    {"field": "member"},
                    field=Label(E.FIELD_NAME),
                )
            looks = Looks(
                name,
                req.color if req.color is not None or seat is None else seat.color,
                req.avatar if req.avatar is not None or seat is None else seat.avatar,
            )
            bump(db, row.id)
            member, key = crews.store.add_member(db, row.id, looks)
            if seat is not None and tables.crew_of_room(db, seat.room) == row.id:
                tables.seat_member(db, row.id, seat.room, seat_hash or "", member.id)
            return key, member.public_id

    key, member = await asyncio.to_thread(run)
    return {"member_key": key, "member": member}


@router.get("/api/rooms/{code}/crew")
async def kept_from(code: str, crews: CrewsDep, token: TokenDep = None) -> dict[str, Any]:
    """For someone seated at a finished table: the crew it was kept as, to join from its
    podium (anyone else: the one 404)."""
    if not token:
        raise no_crew()

    def run() -> dict[str, Any]:
        with crews.sessions() as db:
            seat = tables.finished_seat(db, hash_token(token), code)
            found = tables.kept_crew(db, seat)
            return {"crew": found.public_id, "name": found.name}

    return await asyncio.to_thread(run)


# -- a member's own ----------------------------------------------------------------------------
@router.get("/api/crews/{crew}")
async def crew_answer(
    me: MemberDep,
    crews: CrewsDep,
    request: Request,
    season: str | None = Query(None, max_length=32),
) -> Response:
    """The crew, its members and the season's numbers (see ``crews.view``), gzipped for a
    client that takes it (a season of every match is some 270 KB of JSON, 70 KB gzipped)."""
    answer = await crews.answer(me, season)
    headers = {"Vary": "Accept-Encoding", "Cache-Control": "no-store"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"
        return Response(answer.gzipped, media_type="application/json", headers=headers)
    return Response(answer.raw, media_type="application/json", headers=headers)


@router.get("/api/crews/{crew}/me")
async def my_membership(me: MemberDep, request: Request, crews: CrewsDep) -> dict[str, Any]:
    """Who this device is in the crew, and the invite to show."""
    invite = await asyncio.to_thread(crews.store.invite_link_of, me.crew_row)
    link = crew_link(request, me.crew, "invite", invite)
    return {
        "member": me.id,
        "name": me.name,
        "color": me.color,
        "avatar": me.avatar,
        "admin": me.admin,
        "invite": link,
        "invite_qr": qr_svg(link),
    }


@router.patch("/api/crews/{crew}/me")
async def change_me(me: MemberDep, req: UpdateMe, crews: CrewsDep) -> dict[str, Any]:
    """A member's own name and look."""
    looks = Looks(req.member or me.name, req.color, req.avatar)
    await asyncio.to_thread(crews.store.update_me, me, looks)
    return {"member": me.id, "name": looks.name}


@router.delete("/api/crews/{crew}/me")
async def leave_device(me: MemberDep, crews: CrewsDep, key: MemberKey = None) -> dict[str, Any]:
    """This device forgets the membership (the member and their other devices stay)."""
    assert key is not None
    await asyncio.to_thread(crews.store.forget_key, key)
    return {"member": me.id, "device": "forgotten"}


@router.post("/api/crews/{crew}/links", status_code=201)
async def make_link(
    me: MemberDep, req: MakeLink, request: Request, crews: CrewsDep
) -> dict[str, Any]:
    """A one-time link to this membership for a new phone (``move``: this phone's key ends
    when it is opened) or another screen (``screen``)."""
    kind = LinkKind.SCREEN if req.kind is LinkKind.SCREEN else LinkKind.MOVE
    secret, expires = await asyncio.to_thread(crews.store.make_link, me.row, kind)
    link = crew_link(request, me.crew, "link", secret)
    return {"link": link, "qr": qr_svg(link), "expires_at": expires.isoformat()}


@router.post("/api/crews/{crew}/claim", status_code=201)
async def claim_link(crew: str, req: ClaimLink, crews: CrewsDep) -> dict[str, Any]:
    """The new device opens a one-time link: its own key to the membership."""
    entry = await asyncio.to_thread(crews.store.claim, crew, req.link)
    return {"member_key": entry.key, "member": entry.member}


@router.get("/api/crews/{crew}/rooms/{code}")
async def crew_room(code: str, me: MemberDep, crews: CrewsDep) -> dict[str, Any]:
    """Whether a room is this member's crew's (to take a seat as themselves); else 404."""

    def run() -> None:
        with crews.sessions() as db:
            room = tables.room_id(db, code)
            if room is None or tables.crew_of_room(db, room) != me.crew_row:
                raise no_crew()

    await asyncio.to_thread(run)
    return {"crew": me.crew, "member": me.id, "name": me.name}


@router.get("/api/crews/{crew}/matches")
async def crew_matches(
    me: MemberDep,
    crews: CrewsDep,
    season: str | None = Query(None, max_length=32),
    limit: int = Query(50, ge=1, le=500),
) -> list[dict[str, Any]]:
    """The season's matches, newest first, with every seat's place and points."""

    def run() -> list[dict[str, Any]]:
        with crews.sessions() as db:
            return match_list(db, me.crew_row, season, limit)

    return await asyncio.to_thread(run)


@router.get("/api/crews/{crew}/export")
async def crew_export(
    me: MemberDep,
    crews: CrewsDep,
    request: Request,
    table: str = Query("matches", max_length=16),
    to: str = Query("csv", max_length=8),
    season: str | None = Query(None, max_length=32),
) -> Response:
    """A table of the crew's season as CSV, JSON or Parquet, with its provenance."""
    body, media, name = await asyncio.to_thread(
        export, crews.sessions, me.crew_row, table, to, season, str(request.url)
    )
    return Response(
        body, media_type=media, headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


# -- an admin's ------------------------------------------------------------------------------------
@router.patch("/api/crews/{crew}")
async def rename(admin: AdminDep, req: RenameCrew, crews: CrewsDep) -> dict[str, Any]:
    """An admin renames the crew."""
    await asyncio.to_thread(crews.store.rename, admin, req.name)
    return {"crew": admin.crew, "name": req.name}


@router.post("/api/crews/{crew}/invite")
async def renew_invite(admin: AdminDep, request: Request, crews: CrewsDep) -> dict[str, Any]:
    """An admin renews the invite: the old link lets nobody in any more."""
    invite = await asyncio.to_thread(crews.store.renew_invite, admin)
    link = crew_link(request, admin.crew, "invite", invite)
    return {"invite": link, "invite_qr": qr_svg(link)}


@router.patch("/api/crews/{crew}/members/{member}")
async def change_member(
    member: str, admin: AdminDep, req: MemberChange, crews: CrewsDep
) -> dict[str, Any]:
    """An admin makes a member an admin, or not."""
    await asyncio.to_thread(crews.store.set_admin, admin, member, req.admin)
    return {"member": member, "admin": req.admin}


@router.delete("/api/crews/{crew}/members/{member}")
async def remove_member(member: str, admin: AdminDep, crews: CrewsDep) -> dict[str, Any]:
    """An admin removes a member: every device of theirs loses access at once."""
    await asyncio.to_thread(crews.store.remove, admin, member)
    return {"removed": member}


@router.post("/api/crews/{crew}/members/{member}/link", status_code=201)
async def reinvite(
    member: str, admin: AdminDep, request: Request, crews: CrewsDep
) -> dict[str, Any]:
    """An admin's new invite for a member who lost their phone: a one-time link; when it is
    opened, every older device of theirs loses access."""

    def run() -> tuple[str, Any]:
        with crews.sessions() as db:
            row = crews.store.member_row(db, admin.crew_row, member)
        return crews.store.make_link(row.id, LinkKind.REINVITE)

    secret, expires = await asyncio.to_thread(run)
    link = crew_link(request, admin.crew, "link", secret)
    return {"link": link, "qr": qr_svg(link), "expires_at": expires.isoformat()}


@router.post("/api/crews/{crew}/seasons", status_code=201)
async def add_season(admin: AdminDep, req: AddSeason, crews: CrewsDep) -> dict[str, Any]:
    """An admin adds a season of the crew's own (from then on the seasons are the crew's)."""
    number = await asyncio.to_thread(crews.store.add_season, admin, req)
    return {"season": f"s{number}"}


@router.delete("/api/crews/{crew}/seasons/{season}")
async def remove_season(season: str, admin: AdminDep, crews: CrewsDep) -> dict[str, Any]:
    """An admin removes one of the crew's own seasons."""
    if not season.startswith("s") or not season[1:].isdigit():
        raise RoomError(ErrorCode.CREW, E.NO_SEASON, 404, season=season[:32])
    await asyncio.to_thread(crews.store.remove_season, admin, int(season[1:]))
    return {"removed": season}


@router.post("/api/crews/{crew}/guests")
async def match_guest(admin: AdminDep, req: MatchGuest, crews: CrewsDep) -> dict[str, Any]:
    """An admin matches a guest to a member: the guest's matches count as the member's."""
    n = await asyncio.to_thread(crews.store.match_guest, admin, req.guest, req.member)
    return {"matched": n, "member": req.member}
