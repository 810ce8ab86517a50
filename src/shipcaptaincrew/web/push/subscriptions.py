"""A person's subscriptions: made, read, changed and removed by the ``/api/push`` routes.

A subscription is kept per browser (its endpoint) and owner, so a phone subscribed twice for
the same seat is one subscription, its keys and choices brought up to date; a seat keeps at
most :data:`PER_OWNER` of them (the oldest goes), so nobody holding a token can make the
server send to a crowd.  Everything a browser sends is checked for what it means, and refused
in the person's language naming what is wrong: the endpoint (:mod:`.endpoints`), the keys (a
point on P-256, a 16-byte secret), the time zone, the quiet hours.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import delete, select
from sqlalchemy.orm import Session, sessionmaker

from ..settings import Settings
from ..storage.models import Room, Seat
from ..table.store import guarded
from ..words import refusals as E
from ..words.catalogue import Label
from ..words.refusals import ErrorCode, RoomError
from .endpoints import check_endpoint
from .keys import unb64url
from .models import PushMute, PushSubscription
from .owners import Owner, member_owner, member_subscription, seat_owner, subscription_owner
from .quiet import clock, minutes, zone
from .schemas import Choices, Subscribe

#: Subscriptions one owner keeps (a phone, a tablet, a laptop, ...): a new one beyond this
#: replaces the oldest.
PER_OWNER = 5


@dataclass(frozen=True)
class Credentials:
    """What a request shows to say whose subscription it is: a seat's token, or a crew
    member's key (see :mod:`.owners`; the key, when sent, decides)."""

    seat_token: str | None
    member_key: str | None = None


def endpoint_hash(endpoint: str) -> str:
    """What the unique constraints compare instead of the long endpoint itself."""
    return hashlib.sha256(endpoint.encode()).hexdigest()


def _refusal(msgid: str, **params: Any) -> RoomError:
    return RoomError(ErrorCode.BAD_SUBSCRIPTION, msgid, 422, **params)


def check_keys(p256dh: str, auth: str) -> None:
    """Refuse keys no browser makes: the public key must be an uncompressed point on P-256
    (65 bytes), the auth secret 16 bytes (RFC 8291, section 3)."""
    try:
        point = unb64url(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        if len(point) != 65:
            raise ValueError("compressed")
    except ValueError:
        raise _refusal(E.PUSH_BAD_KEY) from None
    try:
        if len(unb64url(auth)) != 16:
            raise ValueError("length")
    except ValueError:
        raise _refusal(E.PUSH_BAD_SECRET) from None


def _quiet(start: str | None, end: str | None) -> tuple[int | None, int | None]:
    if (start is None) != (end is None):
        raise _refusal(E.PUSH_QUIET_PAIR)
    if start is None or end is None:
        return None, None
    out = []
    for text, label in ((start, E.FIELD_QUIET_START), (end, E.FIELD_QUIET_END)):
        try:
            out.append(minutes(text))
        except ValueError:
            raise _refusal(E.PUSH_NOT_A_TIME, field=Label(label)) from None
    return out[0], out[1]


def _zone(name: str) -> str:
    try:
        zone(name)
    except ValueError:
        raise _refusal(E.PUSH_NO_ZONE, zone=name[:64]) from None
    return name


class Subscriptions:
    """The subscriptions' rows, as the routes change them (each call one transaction)."""

    def __init__(self, settings: Settings, sessions: sessionmaker[Session]) -> None:
        self.settings, self.sessions = settings, sessions

    @staticmethod
    def owner(db: Session, who: Credentials, room: str | None = None) -> Owner:
        """Whose new subscription a request makes (refused if its credentials open no seat
        at an open table, or name no crew member)."""
        if who.member_key:
            return member_owner(db, who.member_key, room)
        return seat_owner(db, who.seat_token, room)

    @staticmethod
    def _find(
        db: Session, who: Credentials, public_id: str, room: str | None = None
    ) -> tuple[Owner, PushSubscription]:
        """A subscription the request's credentials own, and its owner (else not found)."""
        if who.member_key:
            owner, row_id = member_subscription(db, who.member_key, public_id, room)
        else:
            owner, row_id = subscription_owner(db, who.seat_token, public_id)
        row = db.get(PushSubscription, row_id)
        assert row is not None
        return owner, row

    def subscribe(self, who: Credentials, req: Subscribe) -> dict[str, Any]:
        """Keep a browser's subscription for its owner (new, or brought up to date)."""
        check_endpoint(req.endpoint, self.settings.push_local_endpoints)
        check_keys(req.keys.p256dh, req.keys.auth)
        quiet = _quiet(req.quiet_start, req.quiet_end)
        time_zone = _zone(req.time_zone or "UTC")
        with guarded(), self.sessions() as db, db.begin():
            owner = self.owner(db, who, req.room)
            mine = self._mine(owner)
            row = db.scalar(
                select(PushSubscription).where(
                    PushSubscription.endpoint_hash == endpoint_hash(req.endpoint), *mine
                )
            )
            if row is None:
                self._keep_newest(db, owner)
                row = PushSubscription(
                    public_id=secrets.token_urlsafe(16),
                    endpoint=req.endpoint,
                    endpoint_hash=endpoint_hash(req.endpoint),
                    seat_id=owner.seat_id,
                    member_id=owner.member_id,
                )
            row.p256dh, row.auth = req.keys.p256dh, req.keys.auth
            row.lang = req.lang or owner.lang
            row.time_zone = time_zone
            row.quiet_start, row.quiet_end = quiet
            db.add(row)
            db.flush()
            if req.muted is not None:
                self._mute(db, row, owner, req.muted)
            return self._view(db, row, owner)

    def show(self, who: Credentials, public_id: str) -> dict[str, Any]:
        """A subscription of the owner's, as the page shows it."""
        with guarded(), self.sessions() as db:
            owner, row = self._find(db, who, public_id)
            return self._view(db, row, owner)

    def change(self, who: Credentials, public_id: str, req: Choices) -> dict[str, Any]:
        """Change the choices given (a field sent as null clears it: the quiet hours)."""
        given = req.model_fields_set
        with guarded(), self.sessions() as db, db.begin():
            owner, row = self._find(db, who, public_id, req.room)
            if given & {"quiet_start", "quiet_end"}:
                row.quiet_start, row.quiet_end = _quiet(req.quiet_start, req.quiet_end)
            if req.time_zone is not None:
                row.time_zone = _zone(req.time_zone)
            if req.lang is not None:
                row.lang = req.lang
            if req.muted is not None:
                self._mute(db, row, owner, req.muted)
            return self._view(db, row, owner)

    def remove(self, who: Credentials, public_id: str) -> None:
        """Forget a subscription (and whatever it still had to send)."""
        with guarded(), self.sessions() as db, db.begin():
            db.delete(self._find(db, who, public_id)[1])

    # -- helpers ---------------------------------------------------------------------------
    @staticmethod
    def _mine(owner: Owner) -> list[Any]:
        if owner.seat_id is not None:
            return [PushSubscription.seat_id == owner.seat_id]
        return [PushSubscription.member_id == owner.member_id]

    def _keep_newest(self, db: Session, owner: Owner) -> None:
        """Make room for one more: the owner's oldest subscriptions beyond the bound go."""
        ids = db.scalars(
            select(PushSubscription.id)
            .where(*self._mine(owner))
            .order_by(PushSubscription.id.desc())
            .offset(PER_OWNER - 1)
        ).all()
        if ids:
            db.execute(delete(PushSubscription).where(PushSubscription.id.in_(ids)))

    @staticmethod
    def _mute(db: Session, row: PushSubscription, owner: Owner, muted: bool) -> None:
        """Mute or unmute the owner's table for this subscription."""
        if owner.room_id is None:
            return
        here = (PushMute.subscription_id == row.id, PushMute.room_id == owner.room_id)
        found = db.scalar(select(PushMute).where(*here))
        if muted and found is None:
            db.add(PushMute(subscription_id=row.id, room_id=owner.room_id))
        elif not muted and found is not None:
            db.delete(found)
        db.flush()

    @staticmethod
    def _view(db: Session, row: PushSubscription, owner: Owner) -> dict[str, Any]:
        muted = owner.room_id is not None and (
            db.scalar(
                select(PushMute.room_id).where(
                    PushMute.subscription_id == row.id, PushMute.room_id == owner.room_id
                )
            )
            is not None
        )
        seat = None
        if row.seat_id is not None:
            seat = db.scalar(select(Seat.position).where(Seat.id == row.seat_id))
        code = owner.code
        if code is None and owner.room_id is not None:
            code = db.scalar(select(Room.code).where(Room.id == owner.room_id))
        return {
            "id": row.public_id,
            "room": code,
            "seat": seat,
            "lang": row.lang,
            "time_zone": row.time_zone,
            "quiet_start": None if row.quiet_start is None else clock(row.quiet_start),
            "quiet_end": None if row.quiet_end is None else clock(row.quiet_end),
            "muted": muted,
        }
