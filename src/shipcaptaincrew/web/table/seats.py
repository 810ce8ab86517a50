"""Who sits at a table and what the room holds besides: seats, the host, "play again", tokens.

Seat tokens are kept and compared as hashes only (:func:`hash_token`): the database alone
cannot impersonate a player.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..storage.models import PERSON_LABEL, Room, SeatKind


def hash_token(token: str) -> str:
    """Tokens are stored and compared as SHA-256 hashes only."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class SeatInfo:
    """A seat as the live room knows it."""

    name: str
    kind: SeatKind
    token_hash: str | None
    #: A bot's spec (a difficulty such as "medium", or a bot name): which bot plays the seat.
    bot: str | None = None
    #: The colour and avatar chosen at the join (None: the seat's own, by its number).
    color: int | None = None
    avatar: str | None = None

    @classmethod
    def stored(
        cls,
        name: str,
        label: str,
        token_hash: str | None,
        color: int | None = None,
        avatar: str | None = None,
    ) -> SeatInfo:
        """A seat from its row (``label``: the stored kind, see :data:`..storage.models.PERSON_LABEL`)."""
        if label == PERSON_LABEL:
            return cls(name, SeatKind.PERSON, token_hash, None, color, avatar)
        return cls(name, SeatKind.BOT, token_hash, label, color, avatar)

    @property
    def label(self) -> str:
        """What the database, the picture, the log and the statistics call this seat's kind."""
        return PERSON_LABEL if self.bot is None else self.bot


@dataclass(frozen=True)
class Meta:
    """What a room holds besides its seats and events, and may change at any time: the host,
    and once the match is over, "play again" (see :mod:`..rooms.nextmatch`)."""

    host: int
    rematch: tuple[int, ...] = ()
    next_seats: tuple[SeatInfo, ...] = ()
    next_code: str | None = None

    @classmethod
    def of(cls, row: Room) -> Meta:
        """The meta of a room's row."""
        return cls(
            host=row.host,
            rematch=tuple(row.rematch or ()),
            next_seats=tuple(
                SeatInfo.stored(s["name"], PERSON_LABEL, s["token_hash"], s["color"], s["avatar"])
                for s in row.next_seats or ()
            ),
            next_code=row.next_code,
        )
