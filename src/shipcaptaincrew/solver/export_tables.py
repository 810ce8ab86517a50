"""The exact tables of ``scc export`` as rows: one dict per row, keyed by the schema's columns.

Every number comes from the solver's own answers -- :func:`~.odds.turn_odds` for the turn,
the turn graph's evaluators for each action at each decision, :func:`~.evaluate.evaluate`
for the round and match, :func:`~.match.solve.solve_match` for every match position -- so an
exported figure is the figure the solver gives everywhere else.  The columns are those of
:data:`~.export_schema.SCHEMAS`; a value that does not apply is ``None``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

from ..actions import Action, RerollCargo, Stand, Take
from ..formats import FormatKind, MatchFormat
from ..rules import Rules
from ..state import TurnState
from .decisions import ContestView, optimal_choices, win_rewards
from .evaluate import best_response, evaluate
from .export_schema import SCHEMAS, TableKind
from .graph import DECISION_NODE, turn_graph
from .match.solve import solve_match
from .odds import turn_odds
from .policies import Policy
from .rounds import equilibrium

__all__ = [
    "ODDS_POLICIES",
    "ActionKind",
    "ExportSpec",
    "PlanObjective",
    "action_fields",
    "build_table",
    "decision_rows",
    "state_key",
]

Row = dict[str, Any]

#: The turn policies of the odds table: ``never``, ``ev`` and every threshold that differs
#: (a cargo is 2..12, so ``threshold:2`` is ``never`` and 13 or more always rerolls).
ODDS_POLICIES = ("never", "ev", *(f"threshold:{t}" for t in range(3, 14)))


class PlanObjective(str, Enum):
    """What the plan of a decision row maximises (``objective``)."""

    WIN = "win"  #: the chance to win the round at this table
    EV = "ev"  #: the expected score


class ActionKind(str, Enum):
    """What a decision's action does (``action_kind``)."""

    STAND = "stand"
    REROLL = "reroll"
    TAKE = "take"


@dataclass(frozen=True)
class ExportSpec:
    """What to export: the rules (with their format), the line-up and the opponents."""

    rules: Rules
    #: One policy per seat, in the first round's play order.
    lineup: tuple[Policy, ...]
    #: The fixed policies the best responses answer.
    against: tuple[Policy, ...]

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.lineup)


def _faces(faces: Sequence[int]) -> str:
    return "".join(map(str, faces))


def _exact(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def state_key(s: TurnState) -> str:
    """A text naming a turn state by what identifies it (equal states, equal keys).

    >>> from shipcaptaincrew.rules import find_rules
    >>> state_key(TurnState(find_rules("classic")))
    'held=;cargo=;rolls=0;rerolls=0;phase=roll;keep=;pending=;bonus=0'
    """
    keep = "" if s.keep is None else str(s.keep)
    return (
        f"held={_faces(s.held)};cargo={_faces(s.cargo)};rolls={s.rolls_used};"
        f"rerolls={s.cargo_rerolls};phase={s.phase.value};keep={keep};"
        f"pending={_faces(s.pending)};bonus={s.bonus}"
    )


def _state_fields(s: TurnState) -> Row:
    return {
        "state_key": state_key(s),
        "rolls_used": s.rolls_used,
        "rolls_left": s.rolls_left,
        "held": _faces(s.held),
        "cargo": _faces(s.cargo),
        "cargo_sum": sum(s.cargo),
        "cargo_rerolls": s.cargo_rerolls,
        "pending": _faces(s.pending),
        "bonus": s.bonus,
    }


def action_fields(a: Action) -> Row:
    """The action columns of a decision row: its text, kind, kept face and assigned faces."""
    if isinstance(a, Stand):
        kind, keep, take = ActionKind.STAND, None, None
    elif isinstance(a, RerollCargo):
        kind, keep, take = ActionKind.REROLL, a.keep, None
    elif isinstance(a, Take):
        kind, keep, take = ActionKind.TAKE, None, _faces(a.faces)
    else:
        raise ValueError(f"{a} is not a decision of a turn")
    return {"action": str(a), "action_kind": kind.value, "keep": keep, "take": take}


def _odds_rows(spec: ExportSpec) -> list[Row]:
    rows = []
    for name in ODDS_POLICIES:
        o = turn_odds(spec.rules, name, exact=True)
        for score, p in sorted(o.distribution.items()):
            rows.append(
                {
                    "policy": name,
                    "score": score,
                    "probability": float(p),
                    "probability_exact": _exact(p),
                }
            )
    return rows


def decision_rows(
    rules: Rules,
    players: int,
    objectives: Sequence[PlanObjective] = (PlanObjective.WIN, PlanObjective.EV),
) -> list[Row]:
    """One row per decision state and legal action, in the columns of the schema.

    :attr:`PlanObjective.WIN` gives every table of a ``players``-seat round the round
    equilibrium can meet (the best posted score and how many share it, per place), the plan
    being the win-maximising one there; :attr:`PlanObjective.EV` the expected-score plan, with
    exact values.  ``scc strategy --json`` and ``scc export`` both write these rows.
    """
    graph = turn_graph(rules)
    nodes = [i for i, k in enumerate(graph.kind) if k == DECISION_NODE]
    state = {i: _state_fields(graph.states[i]) for i in nodes}
    acts = {i: [action_fields(a) for a in graph.actions[i]] for i in nodes}
    rows: list[Row] = []

    def emit(head: Row, choice: list[int], win: Any, score: Any, exact: Any) -> None:
        for i in nodes:
            for j, (act, c) in enumerate(zip(acts[i], graph.kids[i])):
                rows.append(
                    {
                        **head,
                        **state[i],
                        **act,
                        "planned": choice[i] == j,
                        "win_probability": None if win is None else min(1.0, max(0.0, win[c])),
                        "expected_score": float(score[c]),
                        "expected_score_exact": None if exact is None else _exact(exact[c]),
                    }
                )

    if PlanObjective.WIN in objectives:
        scores = [float(x) for x in graph.scores]
        eq = equilibrium(rules, players, "optimal")
        for place, best, tied in sorted(k for k in eq.tables if k[0] < players):
            view = ContestView(players, best, tied, players - 1 - place)
            choice = optimal_choices(rules, view)
            win, _ = graph.evaluate(win_rewards(rules, view), choice)
            score, _ = graph.evaluate(scores, choice)
            head = {
                "objective": PlanObjective.WIN.value,
                "players": players,
                "position": place + 1,
                "players_after": view.players_after,
                "posted_best": best,
                "tied_at_top": tied,
            }
            emit(head, choice, win, score, None)
    if PlanObjective.EV in objectives:
        exact, choice = graph.evaluate_exact([Fraction(x) for x in graph.scores])
        head = {
            "objective": PlanObjective.EV.value,
            "players": None,
            "position": None,
            "players_after": None,
            "posted_best": None,
            "tied_at_top": None,
        }
        emit(head, choice, None, exact, exact)
    return rows


def _round_rules(rules: Rules) -> Rules:
    return rules.replace(format=MatchFormat(FormatKind.SINGLE))


def _round_rows(spec: ExportSpec) -> list[Row]:
    e = evaluate(_round_rules(spec.rules), spec.lineup)
    names = ",".join(map(str, spec.lineup))
    return [
        {
            "lineup": names,
            "seat": i + 1,
            "seat_policy": str(p),
            "win_probability": w,
            "p_all_fail_per_round": e.p_all_fail_per_round,
        }
        for i, (p, w) in enumerate(zip(spec.lineup, e.seat_win_probability))
    ]


def _match_rows(spec: ExportSpec) -> list[Row]:
    import numpy as np

    sol = solve_match(spec.rules, spec.lineup)
    model, n = sol.model, spec.players
    codes = np.sort(np.concatenate(model.codes.levels()))
    offset, fields, played = model.codes.decode(codes)
    names = ",".join(map(str, spec.lineup))
    rows = []
    for k, code in enumerate(codes.tolist()):
        v = sol.values[code]
        o = int(offset[k])
        for place in range(n):
            rows.append(
                {
                    "lineup": names,
                    "position": code,
                    "rounds_played": int(played[k]),
                    "opener": o + 1,
                    "place": place + 1,
                    "seat_policy": str(spec.lineup[(o + place) % n]),
                    "standing": int(fields[k, place]),
                    "match_win_probability": float(v[place]),
                    "round_win_probability": float(v[n + place]),
                }
            )
    return rows


def _best_response_rows(spec: ExportSpec) -> list[Row]:
    rows = []
    n = spec.players
    for q in spec.against:
        alike = (q,) * n
        base = evaluate(spec.rules, alike).seat_win_probability
        for seat in range(n):
            br = best_response(spec.rules, alike, seat)
            value = br.seat_win_probability[seat]
            rows.append(
                {
                    "against": str(q),
                    "seat": seat + 1,
                    "match_win_probability": value,
                    "round_win_probability": br.round_win_probability[seat],
                    "baseline_match_win_probability": base[seat],
                    "gain": value - base[seat],
                }
            )
    return rows


def build_table(kind: TableKind, spec: ExportSpec) -> list[Row]:
    """The rows of one table, every column of its schema in order (``None``: not applicable).

    Raises :class:`~.rounds.SolverError` where the exact solver cannot answer.
    """
    if kind is TableKind.TURN_ODDS:
        rows = _odds_rows(spec)
    elif kind is TableKind.DECISIONS:
        rows = decision_rows(spec.rules, spec.players)
    elif kind is TableKind.ROUND_EQUILIBRIUM:
        rows = _round_rows(spec)
    elif kind is TableKind.MATCH_EQUILIBRIUM:
        rows = _match_rows(spec)
    else:
        rows = _best_response_rows(spec)
    names = [c.name for c in SCHEMAS[kind]]
    return [{k: r[k] for k in names} for r in rows]
