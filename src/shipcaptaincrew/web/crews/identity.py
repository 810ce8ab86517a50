"""Who a device is in a crew: its member key (``X-Member-Key``), as a FastAPI dependency.

A member's phone holds a random key (given when it joined, or moved to it by a one-time
link) and sends it in the ``X-Member-Key`` header, never in a URL (URLs end up in logs and
browser histories).  The server keeps only the key's hash.  A key belongs to one member of
one crew; an admin removing the member, or a new invite for them, ends it.

Use it in any route that acts for a member (a crew's own, a room opened for a crew, later a
slow table or a push subscription):

* :data:`MemberDep` -- the member of the crew named by the route's ``{crew}`` path
  parameter, or 404 "no crew here for you" (the same answer for a crew that does not exist,
  a key of another crew, a removed member or no key at all: an answer tells a stranger
  nothing);
* :data:`AdminDep` -- the same, and the member is one of the crew's admins (else 403);
* :data:`MaybeMemberDep` -- the member a key names in whichever crew, or None without a key.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Header, Request
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from ..words import refusals as E
from ..words.refusals import ErrorCode, RoomError
from .models import Crew, CrewKey, CrewMember

#: The header a member's device sends its key in.
MEMBER_KEY_HEADER = "X-Member-Key"
#: Member keys and one-time links: 32 random bytes (256 bits), URL-safe.
SECRET_BYTES = 32
#: Crew and member ids outside: 12 random bytes (96 bits), URL-safe: not guessable.
ID_BYTES = 12


def new_secret() -> str:
    """A new key, invite or one-time link secret."""
    return secrets.token_urlsafe(SECRET_BYTES)


def new_id() -> str:
    """A new crew or member id (random: an id says nothing and cannot be guessed).

    Never one that begins with "-": typed after a command (``scc crew show ID``) it would be
    read as an option (one id in 64 was).  Drawing again keeps the rest of them as random.
    """
    while True:
        made = secrets.token_urlsafe(ID_BYTES)
        if not made.startswith("-"):
            return made


def hash_secret(secret: str) -> str:
    """Keys and links are stored and compared as SHA-256 hashes only."""
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class Member:
    """A member as a request sees them: who, in which crew, with which look and rights."""

    #: The member's and the crew's rows (inside the server only).
    row: int
    crew_row: int
    #: The member's and the crew's ids outside.
    id: str
    crew: str
    name: str
    color: int | None
    avatar: str | None
    admin: bool

    def looks(self) -> dict[str, object]:
        """The member's name and look, as a seat at a table takes them."""
        return {"name": self.name, "color": self.color, "avatar": self.avatar}


def no_crew() -> RoomError:
    """The one answer for every crew a request may not see (see the module docstring)."""
    return RoomError(ErrorCode.NO_CREW, E.NO_CREW, 404)


def find_member(db: Session, key: str | None) -> Member | None:
    """The member a key belongs to (None: no key, an unknown key, a removed member)."""
    if not key:
        return None
    row = db.execute(
        select(CrewMember, Crew.public_id)
        .join(CrewKey, CrewKey.member_id == CrewMember.id)
        .join(Crew, Crew.id == CrewMember.crew_id)
        .where(CrewKey.key_hash == hash_secret(key), CrewMember.removed_at.is_(None))
    ).first()
    if row is None:
        return None
    m, crew = row
    return Member(m.id, m.crew_id, m.public_id, crew, m.name, m.color, m.avatar, m.admin)


def _sessions(request: Request) -> sessionmaker[Session]:
    sessions: sessionmaker[Session] = request.app.state.service.sessions
    return sessions


MemberKey = Annotated[str | None, Header(alias=MEMBER_KEY_HEADER, max_length=128)]


def maybe_member(request: Request, key: MemberKey = None) -> Member | None:
    """The member whose key the request carries, or None (a sync dependency: FastAPI runs
    it off the event loop)."""
    with _sessions(request)() as db:
        return find_member(db, key)


MaybeMemberDep = Annotated[Member | None, Depends(maybe_member)]


def crew_member(crew: str, member: MaybeMemberDep) -> Member:
    """The member of the route's crew, or the one 404 (see the module docstring)."""
    if member is None or member.crew != crew:
        raise no_crew()
    return member


MemberDep = Annotated[Member, Depends(crew_member)]


def crew_admin(member: MemberDep) -> Member:
    """The member, who must be an admin of the crew."""
    if not member.admin:
        raise RoomError(ErrorCode.NOT_ADMIN, E.NOT_ADMIN, 403)
    return member


AdminDep = Annotated[Member, Depends(crew_admin)]
