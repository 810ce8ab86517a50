"""Every message a client may send, as pydantic models with size limits.

A WebSocket frame is checked for size before it is parsed, then parsed into exactly one of the
:data:`ClientMessage` shapes; anything else is refused with a sentence naming the problem
(:mod:`..words.invalid`).  The server rolls every die of a fair room; only a room played with real
dice takes faces from a client (``roll`` with ``faces``), and the engine checks them.

Languages and bot levels are the project's own lists (:data:`~shipcaptaincrew.facts.LANGUAGES`,
:data:`~shipcaptaincrew.bots.DIFFICULTIES`), never typed again here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictInt,
    TypeAdapter,
    model_validator,
)

from ...facts import DEFAULT_LANG, LANGUAGES, MAX_PLAYERS
from ..display.party import AVATARS, COLORS, REACTIONS
from ..storage.models import DiceSource, Late
from ..words.invalid import blank, one_of, two_clocks
from ..words.names import readable


def _check_member(choices: Sequence[str]) -> Callable[[object], object]:
    def check(value: object) -> object:
        if not isinstance(value, str) or value not in choices:
            raise one_of(choices)
        return value

    return check


def _member(choices: Sequence[str]) -> AfterValidator:
    """A text that must be one of ``choices`` (refused with the list, in any language)."""
    return AfterValidator(_check_member(choices))


def _clean_name(value: str) -> str:
    """Names are plain text: control characters go, whitespace collapses (escaping is on
    output), and what is left must be a name a person can read (:func:`.names.readable`)."""
    text = " ".join("".join(ch for ch in value if ch.isprintable()).split())
    if not text:
        raise blank()
    return readable(text)


#: The hours a slow table's host may give a person to act.
MIN_TURN_HOURS, MAX_TURN_HOURS = 1, 48


#: A catalogue language (``en``, ``de``, ``nb``).
Lang = Annotated[str, _member(LANGUAGES), Field(json_schema_extra={"enum": list(LANGUAGES)})]
Name = Annotated[str, Field(min_length=1, max_length=32), AfterValidator(_clean_name)]
Token = Annotated[str, Field(min_length=16, max_length=128, pattern=r"^[A-Za-z0-9_\-]+$")]
Version = Annotated[int, Field(ge=0)]
Color = Annotated[int, Field(ge=0, le=COLORS - 1)]
Avatar = Annotated[str, Field(max_length=16), _member(AVATARS)]
Emoji = Annotated[str, Field(max_length=16), _member(REACTIONS)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


#: A crew's id (random, URL-safe: see ``crews.identity.new_id``).
CrewId = Annotated[str, Field(min_length=8, max_length=32, pattern=r"^[A-Za-z0-9_\-]+$")]


class CreateRoom(_Strict):
    """POST /api/rooms.  For a crew (``crew``, with the member's key in ``X-Member-Key``) the
    host's name and look are the member's own, so ``name`` may be left out."""

    name: Name | None = None
    #: A preset's name, or a rule set's canonical text (a crew's table plays its last rules).
    preset: str = Field(default="classic", max_length=400)
    #: Rule options as ``key=value`` texts, e.g. ``["wild_captain=true"]``.
    settings: list[Annotated[str, Field(max_length=64)]] = Field(
        default_factory=list, max_length=20
    )
    #: The room's language: the creator's page language (refusals and texts default to it).
    lang: Lang = DEFAULT_LANG
    hints: bool = True
    #: Seconds a person has to act before a safe default is played (None: wait forever).
    turn_timer: int | None = Field(default=None, ge=5, le=600)
    #: A slow table, played across a day: the hours a person has to act (None: a live table;
    #: with it, no turn timer and no bot for the absent while the clock runs).
    turn_hours: int | None = Field(default=None, ge=MIN_TURN_HOURS, le=MAX_TURN_HOURS)
    #: At a slow table, what happens when the time to act runs out: a bot plays the turn, or
    #: the turn is passed.
    late: Annotated[Late, BeforeValidator(_check_member([v.value for v in Late]))] = Late.BOT
    #: Starting seat when the rules say ``starter=chosen``.
    starter: int | None = Field(default=None, ge=0, le=MAX_PLAYERS - 1)
    client_seed: str = Field(default="", max_length=64)
    #: Fair dice rolled by the server, or real dice whose faces the players type.
    dice: Annotated[DiceSource, BeforeValidator(_check_member([d.value for d in DiceSource]))] = (
        DiceSource.FAIR
    )
    #: The host's colour (an index into the pages' palette) and avatar (None: by seat).
    color: Color | None = None
    avatar: Avatar | None = None
    #: Show the result in the server's lists (``/history``, ``/stats``) once it is over.
    publish: bool = False
    #: Open the room for this crew: its match counts for the crew's season.
    crew: CrewId | None = None

    @model_validator(mode="after")
    def _one_clock(self) -> CreateRoom:
        """A turn timer in seconds, or hours to act: one clock a table."""
        if self.turn_hours is not None and self.turn_timer is not None:
            raise two_clocks()
        return self


class JoinRoom(_Strict):
    """POST /api/rooms/{code}/join.  A crew's member (``X-Member-Key``) takes the seat under
    their crew's name and look, so ``name`` may be left out."""

    name: Name | None = None
    client_seed: str = Field(default="", max_length=64)
    color: Color | None = None
    avatar: Avatar | None = None


class AddBot(_Strict):
    """POST /api/rooms/{code}/bots (host only): a difficulty, or any spec ``make_bot`` reads."""

    level: str = Field(default="medium", min_length=1, max_length=32, pattern=r"^[a-z0-9:.]+$")


class Hello(_Strict):
    """First WebSocket message: who is here (no token: a spectator) and in which language."""

    type: Literal["hello"]
    token: Token | None = None
    lang: Lang = DEFAULT_LANG
    #: A table screen (the big screen everyone at the table watches): a spectator until a
    #: seated player pairs it, then let in past the table's limit on spectators (see
    #: ``service.screens``), with the screen token the server gave it (None: a new screen).
    screen: bool = False
    screen_token: Token | None = None
    #: The version of the last picture this device drew of the table (a slow table's phone,
    #: opened again): the moments since are sent before the first picture (``play.missed``).
    seen: Version | None = None


class Act(_Strict):
    """A choice at ``version``: any canonical action text the engine lists (``stand``,
    ``reroll:keep5``, ``take:61``, ``sip:2``; hand-out splits may use ``,`` and ``x``)."""

    type: Literal["act"]
    action: str = Field(min_length=1, max_length=64, pattern=r"^[a-z0-9:,x_]+$")
    version: Version


class RollDice(_Strict):
    """Roll the dice that are due: the server rolls them, or (real dice) ``faces`` as rolled."""

    type: Literal["roll"]
    version: Version
    #: Real dice only: the faces rolled, in any order, as JSON integers (not ``"6"``, ``6.0``
    #: or ``true``).  The engine checks their count and that each is a face, 1..6 (the length
    #: cap only bounds the message).
    faces: list[StrictInt] | None = Field(default=None, max_length=16)


class Advice(_Strict):
    """Ask for each choice's win probability (refused when the host turned hints off)."""

    type: Literal["advice"]
    version: Version


class React(_Strict):
    """An emoji reaction for everyone at the table (never stored)."""

    type: Literal["react"]
    emoji: Emoji


class Rematch(_Strict):
    """A seated person confirms "play again" once the match is over."""

    type: Literal["rematch"]
    version: Version


class SeatNext(_Strict):
    """A spectator asks for a seat at the table's next match (the rematch)."""

    type: Literal["seat_next"]
    name: Name
    color: Color | None = None
    avatar: Avatar | None = None


class RefuseNext(_Strict):
    """The host turns down the seat a spectator asked for at the next match (by its name)."""

    type: Literal["refuse_next"]
    name: str = Field(min_length=1, max_length=32)


class PlayFor(_Strict):
    """Let a bot play the turns of the person in ``seat``, who is away, until they are back;
    or, here but silent on their own turn, the rest of that turn (who may, and when: see
    ``service.standin``)."""

    type: Literal["play_for"]
    seat: Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)]


class RemoveAfterRound(_Strict):
    """The person in ``seat`` leaves the match once this round is over (a bot plays for them
    till then, if they are away); who may ask, and when: see ``service.standin``."""

    type: Literal["remove_after_round"]
    seat: Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)]
    version: Version


class Pair(_Strict):
    """A seated player pairs the table screen that shows ``code`` with the table."""

    type: Literal["pair"]
    code: str = Field(min_length=4, max_length=4, pattern=r"^[0-9]{4}$")


class TakeTurn(_Strict):
    """The person whose turn a bot is playing (they were silent, or the timer ran out) plays
    the rest of it again, at ``version``."""

    type: Literal["take_turn"]
    version: Version


class Ping(_Strict):
    """Keep-alive."""

    type: Literal["ping"]


Message = (
    Hello
    | Act
    | RollDice
    | Advice
    | React
    | Rematch
    | SeatNext
    | RefuseNext
    | PlayFor
    | RemoveAfterRound
    | TakeTurn
    | Pair
    | Ping
)
ClientMessage = Annotated[Message, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[Message] = TypeAdapter(ClientMessage)
