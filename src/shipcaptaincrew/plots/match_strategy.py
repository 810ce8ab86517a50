"""The two-player match decision table as heat maps: the cargo to stand on, per situation."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..formats import FormatKind
from ..rules import Rules
from ..solver.match.table import MatchRow

__all__ = ["plot_match_strategy"]


def plot_match_strategy(
    rules: Rules, rows: Sequence[MatchRow], path: Path, axes: tuple[str, str]
) -> None:
    """One panel per (situation, rolls left); colour = the smallest cargo stood on."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    groups = sorted(
        {(r.posted, r.rolls_left) for r in rows}, key=lambda k: (-1 if k[0] is None else k[0], k[1])
    )
    posts = sorted({g[0] if g[0] is not None else -1 for g in groups})
    fig, panels = plt.subplots(
        2, len(posts), figsize=(3.4 * len(posts), 6.2), squeeze=False, constrained_layout=True
    )
    image = None
    for posted, rolls in groups:
        ax = panels[rolls - 1][posts.index(posted if posted is not None else -1)]
        part = [r for r in rows if r.posted == posted and r.rolls_left == rolls]
        cols = sorted({r.other for r in part})
        lines = sorted({r.mine for r in part}, reverse=rules.format.kind is FormatKind.ROUNDS)
        grid = np.full((len(lines), len(cols)), np.nan)
        for r in part:
            grid[lines.index(r.mine), cols.index(r.other)] = (
                r.stand_from if r.stand_from is not None else 13
            )
        image = ax.imshow(grid, cmap="viridis", vmin=2, vmax=13, aspect="auto")
        ax.set_xticks(range(len(cols)), [str(c) for c in cols], fontsize=7, rotation=90)
        ax.set_yticks(range(len(lines)), [str(m) for m in lines], fontsize=7)
        who = "opener" if posted is None else f"second, {posted} posted"
        ax.set_title(f"{who}, {rolls} roll{'s' if rolls > 1 else ''} left", fontsize=9)
        ax.set_xlabel(axes[1], fontsize=8)
        ax.set_ylabel(axes[0], fontsize=8)
    if image is not None:
        bar = fig.colorbar(image, ax=panels, shrink=0.7)
        bar.set_label("stand from cargo (13 = never stands)")
    fig.suptitle(f"Match-optimal stand thresholds, two players, {rules.format}")
    fig.savefig(path, dpi=110)
    plt.close(fig)
