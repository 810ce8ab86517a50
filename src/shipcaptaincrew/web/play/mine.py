"""My tables: the unfinished tables a phone has a seat at, the slow ones waiting for me first.

A phone keeps the seat token of every table it joined; the home page sends them (in the body,
never in a URL) with the member keys of the crews it belongs to, whose crew seats count too.  Each
table is told as its players see it: whose turn it is, and at a slow table how long is left
on the server's clock.  Only the seats the tokens open are told: a token of nobody is left
out, not refused (a phone keeps tokens of tables long gone).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from ...engine import seat_to_act
from ..crews.identity import find_member
from ..crews.models import CrewSeat
from ..storage.models import Room, RoomStatus, Seat
from ..table.room import LiveRoom
from ..table.seats import hash_token

#: At most this many tables are told (a phone's list, not an archive).
MOST = 50


def seats(
    sessions: sessionmaker[Session], tokens: list[str], keys: list[str]
) -> list[tuple[str, int]]:
    """(code, seat) of every unfinished table the tokens, or the member keys, sit at."""
    hashes = {hash_token(t) for t in tokens}
    with sessions() as db:
        for key in keys:
            member = find_member(db, key)
            if member is not None:
                hashes.update(
                    db.scalars(select(CrewSeat.token_hash).where(CrewSeat.member_id == member.row))
                )
        if not hashes:
            return []
        rows = db.execute(
            select(Room.code, Seat.position)
            .join(Seat, Seat.room_id == Room.id)
            .where(Seat.token_hash.in_(hashes), Room.status != RoomStatus.OVER.value)
            .order_by(Room.id.desc())
            .limit(MOST)
        ).all()
    return [(code, seat) for code, seat in rows]


def told(room: LiveRoom, seat: int, now: datetime) -> dict[str, Any]:
    """One table as the list shows it to the person in ``seat``."""
    state = room.state
    actor = None if state is None or state.is_over else seat_to_act(state)
    due = room.due if room.pace is not None and actor is not None else None
    if due is not None and due.seat != actor:
        due = None
    return {
        "code": room.code,
        "seat": seat,
        "status": room.status.value,
        "title": room.rules_view[2],
        "players": room.names,
        "actor": actor,
        "actor_name": None if actor is None else room.names[actor],
        "yours": actor == seat,
        "turn_hours": None if room.pace is None else room.pace.hours,
        "turn_deadline": None
        if due is None
        else due.at.astimezone(UTC).isoformat().replace("+00:00", "Z"),
        # On the server's clock (the page's own may be wrong by minutes).
        "left_seconds": None if due is None else max(0, int((due.at - now).total_seconds())),
    }


def order(tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The slow tables waiting for me first (the least time left first), then the others:
    slow tables before live ones, then the newest."""

    def key(table: dict[str, Any]) -> tuple[int, float]:
        slow = table["turn_hours"] is not None
        if slow and table["yours"]:
            return 0, float(table["left_seconds"] or 0)
        return (1 if slow else 2), 0.0

    return sorted(tables, key=key)


async def my_tables(
    sessions: sessionmaker[Session],
    rooms: Callable[[str], Awaitable[LiveRoom]],
    tokens: list[str],
    keys: list[str],
    now: datetime,
) -> list[dict[str, Any]]:
    """The list (see the module): each table read as it now is, in the order to show."""
    found = await asyncio.to_thread(seats, sessions, tokens, keys)
    tables = []
    for code, seat in dict.fromkeys(found):
        room = await rooms(code)
        if room.status is not RoomStatus.OVER:
            tables.append(told(room, seat, now))
    return order(tables)
