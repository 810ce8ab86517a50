"""The values of the choice options, as enums (the option table in this package describes them).

Seats are numbered in play order: the cup passes from seat ``i`` to seat ``i + 1`` (and from
the last seat back to seat 0), so "the next player" of seat ``i`` is seat ``i + 1`` and "the
previous player" is seat ``i - 1``, whichever way the table passes the cup.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "AllFail",
    "Drinking",
    "HandOutAmount",
    "PotTo",
    "Rotation",
    "Stakes",
    "Starter",
    "TieBreak",
]


class TieBreak(StrEnum):
    """How a tie for the top score of a round is broken."""

    #: The tied players play tie-break turns that only decide the round (000.15, 001.17).
    REPLAY = "replay"
    #: The tied players roll their cargo dice (002.21; two of the sheets' five dice).
    CARGO_ROLLOFF = "cargo_rolloff"
    #: The tied players play a real round of the match among themselves (001.17).
    ROUND = "round"
    #: "One tie, all tie": nobody wins the round and the pot rides on (not in the sheets).
    NO_WINNER = "no_winner"


class AllFail(StrEnum):
    """What happens when every player of a round scores 0."""

    REPLAY = "replay"
    CARRY_POT = "carry_pot"


class Starter(StrEnum):
    """Who starts the first round."""

    ROLLOFF = "rolloff"
    CHOSEN = "chosen"


class Rotation(StrEnum):
    """Who starts the next round (seats are numbered in play order; see the module docstring)."""

    #: The next player in play order, seat ``starter + 1`` (accepted as ``left``).
    NEXT = "next"
    #: The previous player in play order, seat ``starter - 1`` (accepted as ``right``; 000.17).
    PREVIOUS = "previous"
    #: The same seat starts every round.
    NONE = "none"
    #: The round's loser starts the next round (not in the sheets).
    LOSER = "loser"


class Stakes(StrEnum):
    """What a round is played for (drinking is a separate, combinable option)."""

    POINTS = "points"
    POT = "pot"


class PotTo(StrEnum):
    """Who takes the antes under ``stakes=pot``."""

    #: Each round's winner takes that round's pot (001.16, 002.22).
    ROUND = "round"
    #: The antes build up all match and the match winner takes them (002.28).
    MATCH = "match"


class Drinking(StrEnum):
    """Who drinks after a round."""

    NONE = "none"
    ALL_BUT_WINNER = "all_but_winner"
    LAST_DRINKS = "last_drinks"
    CAPTAIN_HANDS_OUT = "captain_hands_out"


class HandOutAmount(StrEnum):
    """How many sips the captain hands out under ``drinking=captain_hands_out`` (000.24)."""

    #: Exactly the die's number.
    EXACT = "exact"
    #: At most the die's number: the captain may stop early (000.24).
    UP_TO = "up_to"
