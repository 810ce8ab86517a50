"""The table's fixed party sets: reactions, avatars and player colours, each listed once.

The server validates against these and sends them to the pages (the welcome message and
``/api/options``), so no page types its own copy.
"""

from __future__ import annotations

#: The emoji reactions a player or spectator may send (server-validated, rate-limited).
REACTIONS = ("👍", "👏", "😂", "😮", "😱", "🎉", "🍻", "🔥")

#: The avatars a player may pick at the join; a seat without one gets one by its number.
AVATARS = ("🦜", "🐙", "🐳", "🦀", "🐢", "🦈", "⚓", "🧭")
#: Player colours: indices into the pages' palette (a seat without a choice gets its number).
COLORS = 8


def seat_color(seat: int, chosen: int | None) -> int:
    """The colour a seat shows: the one chosen at the join, else one by its number."""
    return chosen if chosen is not None else seat % COLORS


def seat_avatar(seat: int, chosen: str | None) -> str:
    """The avatar a seat shows: the one chosen at the join, else one by its number."""
    return chosen if chosen is not None else AVATARS[seat % len(AVATARS)]
