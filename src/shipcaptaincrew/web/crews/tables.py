"""The rooms a crew plays in, and which member sat in which seat.

A room counts for a crew when it was opened for the crew, kept from its podium ("Keep this
crew"), or made as the next match of such a room ("play again": :func:`carry`, called in the
very transaction that makes the next room).  A member's seat is remembered by the seat's
token hash, which a seat keeps through the lobby (where seat numbers move) and into the next
match (where the person keeps their token); guests and bots need no row: a seat without a
member is a guest's or a bot's.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ..storage.models import Room, RoomStatus, Seat
from ..words import refusals as E
from ..words.refusals import ErrorCode, RoomError
from .identity import Member, no_crew
from .models import Crew, CrewLine, CrewRoom, CrewSeat
from .store import bump


@dataclass(frozen=True)
class SeatAt:
    """A person's seat at a finished table, found by their seat token."""

    room: int
    code: str
    position: int
    name: str
    color: int | None
    avatar: str | None


def crew_of_room(db: Session, room_id: int) -> int | None:
    """The crew a room counts for (its row), or None."""
    return db.scalar(select(CrewRoom.crew_id).where(CrewRoom.room_id == room_id))


def open_room(db: Session, member: Member, room_id: int, token_hash: str) -> None:
    """A room opened for the member's crew, with the member in the host's seat."""
    bump(db, member.crew_row)
    db.add(CrewRoom(room_id=room_id, crew_id=member.crew_row, kept=False))
    db.add(CrewSeat(room_id=room_id, token_hash=token_hash, member_id=member.row))


def seat_member(db: Session, crew_row: int, room_id: int, token_hash: str, member_row: int) -> None:
    """The seat with this token (in a room of the crew) is the member's; a match already
    recorded counts it as theirs from now on."""
    bump(db, crew_row)
    if db.scalar(
        select(CrewSeat.id).where(CrewSeat.room_id == room_id, CrewSeat.token_hash == token_hash)
    ):
        return
    db.add(CrewSeat(room_id=room_id, token_hash=token_hash, member_id=member_row))
    position = db.scalar(
        select(Seat.position).where(Seat.room_id == room_id, Seat.token_hash == token_hash)
    )
    if position is not None:
        db.execute(
            update(CrewLine)
            .where(CrewLine.room_id == room_id, CrewLine.position == position)
            .values(member_id=member_row)
        )


def check_crew_room(db: Session, member: Member, room_id: int) -> None:
    """Refuse a member's seat at a room that is not their crew's."""
    if crew_of_room(db, room_id) != member.crew_row:
        raise RoomError(ErrorCode.NO_CREW, E.NOT_CREW_ROOM, 409)


def carry(db: Session, old_room: int, new_room: Room) -> None:
    """The next match of a crew's room counts for the crew too, and each member keeps their
    seat (by the token they keep); in the transaction that makes the next room."""
    crew_row = crew_of_room(db, old_room)
    if crew_row is None:
        return
    bump(db, crew_row)
    db.add(CrewRoom(room_id=new_room.id, crew_id=crew_row, kept=False))
    tokens = {s.token_hash for s in new_room.seats if s.token_hash is not None}
    for seat in db.scalars(select(CrewSeat).where(CrewSeat.room_id == old_room)):
        if seat.token_hash in tokens:
            db.add(
                CrewSeat(room_id=new_room.id, token_hash=seat.token_hash, member_id=seat.member_id)
            )


def finished_seat(db: Session, token_hash: str, code: str | None, keeping: bool = False) -> SeatAt:
    """The seat this token has at a finished table (``code``: which, where it sat at
    several; else the newest); else the one 404 (``keeping`` a table whose match is still
    going: it says to wait for the end)."""
    query = (
        select(Room.id, Room.code, Seat.position, Seat.name, Seat.color, Seat.avatar)
        .join(Seat, Seat.room_id == Room.id)
        .where(Seat.token_hash == token_hash, Room.status == RoomStatus.OVER.value)
    )
    if code is not None:
        query = query.where(Room.code == code.upper())
    row = db.execute(query.order_by(Room.finished_at.desc()).limit(1)).first()
    if row is None:
        if keeping and db.scalar(select(Seat.id).where(Seat.token_hash == token_hash).limit(1)):
            raise RoomError(ErrorCode.CREW, E.KEEP_NOT_OVER, 409)
        raise no_crew()
    return SeatAt(*row)


def keep(db: Session, crew_row: int, seat: SeatAt, member_row: int) -> None:
    """A finished table kept as a crew ("Keep this crew"): its match is the crew's first,
    and so are the next matches it already made."""
    if crew_of_room(db, seat.room) is not None:
        raise RoomError(ErrorCode.CREW, E.KEPT_ALREADY, 409)
    db.add(CrewRoom(room_id=seat.room, crew_id=crew_row, kept=True))
    db.flush()
    seat_member(db, crew_row, seat.room, _token_at(db, seat), member_row)
    room = db.get(Room, seat.room)
    while room is not None and room.next_code is not None:
        nxt = db.scalar(select(Room).where(Room.code == room.next_code))
        if nxt is None or crew_of_room(db, nxt.id) is not None:
            break
        carry(db, room.id, nxt)
        room = nxt


def _token_at(db: Session, seat: SeatAt) -> str:
    token = db.scalar(
        select(Seat.token_hash).where(Seat.room_id == seat.room, Seat.position == seat.position)
    )
    assert token is not None
    return token


def kept_crew(db: Session, seat: SeatAt) -> Crew:
    """The crew kept from the table this seat is at (else the one 404)."""
    crew = db.scalar(
        select(Crew)
        .join(CrewRoom, CrewRoom.crew_id == Crew.id)
        .where(CrewRoom.room_id == seat.room, CrewRoom.kept.is_(True))
    )
    if crew is None:
        raise no_crew()
    return crew


def rooms_to_record(db: Session, crew_row: int | None = None) -> list[str]:
    """The codes of the crews' finished matches not recorded yet (one crew's, or all)."""
    query = (
        select(Room.code)
        .join(CrewRoom, CrewRoom.room_id == Room.id)
        .where(CrewRoom.recorded_at.is_(None), Room.status == RoomStatus.OVER.value)
    )
    if crew_row is not None:
        query = query.where(CrewRoom.crew_id == crew_row)
    return list(db.scalars(query))


def to_record(db: Session, room_id: int) -> bool:
    """Whether a room's match is a crew's and not recorded yet.  Asked before the solver
    judges the match (seconds of work): a crew's page looked at while the match was being
    recorded asks for it again, and that second ask finds it done."""
    return (
        db.scalar(
            select(CrewRoom.crew_id).where(
                CrewRoom.room_id == room_id, CrewRoom.recorded_at.is_(None)
            )
        )
        is not None
    )


def room_id(db: Session, code: str) -> int | None:
    """A room's row by its join code (None: no such room)."""
    return db.scalar(select(Room.id).where(Room.code == code.strip().upper()))
