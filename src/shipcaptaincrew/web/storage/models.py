"""The database: rooms, their seats, every match event, and per-player results.

Events are the source of truth: a match's state is always the engine's replay of its events
(so a restarted server resumes exactly where it was).  Seat tokens are stored only as SHA-256
hashes: the database alone cannot impersonate a player.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import Enum, StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class RoomStatus(StrEnum):
    """Where a table is in its life; ``rooms.status`` stores the value."""

    LOBBY = "lobby"  #: seats are taken and bots seated; the host has not started
    PLAYING = "playing"  #: the match is under way (resumed after a restart)
    OVER = "over"  #: finished: the seed is revealed, the results are counted


class SeatKind(Enum):
    """Who sits in a seat: a person, who holds its token, or a bot, which the server plays."""

    PERSON = "person"
    BOT = "bot"


class MatchEnd(StrEnum):
    """How a finished match ended; ``rooms.ended`` stores the value (None: before it was kept).

    What the leaderboard, the history and a crew's season read to count a match: a win by
    play, or a match "won" because everyone else left, which counts apart.
    """

    PLAYED = "played"  #: decided at the table (or by the bots playing for those away)
    #: Everyone else left it, each while away for real (asked for after the absent grace, or
    #: by the host while they were away, and never back before it took effect).
    WALKOVER = "walkover"
    #: Everyone else left it, and the host removed at least one of them while they were
    #: here: nobody won it.
    REMOVED = "removed"


class DiceSource(StrEnum):
    """Where a room's dice come from; ``rooms.dice`` stores the value."""

    #: The server rolls provably fair dice (committed seed, revealed at the end).
    FAIR = "fair"
    #: Real dice at a real table: the acting player (or the host) types the faces rolled.
    PHYSICAL = "physical"


#: What ``seats.kind`` (and the room picture, the log and the statistics) call a person's seat;
#: a bot's seat is called by its bot spec ("easy", "threshold:8"), which says which bot plays.
PERSON_LABEL = "human"


def utcnow() -> datetime:
    """Timestamps are stored in UTC."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base of every table."""


class Room(Base):
    """A table: its rules, options, dice commitment and lifecycle (lobby, playing, over)."""

    __tablename__ = "rooms"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True, index=True)
    rules: Mapped[str] = mapped_column(Text)
    lang: Mapped[str] = mapped_column(String(8), default="en")
    hints: Mapped[bool] = mapped_column(Boolean, default=True)
    turn_timer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    starter: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: A :class:`RoomStatus` value.
    status: Mapped[str] = mapped_column(String(16), default=RoomStatus.LOBBY.value, index=True)
    #: The provably fair seed (hex): secret until the match is over, then published.
    server_seed: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    client_seeds: Mapped[list[str]] = mapped_column(JSON, default=list)
    revealed: Mapped[bool] = mapped_column(Boolean, default=False)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: The host's seat (seat 0 at first; handed on when the host stays away).
    host: Mapped[int] = mapped_column(Integer, default=0)
    #: A :class:`DiceSource` value.
    dice: Mapped[str] = mapped_column(String(16), default=DiceSource.FAIR.value)
    #: Once over: the seats whose person confirmed "play again".
    rematch: Mapped[list[int]] = mapped_column(JSON, default=list)
    #: Seats spectators asked for at the next match: ``{"name", "token_hash", "color",
    #: "avatar"}`` each (the token itself only ever went to the spectator).
    next_seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    #: The room this table plays its next match in (set once, when everyone confirmed).
    next_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: Who opened the room, as a hash of the client's address: what the hourly limit on new
    #: rooms counts, kept only for that hour (None: older, or a rematch's room).
    created_by: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    #: When someone was last seen connected to the room (by the worker's sweep): an unfinished
    #: room nobody has been at for ``room_unattended_seconds`` expires (None: never yet).
    attended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: How the client seeds enter the fair dice (a ``fair.SeedFormat`` value; None: a room
    #: made before the length prefix, whose seeds are joined with "|").
    client_seed_format: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: Once over: how the match ended (a :class:`MatchEnd` value; None: finished before
    #: this was kept).
    ended: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: The votes to let a bot play a silent person's turn: ``{"seat", "version", "by"}`` each
    #: (see ``play.standin``), valid for that turn (``version``) only.
    asks: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    #: The table screens a seated person paired: ``{"id"}`` each (the hash of the screen's
    #: token; see ``play.screens``).
    screens: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    #: The table chose to show its result in the server's lists (``/history``, ``/stats``);
    #: without it only the people with its code see it (see ``Settings.open_lists``).
    published: Mapped[bool] = mapped_column(Boolean, default=False)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="room", order_by="Seat.position", cascade="all, delete-orphan"
    )


class Seat(Base):
    """A player at a table: a person (with a token hash) or a bot (with its spec)."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("room_id", "position"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))
    #: :data:`PERSON_LABEL` or a bot spec such as "easy" or "threshold:8".
    kind: Mapped[str] = mapped_column(String(32), default=PERSON_LABEL)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    #: The colour (an index into the pages' palette) and avatar chosen at the join (None: by seat).
    color: Mapped[int | None] = mapped_column(Integer, nullable=True)
    avatar: Mapped[str | None] = mapped_column(String(16), nullable=True)

    room: Mapped[Room] = relationship(back_populates="seats")


class Event(Base):
    """One match event (a roll or a choice), exactly as :func:`~shipcaptaincrew.notation.event_for`."""

    __tablename__ = "events"
    # Its index also serves every lookup by room (see migration 0002).
    __table_args__ = (UniqueConstraint("room_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Result(Base):
    """One player's line in a finished match, for statistics and the leaderboard."""

    __tablename__ = "results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40), index=True)
    kind: Mapped[str] = mapped_column(String(32))
    won: Mapped[bool] = mapped_column(Boolean)
    rounds: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)
    crews: Mapped[int] = mapped_column(Integer)
    chips_won: Mapped[int] = mapped_column(Integer)
    sips: Mapped[int] = mapped_column(Integer)
    #: Won because everyone else left, each while away (:attr:`MatchEnd.WALKOVER`): a win
    #: the leaderboard counts apart (``won`` is false then).
    walkover: Mapped[bool] = mapped_column(Boolean, default=False)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
