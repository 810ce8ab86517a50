"""Refusals with a message id (translated in the ``web`` catalogue) and an HTTP status."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum


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


def N_(msgid: str) -> str:
    """Mark a message id for the ``web`` catalogue."""
    return msgid


class RoomError(ValueError):
    """A request the room refuses: ``code`` for programs, ``msgid`` + ``params`` for people."""

    def __init__(self, code: ErrorCode, msgid: str, status: int = 400, /, **params: object) -> None:
        self.code = code
        self.msgid = msgid
        self.status = status
        self.params = params
        super().__init__(msgid.format(**params))

    def render(self, translate: Callable[[str], str] | None = None) -> str:
        """The message in a language (``translate`` maps an English id to its translation)."""
        text = translate(self.msgid) if translate else self.msgid
        return text.format(**self.params)


# Every refusal, so the catalogue lists them (the service raises them by these ids).
NOT_FOUND = N_("There is no room with the code {code}.")
#: A scaled-out server that cannot reach its database or Redis (issue 8).
UNAVAILABLE = N_(
    "The server cannot reach its {what} right now: nothing was played. Try again in a moment."
)
#: Two workers raced for the same table and this one lost.
CONFLICT = N_("Someone else changed the table at the same moment: look again and retry.")
STALE = N_("The table has moved on since you looked: your choice was not played.")
NOT_YOUR_TURN = N_("It is not your turn.")
ILLEGAL = N_("That is not allowed now: {reason}")
NOT_AN_ACTION = N_("That is not a choice in this game: {reason}")
SPECTATOR = N_("Spectators can watch but not play.")
NOT_HOST = N_("Only the host can do that.")
BAD_TOKEN = N_("That seat token is not valid for this room.")
STARTED = N_("The match has already started.")
NOT_STARTED = N_("The match has not started yet.")
FULL = N_("The table is full ({n} seats).")
NAME_TAKEN = N_("The name {name} is already taken at this table.")
TOO_FEW = N_("At least two players are needed to start.")
BAD_RULES = N_("These rules cannot be used: {reason}")
BAD_BOT = N_("Unknown bot: {reason}")
BAD_SEAT = N_("There is no seat {seat} to remove.")
HOST_SEAT = N_("The host's own seat cannot be removed.")
HINTS_OFF = N_("The host turned hints off for this table.")
NO_ADVICE = N_("There is no choice to advise on right now.")
RATE = N_("Too many messages: slow down.")
TOO_BIG = N_("That message is too large.")
INVALID = N_("That message could not be read: {reason}")
HELLO_FIRST = N_("Say hello first.")
NOT_OVER = N_("The match is not over yet: the seed is revealed at the end.")


def unavailable(what: str) -> RoomError:
    """The refusal for a move that could not be made because a backing service is down."""
    return RoomError(ErrorCode.UNAVAILABLE, UNAVAILABLE, 503, what=what)
