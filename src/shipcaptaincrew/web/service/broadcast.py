"""The room picture as text, per language, and sending it to everyone at the table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...i18n import translator
from ..words import Line, say_line
from .room import LiveRoom
from .transport import Connection, dumps, send_all


def translate(lang: str, domain: str = "web") -> Callable[[str], str]:
    """The translation function for a language (cached by the i18n layer)."""
    return translator(lang, domain)


def lines(messages: list[Line], lang: str) -> list[str]:
    """Narration in a language, a line a message."""
    return [say_line(m, lang) for m in messages]


def room_text(
    picture: dict[str, Any], messages: list[Line] | None, lang: str, by_timer: bool = False
) -> str:
    """The "room" message everyone at the table gets, in one language.

    ``by_timer``: the event was played by the turn timer for an absent person (its lines say
    so too), not by the player."""
    return dumps(
        {
            "type": "room",
            "room": picture,
            "lines": lines(messages, lang) if messages else [],
            "by_timer": by_timer,
        },
        lang,
    )


async def broadcast_room(
    room: LiveRoom,
    messages: list[Line] | None = None,
    made: dict[str, str] | None = None,
    moment: dict[str, Any] | None = None,
    by_timer: bool = False,
) -> None:
    """Send the room to everyone (one JSON text per language, built once).

    ``made``: texts already drawn for this very moment (by the look-ahead), per language;
    ``moment``: what the event just played means for the table (see :mod:`..moments`).
    """
    texts = dict(made or {})
    public = None
    batch: list[tuple[Connection, str]] = []
    for c in list(room.conns):
        text = texts.get(c.lang)
        if text is None:
            if public is None:
                public = room.public(moment=moment)
            text = texts[c.lang] = room_text(public, messages, c.lang, by_timer)
        batch.append((c, text))
    await send_all(batch)
