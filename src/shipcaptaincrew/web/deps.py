"""Shared FastAPI dependencies (``Annotated`` style, as in FastAPI's full-stack template)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Header, Request
from sqlalchemy.orm import Session

from ..facts import DEFAULT_LANG, LANGUAGES
from .service import MatchService


def get_service(request: Request) -> MatchService:
    """The app's match service."""
    service: MatchService = request.app.state.service
    return service


def get_db(request: Request) -> Iterator[Session]:
    """A read-only session for queries."""
    service: MatchService = request.app.state.service
    with service.sessions() as db:
        yield db


def request_lang(request: Request) -> str:
    """The language to answer a request in: ``?lang=``, else the ``X-Lang`` header, else the
    language of the room the request is about, else English.

    Never the browser's ``Accept-Language`` alone: a player who chose German on a phone set to
    English must get German answers, and a table's refusals follow the table.
    """
    for lang in (request.query_params.get("lang"), request.headers.get("X-Lang")):
        if lang in LANGUAGES:
            return str(lang)
    code = request.path_params.get("code")
    if isinstance(code, str):
        service: MatchService = request.app.state.service
        room = service.rooms.get(code.strip().upper())
        if room is not None:
            return room.lang
    return DEFAULT_LANG


ServiceDep = Annotated[MatchService, Depends(get_service)]
DbDep = Annotated[Session, Depends(get_db)]
LangDep = Annotated[str, Depends(request_lang)]
#: The seat token travels in a header, never in a URL (URLs end up in logs and histories).
TokenDep = Annotated[str | None, Header(alias="X-Seat-Token", max_length=128)]
