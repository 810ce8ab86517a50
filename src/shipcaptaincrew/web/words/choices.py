"""A player's choice said in words, for a refusal that names it (never in notation).

The page writes its buttons itself (``table.js``); a refusal the server sends back names the
choice the way a person would ("2 sips for Bo and a sip for Cy"), in the player's language.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...actions import (
    Action,
    HandOut,
    HandOutSplit,
    Leave,
    NextRound,
    RerollCargo,
    Roll,
    Stand,
    Stay,
    StopHandOut,
    StopMatch,
    Take,
)
from . import server_texts as T
from .render import Listed, Text, Words


def _to(seat: int, sips: int, names: Sequence[str]) -> Words:
    name = names[seat] if 0 <= seat < len(names) else str(seat)
    if sips == 1:
        return Words(T.CHOICE_SIP, {"name": name})
    return Words(T.CHOICE_SIPS, {"name": name, "n": sips})


def choice_words(action: Action, names: Sequence[str]) -> Text:
    """``action`` as a person says it, in any language (see :class:`~.render.Words`)."""
    if isinstance(action, HandOut):
        return _to(action.to, 1, names)
    if isinstance(action, HandOutSplit):
        return Listed(tuple(_to(s, n, names) for s, n in action.shares))
    if isinstance(action, RerollCargo):
        if action.keep is None:
            return Words(T.CHOICE_REROLL)
        return Words(T.CHOICE_KEEP, {"face": action.keep})
    if isinstance(action, Take):
        return Words(T.CHOICE_TAKE, {"faces": " ".join(map(str, action.faces))})
    if isinstance(action, Leave | Stay):
        name = names[action.seat] if 0 <= action.seat < len(names) else str(action.seat)
        return Words(T.CHOICE_LEAVE if isinstance(action, Leave) else T.CHOICE_STAY, {"name": name})
    simple = {
        Stand: T.CHOICE_STAND,
        StopHandOut: T.CHOICE_STOP_SIPS,
        NextRound: T.CHOICE_NEXT_ROUND,
        StopMatch: T.CHOICE_STOP,
        Roll: T.CHOICE_ROLL,
    }
    return Words(simple[type(action)])
