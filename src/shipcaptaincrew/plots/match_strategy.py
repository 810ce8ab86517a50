"""The two-player match decision table as heat maps: the cargo to stand on, per situation."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..formats import FormatKind
from ..rules import Rules
from ..solver.match.table import MatchRow
from .figure import NEVER, PAGE, pyplot, save, threshold_bar, threshold_map

__all__ = ["match_strategy_figure", "plot_match_strategy"]


def plot_match_strategy(
    rules: Rules,
    rows: Sequence[MatchRow],
    path: Path,
    axes: tuple[str, str],
    prov: dict[str, Any],
    dpi: int,
) -> None:
    """:func:`match_strategy_figure`, saved with its provenance."""
    save(match_strategy_figure(rules, rows, axes), path, prov, dpi)


def match_strategy_figure(rules: Rules, rows: Sequence[MatchRow], axes: tuple[str, str]) -> Any:
    """One panel per (situation, rolls left); each cell the smallest cargo stood on, as a
    number and on the one threshold scale (:func:`~.figure.threshold_map`)."""
    import numpy as np

    plt = pyplot()
    groups = sorted(
        {(r.posted, r.rolls_left) for r in rows}, key=lambda k: (-1 if k[0] is None else k[0], k[1])
    )
    posts = sorted({g[0] if g[0] is not None else -1 for g in groups})
    rolls_all = sorted({g[1] for g in groups})
    fig, panels = plt.subplots(
        len(rolls_all),
        len(posts),
        figsize=(PAGE, 1.9 * len(rolls_all) + 0.6),
        squeeze=False,
        layout="constrained",
    )
    image = None
    for posted, rolls in groups:
        ax = panels[rolls_all.index(rolls)][posts.index(posted if posted is not None else -1)]
        part = [r for r in rows if r.posted == posted and r.rolls_left == rolls]
        cols = sorted({r.other for r in part})
        lines = sorted({r.mine for r in part}, reverse=rules.format.kind is FormatKind.ROUNDS)
        grid = np.full((len(lines), len(cols)), np.nan)
        for r in part:
            grid[lines.index(r.mine), cols.index(r.other)] = (
                r.stand_from if r.stand_from is not None else NEVER
            )
        size = 5 if len(cols) > 12 else 6
        image = threshold_map(ax, grid, fontsize=size)
        ax.set_xticks(range(len(cols)), [str(c) for c in cols], fontsize=size, rotation=90)
        ax.set_yticks(range(len(lines)), [str(m) for m in lines], fontsize=size)
        who = "opener" if posted is None else f"second, {posted} posted"
        ax.set_title(f"{who}\n{rolls} roll{'s' if rolls > 1 else ''} left")
        ax.set_xlabel(axes[1])
        ax.set_ylabel(axes[0])
        for side in ("top", "right"):
            ax.spines[side].set_visible(True)
    if image is not None:
        threshold_bar(fig, image, panels, shrink=0.8)
    fig.suptitle(f"Match-optimal stand thresholds, two players, {rules.format}")
    return fig
