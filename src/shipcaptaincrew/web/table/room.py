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

from ...actions import Action, Leave, Roll
from ...engine import initial_state, seat_to_act
from ...fair import FairDice, SeedFormat, bot_seed
from ...narrate import narrate
from ...notation import MatchLog, replay_events
from ...rules import Rules, Starter
from ...state import MatchState
from ..connections.transport import Connection
from ..display.absence import Absence, By, by_of
from ..display.moments import Story, bot_explained
from ..display.party import REACTIONS
from ..display.picture import picture
from ..storage.models import DiceSource, RoomStatus
from ..words import server_texts as T
from ..words.render import Line, Title, Words, say_line
from .seats import Ask, Meta, SeatInfo

# (.protocol takes hash_token from here.)
from .seats import hash_token as hash_token

#: Narrated events a newcomer is told (the story so far).
RECENT_EVENTS = 40
#: The line before the first move a bot makes in a person's turn, by why it makes it (and,
#: asked for, the line that names who asked).
PLAYED_FOR = {
    By.TIMER: T.PLAYED_BY_TIMER,
    By.AWAY: T.PLAYED_AWAY,
    By.ASKED: T.PLAYED_ASKED,
    By.SILENT: T.PLAYED_SILENT,
}
PLAYED_FOR_ASKED = {By.ASKED: T.PLAYED_ASKED_BY, By.SILENT: T.PLAYED_SILENT}


def narration(
    before: MatchState,
    action: Action,
    after: MatchState,
    names: list[str],
    by: By | None = None,
    first: bool = True,
    askers: tuple[int, ...] = (),
    answered: int | None = None,
) -> list[Line]:
    """An event's narration; the first move a bot makes in a person's turn says so first,
    and who asked for it, if the table did (``askers``: their seats).  ``answered``: the
    person who answered "another round?" for the table, named as the one who called it."""
    said = list(names)
    actor = seat_to_act(before)
    if answered is not None and actor is not None and 0 <= answered < len(names):
        said[actor] = names[answered]
    lines: list[Line] = list(narrate(before, action, after, said))
    if by is not None and first:
        seat = seat_to_act(before)
        params: dict[str, Any] = {"name": names[seat] if seat is not None else ""}
        msgid = PLAYED_FOR[by]
        if askers and by in PLAYED_FOR_ASKED:
            msgid = PLAYED_FOR_ASKED[by]
            params["askers"] = tuple(names[s] for s in askers if 0 <= s < len(names))
        lines.insert(0, Words(msgid, params))
    return lines


def askers_of(event: dict[str, Any]) -> tuple[int, ...]:
    """Who asked for the bot that made a stored event (its ``"asked_by"``; none: nobody)."""
    value = event.get("asked_by")
    if not isinstance(value, list):
        return ()
    return tuple(s for s in value if isinstance(s, int) and not isinstance(s, bool))


def turn_goes_on(events: list[dict[str, Any]], event: dict[str, Any]) -> bool:
    """Whether ``event`` goes on a turn a bot was already playing for the same person."""
    if not events:
        return False
    last = events[-1]
    return last.get("by") == event.get("by") and last.get("seat") == event.get("seat")


class Report(NamedTuple):
    """Who another worker says is connected to a room through it (see .cluster), and when it
    said so: the seats, the spectators (table screens among them), the paired table screens
    (their ids), the newcomers holding a seat at the next match (their tokens' hashes) and
    the table screens waiting to be paired (``CODE:ID``: the code each shows, its id)."""

    when: float
    seats: list[int]
    spectators: int
    screens: tuple[str, ...] = ()
    newcomers: tuple[str, ...] = ()
    pairing: tuple[str, ...] = ()

    @classmethod
    def of(cls, when: float, data: dict[str, Any]) -> Report:
        """A worker's presence message as a report (a field it does not send: none)."""

        def texts(key: str) -> tuple[str, ...]:
            value = data.get(key)
            return tuple(str(v) for v in value) if isinstance(value, list) else ()

        return cls(
            when,
            list(data["seats"]),
            int(data["spectators"]),
            texts("screens"),
            texts("newcomers"),
            texts("pairing"),
        )


class Advanced(NamedTuple):
    """What events taken in from the database tell the table: their narration, the newest
    moment among them and whether a bot made one for a person."""

    lines: list[Line]
    moment: dict[str, Any] | None
    by_timer: bool


@dataclass(frozen=True)
class Ahead:
    """A room's next move played out early by the engine (see :meth:`..play.moves.Play.look_ahead`)."""

    before: MatchState
    names: list[str]
    action: Action
    after: MatchState
    event: dict[str, Any]
    messages: list[Line]
    #: The table's story after the move, and the move's moment (see :mod:`..display.moments`).
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
    #: the next match's room once it is made (see :mod:`..rooms.nextmatch`).
    rematch: tuple[int, ...] = ()
    next_seats: tuple[SeatInfo, ...] = ()
    next_code: str | None = None
    #: Votes to let a bot play a silent person's turn, and the paired table screens' ids
    #: (see :class:`.seats.Meta`).
    asks: tuple[Ask, ...] = ()
    paired: tuple[str, ...] = ()
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
    #: The clock that hands the host's role on while the host is away (see :mod:`..rooms.host`).
    host_task: asyncio.Task[None] | None = None
    #: Bots choose with a generator of their own, seeded one way from the secret seed: a
    #: match is reproducible, and their choices tell nothing about the dice to come.
    rng: random.Random = field(init=False, repr=False)
    #: The next moves worked out while the player thinks, by action (for that state only).
    ahead: dict[Action, Ahead] = field(default_factory=dict)
    #: Scaled out: who is connected through the other workers (origin -> (when, seats,
    #: spectators, table screens among them)), so everyone sees everyone online whichever
    #: worker they are on, and a phone sees a table screen connected to another worker.
    remote: dict[str, Report] = field(default_factory=dict)
    #: The seats this worker last told the others are connected through it (see .presence).
    announced: tuple[int, ...] = ()
    #: When this worker loaded the room (monotonic): scaled out, who is connected through the
    #: other workers is known only once each has announced (at least every ``PRESENCE_EVERY``).
    loaded_at: float = field(default_factory=time.monotonic)
    #: Who is away and whose turn a bot plays for them (see :mod:`..display.absence`), and the
    #: seconds a person may be offline before it does (``Settings.absent_grace``).
    absence: Absence = field(default_factory=Absence)
    absent_grace: float = 30.0
    #: Seconds the person to act may be silent before the table may ask a bot to play their
    #: turn (``Settings.silent_grace``).
    silent_grace: float = 30.0
    #: Seconds another worker's report of who is connected through it is believed
    #: (``Settings.presence_ttl``).
    presence_ttl: float = 30.0
    #: When the last event was played or read here (monotonic): how long the person to act
    #: has been silent (see :mod:`.standin`).
    acted_at: float = field(default_factory=time.monotonic)
    #: A rematch's room: everyone's die for the start is rolled at once ("play again" was
    #: each person's tap to begin).
    quick_start: bool = False
    #: The story so far as a newcomer is told it, per language, for the version it was said
    #: at (see :meth:`history`).
    said: dict[str, tuple[int, tuple[str, ...]]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(bot_seed(bytes.fromhex(self.server_seed)))

    def apply(self, meta: Meta) -> bool:
        """Take in the host, "play again", the votes and the screens as the database has them;
        whether they changed."""
        now = self.meta
        self.host, self.rematch = meta.host, meta.rematch
        self.next_seats, self.next_code = meta.next_seats, meta.next_code
        self.asks, self.paired = meta.asks, meta.screens
        return meta != now

    @property
    def meta(self) -> Meta:
        """What the room holds besides its seats and events, as this worker knows it."""
        return Meta(
            self.host, self.rematch, self.next_seats, self.next_code, self.asks, self.paired
        )

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
        done = list(self.events)
        for (after, action), event in zip(replayed, events, strict=True):
            by = by_of(event)
            first = not turn_goes_on(done, event)
            answered = event.get("answered_by")
            answered = answered if isinstance(answered, int) else None
            lines = narration(
                before, action, after, self.names, by, first, askers_of(event), answered
            )
            done.append(event)
            self.recent.append(lines)
            self.story, moment = self.story.step(before, action, after, self.names, by)
            bot = None if isinstance(action, Leave) else self.bot_of(before)
            if bot is not None and not isinstance(action, Roll):
                choice = (before, action, bot)
            told = Advanced(told.lines + lines, moment or told.moment, told.by_timer or bool(by))
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
        self.acted_at = time.monotonic()
        self._bot_turn(events[-1] if events else None)
        if self.dice is not None:
            self.dice.count += dice
        if before.is_over:
            self.finish()
        return told

    def _bot_turn(self, event: dict[str, Any] | None) -> None:
        """Events another worker played: if a bot was playing a person's turn there and the
        turn goes on, it is shown here too (whose, why, who asked), as on that worker."""
        by = None if event is None else by_of(event)
        state = self.state
        if event is None or by is None or state is None or state.is_over:
            return
        seat = event.get("seat")
        if seat_to_act(state) != seat or not isinstance(seat, int):
            return
        self.absence.turn = (seat, by)
        if by is By.SILENT:
            self.absence.silenced[seat] = askers_of(event)
        elif by is By.ASKED:
            self.absence.asked[seat] = askers_of(event)

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

    def history(self, lang: str) -> tuple[str, ...]:
        """The narration of the last :data:`RECENT_EVENTS` events in ``lang``, a line a message:
        what a newcomer's first picture tells.  Said once per language and version, not per
        arrival (a crowd arriving at a table in play once had each newcomer's story said
        anew, under the room's lock); every event appends to the story and to the events
        together, so the version tells whether it is still the story."""
        version = len(self.events)
        said = self.said.get(lang)
        if said is None or said[0] != version:
            lines = tuple(say_line(m, lang) for msgs in self.recent for m in msgs)
            said = self.said[lang] = (version, lines)
        return said[1]

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

    def local_seats(self) -> tuple[int, ...]:
        """The seats connected to this process, in order (what the other workers are told)."""
        return tuple(sorted({c.seat for c in self.conns if c.open and c.seat is not None}))

    def local_presence(self) -> dict[str, Any]:
        """Who is connected to the room through this process (see :class:`Report`)."""
        open_ = [c for c in self.conns if c.open]
        return {
            "seats": list(self.local_seats()),
            "spectators": sum(1 for c in open_ if c.seat is None),
            "screens": sorted({c.screen_id for c in open_ if c.screen and c.screen_id}),
            "newcomers": sorted({hash_token(c.next_token) for c in open_ if c.next_token}),
            "pairing": sorted(
                {f"{c.pairing}:{c.screen_id}" for c in open_ if c.pairing and not c.screen}
            ),
        }

    def reports(self) -> list[Report]:
        """The other workers' reports still believed (see ``Settings.presence_ttl``)."""
        fresh = time.monotonic() - self.presence_ttl
        return [r for r in self.remote.values() if r.when >= fresh]

    def presence(self) -> tuple[frozenset[int], int]:
        """The seats online and the number of spectators, through any worker."""
        online = {c.seat for c in self.conns if c.open and c.seat is not None}
        spectators = sum(1 for c in self.conns if c.open and c.seat is None)
        for r in self.reports():
            online.update(r.seats)
            spectators += r.spectators
        return frozenset(online), spectators

    def screen_ids(self) -> set[str]:
        """The paired table screens watching, through any worker (by id)."""
        here = {c.screen_id for c in self.conns if c.open and c.screen and c.screen_id}
        return here.union(*(r.screens for r in self.reports()))

    def screens(self) -> int:
        """How many paired table screens watch, through any worker (each phone then shows
        its compact view, whichever worker it is on)."""
        return len(self.screen_ids())

    def newcomers(self) -> set[str]:
        """The token hashes of the newcomers with a seat at the next match who are connected,
        through any worker (the next match takes only those still here)."""
        here = {hash_token(c.next_token) for c in self.conns if c.open and c.next_token}
        return here.union(*(r.newcomers for r in self.reports()))

    def pairing(self) -> dict[str, str]:
        """The table screens waiting to be paired, through any worker: pairing code -> the
        screen's id."""
        shown = {
            c.pairing: c.screen_id
            for c in self.conns
            if c.open and c.pairing and c.screen_id and not c.screen
        }
        for r in self.reports():
            for item in r.pairing:
                code, _, screen_id = item.partition(":")
                shown.setdefault(code, screen_id)
        return shown

    # -- the picture ----------------------------------------------------------------------
    @functools.cached_property
    def rules_view(self) -> tuple[str, dict[str, Any], Title]:
        """The rules as text, options and human name: fixed for the room's life, so built
        once, not per move."""
        return str(self.rules), self.rules.options(), Title(self.rules)

    def public(
        self,
        after: MatchState | None = None,
        presence: tuple[frozenset[int], int] | None = None,
        story: Story | None = None,
        moment: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Everything anyone at (or watching) the table may see; never a token or the seed early.

        ``after`` and ``story``: the picture as it will be once this state (one event on) is
        played, which the look-ahead draws in advance (see :meth:`..play.moves.Play.look_ahead`).
        ``moment``: what the event that led here means for the table (see :mod:`..display.moments`;
        None for a picture that follows no event, such as someone coming online).  Drawn by
        :func:`..display.picture.picture`.
        """
        return picture(self, after, presence, story, moment)
