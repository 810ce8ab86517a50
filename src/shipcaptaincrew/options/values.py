"""The values of the choice options, as enums (the option table in this package describes them).

Seats are numbered in play order, which runs clockwise: each player passes the cup to the
player on their left, so the *right* neighbour of seat ``i`` is seat ``i - 1``.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["AllFail", "Drinking", "Rotation", "Stakes", "Starter", "TieBreak"]


class TieBreak(StrEnum):
    """How a tie for the top score is broken."""

    REPLAY = "replay"
    CARGO_ROLLOFF = "cargo_rolloff"


class AllFail(StrEnum):
    """What happens when every player of a round scores 0."""

    REPLAY = "replay"
    CARRY_POT = "carry_pot"


class Starter(StrEnum):
    """Who starts the first round."""

    ROLLOFF = "rolloff"
    CHOSEN = "chosen"


class Rotation(StrEnum):
    """Who starts the next round.

    Seats are numbered in play order, which runs clockwise: each player passes the cup to the
    player on their left, so the *right* neighbour of seat ``i`` is seat ``i - 1``.
    """

    RIGHT = "right"
    LEFT = "left"
    NONE = "none"


class Stakes(StrEnum):
    """What a round is played for (drinking is a separate, combinable option)."""

    POINTS = "points"
    POT = "pot"


class Drinking(StrEnum):
    """Who drinks after a round."""

    NONE = "none"
    ALL_BUT_WINNER = "all_but_winner"
    LAST_DRINKS = "last_drinks"
    CAPTAIN_HANDS_OUT = "captain_hands_out"
