"""Shared FastAPI dependencies (``Annotated`` style, as in FastAPI's full-stack template)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Header, Request
from sqlalchemy.orm import Session

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


ServiceDep = Annotated[MatchService, Depends(get_service)]
DbDep = Annotated[Session, Depends(get_db)]
#: The seat token travels in a header, never in a URL (URLs end up in logs and histories).
TokenDep = Annotated[str | None, Header(alias="X-Seat-Token", max_length=128)]
