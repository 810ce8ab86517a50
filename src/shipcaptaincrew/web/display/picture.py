"""The room picture: everything anyone at (or watching) a table may see, drawn for the pages.

The engine's view of the match (:func:`.state_view.state_view`) plus what the table needs to draw
itself: the rule set's name, who sits where and is online, the moment the last event made
(:mod:`.moments`), the last round's card, the tie being broken, what decides the match, the
podium, "play again", and whose turn a bot plays for an absent person (:mod:`.absence`).
Never a token, never the seed before the end.  The texts in it are
:class:`~..words.render.Words`, said in each connection's language when sent.

The picture reads a table through :class:`Pictured`, the part of
:class:`~..table.room.LiveRoom` it needs, so that the room (above it) draws its own picture
without the two importing each other; mypy checks that the room fits.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..storage.models import DiceSource, RoomStatus, SeatKind
from ..words.render import Title, Words
from ..words.server_texts import LEVEL_LABELS
from .absence import playing_for, silent_view, stewards, turn_view
from .moments import Story, tie_view
from .party import seat_avatar, seat_color
from .podium import counted, deciding, ending
from .state_view import state_view

if TYPE_CHECKING:
    from ...rules import Rules
    from ...state import MatchState


class Seated(Protocol):
    """A seat as the picture reads it (a :class:`~..table.seats.SeatInfo`)."""

    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> SeatKind: ...
    @property
    def bot(self) -> str | None: ...
    @property
    def label(self) -> str: ...
    @property
    def color(self) -> int | None: ...
    @property
    def avatar(self) -> str | None: ...
    @property
    def token_hash(self) -> str | None: ...
    @property
    def asked_at(self) -> float | None: ...


class Pictured(Protocol):
    """A table as the picture reads it (a :class:`~..table.room.LiveRoom`), read-only."""

    @property
    def code(self) -> str: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def lang(self) -> str: ...
    @property
    def hints(self) -> bool: ...
    @property
    def turn_timer(self) -> float | None: ...
    @property
    def status(self) -> RoomStatus: ...
    @property
    def seats(self) -> Sequence[Seated]: ...
    @property
    def host(self) -> int: ...
    @property
    def rematch(self) -> Collection[int]: ...
    @property
    def next_seats(self) -> Sequence[Seated]: ...
    @property
    def next_code(self) -> str | None: ...
    @property
    def dice_source(self) -> DiceSource: ...
    @property
    def fair(self) -> bool: ...
    @property
    def commitment(self) -> str: ...
    @property
    def client_seeds(self) -> list[str]: ...
    @property
    def server_seed(self) -> str: ...
    @property
    def state(self) -> MatchState | None: ...
    @property
    def story(self) -> Story: ...
    @property
    def version(self) -> int: ...
    @property
    def names(self) -> list[str]: ...
    @property
    def deadline(self) -> float | None: ...
    @property
    def absent_grace(self) -> float: ...
    @property
    def silent_grace(self) -> float: ...
    @property
    def presence_ttl(self) -> float: ...
    @property
    def events(self) -> list[dict[str, Any]]: ...
    #: Who is away since when, and whose turn a bot plays (a ``.absence.Absence``).
    @property
    def absence(self) -> Any: ...
    @property
    def rules_view(self) -> tuple[str, dict[str, Any], Title]: ...
    def presence(self) -> tuple[frozenset[int], int]: ...
    def screens(self) -> int: ...
    def newcomers(self) -> set[str]: ...


def confirmed(room: Pictured) -> list[int]:
    """Once over, the seats that want to play again: the persons who said so, and bots."""
    if room.status is not RoomStatus.OVER:
        return []
    bots = {i for i, s in enumerate(room.seats) if s.kind is SeatKind.BOT}
    return sorted(bots | set(room.rematch))


def awaited(room: Pictured, online: frozenset[int]) -> list[int]:
    """Once over, the persons online whose "play again" the rematch still waits for."""
    if room.status is not RoomStatus.OVER or room.next_code is not None:
        return []
    return [
        i
        for i, s in enumerate(room.seats)
        if s.kind is SeatKind.PERSON and i in online and i not in room.rematch
    ]


def held(room: Pictured, seats: Sequence[Seated]) -> list[Any]:
    """The seats asked for at the next match that still count: their asker is connected, or
    asked so lately that the other workers may not have heard of the connection yet (within
    ``presence_ttl``).  A seat whose asker left is given back at once (see
    :meth:`..rooms.nextmatch.NextMatch.release`); one whose asker's worker died, once its
    report has faded."""
    here, young = room.newcomers(), time.time() - room.presence_ttl
    return [s for s in seats if s.token_hash in here or (s.asked_at or 0.0) > young]


def _rematch_view(room: Pictured, online: frozenset[int]) -> dict[str, Any] | None:
    if room.status is not RoomStatus.OVER and not room.next_seats:
        return None
    return {
        "confirmed": confirmed(room),
        "needed": awaited(room, online),
        # Whether the next match was made; its code goes only to the people who were at the
        # table (see ..rooms.nextmatch), never into the picture anyone may read.
        "moved_on": room.next_code is not None,
        # Spectators who asked for a seat at the next match.
        "next_seats": [
            {"name": s.name, "color": s.color, "avatar": s.avatar}
            for s in held(room, room.next_seats)
        ],
    }


def _player(
    room: Pictured,
    seat: int,
    online: frozenset[int],
    done: list[int],
    state: MatchState | None,
    bot_plays: list[int],
) -> dict[str, Any]:
    s = room.seats[seat]
    label = LEVEL_LABELS.get(s.bot) if s.bot is not None else None
    return {
        "seat": seat,
        "name": s.name,
        "kind": s.label,
        "online": s.kind is SeatKind.BOT or seat in online,
        "color": seat_color(seat, s.color),
        "avatar": seat_avatar(seat, s.avatar),
        # A bot's difficulty (or its spec, for a bot seated by name) and its name.
        "level": s.bot,
        "level_label": s.bot if label is None else Words(label),
        "rematch": seat in done,
        # A bot plays this person's turns (away, or the table asked), until they are back.
        "played_for": seat in bot_plays,
        # Leaving the match once this round ends, or gone from it.
        "leaving": state is not None and seat in state.leaving,
        "left": state is not None and seat in state.departed,
        # Away: from when (epoch ms) anyone seated may ask a bot to play for them or have
        # them leave (the host may at once; see ..play.standin).  None: here, or a bot.
        "askable_ms": _askable(room, seat, online),
    }


def _askable(room: Pictured, seat: int, online: frozenset[int]) -> int | None:
    """See ``askable_ms`` above."""
    if room.seats[seat].kind is not SeatKind.PERSON or seat in online:
        return None
    away = room.absence.away_for(seat)
    if away is None:
        return None
    return int((time.time() + room.absent_grace - away) * 1000)


def _podium(room: Pictured, state: MatchState | None, story: Story) -> dict[str, Any] | None:
    if story.podium is None or state is None or not state.departed:
        return story.podium
    return counted(story.podium, ending(room.events, state), room.names)


def picture(
    room: Pictured,
    after: MatchState | None = None,
    presence: tuple[frozenset[int], int] | None = None,
    story: Story | None = None,
    moment: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The room picture (see :meth:`..table.room.LiveRoom.public`)."""
    online, spectators = room.presence() if presence is None else presence
    state = room.state if after is None else after
    story = room.story if story is None else story
    over = room.status is RoomStatus.OVER
    rules, options, title = room.rules_view
    done = confirmed(room)
    playing = room.status is RoomStatus.PLAYING
    bot_plays = playing_for(room, room.absent_grace) if playing else []
    return {
        "code": room.code,
        "status": room.status.value,
        "version": room.version if after is None else room.version + 1,
        "rules": rules,
        "title": title,
        "options": options,
        "lang": room.lang,
        "hints": room.hints,
        "turn_timer": room.turn_timer,
        # When the clock of a person's turn runs out (the turn timer, or the grace of someone
        # offline): then a bot plays the turn for them.
        "deadline_ms": None if room.deadline is None else int(room.deadline * 1000),
        "host": room.host,
        "players": [
            _player(room, i, online, done, state, bot_plays) for i in range(len(room.seats))
        ],
        "spectators": spectators,
        # The table screens watching (through every worker): the phones show their compact view.
        "screens": room.screens(),
        # Who may let a bot play for someone away at once, or have them leave after the
        # round (anyone seated may once they have been away long: ``askable_ms``).
        "stewards": stewards(room, online) if playing else [],
        # The person to act, here: in how many seconds the table may ask a bot to play their
        # turn (silent that long), who asked and how many must (see ..play.standin).
        "silent": silent_view(room, state, room.silent_grace, online, after is not None),
        # The turn a bot is playing for a person right now, and why.
        "played_for": turn_view(room) if after is None else None,
        # The fair dice: the commitment now, the seed at the end (real dice have neither).
        "dice_source": room.dice_source.value,
        "commitment": room.commitment if room.fair else None,
        "client_seeds": room.client_seeds if room.fair else [],
        "server_seed": room.server_seed if over and room.fair else None,
        # Round results travel once, with the summary; during play the totals say enough.
        "match": None if state is None else state_view(state, results=state.is_over),
        "moment": moment,
        "last_result": story.last_result,
        "tie": None if state is None else tie_view(state, room.names),
        "decides": deciding(room.rules),
        # (A match that ended by leaving says how it counts: see .podium.ending.)
        "podium": _podium(room, state, story),
        "rematch": _rematch_view(room, online),
    }
