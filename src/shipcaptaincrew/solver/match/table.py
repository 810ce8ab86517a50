"""Match decision tables for two players: the cargo to stand on, by the score of the match.

In a single round the decision depends on the table (the score to beat, the players after);
in a match it also depends on the match: a player far behind must gamble, one far ahead can
stand on little.  For two players :func:`match_table` asks the match-optimal plan
(:func:`.advice.advise` with the match view) at every crew just completed, with each number of
rolls left the rule set allows, for the round's first player (nothing posted yet) and for the second facing a posted
score, and reports the smallest cargo it stands on -- a row per point of the match:

* ``rounds:N``: the rounds left (this one included) and the lead before the round;
* ``first_to:N`` and ``wins:N``: the player's own total (wins) and the other's.

The plan is monotone in the cargo (a higher cargo is never rerolled where a lower one
stands); :func:`match_table` checks that and raises :class:`~..rounds.SolverError` otherwise,
rather than print a threshold that hides a hole.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...actions import Stand
from ...facts import FACES
from ...formats import FormatKind
from ...messages import N_
from ...rules import Rules
from ...state import TurnPhase, TurnState
from ..advice import advise
from ..graph import turn_graph
from ..rounds import SolverError
from .advice import has_match
from .view import MatchView

__all__ = ["MatchRow", "match_table", "posted_scores"]


def posted_scores(rules: Rules) -> tuple[int, int, int]:
    """The scores a second player is shown against: 0 (the first player failed), a low cargo
    and a middling one, at three and six tenths of the cargo's range -- 5 and 8 of the sheets'
    2 to 12, 2 and 4 of one die's 1 to 6, 7 and 12 of three dice's 3 to 18.

    >>> posted_scores(Rules()), posted_scores(Rules(dice=4)), posted_scores(Rules(dice=6))
    ((0, 5, 8), (0, 2, 4), (0, 7, 12))
    """
    low, high = _cargo_range(rules)
    return 0, low + (high - low) * 3 // 10, low + (high - low) * 6 // 10


def _cargo_range(rules: Rules) -> tuple[int, int]:
    """The lowest and the highest cargo (every die a 1, every die a 6)."""
    return rules.cargo_dice * min(FACES), rules.cargo_dice * max(FACES)


@dataclass(frozen=True)
class MatchRow:
    """One point of the match: the smallest cargo the player stands on (None: never)."""

    #: rounds:N: rounds left (this one included); else the player's own total (wins).
    mine: int
    #: rounds:N: the lead before the round (negative: behind); else the other's total.
    other: int
    rolls_left: int
    #: None: the player opens the round; else the score the other posted before.
    posted: int | None
    stand_from: int | None

    def to_json(self) -> dict[str, object]:
        """The ``scc strategy --format --json`` row."""
        return {
            "mine": self.mine,
            "other": self.other,
            "rolls_left": self.rolls_left,
            "posted": self.posted,
            "stand_from": self.stand_from,
        }


def completions(rules: Rules) -> dict[int, dict[int, TurnState]]:
    """Rolls left -> cargo -> a turn that has just completed the crew with that cargo.

    The turns are the engine's own (the states of :func:`.graph.turn_graph`), so the faces the
    roles need, the rolls and the cargo's dice are whatever the rule set says.  Of the turns
    that share rolls left and cargo: the one without a same-roll bonus where there is one,
    with the real faces in the roles, the lowest cargo die first.
    """
    found: dict[int, dict[int, TurnState]] = {}
    for s in turn_graph(rules).states:
        if s.phase is not TurnPhase.DECIDE or s.cargo_rerolls:
            continue
        row = found.setdefault(s.rolls_left, {})
        cargo = sum(s.cargo)
        old = row.get(cargo)
        if old is None or _rank(rules, s) < _rank(rules, old):
            row[cargo] = s
    return {left: dict(sorted(row.items())) for left, row in sorted(found.items())}


def _rank(rules: Rules, s: TurnState) -> tuple[int, bool, tuple[int, ...]]:
    return s.bonus, s.held != rules.required_faces, s.cargo


def _stand_from(turns: dict[int, TurnState], view: MatchView) -> int | None:
    first: int | None = None
    for c, turn in turns.items():
        stands = advise(turn, match=view)[0].action == Stand()
        if stands and first is None:
            first = c
        elif not stands and first is not None:
            raise SolverError(f"the plan rerolls {c} but stands on {first} at {view}")
    return first


def _points(rules: Rules, step: int) -> list[tuple[int, int, tuple[int, int], int]]:
    """(mine, other, (my total, the other's) in play order, rounds played) to tabulate."""
    fmt = rules.format
    n = fmt.n or 1
    if fmt.kind is FormatKind.ROUNDS:
        big = max(turn_graph(rules).scores)
        out = []
        # Past ten rounds, every tenth of the match (and its last round) keeps it readable, and
        # a lead of more than the best cargo is as good as any.
        every = max(1, n // 10)
        for played in sorted({*range(0, n, every), n - 1}):
            reach = min(played * big, _cargo_range(rules)[1])
            for lead in range(-reach, reach + 1, step):
                out.append((n - played, lead, (max(lead, 0), max(-lead, 0)), played))
        return out
    return [(a, b, (a, b), 0) for a in range(0, n, step) for b in range(0, n, step)]


def match_table(rules: Rules, *, step: int = 0) -> list[MatchRow]:
    """The two-player decision table of the rules' format (see the module docstring).

    ``step`` thins the rows (0: a step that keeps the table readable).
    """
    if not has_match(rules):
        raise SolverError(
            N_("format {format} plays one round: use scc strategy without it"),
            format=str(rules.format),
        )
    fmt = rules.format
    step = step or (2 if fmt.kind is FormatKind.ROUNDS else max(1, (fmt.n or 1) // 10))
    turns = completions(rules)
    rows = []
    for mine, other, (me, them), played in _points(rules, step):
        for posted in (None, *posted_scores(rules)):
            if posted is None:
                totals: tuple[int, ...] = (me, them)
                scores: tuple[int, ...] = ()
            else:
                totals, scores = (them, me), (posted,)
            wins = totals if fmt.kind is FormatKind.WINS else None
            view = MatchView.of_round(fmt, totals, scores, played=played, wins=wins)
            for rolls_left, cargo in turns.items():
                stand = _stand_from(cargo, view)
                rows.append(MatchRow(mine, other, rolls_left, posted, stand))

    return rows
