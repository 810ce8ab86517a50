"""Refusals with a message id (translated in the ``web`` catalogue) and an HTTP status.

A refusal is the server's words (:class:`~.render.Words`, the table of this module shaped like
:mod:`.server_texts`') with a code for programs and a status: it is rendered in one language by the
same lookup as every other text of the server (:meth:`RoomError.render`).  Its own sentence
comes from the ``web`` catalogue, and a parameter that is a refusal of the core (a
:class:`~shipcaptaincrew.errors.GameError`, or its :class:`~shipcaptaincrew.messages.Message`)
is rendered with the ``scc`` catalogue, so "Diese Runde braucht 3 Würfel" reaches a German
player whole, not half in English.  A parameter marked :class:`~.catalogue.Label` is a ``web``
message id itself (a field's name in a validation refusal).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from ... import facts
from .catalogue import N_, NP_, Label, Plural
from .render import Words


class ErrorCode(StrEnum):
    """What a refusal is, for programs: the ``code`` of every error answer and message."""

    NOT_FOUND = "not_found"
    UNAVAILABLE = "unavailable"
    CONFLICT = "conflict"
    STALE = "stale"
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL = "illegal"
    OVER = "over"
    NOT_AN_ACTION = "not_an_action"
    SPECTATOR = "spectator"
    NOT_HOST = "not_host"
    BAD_TOKEN = "bad_token"
    STARTED = "started"
    NOT_STARTED = "not_started"
    FULL = "full"
    NAME_TAKEN = "name_taken"
    TOO_FEW = "too_few"
    BAD_RULES = "bad_rules"
    BAD_BOT = "bad_bot"
    BAD_SEAT = "bad_seat"
    HOST_SEAT = "host_seat"
    HINTS_OFF = "hints_off"
    NO_ADVICE = "no_advice"
    RATE = "rate"
    TOO_BIG = "too_big"
    INVALID = "invalid"
    HELLO_FIRST = "hello_first"
    NOT_OVER = "not_over"
    BAD_LANG = "bad_lang"
    #: A binary frame, or a frame over the WebSocket frame limit (then the socket is closed).
    BAD_MESSAGE = "bad_message"
    #: Dice faces that cannot be, faces sent where the server rolls, or none where it does not.
    BAD_DICE = "bad_dice"
    #: A rematch or a seat for the next match that cannot be had (yet).
    NO_REMATCH = "no_rematch"
    #: A WebSocket opened by a page of another site (see ``Settings.allowed_origins``).
    BAD_ORIGIN = "bad_origin"
    #: No new room now: this address opened its hourly share, or the server is full.
    ROOM_LIMIT = "room_limit"
    #: The table was idle too long and is gone (see ``Settings.room_idle_seconds``).
    EXPIRED = "expired"
    #: No room for this connection: the table's spectators, the seat's connections or the
    #: client network's connections are at their limit.
    CROWDED = "crowded"
    #: A push subscription that cannot be kept: its address, keys, time zone or quiet hours.
    BAD_SUBSCRIPTION = "bad_subscription"
    #: No crew for this request: none with this id, or the key, invite or link does not let
    #: this device in (the same answer for each, so an answer tells a stranger nothing).
    NO_CREW = "no_crew"
    #: Only a crew's admin may do this.
    NOT_ADMIN = "not_admin"
    #: A crew's refusal of a change to itself (the last admin, a season's dates, a guest).
    CREW = "crew"


class RoomError(ValueError):
    """A request the room refuses: ``code`` for programs, ``msgid`` + ``params`` for people.

    ``extra``: more fields for the answer's body (a finished room's replay link, say).
    """

    def __init__(
        self,
        code: ErrorCode,
        msgid: str | Plural,
        status: int = 400,
        /,
        extra: dict[str, Any] | None = None,
        **params: object,
    ) -> None:
        self.code = code
        self.msgid = msgid
        self.status = status
        self.params = params
        self.extra = extra or {}
        super().__init__(self.render())

    def render(self, lang: str | None = None) -> str:
        """The refusal in a language (English without one; see the module docstring)."""
        return Words(self.msgid, self.params).render(lang or facts.DEFAULT_LANG)

    def body(self, lang: str | None = None) -> dict[str, Any]:
        """The JSON answer of a REST refusal."""
        return {"code": self.code.value, "detail": self.render(lang), **self.extra}

    def message(self, lang: str | None = None) -> dict[str, Any]:
        """The WebSocket ``error`` message of this refusal."""
        return {
            "type": "error",
            "code": self.code.value,
            "message": self.render(lang),
            **self.extra,
        }


# Every refusal, so the catalogue lists them (the service raises them by these ids).
NOT_FOUND = N_("There is no room with the code {code}.")
#: A path the server has no page or answer for.
NO_SUCH_PATH = N_("There is nothing at this address.")
NO_SUCH_METHOD = N_("This address does not answer {method} requests.")
#: A scaled-out server that cannot reach its database or Redis (issue 8).
UNAVAILABLE = N_(
    "The server cannot reach its {what} right now: nothing was played. Try again in a moment."
)
#: Two workers raced for the same table and this one lost.
CONFLICT = N_("Someone else changed the table at the same moment: look again and retry.")
STALE = N_("The table has moved on since you looked: your choice was not played.")
NOT_YOUR_TURN = N_("It is not your turn.")
#: ``reason``: the engine's own refusal, in the player's language.
ILLEGAL = N_("That is not allowed now: {reason}")
NO_DICE_DUE = N_("That is not allowed now: no dice are due.")
DICE_FIRST = N_("That is not allowed now: the dice are due first.")
SERVER_ROLLS = N_("The server rolls every die here: send a roll request.")
NOT_A_CHOICE = N_("That is not one of your choices now: {what}.")
MATCH_OVER = N_("The match is over.")
NOT_AN_ACTION = N_("That is not a choice in this game: {reason}")
SPECTATOR = N_("Spectators can watch but not play.")
NOT_HOST = N_("Only the host can do that.")
BAD_TOKEN = N_("That seat token is not valid for this room.")
STARTED = N_("The match has already started: you can watch it and take a seat for the next match.")
#: Joining a finished room (``extra`` carries the replay's address).
FINISHED = N_("This match is over. Its replay is at {replay}.")
NOT_STARTED = N_("The match has not started yet.")
FULL = N_("The table is full ({n} seats).")
NAME_TAKEN = N_("The name {name} is already taken at this table.")
TOO_FEW = N_("At least two players are needed to start.")
#: ``reason``: the core's refusal of the rule set or the set-up.
BAD_RULES = N_("These rules cannot be used: {reason}")
BAD_BOT = N_("There is no bot called {level}: choose one of {levels}.")
BAD_SEAT = N_("There is no seat {seat} to remove.")
HOST_SEAT = N_("The host's own seat cannot be removed.")
HINTS_OFF = N_("The host turned hints off for this table.")
NO_ADVICE = N_("There is no choice to advise on right now.")
RATE = N_("Too many messages: slow down.")
TOO_BIG = N_("That message is too large.")
HELLO_FIRST = N_("Say hello first.")
NOT_OVER = N_("The match is not over yet: the seed is revealed at the end.")
BAD_LANG = N_("There is no language {lang}: choose one of {langs}.")
#: WebSocket frames the server cannot read at all.
BINARY_FRAME = N_("This table talks in text messages: a binary message cannot be read.")
FRAME_TOO_BIG = N_(
    "That message is far too large ({size} bytes; at most {limit}): the connection is closed."
)
#: Physical dice: ``problem`` is the engine's refusal of the faces.
BAD_FACES = N_("Type the dice again: {problem}.")
TYPE_THE_DICE = N_("This table plays with real dice: type the faces you rolled.")
NOT_YOUR_DICE = N_(
    "Only the player whose dice are due can type them (the host types a bot's, or those of "
    "someone away)."
)
NO_FACES_HERE = N_("The server rolls the dice at this table: send a roll without faces.")
#: Rematch and seats for the next match.
REMATCH_NOT_OVER = N_("Play again is offered once the match is over.")
REMATCH_DONE = N_("The next match has begun already.")
NEXT_REFUSED = N_("The host keeps the next match to the table: you can go on watching.")
NEXT_SEATS_NETWORK = NP_(
    "Your network has {n} seat at the next match already: one each, please.",
    "Your network has {n} seats at the next match already: one each, please.",
)
NO_SUCH_NEWCOMER = N_("Nobody called {name} asked for a seat at the next match.")
SEATED_ALREADY = N_("You have a seat already.")
REACTION_RATE = N_("Not so fast with the reactions.")
#: Letting a bot play for someone away, or having them leave the match after the round.
NOT_AWAY = N_("{name} is here: they play their own turns.")
NOT_A_PERSON = N_("There is no player in seat {seat} to stand in for.")
#: Pairing a table screen.
NO_SUCH_SCREEN = N_("No table screen shows the code {code}: look at the screen and type its code.")
SCREENS_FULL = NP_(
    "This table shows on {n} screen already: close it first, then pair this one.",
    "This table shows on {n} screens already: close one of them first, then pair this one.",
)
NOT_FOR_YOURSELF = N_("You cannot ask that for yourself.")
REMOVE_HERE = N_("{name} is here: only the host can have them leave the match.")
AWAY_ONLY = N_("{name} has only just gone: anyone may ask that in {n} s, or the host now.")
AWAY_SLOW = N_(
    "{name} is away, as everyone often is at a table played across the day: when their hours "
    "run out, their turn is played or passed as the host chose. Only the host can ask for "
    "that here."
)
SILENT_SLOW = N_(
    "{name} has hours to act at a table played across the day: only the host can ask a bot to "
    "play their turn."
)
NOT_SILENT_YET = N_(
    "{name} is still within their time: a bot can be asked to play their turn in {n} s."
)
LEFT_ALREADY = N_("{name} is leaving the match already.")
#: The server's edges: who may open the live table, how many rooms, for how long.
BAD_ORIGIN = N_("This table only talks to its own pages, and this page comes from {origin}.")
ROOMS_PER_HOUR = N_(
    "Too many new tables from your address (at most {n} an hour): try again a little later."
)
CODE_GUESSES = N_(
    "Too many table codes that do not exist tried from your address (at most {n} a minute): "
    "check the code and try again in a minute."
)
OPEN_ROOMS = N_("The server holds as many open tables as it can ({n}): try again later.")
EXPIRED = N_("Nothing happened at this table for too long, so it was closed.")
#: The live table's limits on connections (a table's players always get in).
TOO_MANY_WATCHING = N_("This table has as many spectators as it takes ({n}): try again later.")
SEAT_CONNECTIONS = N_("Your seat is open in {n} places already: close one of them, then try again.")
TOO_MANY_CONNECTIONS = N_(
    "Too many connections from your network (at most {n} spectators): close some, then try again."
)
#: A name whose confusable skeleton (Unicode TR 39) is a seated player's.
NAME_LOOKALIKE = N_(
    "The name {name} looks too much like {other}, who is already at this table: choose another."
)
#: "Your turn" notifications (Web Push, see ``web/push/``): a subscription refused.
PUSH_NOT_HTTPS = N_("The push address must start with https://.")
PUSH_BAD_ADDRESS = N_("That is not a push address a browser gives.")
PUSH_PRIVATE = N_(
    "The push address points into a private network, and this server sends nothing there."
)
PUSH_BAD_KEY = N_("The browser's push key is not a valid P-256 public key.")
PUSH_BAD_SECRET = N_("The browser's push secret must be 16 bytes, written in base64url.")
PUSH_NO_ZONE = N_("There is no time zone called {zone}.")
PUSH_NOT_A_TIME = N_("{field}: this must be a time of day such as 22:00.")
PUSH_QUIET_PAIR = N_("Quiet hours need both a start and an end.")
PUSH_NO_SUBSCRIPTION = N_("Your seat has no such subscription.")
PUSH_NO_TABLE = N_("Your seat is at no table that is still open.")

# -- crews ------------------------------------------------------------------------------------
#: Said alike for a crew that does not exist and one this device is not a member of.
NO_CREW = N_("There is no crew here for you: a member's invite link lets you in.")
LINK_USED = N_("This link was used already or is too old: ask for a new one.")
NOT_ADMIN = N_("Only an admin of the crew can do that.")
CREW_NAME_TAKEN = N_("The name {name} is already taken in this crew.")
CREW_NAME_LOOKALIKE = N_(
    "The name {name} looks too much like {other}, who is already in this crew: choose another."
)
LAST_ADMIN = N_("A crew needs an admin: make someone else an admin first.")
NOT_CREW_ROOM = N_("This table is not your crew's: join it with a name instead.")
KEEP_NOT_OVER = N_("A table can be kept as a crew once its match is over.")
KEPT_ALREADY = N_("This table is a crew's already: join it from the podium.")
SEASON_DATES = N_("A season ends on or after the day it starts.")
NO_SEASON = N_("This crew has no season {season}.")
NO_GUEST = N_("No guest called {name} has played with this crew.")
NO_MEMBER = N_("This crew has no such member.")
NO_PARQUET = N_("Parquet needs the sim extra on the server: choose CSV or JSON.")

# -- refusals of a message that does not fit its form (pydantic's checks, one sentence each) --
# ``field``: the field's name (one of the labels below, or the raw key of an unknown field);
# "this" stands for it, so the sentence holds whatever the name's number and gender.
MISSING = N_("{field}: please fill this in.")
EMPTY = N_("{field}: this must not be empty.")
BLANK = N_("{field}: please use at least one visible character.")
TOO_LONG = N_("{field}: at most {limit} characters, please.")
TOO_MANY = N_("{field}: at most {limit} entries, please.")
NOT_ALLOWED_CHARS = N_("{field}: this contains characters that are not allowed.")
NOT_A_NUMBER = N_("{field}: this must be a whole number.")
NOT_TEXT = N_("{field}: this must be text.")
NOT_A_FLAG = N_("{field}: this must be true or false.")
NOT_A_LIST = N_("{field}: this must be a list.")
WRONG_KIND = N_("{field}: this is the wrong kind of value.")
AT_LEAST = N_("{field}: this must be at least {limit}.")
AT_MOST = N_("{field}: this must be at most {limit}.")
ONE_OF = N_("{field}: this must be one of {choices}.")
UNKNOWN_FIELD = N_("There is no field {field} in this message.")
NOT_JSON = N_("That message is not valid JSON.")
UNKNOWN_TYPE = N_("There is no message of type {kind}.")
NO_TYPE = N_("The message needs a type.")
NOT_VALID = N_("{field}: this is not valid.")
#: A name nobody could read at the table, or that passes for a bot's (see names.readable).
NAME_NO_LETTER = N_("{field}: please use at least one letter or digit that shows.")
NAME_HIDDEN = N_(
    "{field}: this has characters that show nothing or draw a whole phrase: letters, digits, "
    "punctuation and emoji only, please."
)
NAME_LONE_MARK = N_("{field}: an accent needs a letter before it.")
NAME_MARKS = N_("{field}: too many accents on one letter.")
NAME_WIDE = N_("{field}: this is too wide to fit on a player's card: a shorter name, please.")
NAME_BOT = N_("{field}: the table's bots are called so: a name that is not a bot's, please.")

# -- the fields' names in those sentences --
FIELD_NAME = N_("Your name")
FIELD_LANG = N_("Language")
FIELD_RULES = N_("Rules")
FIELD_SETTINGS = N_("Rule options")
FIELD_HINTS = N_("Hints")
TWO_CLOCKS = N_(
    "A table played across the day has hours to act, not a turn timer: leave the timer empty."
)
FIELD_TIMER = N_("Turn timer")
FIELD_TURN_HOURS = N_("Hours to play a turn")
FIELD_LATE = N_("When the time runs out")
FIELD_STARTER = N_("Starting seat")
FIELD_SEED = N_("Your dice seed")
FIELD_DICE = N_("Dice")
FIELD_LEVEL = N_("Bot level")
FIELD_TOKEN = N_("Seat token")
FIELD_ACTION = N_("Choice")
FIELD_VERSION = N_("Version")
FIELD_FACES = N_("Faces")
FIELD_EMOJI = N_("Reaction")
FIELD_COLOR = N_("Colour")
FIELD_AVATAR = N_("Avatar")
FIELD_TYPE = N_("Message type")
FIELD_REQUEST = N_("Request")
FIELD_SEAT = N_("Seat")
FIELD_ENDPOINT = N_("Push address")
FIELD_PUSH_KEYS = N_("Push keys")
FIELD_PUSH_KEY = N_("Push key")
FIELD_PUSH_SECRET = N_("Push secret")
FIELD_TIME_ZONE = N_("Time zone")
FIELD_QUIET_START = N_("Quiet from")
FIELD_QUIET_END = N_("Quiet until")
FIELD_MUTED = N_("Muted")
FIELD_ROOM = N_("Table code")
FIELD_CREW_NAME = N_("The crew's name")
FIELD_CREW = N_("Crew")
FIELD_INVITE = N_("Invite")
FIELD_SEASON = N_("Season")
FIELD_GUEST = N_("The guest's name")
FIELD_LINK = N_("Link")
FIELD_EXPORT_TABLE = N_("The table to export")
FIELD_FORMAT = N_("File format")
FIELD_STARTS = N_("First day")
FIELD_ENDS = N_("Last day")

#: What :data:`UNAVAILABLE` says is away.
DATABASE = N_("database")
RELAY = N_("live relay (Redis)")
SERVICE = N_("game service")


def unavailable(what: str) -> RoomError:
    """The refusal for a move that could not be made because a backing service is down
    (``what``: :data:`DATABASE`, :data:`RELAY` or :data:`SERVICE`)."""
    return RoomError(ErrorCode.UNAVAILABLE, UNAVAILABLE, 503, what=Label(what))
