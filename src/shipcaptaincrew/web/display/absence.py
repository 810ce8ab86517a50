"""Nobody stalls the table: when a bot plays a person's turn, and who may ask it to.

A person who is offline for ``absent_grace`` seconds, or who lets the turn timer run out, has
the whole turn played by a bot of the table's middle level (:data:`STAND_IN`); so does anyone
the table asked a bot to play for (``play_for``).  The person takes the seat back by opening
their link again (or, silent at the timer, by making a move).  Each move made so is stored with
``"by"`` (the engine and the log's readers ignore the key) and shown on every page.

Who may ask: the host, or any seated person online while the host is away (the same people
who would be handed the host's role).  This module keeps the clock of who went away when and
answers those questions; :mod:`..play.autoplay` plays the moves, :mod:`..play.protocol` takes the asks.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ...engine import seat_to_act
from ..storage.models import RoomStatus, SeatKind

#: The bot that plays for an absent person: the middle difficulty (``bots.DIFFICULTIES``).
STAND_IN = "medium"


class By(StrEnum):
    """Why a bot made a person's move (the stored event's ``"by"``)."""

    TIMER = "timer"  #: the person let the turn timer run out
    AWAY = "away"  #: the person was offline past the grace
    ASKED = "asked"  #: the table asked a bot to play for them


def by_of(event: dict[str, Any]) -> By | None:
    """Why a stored event was made for its player (None: by the player or a bot seat)."""
    value = event.get("by")
    return By(value) if value in {b.value for b in By} else None


@dataclass
class Absence:
    """Who is away, since when, and whose turn a bot is playing (a room's, in memory)."""

    #: Person seats offline, with the monotonic time they were first seen offline.
    since: dict[int, float] = field(default_factory=dict)
    #: Seats the table asked a bot to play for, until the person is back.
    asked: set[int] = field(default_factory=set)
    #: The seat whose current turn a bot plays, and why (until another seat is to act).
    turn: tuple[int, By] | None = None
    #: The turn timer's clock: (version, seat, its length, monotonic time it runs out), so
    #: that looking at the table again (someone came or went) goes on with it rather than
    #: restarting it.
    clock: tuple[int, int, float, float] | None = None

    def seen(self, persons: list[int], online: frozenset[int], now: float | None = None) -> None:
        """Take in who is online: a person back online plays their own turns again."""
        now = time.monotonic() if now is None else now
        for seat in persons:
            if seat in online:
                self.since.pop(seat, None)
                self.asked.discard(seat)
                if self.turn is not None and self.turn[0] == seat and self.turn[1] is not By.TIMER:
                    self.turn = None  # back by the link: the rest of the turn is theirs
            else:
                self.since.setdefault(seat, now)

    def away_for(self, seat: int, now: float | None = None) -> float | None:
        """Seconds the seat has been offline (None: online)."""
        start = self.since.get(seat)
        if start is None:
            return None
        return (time.monotonic() if now is None else now) - start


def persons(room: Any) -> list[int]:
    """The room's person seats (bots never go away)."""
    return [i for i, s in enumerate(room.seats) if s.kind is SeatKind.PERSON]


def stewards(room: Any, online: frozenset[int]) -> list[int]:
    """Who may let a bot play for someone, or have someone leave after the round: the host
    while online, else every seated person online."""
    if room.host in online:
        return [room.host]
    return [s for s in persons(room) if s in online]


def playing_for(room: Any, grace: float) -> list[int]:
    """The person seats a bot plays for whenever it is their turn now: asked for, or offline
    past the grace (a seat whose current turn a bot plays is counted too)."""
    out = set(room.absence.asked)
    for seat in persons(room):
        away = room.absence.away_for(seat)
        if away is not None and away >= grace:
            out.add(seat)
    if room.absence.turn is not None:
        out.add(room.absence.turn[0])
    state = room.state
    if state is not None:
        out -= set(state.departed)
    return sorted(out)


def turn_view(room: Any) -> dict[str, Any] | None:
    """The turn a bot is playing for a person now, as the picture shows it (None: none)."""
    turn = room.absence.turn
    state = room.state
    if turn is None or state is None or room.status is not RoomStatus.PLAYING:
        return None
    seat, by = turn
    if seat_to_act(state) != seat:
        return None
    return {"seat": seat, "by": by.value}
