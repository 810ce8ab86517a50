"""``scc strategy --format F``: the two-player match decision tables, printed (and plotted).

One table per situation (the round's opener, or the second player facing a posted score) and
rolls left: rows are the first coordinate of :class:`~..solver.match.table.MatchRow` (rounds
left, or the player's own total), columns the second (the lead, or the other's total), each
cell the smallest cargo the match-optimal plan stands on ("-": it never stands).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer

from ..formats import FormatKind
from ..i18n import _
from ..messages import NP_
from ..rules import Rules
from ..solver.match.table import MatchRow
from .common import plural, rules_name

__all__ = ["print_match_table"]


def _axes(rules: Rules) -> tuple[str, str]:
    if rules.format.kind is FormatKind.ROUNDS:
        return _("rounds left"), _("lead before the round")
    if rules.format.kind is FormatKind.WINS:
        return _("your round wins"), _("the other's round wins")
    return _("your total"), _("the other's total")


def print_match_table(rules: Rules, rows: Sequence[MatchRow], as_json: bool) -> None:
    """Print the tables (or one JSON object) of :func:`~..solver.match.table.match_table`."""
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "rules": str(rules),
                    "format": str(rules.format),
                    "objective": "match",
                    "players": 2,
                    "rows": [r.to_json() for r in rows],
                }
            )
        )
        return
    from rich.console import Console
    from rich.table import Table

    con = Console()
    down, across = _axes(rules)
    groups = sorted(
        {(r.posted, r.rolls_left) for r in rows}, key=lambda k: (-1 if k[0] is None else k[0], k[1])
    )
    for posted, rolls in groups:
        part = [r for r in rows if r.posted == posted and r.rolls_left == rolls]
        cols = sorted({r.other for r in part})
        lines = sorted({r.mine for r in part}, reverse=rules.format.kind is FormatKind.ROUNDS)
        who = (
            _("opening the round")
            if posted is None
            else _("second, {score} posted before").format(score=posted)
        )
        title = NP_(
            "Stand from (match-optimal, two players), {who}, one roll left, {rules}",
            "Stand from (match-optimal, two players), {who}, {n} rolls left, {rules}",
        )
        t = Table(title=plural(title, rolls, who=who, rules=rules_name(rules)))
        t.add_column(f"{down} \\ {across}", justify="right")
        for c in cols:
            t.add_column(str(c), justify="right")
        cell = {(r.mine, r.other): r.stand_from for r in part}
        for m in lines:
            t.add_row(
                str(m),
                *(
                    "" if (m, c) not in cell else str(cell[m, c]) if cell[m, c] else "-"
                    for c in cols
                ),
            )
        con.print(t)


def plot_match_table(
    rules: Rules, rows: Sequence[MatchRow], path: Path, prov: dict[str, Any], dpi: int
) -> None:
    """A heat map per situation of the stand-from cargo (see :mod:`..plots.match_strategy`)."""
    from ..plots.match_strategy import plot_match_strategy

    plot_match_strategy(rules, rows, path, _axes(rules), prov, dpi)
