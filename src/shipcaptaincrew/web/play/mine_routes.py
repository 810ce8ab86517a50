"""/api/my-tables: the unfinished tables a phone has a seat at (see :mod:`.mine`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Response
from pydantic import BaseModel, ConfigDict, Field

from ..connections.transport import dumps
from ..deps import LangDep, ServiceDep
from .mine import MOST, my_tables

router = APIRouter(prefix="/api/my-tables", tags=["rooms"])

Token = Annotated[str, Field(min_length=16, max_length=128, pattern=r"^[A-Za-z0-9_\-]+$")]


class Mine(BaseModel):
    """The seat tokens this phone keeps, and the member keys of its crews."""

    model_config = ConfigDict(extra="forbid")

    tokens: list[Token] = Field(default_factory=list, max_length=MOST)
    member_keys: list[Token] = Field(default_factory=list, max_length=10)


@router.post("")
async def mine(req: Mine, service: ServiceDep, lang: LangDep) -> Response:
    """The tables (``tables``), the slow ones waiting for this person first, each with whose
    turn it is and, at a slow table, how long is left; texts in the request's language."""
    tables = await my_tables(
        service.sessions, service.fresh_room, req.tokens, req.member_keys, service.slow.now()
    )
    return Response(dumps({"tables": tables}, lang), media_type="application/json")
