"""The tables of "your turn" notifications, on the one metadata of every table (a feature
declares its own beside it; the migration is ``storage/migrations/versions/0010_push.py``):
the server's VAPID key pair, the browsers' subscriptions, the tables a subscription is muted
for, and the outbox.

A subscription's endpoint is a capability (whoever has it can send to that browser): it is
kept only to send, never shown back.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..storage.models import Base, utcnow


class PushState(StrEnum):
    """Where a notification in the outbox is; ``push_outbox.state`` stores the value."""

    PENDING = "pending"  #: to be sent once due (claimed by one worker at a time)
    SENT = "sent"  #: the push service took it (201)
    SKIPPED = "skipped"  #: not needed when due: the turn was played, or the table muted
    GONE = "gone"  #: the subscription is gone (404/410 from its push service): dropped
    FAILED = "failed"  #: refused for good, or still failing after the last retry


class PushKey(Base):
    """The server's VAPID key pair (RFC 8292): made once, the first time a worker starts, and
    kept with the rooms, so every worker signs with it, a backup carries it, and the
    browsers' subscriptions (made for its public key) outlive a restart."""

    __tablename__ = "push_keys"

    #: Always 1: one key pair a server (a second insert fails: the race of two workers).
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: The private key, PKCS#8 PEM.
    private_pem: Mapped[str] = mapped_column(Text)
    #: The public key as browsers take it (``applicationServerKey``): the uncompressed P-256
    #: point, base64url without padding.
    public_key: Mapped[str] = mapped_column(String(96))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PushSubscription(Base):
    """A browser's push subscription (RFC 8030 endpoint, RFC 8291 keys) for one person: their
    seat at a table, or (``member_id``) a crew member, with the
    hours they do not want to be woken and the language they read."""

    __tablename__ = "push_subscriptions"
    __table_args__ = (
        UniqueConstraint("endpoint_hash", "seat_id"),
        UniqueConstraint("endpoint_hash", "member_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: What the pages call it (random: a page names its own subscription, nobody else's).
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    #: The push service's URL for this browser (a capability: never shown back).
    endpoint: Mapped[str] = mapped_column(Text)
    #: SHA-256 of the endpoint (the unique constraints compare it, not the long text).
    endpoint_hash: Mapped[str] = mapped_column(String(64), index=True)
    #: The browser's ECDH P-256 public key and its 16-byte auth secret, base64url.
    p256dh: Mapped[str] = mapped_column(String(96))
    auth: Mapped[str] = mapped_column(String(32))
    #: The seat whose turns it announces (None: a member's subscription).
    seat_id: Mapped[int | None] = mapped_column(
        ForeignKey("seats.id", ondelete="CASCADE"), nullable=True, index=True
    )
    #: A crew member's (their turns at every table of the crew they sit at; None: a seat's).
    member_id: Mapped[int | None] = mapped_column(
        ForeignKey("crew_members.id", ondelete="CASCADE"), nullable=True, index=True
    )
    lang: Mapped[str] = mapped_column(String(8), default="en")
    #: The person's IANA time zone, which the quiet hours are read in.
    time_zone: Mapped[str] = mapped_column(String(64), default="UTC")
    #: Quiet hours as minutes after local midnight, ``[start, end)``, across midnight when
    #: start > end (None: no quiet hours).
    quiet_start: Mapped[int | None] = mapped_column(Integer, nullable=True)
    quiet_end: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PushMute(Base):
    """A table a subscription stays silent for."""

    __tablename__ = "push_mutes"

    subscription_id: Mapped[int] = mapped_column(
        ForeignKey("push_subscriptions.id", ondelete="CASCADE"), primary_key=True
    )
    room_id: Mapped[int] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )


class PushOutbox(Base):
    """One notification of one turn to one subscription: written before it is sent, keyed by
    the turn, so that it is sent once whatever restarts and however many workers look.

    A room plays one match (a rematch is a new room), so the room, the match's version when
    the turn began and the seat name the turn; with the subscription they are the key."""

    __tablename__ = "push_outbox"
    __table_args__ = (
        UniqueConstraint("room_id", "turn", "seat", "subscription_id"),
        # What the senders ask again and again: the pending rows that are due.
        Index("ix_push_outbox_due", "state", "due_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    #: The match's version (its count of events) when the turn began.
    turn: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    subscription_id: Mapped[int] = mapped_column(
        ForeignKey("push_subscriptions.id", ondelete="CASCADE"), index=True
    )
    #: A :class:`PushState` value.
    state: Mapped[str] = mapped_column(String(16), default=PushState.PENDING.value)
    #: What the notification says (title, body, the table's address), in the person's language.
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: Not sent before this (the person's quiet hours, a retry's back-off, a look again).
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    #: The worker sending it, until ``lease_until`` (then another may take it over).
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: What happened last, for people reading the table ("201", "410 gone", "turn played").
    outcome: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
