"""The match part of the strategy report: what knowing the match is worth, solved exactly.

Every number is an exact solve (:func:`.solve.solve_match`) of a table where one seat
plays ``optimal`` -- the best chance to win the match, best-responding to the others' known
play -- and every other seat one fixed policy: the round-maximiser ``optimal:round``, the
best expected score ``ev``, or the sheets' tip (reroll a cargo of six or less,
``threshold:7``).  The ``optimal`` seat's chance is averaged over every place it can take in
the first round's play order (the start rotates, so this is its chance with the start drawn
at random), and the *worth* of knowing the match is that average less the fair share 1/n
(what the seat wins when it plays like the others).  Beyond the exact solver's reach (four
or more players of a match, three of a long one) the figures are measured in simulation by
``benchmarks/match_winrates.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...actions import Stand
from ...rules import Rules, find_rules
from ..advice import Objective, advise, position_after_roll
from ..policies import SEAT_KINDS, parse_policy
from .solve import solve_match
from .table import MatchRow, match_table
from .view import MatchView

__all__ = ["MATCH_TABLES", "MatchFindings", "Worth", "match_findings"]

#: (players, format) solved exactly for the report.
MATCH_TABLES: tuple[tuple[int, str], ...] = (
    (2, "rounds:3"),
    (2, "first_to:21"),
    (2, "first_to:50"),
    (2, "wins:3"),
    (2, "session"),
    (3, "rounds:2"),
    (3, "wins:2"),
    (3, "tournament"),
)
#: The fixed tables the ``optimal`` seat is measured against.
OPPONENTS = ("optimal:round", "ev", "threshold:7")


@dataclass(frozen=True)
class Worth:
    """One ``optimal`` seat against a table of one policy: its chance, averaged over seats."""

    players: int
    format: str
    opponent: str
    win: float

    @property
    def worth(self) -> float:
        """The chance above the fair share 1/n."""
        return self.win - 1 / self.players


@dataclass(frozen=True)
class MatchFindings:
    """The match numbers of the report."""

    worth: tuple[Worth, ...]
    #: The two-player stand-from table of rounds:3 (drawn as a figure).
    rounds3: tuple[MatchRow, ...]
    #: The issue's example: last round of rounds:3, behind 14 to 11 ... see :func:`_trailing`.
    trailing_stand: float
    trailing_reroll: float
    trailing_round_plan_stands: bool


def _worth(rules: Rules, players: int, opponent: str) -> float:
    opt = parse_policy("optimal", allow=SEAT_KINDS)
    other = parse_policy(opponent, allow=SEAT_KINDS)
    total = 0.0
    for place in range(players):
        pols = tuple(opt if j == place else other for j in range(players))
        total += solve_match(rules, pols).seat_win_probability[place]
    return total / players


def _trailing(rules: Rules) -> tuple[float, float, bool]:
    """Round 3 of rounds:3, second to play, 11 against 14 and a posted 5, cargo 7 after one
    roll: (match chance standing, rerolling; does the round-maximiser stand?)."""
    view = MatchView.of_round(rules.format, (14, 11), (5,), played=2)
    turn = position_after_roll(rules, 0, (*rules.required_faces, 3, 4), 1)
    by = {c.action: c for c in advise(turn, match=view)}
    stand = by[Stand()].match_win_probability or 0.0
    reroll = max(c.match_win_probability or 0.0 for a, c in by.items() if a != Stand())
    round_first = advise(turn, match=view, objective=Objective.ROUND)[0].action
    return stand, reroll, round_first == Stand()


def match_findings() -> MatchFindings:
    """Solve every match the report states (a minute or two; solutions are cached on disk)."""
    classic = find_rules("classic")
    worth = tuple(
        Worth(n, fmt, opp, _worth(classic.replace(format=fmt), n, opp))
        for n, fmt in MATCH_TABLES
        for opp in OPPONENTS
    )
    r3 = classic.replace(format="rounds:3")
    stand, reroll, round_stands = _trailing(r3)
    return MatchFindings(worth, tuple(match_table(r3)), stand, reroll, round_stands)
