"""The room picture as text, per language, and sending it to everyone at the table."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...i18n import translator
from ..connections.transport import Picture, dumps
from ..words.render import Line, say_line
from .room import LiveRoom


def translate(lang: str, domain: str = "web") -> Callable[[str], str]:
    """The translation function for a language (cached by the i18n layer)."""
    return translator(lang, domain)


def lines(messages: list[Line], lang: str) -> list[str]:
    """Narration in a language, a line a message."""
    return [say_line(m, lang) for m in messages]


def room_text(
    picture: dict[str, Any], messages: list[Line] | None, lang: str, by_timer: bool = False
) -> Picture:
    """The "room" message everyone at the table gets, in one language.

    ``by_timer``: the event was played by the turn timer for an absent person (its lines say
    so too), not by the player."""
    said = tuple(lines(messages, lang)) if messages else ()
    return Picture(dumps(picture, lang), said, by_timer)


async def broadcast_room(
    room: LiveRoom,
    messages: list[Line] | None = None,
    made: Mapping[str, str] | None = None,
    moment: dict[str, Any] | None = None,
    by_timer: bool = False,
) -> None:
    """Send the room to everyone (see :func:`post_room`; an awaitable for the callers that
    were written when sending waited for the peers)."""
    post_room(room, messages, made, moment, by_timer)


def post_room(
    room: LiveRoom,
    messages: list[Line] | None = None,
    made: Mapping[str, str] | None = None,
    moment: dict[str, Any] | None = None,
    by_timer: bool = False,
) -> None:
    """Send the room to everyone (one JSON text per language, built once), queued for each
    connection (see :mod:`..connections.transport`): it never waits for a peer.

    ``made``: texts already drawn for this very moment (by the look-ahead), per language;
    ``moment``: what the event just played means for the table (see :mod:`..display.moments`).
    """
    texts: dict[str, str] = dict(made or {})
    public = None
    for c in list(room.conns):
        text = texts.get(c.lang)
        if text is None:
            if public is None:
                public = room.public(moment=moment)
            text = texts[c.lang] = room_text(public, messages, c.lang, by_timer)
        c.post(text)
