"""Nobody stalls the table: when a bot plays a person's turn, and who may ask it to.

A person who is offline for ``absent_grace`` seconds, or who lets the turn timer run out, has
the whole turn played by a bot of the table's middle level (:data:`STAND_IN`); so does anyone
the table asked a bot to play for (``play_for``), and a person at the table whose phone has
been silent on their own turn for ``silent_grace`` seconds, once the table asked.  The person
takes the seat back by opening their link again (or, silent, by taking the turn back or
making a move).  Each move made so is stored with ``"by"`` (and, asked for, ``"asked_by"``:
who asked; the engine and the log's readers ignore both) and shown on every page.

Who may ask, and when, is the table's say (:mod:`..play.standin`); this module keeps the
clocks of who went away when and who asked, and answers the questions; :mod:`..play.autoplay`
plays the moves.
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
    ASKED = "asked"  #: the table asked a bot to play for them (away)
    SILENT = "silent"  #: the table asked a bot to play this turn (here, but silent)


def by_of(event: dict[str, Any]) -> By | None:
    """Why a stored event was made for its player (None: by the player or a bot seat)."""
    value = event.get("by")
    return By(value) if value in {b.value for b in By} else None


@dataclass
class Absence:
    """Who is away, since when, and whose turn a bot is playing (a room's, in memory)."""

    #: Person seats offline, with the monotonic time they were first seen offline.
    since: dict[int, float] = field(default_factory=dict)
    #: Seats the table asked a bot to play for, until the person is back, and who asked.
    asked: dict[int, tuple[int, ...]] = field(default_factory=dict)
    #: Who asked a bot to play the current turn of a silent person (see :mod:`.standin`).
    silenced: dict[int, tuple[int, ...]] = field(default_factory=dict)
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
                self.asked.pop(seat, None)
                if self.turn is not None and self.turn[0] == seat and self.turn[1] is By.AWAY:
                    self.turn = None  # back by the link: the rest of the turn is theirs
                if self.turn is not None and self.turn[0] == seat and self.turn[1] is By.ASKED:
                    self.turn = None
            else:
                self.since.setdefault(seat, now)

    def askers(self, seat: int, by: By | None) -> tuple[int, ...]:
        """Who asked the bot that plays ``seat``'s turn ``by`` (none: nobody asked)."""
        if by is By.ASKED:
            return self.asked.get(seat, ())
        if by is By.SILENT:
            return self.silenced.get(seat, ())
        return ()

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
    """Who may let a bot play for someone away at once, or have someone leave after the
    round: the host, while online (anyone seated may too, once the person has been away for
    the grace: see :mod:`.standin`)."""
    return [room.host] if room.host in online else []


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


# -- a person here but silent on their own turn (see .standin) ---------------------------------
def votes(room: Any, seat: int) -> tuple[int, ...]:
    """Who has asked a bot to play the current turn of ``seat`` (here but silent)."""
    return tuple(v for a in room.asks if a.seat == seat and a.version == room.version for v in a.by)


def voters(room: Any, seat: int, online: frozenset[int]) -> list[int]:
    """Who has a say about a silent ``seat``'s turn: every other person at the table now."""
    return [s for s in persons(room) if s in online and s != seat]


def needed(room: Any, seat: int, online: frozenset[int]) -> int:
    """Votes that make a majority of the others present (the host's alone is enough)."""
    return len(voters(room, seat, online)) // 2 + 1


def silent_view(
    room: Any, state: Any, grace: float, online: frozenset[int], fresh: bool
) -> dict[str, object] | None:
    """The person to act in ``state``, here, as the picture shows their silence: in how many
    seconds (``wait_s``, from the picture's arrival) the table may ask a bot to play their
    turn, who has asked and how many must (None: the one to act is a bot, away, or a bot
    plays for them already).  ``fresh``: ``state`` is one move on (the look-ahead's picture,
    drawn before the move): the person's time starts with it."""
    if state is None or room.status is not RoomStatus.PLAYING or state.is_over:
        return None
    seat = seat_to_act(state)
    if seat is None or room.seats[seat].kind is not SeatKind.PERSON or seat not in online:
        return None
    if not fresh and room.absence.turn is not None and room.absence.turn[0] == seat:
        return None
    quiet = 0.0 if fresh else time.monotonic() - room.acted_at
    return {
        "seat": seat,
        "wait_s": round(max(0.0, grace - quiet), 1),
        "votes": [] if fresh else list(votes(room, seat)),
        "needed": needed(room, seat, online),
    }
