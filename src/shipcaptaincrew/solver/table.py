"""The decision table: stand or reroll, by cargo, rolls left, score to beat and players after.

Used by ``scc strategy`` and the strategy report.  A cell is the action the policy takes with
that cargo total right after the crew is complete or a cargo reroll (no same-roll bonus, the
fewest cargo rerolls used); cargo totals made of different pairs can differ under half cargo,
in which case the distinct actions are joined with ``/``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import RerollCargo
from ..rules import Rules
from ..state import TurnPhase
from .decisions import ContestView, optimal_choices, policy_choices
from .graph import turn_graph

__all__ = ["DecisionRow", "decision_table", "ev_reroll_limits", "stand_from"]


@dataclass(frozen=True)
class DecisionRow:
    """One row: the situation and the action per cargo total."""

    rolls_left: int
    #: None for the expected-score policy (it ignores the table).
    players_after: int | None
    #: Highest score posted before (0: nobody has a crew yet); None for ``ev``.
    score_to_beat: int | None
    #: Cargo total -> action text (``stand``, ``reroll``, ``reroll:keep6``, ...).
    decisions: dict[int, str]

    @property
    def stand_from(self) -> int | None:
        """The lowest cargo total from which the player always stands (None: never)."""
        return stand_from(self.decisions)

    def to_json(self) -> dict[str, object]:
        """JSON object of the row."""
        return {
            "rolls_left": self.rolls_left,
            "players_after": self.players_after,
            "score_to_beat": self.score_to_beat,
            "decisions": {str(k): v for k, v in sorted(self.decisions.items())},
            "stand_from": self.stand_from,
        }


def stand_from(decisions: dict[int, str]) -> int | None:
    """Lowest cargo c such that every cargo >= c stands."""
    best: int | None = None
    for c in sorted(decisions, reverse=True):
        if decisions[c] != "stand":
            break
        best = c
    return best


def _rows_for(rules: Rules, choices: list[int]) -> dict[int, dict[int, str]]:
    """rolls left -> cargo total -> action text, at the first-decision states."""
    graph = turn_graph(rules)
    found: dict[tuple[int, int], tuple[tuple[int, int], set[str]]] = {}
    for i, s in enumerate(graph.states):
        if s.phase is not TurnPhase.DECIDE or s.bonus:
            continue
        key = (s.rolls_left, sum(s.cargo))
        rank = (s.cargo_rerolls, 0)
        act = str(graph.actions[i][choices[i]])
        if key not in found or rank < found[key][0]:
            found[key] = (rank, {act})
        elif rank == found[key][0]:
            found[key][1].add(act)
    out: dict[int, dict[int, str]] = {}
    for (left, cargo), (_, acts) in sorted(found.items()):
        out.setdefault(left, {})[cargo] = "/".join(sorted(acts))
    return out


def ev_reroll_limits(rules: Rules) -> tuple[tuple[int, int | None], ...]:
    """Per number of rolls left (ascending): the highest cargo the best-expected-score player
    rerolls right after completing the crew, or None where it always stands.

    Every such turn of the graph counts, a same-roll bonus included (with the most rolls
    left every crew is completed in one roll, so it carries the bonus when there is one).

    >>> ev_reroll_limits(Rules())
    ((1, 6), (2, 7))
    """
    graph = turn_graph(rules)
    choices = policy_choices(rules, "ev")
    out: dict[int, int | None] = {}
    for i, s in enumerate(graph.states):
        if s.phase is not TurnPhase.DECIDE or s.cargo_rerolls:
            continue
        cur = out.setdefault(s.rolls_left, None)
        if isinstance(graph.actions[i][choices[i]], RerollCargo):
            out[s.rolls_left] = sum(s.cargo) if cur is None else max(cur, sum(s.cargo))
    return tuple(sorted(out.items()))


def decision_table(rules: Rules, *, objective: str = "win", players: int = 2) -> list[DecisionRow]:
    """Every row of the table for ``objective`` ``ev`` or ``win`` (a ``players``-seat round).

    Under ``win`` the score to beat is posted by one player (with 0: everyone before failed).
    """
    if objective == "ev":
        return [
            DecisionRow(left, None, None, d)
            for left, d in sorted(_rows_for(rules, policy_choices(rules, "ev")).items())
        ]
    if objective != "win":
        raise ValueError(f"unknown objective {objective!r}: use ev or win")
    graph = turn_graph(rules)
    rows: list[DecisionRow] = []
    for k in range(players - 1, -1, -1):
        position = players - 1 - k
        beats = [0] + ([x for x in graph.scores if x > 0] if position > 0 else [])
        for m in beats:
            tied = position if m == 0 else 1
            choices = optimal_choices(rules, ContestView(players, m, tied, k))
            for left, d in sorted(_rows_for(rules, choices).items()):
                rows.append(DecisionRow(left, k, m, d))
    return rows
