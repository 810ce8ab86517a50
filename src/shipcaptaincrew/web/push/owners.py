"""Whose turns a subscription announces, from the request that makes or changes it.

A subscription belongs to a person's seat at one table, proven by that seat's token in
``X-Seat-Token`` (the token the seat was given; the database holds only its hash), or to a
crew member, proven by their key in ``X-Member-Key``: a member's subscription announces their
turns at every table of their crew they sit at (per crew), and may be muted for one of them
(per table: the request names it in ``room``).  Everything below (storing, muting, sending)
takes either.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..crews.identity import find_member, no_crew
from ..crews.models import CrewSeat
from ..storage.models import PERSON_LABEL, Room, RoomStatus, Seat
from ..table.seats import hash_token
from ..words import refusals as E
from ..words.refusals import ErrorCode, RoomError
from .models import PushSubscription


@dataclass(frozen=True)
class Owner:
    """A subscription's owner: a seat at a table (``seat_id``, its ``room_id`` and ``code``),
    or a crew member (``member_id``); ``lang``: the language to write in unless the
    subscription names its own."""

    lang: str
    seat_id: int | None = None
    room_id: int | None = None
    code: str | None = None
    member_id: int | None = None


def seat_owner(db: Session, token: str | None, code: str | None = None) -> Owner:
    """The person's seat that ``token`` opens: at the table ``code``, or without one at the
    newest open table the token has a seat at (a token carried into a rematch opens a seat
    at each); refused if the token opens none, or that table's match is over."""
    if not token:
        raise RoomError(ErrorCode.BAD_TOKEN, E.BAD_TOKEN, 403)
    query = (
        select(Seat.id, Room.id, Room.code, Room.lang, Room.status)
        .join(Room, Seat.room_id == Room.id)
        .where(Seat.token_hash == hash_token(token), Seat.kind == PERSON_LABEL)
        .order_by(Room.id.desc())
    )
    if code is not None:
        query = query.where(Room.code == code.strip().upper())
    rows = db.execute(query).all()
    if not rows:
        raise RoomError(ErrorCode.BAD_TOKEN, E.BAD_TOKEN, 403)
    open_rows = [r for r in rows if r[4] != RoomStatus.OVER.value]
    if not open_rows:
        raise RoomError(ErrorCode.OVER, E.PUSH_NO_TABLE, 409)
    seat_id, room_id, room_code, lang, _ = open_rows[0]
    return Owner(lang=lang, seat_id=seat_id, room_id=room_id, code=room_code)


def subscription_owner(db: Session, token: str | None, public_id: str) -> tuple[Owner, int]:
    """The owner of the subscription ``public_id`` and its row's id, if ``token`` opens the
    seat it belongs to (at any table the token has a seat at, finished or not: one may stop
    a finished table's notifications); refused as not found otherwise, so a stranger cannot
    tell a subscription that exists from one that does not."""
    if not token:
        raise RoomError(ErrorCode.BAD_TOKEN, E.BAD_TOKEN, 403)
    found = db.execute(
        select(Seat.id, Room.id, Room.code, Room.lang, PushSubscription.id)
        .join(Room, Seat.room_id == Room.id)
        .join(PushSubscription, PushSubscription.seat_id == Seat.id)
        .where(PushSubscription.public_id == public_id[:32], Seat.token_hash == hash_token(token))
    ).first()
    if found is None:
        raise RoomError(ErrorCode.NOT_FOUND, E.PUSH_NO_SUBSCRIPTION, 404)
    seat_id, room_id, code, lang, row_id = found
    return Owner(lang=lang, seat_id=seat_id, room_id=room_id, code=code), row_id


def member_owner(db: Session, key: str | None, code: str | None = None) -> Owner:
    """The crew member whose key ``key`` is (the crews' one answer, 404, for any other key),
    with the table ``code`` if named: one of their crew's tables they sit at."""
    member = find_member(db, key)
    if member is None:
        raise no_crew()
    if code is None:
        return Owner(lang="en", member_id=member.row)
    found = db.execute(
        select(Room.id, Room.code, Room.lang)
        .join(CrewSeat, CrewSeat.room_id == Room.id)
        .where(Room.code == code.strip().upper(), CrewSeat.member_id == member.row)
    ).first()
    if found is None:
        raise RoomError(ErrorCode.NOT_FOUND, E.NOT_FOUND, 404, code=code[:16])
    room_id, room_code, lang = found
    return Owner(lang=lang, room_id=room_id, code=room_code, member_id=member.row)


def member_subscription(
    db: Session, key: str | None, public_id: str, code: str | None = None
) -> tuple[Owner, int]:
    """The member's subscription ``public_id`` and its row's id (not found: any other)."""
    owner = member_owner(db, key, code)
    row_id = db.scalar(
        select(PushSubscription.id).where(
            PushSubscription.public_id == public_id[:32],
            PushSubscription.member_id == owner.member_id,
        )
    )
    if row_id is None:
        raise RoomError(ErrorCode.NOT_FOUND, E.PUSH_NO_SUBSCRIPTION, 404)
    return owner, row_id
