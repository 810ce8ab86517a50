"""A table in memory: its seats, the engine state, the fair dice, and the picture everyone sees.

A :class:`LiveRoom` is rebuilt from the database at will (see :meth:`.store.Store.load`): the
database holds the seats and every event, and the state is the engine's replay of the events.
"""

from __future__ import annotations

import asyncio
import functools
import random
import secrets
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ...actions import Action, Roll
from ...engine import initial_state, seat_to_act
from ...fair import FairDice, SeedFormat, bot_seed
from ...narrate import narrate
from ...notation import MatchLog, replay_events
from ...rules import Rules, Starter
from ...state import MatchState
from ..models import DiceSource, RoomStatus, SeatKind
from ..moments import Story, bot_explained
from ..party import REACTIONS, seat_avatar, seat_color
from ..relay import PRESENCE_TTL
from ..texts import LEVEL_LABELS, TIMER_PLAYED
from ..views import state_view
from ..words import Line, Title, Words
from .seats import Meta, SeatInfo

# (.protocol takes hash_token from here.)
from .seats import hash_token as hash_token
from .transport import Connection

#: Narrated events a newcomer is told (the story so far).
RECENT_EVENTS = 40
#: What a stored event made by the turn timer (for an absent person) says of itself; the
#: engine and the event log's readers ignore the key.
BY_TIMER = {"by": "timer"}


def by_timer(event: dict[str, Any]) -> bool:
    """Whether a stored event was made by the turn timer."""
    return event.get("by") == BY_TIMER["by"]


def narration(
    before: MatchState, action: Action, after: MatchState, names: list[str], timer: bool
) -> list[Line]:
    """An event's narration; a move the turn timer made says so first."""
    lines: list[Line] = list(narrate(before, action, after, names))
    if timer:
        seat = seat_to_act(before)
        lines.insert(0, Words(TIMER_PLAYED, {"name": names[seat] if seat is not None else ""}))
    return lines


class Advanced(NamedTuple):
    """What events taken in from the database tell the table: their narration, the newest
    moment among them and whether the turn timer made one."""

    lines: list[Line]
    moment: dict[str, Any] | None
    by_timer: bool


@dataclass(frozen=True)
class Ahead:
    """A room's next move played out early by the engine (see :meth:`.play.Play.look_ahead`)."""

    before: MatchState
    names: list[str]
    action: Action
    after: MatchState
    event: dict[str, Any]
    messages: list[Line]
    #: The table's story after the move, and the move's moment (see :mod:`..moments`).
    story: Story
    moment: dict[str, Any] | None
    #: The broadcast of ``after`` per language, drawn for this presence (None: not drawn).
    texts: Mapping[str, str] | None = None
    presence: tuple[frozenset[int], int] | None = None
    #: Columns of the event's row already converted for SQLite (see EventAppender.stored).
    ready: dict[str, Any] | None = None


@dataclass(eq=False)
class LiveRoom:
    """A table in memory (rebuilt from the database at will)."""

    id: int
    code: str
    rules: Rules
    lang: str
    hints: bool
    turn_timer: float | None
    starter: int | None
    status: RoomStatus
    commitment: str
    client_seeds: list[str]
    seats: list[SeatInfo]
    server_seed: str
    #: The host's seat (seat 0 at first).
    host: int = 0
    #: Once over, "play again": the seats that confirmed, the seats spectators asked for, and
    #: the next match's room once it is made (see :mod:`.nextmatch`).
    rematch: tuple[int, ...] = ()
    next_seats: tuple[SeatInfo, ...] = ()
    next_code: str | None = None
    #: Fair dice rolled here, or real dice whose faces the players type.
    dice_source: DiceSource = DiceSource.FAIR
    #: How the client seeds enter the fair dice (rooms made before the length prefix: joined).
    seed_format: SeedFormat = SeedFormat.PREFIXED
    state: MatchState | None = None
    #: What the table remembers beyond the engine's state: ties, the last round, the podium.
    story: Story = field(default_factory=Story)
    dice: FairDice | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    recent: deque[list[Line]] = field(default_factory=lambda: deque(maxlen=RECENT_EVENTS))
    conns: set[Connection] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    task: asyncio.Task[None] | None = None
    deadline: float | None = None
    #: The clock that hands the host's role on while the host is away (see :mod:`.host`).
    host_task: asyncio.Task[None] | None = None
    #: Bots choose with a generator of their own, seeded one way from the secret seed: a
    #: match is reproducible, and their choices tell nothing about the dice to come.
    rng: random.Random = field(init=False, repr=False)
    #: The next moves worked out while the player thinks, by action (for that state only).
    ahead: dict[Action, Ahead] = field(default_factory=dict)
    #: Scaled out: who is connected through the other workers (origin -> (when, seats,
    #: spectators)), so everyone sees everyone online whichever worker they are on.
    remote: dict[str, tuple[float, list[int], int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rng = random.Random(bot_seed(bytes.fromhex(self.server_seed)))

    def apply(self, meta: Meta) -> bool:
        """Take in the host and "play again" as the database has them; whether they changed."""
        now = Meta(self.host, self.rematch, self.next_seats, self.next_code)
        self.host, self.rematch = meta.host, meta.rematch
        self.next_seats, self.next_code = meta.next_seats, meta.next_code
        return meta != now

    # -- the match ------------------------------------------------------------------------
    def begin(self) -> None:
        """The match starts: the first state, and the fair dice from the seeds (fixed from now
        on; a table with real dice has none).

        Raises the engine's ``InvalidSetupError`` (and changes nothing) if the rules cannot be
        played by this many seats.
        """
        state = initial_state(self.rules, len(self.seats), starter=self.first_seat())
        self.status, self.state = RoomStatus.PLAYING, state
        if self.dice_source is DiceSource.FAIR:
            self.dice = FairDice(
                bytes.fromhex(self.server_seed), self.client_seeds, self.seed_format
            )

    def advance(self, events: list[dict[str, Any]]) -> Advanced:
        """Play committed events on, as the engine replays them; returns what to tell the table.

        The one way a room takes in events it did not play itself: at start-up (every event
        of the match) and, scaled out, the moves another worker committed.  The engine checks
        each (see :func:`~shipcaptaincrew.notation.replay_events`); the story so far, the die
        counter and the status follow.
        """
        before = self.state
        assert before is not None
        told = Advanced([], None, False)
        dice = 0
        choice: tuple[MatchState, Action, str] | None = None  # the newest bot's choice
        replayed = replay_events(before, events, start=len(self.events))
        for (after, action), event in zip(replayed, events, strict=True):
            timer = by_timer(event)
            lines = narration(before, action, after, self.names, timer)
            self.recent.append(lines)
            self.story, moment = self.story.step(before, action, after, self.names, timer)
            bot = self.bot_of(before)
            if bot is not None and not isinstance(action, Roll):
                choice = (before, action, bot)
            told = Advanced(told.lines + lines, moment or told.moment, told.by_timer or timer)
            if isinstance(action, Roll):
                dice += len(action.faces)
            before = after
        if choice is not None:
            # Why the newest bot's choice among these moves was made, on the moment the table
            # is shown: events taken in together (a worker that fell behind) show one moment,
            # and a bot's choice followed at once by its roll must not lose its reason.
            told = told._replace(moment=bot_explained(told.moment, *choice))
        self.state = before
        self.events += events
        if self.dice is not None:
            self.dice.count += dice
        if before.is_over:
            self.finish()
        return told

    def bot_of(self, state: MatchState) -> str | None:
        """The spec of the bot choosing in ``state`` (None: a person's turn, or none)."""
        seat = seat_to_act(state)
        return None if seat is None else self.seats[seat].bot

    def finish(self) -> None:
        """The match is over: the seed of fair dice may be shown."""
        self.status = RoomStatus.OVER
        if self.dice is not None:
            self.dice.reveal()

    @property
    def fair(self) -> bool:
        """The server rolls this room's dice (committed before the match, checkable after)."""
        return self.dice_source is DiceSource.FAIR

    @property
    def version(self) -> int:
        """The state version clients must quote: the number of events so far."""
        return len(self.events)

    @property
    def names(self) -> list[str]:
        """Player names by seat."""
        return [s.name for s in self.seats]

    def first_seat(self) -> int | None:
        """The starting seat the host chose, where the rules let the host choose."""
        if self.rules.starter is Starter.CHOSEN:
            return (
                self.starter if self.starter is not None and self.starter < len(self.seats) else 0
            )
        return None

    def log(self) -> MatchLog:
        """The match as an event log (with the seed once it is revealed)."""
        log = MatchLog(
            rules=str(self.rules),
            players=self.names,
            kinds=[s.label for s in self.seats],
            starter=self.first_seat(),
            # (Real dice are "typed" dice in the log's words, as scc companion writes them.)
            dice={
                "source": "fair",
                "commitment": self.commitment,
                "client_seeds": self.client_seeds,
                "client_seed_format": self.seed_format.value,
            }
            if self.fair
            else {"source": "typed"},
            lang=self.lang,
            events=list(self.events),
        )
        if self.status is RoomStatus.OVER and self.fair:
            log.server_seed = self.server_seed
        return log

    # -- who is here ----------------------------------------------------------------------
    def welcome(self, seat: int | None) -> dict[str, Any]:
        """The first message of a connection (and again when its seat moved): who it is."""
        you = None if seat is None else {"seat": seat, "name": self.seats[seat].name}
        return {
            "type": "welcome",
            "seat": seat,
            "host": self.host,
            "you": you,
            "reactions": list(REACTIONS),
        }

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token belongs to (None if it belongs to none)."""
        if not token:
            return None
        return self.seat_of_hash(hash_token(token))

    def seat_of_hash(self, h: str | None) -> int | None:
        """The seat whose token has this hash (None if none)."""
        if h is None:
            return None
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return i
        return None

    def local_presence(self) -> dict[str, Any]:
        """The seats and spectator count connected to this process."""
        return {
            "seats": sorted({c.seat for c in self.conns if c.open and c.seat is not None}),
            "spectators": sum(1 for c in self.conns if c.open and c.seat is None),
        }

    def presence(self) -> tuple[frozenset[int], int]:
        """The seats online and the number of spectators, through any worker."""
        online = {c.seat for c in self.conns if c.open and c.seat is not None}
        spectators = sum(1 for c in self.conns if c.open and c.seat is None)
        fresh = time.monotonic() - PRESENCE_TTL
        for when, seats, watching in self.remote.values():
            if when >= fresh:
                online.update(seats)
                spectators += watching
        return frozenset(online), spectators

    # -- the picture ----------------------------------------------------------------------
    @functools.cached_property
    def _rules_view(self) -> tuple[str, dict[str, Any], Title]:
        """The rules as text, options and human name: fixed for the room's life, so built
        once, not per move."""
        return str(self.rules), self.rules.options(), Title(self.rules)

    def confirmed(self) -> list[int]:
        """Once over, the seats that want to play again: the persons who said so, and bots."""
        if self.status is not RoomStatus.OVER:
            return []
        bots = {i for i, s in enumerate(self.seats) if s.kind is SeatKind.BOT}
        return sorted(bots | set(self.rematch))

    def awaited(self, online: frozenset[int]) -> list[int]:
        """Once over, the persons online whose "play again" the rematch still waits for."""
        if self.status is not RoomStatus.OVER or self.next_code is not None:
            return []
        return [
            i
            for i, s in enumerate(self.seats)
            if s.kind is SeatKind.PERSON and i in online and i not in self.rematch
        ]

    def _rematch_view(self, online: frozenset[int]) -> dict[str, Any] | None:
        if self.status is not RoomStatus.OVER and not self.next_seats:
            return None
        return {
            "confirmed": self.confirmed(),
            "needed": self.awaited(online),
            "next_code": self.next_code,
            # Spectators who asked for a seat at the next match.
            "next_seats": [
                {"name": s.name, "color": s.color, "avatar": s.avatar} for s in self.next_seats
            ],
        }

    def _player(self, seat: int, online: frozenset[int], confirmed: list[int]) -> dict[str, Any]:
        s = self.seats[seat]
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
            "rematch": seat in confirmed,
        }

    def public(
        self,
        after: MatchState | None = None,
        presence: tuple[frozenset[int], int] | None = None,
        story: Story | None = None,
        moment: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Everything anyone at (or watching) the table may see; never a token or the seed early.

        ``after`` and ``story``: the picture as it will be once this state (one event on) is
        played, which the look-ahead draws in advance (see :meth:`.play.Play.look_ahead`).
        ``moment``: what the event that led here means for the table (see :mod:`..moments`;
        None for a picture that follows no event, such as someone coming online).  The texts
        in it are :class:`~..words.Words`, said in each connection's language when sent.
        """
        online, spectators = self.presence() if presence is None else presence
        state = self.state if after is None else after
        story = self.story if story is None else story
        over = self.status is RoomStatus.OVER
        rules, options, title = self._rules_view
        confirmed = self.confirmed()
        return {
            "code": self.code,
            "status": self.status.value,
            "version": self.version if after is None else self.version + 1,
            "rules": rules,
            "title": title,
            "options": options,
            "lang": self.lang,
            "hints": self.hints,
            "turn_timer": self.turn_timer,
            "deadline_ms": None if self.deadline is None else int(self.deadline * 1000),
            "host": self.host,
            "players": [self._player(i, online, confirmed) for i in range(len(self.seats))],
            "spectators": spectators,
            # The fair dice: the commitment now, the seed at the end (real dice have neither).
            "dice_source": self.dice_source.value,
            "commitment": self.commitment if self.fair else None,
            "client_seeds": self.client_seeds if self.fair else [],
            "server_seed": self.server_seed if over and self.fair else None,
            # Round results travel once, with the summary; during play the totals say enough.
            "match": None if state is None else state_view(state, results=state.is_over),
            "moment": moment,
            "last_result": story.last_result,
            "podium": story.podium,
            "rematch": self._rematch_view(online),
        }
