"""What a crew's requests may carry, with their limits (as :mod:`..schemas` for the rooms).

Names are the table's names (:data:`..schemas.Name`: printable, trimmed, at most 32
characters); looks are the table's colours and avatars.
"""

from __future__ import annotations

from datetime import date
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from ..table.schemas import Avatar, Color, Name, _Strict

#: An invite or a one-time link: the link as shown (``https://.../c/ID#invite=...``) or its
#: secret alone.
Link = Annotated[str, Field(min_length=16, max_length=512)]
Code = Annotated[str, Field(min_length=4, max_length=16, pattern=r"^[A-Za-z0-9]+$")]


class CreateCrew(_Strict):
    """POST /api/crews: a crew's name, and the name of the member who starts it (its first
    admin); with ``X-Seat-Token`` of a seat at a finished table, that table is kept as the
    crew's first match (``table``: its code, where the token sat at several)."""

    name: Name
    member: Name
    color: Color | None = None
    avatar: Avatar | None = None
    table: Code | None = None


class JoinCrew(_Strict):
    """POST /api/crews/{crew}/members: the invite a member showed (or, with ``X-Seat-Token``
    of a seat at the table the crew was kept from, that ``table``'s code) and the newcomer's
    name (a seat's newcomer may leave it out: the seat's name) and look."""

    invite: Link | None = None
    table: Code | None = None
    member: Name | None = None
    color: Color | None = None
    avatar: Avatar | None = None


class UpdateMe(_Strict):
    """PATCH /api/crews/{crew}/me: a member's own name and look."""

    member: Name | None = None
    color: Color | None = None
    avatar: Avatar | None = None


class LinkKind(StrEnum):
    """What a one-time link does for the device that opens it."""

    #: The membership moves to the new phone: the old phone's key ends.
    MOVE = "move"
    #: The membership opens on another screen too (a table screen): every key stays.
    SCREEN = "screen"
    #: An admin's new invite for a member who lost their phone: every old key ends.
    REINVITE = "reinvite"


class MakeLink(_Strict):
    """POST /api/crews/{crew}/links: a one-time link for another device of mine."""

    kind: LinkKind = LinkKind.MOVE


class ClaimLink(_Strict):
    """POST /api/crews/{crew}/claim: the one-time link, opened on the new device."""

    link: Link


class MemberChange(_Strict):
    """PATCH /api/crews/{crew}/members/{member} (an admin): make them an admin or not."""

    admin: bool


class RenameCrew(_Strict):
    """PATCH /api/crews/{crew} (an admin)."""

    name: Name


class AddSeason(_Strict):
    """POST /api/crews/{crew}/seasons (an admin): a season of the crew's own, by name."""

    season: Name
    starts: date
    ends: date


class MatchGuest(_Strict):
    """POST /api/crews/{crew}/guests (an admin): the guest who played as ``guest`` was the
    member ``member`` (their matches count as the member's from now on)."""

    guest: Name
    member: Annotated[str, Field(min_length=8, max_length=32)]
