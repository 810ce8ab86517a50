"""Names at a table: each one a person can tell from every other.

A name that merely looks like a seated player's -- ``Pіet`` with a Cyrillic ``і`` beside
``Piet``, ``Bot l`` beside ``Bot 1``, ``ＡＮＮＡ`` beside ``Anna`` -- would let someone pose as
that player in the narration, the scores and the chat bubbles.  Unicode's Technical Standard
#39 defines when two strings are confusable: they have the same *skeleton*.  The skeleton is
the maintained implementation's (``disarm.skeleton_key`` with TR 39's digit classes, built from
Unicode's own confusables table), never a table written here; it also folds case, so ``anna``
cannot sit beside ``Anna`` either.
"""

from __future__ import annotations

from collections.abc import Iterable

from disarm import skeleton_key

from ..words import refusals as E
from ..words.refusals import ErrorCode, RoomError


def skeleton(name: str) -> str:
    """The name's confusable skeleton (a key for comparing, never for showing).

    >>> skeleton("Pіet") == skeleton("Piet"), skeleton("Bot 1") == skeleton("Bot l")
    (True, True)
    >>> skeleton("Jörg") == skeleton("Jorg")
    False
    """
    # (A name of characters with no skeleton at all is compared as it is.)
    return skeleton_key(name, digit_policy="tr39") or name.casefold()


def check_name(name: str, taken: Iterable[str]) -> None:
    """Refuse ``name`` if it is, or looks like, one of the ``taken`` names (in the player's
    language when rendered)."""
    mine = skeleton(name)
    for other in taken:
        if other.casefold() == name.casefold():
            raise RoomError(ErrorCode.NAME_TAKEN, E.NAME_TAKEN, 409, name=name)
        if skeleton(other) == mine:
            raise RoomError(ErrorCode.NAME_TAKEN, E.NAME_LOOKALIKE, 409, name=name, other=other)
