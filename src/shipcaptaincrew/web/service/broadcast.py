"""The room picture as text, per language, and sending it to everyone at the table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...i18n import translator
from ...narrate import Message
from .room import LiveRoom
from .transport import Connection, dumps, send_all


def translate(lang: str, domain: str = "web") -> Callable[[str], str]:
    """The translation function for a language (cached by the i18n layer)."""
    return translator(lang, domain)


def lines(messages: list[Message], lang: str) -> list[str]:
    """Narration in a language, a line a message."""
    tr = translate(lang, "scc")
    return [m.render(tr) for m in messages]


def room_text(picture: dict[str, Any], messages: list[Message] | None, lang: str) -> str:
    """The "room" message everyone at the table gets, in one language."""
    return dumps(
        {
            "type": "room",
            "room": picture,
            "lines": lines(messages, lang) if messages else [],
        },
        lang,
    )


async def broadcast_room(
    room: LiveRoom,
    messages: list[Message] | None = None,
    made: dict[str, str] | None = None,
    moment: dict[str, Any] | None = None,
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
            text = texts[c.lang] = room_text(public, messages, c.lang)
        batch.append((c, text))
    await send_all(batch)
