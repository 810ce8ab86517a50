"""Who sits at a table and what the room holds besides: seats, the host, "play again", tokens.

Seat tokens are kept and compared as hashes only (:func:`hash_token`): the database alone
cannot impersonate a player.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

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
    #: A seat at the next match asked for by a spectator: the network it was asked from
    #: (hashed; a network has at most ``Settings.next_seats_per_address`` such seats).
    network: str | None = None
    #: ... and when it was asked for (epoch seconds): until the asker's worker has told the
    #: others it is connected (see ``.nextmatch``), a young seat counts as held.
    asked_at: float | None = None

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
class Ask:
    """Votes to let a bot play the turn of a person who is here but silent (see
    :mod:`.standin`): the seat, the version of the table they were cast at (the turn's
    moment: a move makes them void), and who voted."""

    seat: int
    version: int
    by: tuple[int, ...]


@dataclass(frozen=True)
class Meta:
    """What a room holds besides its seats and events, and may change at any time: the host,
    once the match is over "play again" (see :mod:`..rooms.nextmatch`), the votes about a
    silent person's turn (:mod:`..play.standin`) and the table screens paired
    (:mod:`..play.screens`)."""

    host: int
    rematch: tuple[int, ...] = ()
    next_seats: tuple[SeatInfo, ...] = ()
    next_code: str | None = None
    asks: tuple[Ask, ...] = ()
    #: The paired table screens' ids (hashes of their tokens), oldest first.
    screens: tuple[str, ...] = ()

    @classmethod
    def of(cls, row: Room) -> Meta:
        """The meta of a room's row."""
        return cls(
            host=row.host,
            rematch=tuple(row.rematch or ()),
            next_seats=tuple(
                replace(
                    SeatInfo.stored(
                        s["name"], PERSON_LABEL, s["token_hash"], s["color"], s["avatar"]
                    ),
                    network=s.get("network"),
                    asked_at=s.get("at"),
                )
                for s in row.next_seats or ()
            ),
            next_code=row.next_code,
            asks=tuple(Ask(a["seat"], a["version"], tuple(a["by"])) for a in row.asks or ()),
            screens=tuple(str(s["id"]) for s in row.screens or ()),
        )

    def store(self, row: Room) -> None:
        """Write the votes and the screens into the room's row (the caller holds its lock;
        the host and "play again" have writers of their own)."""
        row.asks = [{"seat": a.seat, "version": a.version, "by": list(a.by)} for a in self.asks]
        row.screens = [{"id": s} for s in self.screens]
