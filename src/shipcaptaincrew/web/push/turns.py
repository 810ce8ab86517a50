"""Whose turn it is at a table, since which version, and what their notification says.

A turn here is what :func:`~shipcaptaincrew.engine.seat_to_act` names: the seat to roll,
choose, hand out or decide, from the event that made it theirs until it is someone else's.
It is named by the match's version (the count of events) when it began: the same number
whether it is seen as it happens (:func:`passed`, from the state before a move and the one
after) or worked out later from the stored events (:func:`began`, after a restart), so both
write the same outbox key and the second finds the first's row.

What the notification says is written in the person's language from the catalogues: the
table's code in the title, and the story of the move that made it their turn (the narration
every page shows: "Bo rolls 1 4 4 5 and sets aside captain, crew. Full crew! ... Bo scores 5.").
"""

from __future__ import annotations

from typing import Any

from ...engine import initial_state, seat_to_act
from ...notation import replay_events
from ...state import MatchState
from ..storage.models import RoomStatus, SeatKind
from ..table.room import LiveRoom
from ..words import server_texts as T
from ..words.render import Words, say_line

#: A notification's text at most this long (push services take about 4 kB in all; a lock
#: screen shows a few lines): the move's first sentences go first.
MAX_BODY = 240


def passed(before: MatchState | None, after: MatchState) -> int | None:
    """The seat whose turn a move began (``before`` None: the match's start), if it began
    one; None when the same seat goes on or the match is over."""
    seat = seat_to_act(after)
    if seat is None or (before is not None and seat_to_act(before) == seat):
        return None
    return seat


def person(room: LiveRoom, seat: int) -> bool:
    """Whether a person (not a bot) sits in ``seat``."""
    return 0 <= seat < len(room.seats) and room.seats[seat].kind is SeatKind.PERSON


def began(room: LiveRoom, events: list[dict[str, Any]]) -> tuple[int, int] | None:
    """The seat to act after ``events`` (the room's, or the first of them: a copy taken on the
    event loop) and the version their turn began at; None when no match is under way.
    Replays the match with the engine: for a restart's look, not for every move."""
    if room.status is not RoomStatus.PLAYING:
        return None
    first = initial_state(room.rules, len(room.seats), starter=room.first_seat())
    states = [first, *(after for after, _ in replay_events(first, events))]
    seat = seat_to_act(states[-1])
    if seat is None:
        return None
    start = len(states) - 1
    while start > 0 and seat_to_act(states[start - 1]) == seat:
        start -= 1
    return seat, start


def payload(room: LiveRoom, turn: int, seat: int, lang: str) -> dict[str, Any]:
    """What the notification of ``seat``'s turn (begun at version ``turn``) says, in ``lang``,
    and where a tap takes the person (their table, at the turn as it is then)."""
    told = len(room.events) - turn  # the events since the turn began
    lines: list[str] = []
    if turn > 0 and told < len(room.recent):
        lines = [say_line(line, lang) for line in room.recent[-told - 1]]
    while len(" ".join(lines)) > MAX_BODY and len(lines) > 1:
        lines.pop()
    body = " ".join(lines)[:MAX_BODY] or Words(T.PUSH_YOUR_TURN).render(lang)
    return {
        "title": Words(T.PUSH_TITLE, {"code": room.code}).render(lang),
        "body": body,
        "url": f"/r/{room.code}",
        # One notification a turn on the phone too: a second with this tag replaces it.
        "tag": f"scc-{room.code}-{turn}-{seat}",
        "code": room.code,
        "seat": seat,
        "turn": turn,
        "lang": lang,
    }
