"""A crew's rows: the crew, its members and their devices' keys, one-time links, the rooms it
played in and who sat where, what each finished match left behind, and its own seasons.

Secrets are stored as SHA-256 hashes (member keys, one-time links), as seat tokens are; the
invite is kept as it is, since every member may show it again (it only lets someone join,
and an admin renews it).  Crews and members are named outside by random ids
(:func:`..crews.identity.new_id`), never by their row numbers: an id cannot be guessed.

What a finished match left behind (:class:`CrewLine`, :class:`CrewDecision`) is written once,
when the match is recorded for the crew (:mod:`.record`); the season's numbers are computed
from these rows on demand (:mod:`.season`), so a guest matched to a member afterwards, or a
season redrawn, changes the numbers without rewriting history.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..storage.models import Base, utcnow


class Crew(Base):
    """A private group of friends who play together."""

    __tablename__ = "crews"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: The crew's id outside (random; the crew page's address).
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    name: Mapped[str] = mapped_column(String(40))
    #: The invite's secret (random); renewed by an admin, which ends the old link.
    invite: Mapped[str] = mapped_column(String(64))
    #: Bumped at every change (a match recorded, a member, a season): whatever is computed
    #: from the crew's rows is current while the version is.
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class CrewMember(Base):
    """A member: a name and a look, an admin or not; a removed one keeps their history."""

    __tablename__ = "crew_members"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    crew_id: Mapped[int] = mapped_column(ForeignKey("crews.id", ondelete="CASCADE"), index=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    name: Mapped[str] = mapped_column(String(40))
    color: Mapped[int | None] = mapped_column(Integer, nullable=True)
    avatar: Mapped[str | None] = mapped_column(String(16), nullable=True)
    admin: Mapped[bool] = mapped_column(Boolean, default=False)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: When an admin removed the member (their phones lost access then); None: a member.
    removed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class CrewKey(Base):
    """A device's key to a membership (``X-Member-Key``), as a hash."""

    __tablename__ = "crew_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    member_id: Mapped[int] = mapped_column(
        ForeignKey("crew_members.id", ondelete="CASCADE"), index=True
    )
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class CrewLink(Base):
    """A one-time link to a membership: to move it to a new phone, to open it on another
    screen, or an admin's new invite for a member who lost their phone."""

    __tablename__ = "crew_links"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    member_id: Mapped[int] = mapped_column(
        ForeignKey("crew_members.id", ondelete="CASCADE"), index=True
    )
    link_hash: Mapped[str] = mapped_column(String(64), unique=True)
    #: A :class:`~.schemas.LinkKind` value.
    kind: Mapped[str] = mapped_column(String(16))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class CrewRoom(Base):
    """A room whose match counts for a crew: opened for it, kept from its podium, or the next
    match of one of those."""

    __tablename__ = "crew_rooms"

    room_id: Mapped[int] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    crew_id: Mapped[int] = mapped_column(ForeignKey("crews.id", ondelete="CASCADE"), index=True)
    #: Kept from its podium ("Keep this crew"): everyone seated at it may join the crew.
    kept: Mapped[bool] = mapped_column(Boolean, default=False)
    #: When the match was recorded for the crew (None: not yet, or not over).
    recorded_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: When the match ended, by the server's clock: what orders the season and its evenings.
    played_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )


class CrewSeat(Base):
    """A member's seat in a crew room, by the seat's token (a seat keeps its token through
    the lobby and into the next match, whatever its number)."""

    __tablename__ = "crew_seats"
    __table_args__ = (UniqueConstraint("room_id", "token_hash"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    token_hash: Mapped[str] = mapped_column(String(64))
    member_id: Mapped[int] = mapped_column(ForeignKey("crew_members.id", ondelete="CASCADE"))


class CrewLine(Base):
    """One seat's line in a recorded crew match: what the season's numbers are made of."""

    __tablename__ = "crew_lines"
    __table_args__ = (UniqueConstraint("room_id", "position"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("crew_rooms.room_id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    #: The member in the seat (None: a guest or a bot; a guest may be matched to one later).
    member_id: Mapped[int | None] = mapped_column(
        ForeignKey("crew_members.id", ondelete="SET NULL"), nullable=True, index=True
    )
    name: Mapped[str] = mapped_column(String(40))
    #: ``human`` or a bot's spec (as ``seats.kind``).
    kind: Mapped[str] = mapped_column(String(32))
    #: The seat's place on the podium (1 = the winner; equal ones share a place).
    place: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    points: Mapped[int] = mapped_column(Integer)
    #: Turns ending on the best cargo (12 with two cargo dice), crews completed, sips drunk,
    #: sips the others drank in rounds this seat won, the biggest pot won in one round.
    twelves: Mapped[int] = mapped_column(Integer)
    crews: Mapped[int] = mapped_column(Integer)
    sips: Mapped[int] = mapped_column(Integer)
    sips_out: Mapped[int] = mapped_column(Integer)
    pot: Mapped[int] = mapped_column(Integer)
    #: The most points the seat trailed the leader by at the end of a round (not the last).
    behind: Mapped[int] = mapped_column(Integer)
    #: Decision quality (see :mod:`shipcaptaincrew.solver.quality`).
    skill: Mapped[float] = mapped_column(Float)
    luck: Mapped[float] = mapped_column(Float)
    judged: Mapped[int] = mapped_column(Integer)
    unjudged: Mapped[int] = mapped_column(Integer)
    lowest: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: The seat's turn scores: ``{"score": turns}``.
    scores: Mapped[dict[str, int]] = mapped_column(JSON)


class CrewDecision(Base):
    """A choice a seat made in a recorded crew match, beside the solver's best."""

    __tablename__ = "crew_decisions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(
        ForeignKey("crew_rooms.room_id", ondelete="CASCADE"), index=True
    )
    position: Mapped[int] = mapped_column(Integer)
    #: The event's number in the match.
    seq: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(64))
    best: Mapped[str] = mapped_column(String(64))
    chance: Mapped[float] = mapped_column(Float)
    best_chance: Mapped[float] = mapped_column(Float)


class CrewSeason(Base):
    """A season of the crew's own: from ``starts`` to ``ends``, both days included (without
    any, the seasons are the calendar's months)."""

    __tablename__ = "crew_seasons"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    crew_id: Mapped[int] = mapped_column(ForeignKey("crews.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    starts: Mapped[date] = mapped_column(Date)
    ends: Mapped[date] = mapped_column(Date)
