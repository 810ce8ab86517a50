"""The strategy report's figures, and ``scc report strategy`` (numbers, text, pictures).

:func:`write_report` asks the solver for the numbers (:func:`~shipcaptaincrew.solver.findings.
strategy_findings`), writes them as Markdown (:func:`~shipcaptaincrew.solver.report.
strategy_markdown`) and draws each figure the text links to (:data:`~shipcaptaincrew.solver.
report.FIGURES`) from the same findings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..rules import Rules, find_rules
from ..solver.findings import StrategyFindings, strategy_findings
from ..solver.match.findings import match_findings
from ..solver.match.report import match_markdown
from ..solver.report import FIGURES, strategy_markdown
from ..solver.table import DecisionRow
from .match_strategy import plot_match_strategy

__all__ = ["draw_figures", "plot_strategy", "write_report"]


def write_report(out: Path) -> Path:
    """Write ``strategy.md`` and ``img/strategy_*.png`` under ``out``; returns the .md path.

    The round's findings first, then the match's (:mod:`~shipcaptaincrew.solver.match.report`).
    """
    findings = strategy_findings()
    match = match_findings()
    img = out / "img"
    img.mkdir(parents=True, exist_ok=True)
    draw_figures(findings, img)
    rules = find_rules("classic").replace(format="rounds:3")
    plot_match_strategy(
        rules, match.rounds3, img / "strategy_match_rounds3.png", ("rounds left", "lead")
    )
    path = out / "strategy.md"
    path.write_text(strategy_markdown(findings) + "\n" + match_markdown(match))
    return path


def draw_figures(f: StrategyFindings, img: Path) -> None:
    """Every figure of :data:`~shipcaptaincrew.solver.report.FIGURES` into ``img``."""
    draw: dict[str, Callable[[StrategyFindings, Path], None]] = {
        "completion": _completion,
        "distribution": _distribution,
        "seats": _seats,
        "threshold": _threshold,
        "variants": _variants,
    }
    assert tuple(draw) == FIGURES
    for name in FIGURES:
        draw[name](f, img / f"strategy_{name}.png")


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: Path) -> None:
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    _plt().close(fig)


def _completion(f: StrategyFindings, path: Path) -> None:
    fig, ax = _plt().subplots(figsize=(9, 4.5))
    names = [v.name for v in f.variants]
    bottom = [0.0] * len(names)
    for i in range(max(len(v.p_complete_by_roll) for v in f.variants)):
        vals = [
            v.p_complete_by_roll[i] if i < len(v.p_complete_by_roll) else 0.0 for v in f.variants
        ]

        ax.barh(names, vals, left=bottom, label=f"on roll {i + 1}")
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_xlabel("probability of completing the crew")
    ax.invert_yaxis()
    ax.legend(loc="lower right")
    ax.set_title("Completion odds by roll (best-expected-score play)")
    _save(fig, path)


def _distribution(f: StrategyFindings, path: Path) -> None:
    fig, ax = _plt().subplots(figsize=(9, 4.5))
    scores = sorted({s for p in f.policies for s in p.distribution})
    width = 0.8 / len(f.policies)
    for j, p in enumerate(f.policies):
        xs = [s + (j - len(f.policies) / 2 + 0.5) * width for s in scores]
        ax.bar(
            xs,
            [p.distribution.get(s, 0.0) for s in scores],
            width=width,
            label=f"{p.policy} (E={p.expected_score:.3f})",
        )
    ax.set_xticks(scores)
    ax.set_xlabel("final score (0 = no crew)")
    ax.set_ylabel("probability")
    ax.legend()
    ax.set_title("Score distribution of one turn (classic)")
    _save(fig, path)


def _seats(f: StrategyFindings, path: Path) -> None:
    fig, ax = _plt().subplots(figsize=(9, 4.5))
    for n, w in sorted(f.seat_odds.items()):
        ax.plot(range(1, n + 1), [p * n for p in w], marker="o", label=f"{n} players")
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.set_xlabel("seat (play order)")
    ax.set_ylabel("win probability x n (1 = fair share)")
    ax.legend(ncol=2)
    ax.set_title("Going last is better: win probability by seat (everyone plays to win)")
    _save(fig, path)


def _threshold(f: StrategyFindings, path: Path) -> None:
    plot_strategy(find_rules("classic"), f.thresholds_four, "win", 4, path)


def _variants(f: StrategyFindings, path: Path) -> None:
    fig, ax = _plt().subplots(figsize=(9, 4.5))
    ax.barh([v.name for v in f.variants], [v.expected_score for v in f.variants], color="tab:blue")
    ax.invert_yaxis()
    ax.set_xlabel("expected score of one turn (best-expected-score play)")
    ax.set_title("Variants")
    _save(fig, path)


def plot_strategy(
    rules: Rules, rows: Sequence[DecisionRow], objective: str, players: int, path: Path
) -> None:
    """Heat map of the decision table (``scc strategy --plot``).

    ``ev``: stand / reroll by cargo and rolls left.  ``win``: the lowest cargo to stand on,
    by score to beat and players after, one panel per number of rolls left.
    """
    if not rows:
        raise ValueError(f"nothing to plot: under {rules} there is no cargo decision")
    if objective == "ev":
        fig = _ev_heat_map(rows)
    else:
        fig = _win_heat_map(rows)
    what = "best expected score" if objective == "ev" else f"best chance to win, {players} players"
    fig.suptitle(f"When to stand: {what} ({rules})")
    _save(fig, path)


def _ev_heat_map(rows: Sequence[DecisionRow]) -> Any:
    """Stand (green), reroll both (red) or depends on the pair (yellow), by cargo and rolls left."""
    lefts = sorted({r.rolls_left for r in rows})
    cargos = sorted({c for r in rows for c in r.decisions})
    fig, ax = _plt().subplots(figsize=(10, 1.4 + 1.1 * len(lefts)))
    grid: list[list[float]] = []
    for r in sorted(rows, key=lambda r: r.rolls_left):
        cells = []
        for j, c in enumerate(cargos):
            d = r.decisions.get(c, "")
            acts = d.split("/") if d else []
            cells.append(1.0 if acts == ["stand"] else 0.0 if acts == ["reroll"] else 0.5)
            label = "\n".join(a.replace("reroll:keep", "keep ") for a in acts)
            ax.text(j, len(grid), label, ha="center", va="center", fontsize=7)
        grid.append(cells)
    ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=1, aspect="auto", origin="lower")
    ax.set_xticks(range(len(cargos)), [str(c) for c in cargos])
    ax.set_yticks(range(len(lefts)), [f"{x} left" for x in lefts])
    ax.set_xlabel("cargo (green: stand, red: reroll both, yellow: depends on the pair)")
    return fig


def _win_heat_map(rows: Sequence[DecisionRow]) -> Any:
    """The lowest cargo to stand on, by score to beat and players after, per rolls left."""
    lefts = sorted({r.rolls_left for r in rows})
    fig, axes = _plt().subplots(1, len(lefts), figsize=(6 * len(lefts), 4.2), squeeze=False)
    for ax, left in zip(axes[0], lefts):
        sel = [r for r in rows if r.rolls_left == left]
        ks = sorted({r.players_after for r in sel if r.players_after is not None})
        ms = sorted({r.score_to_beat for r in sel if r.score_to_beat is not None})
        grid = [[float("nan")] * len(ms) for _ in ks]
        for r in sel:
            assert r.players_after is not None and r.score_to_beat is not None
            sf = r.stand_from
            grid[ks.index(r.players_after)][ms.index(r.score_to_beat)] = (
                13.0 if sf is None else float(sf)
            )
        im = ax.imshow(grid, cmap="viridis_r", vmin=2, vmax=13, aspect="auto", origin="lower")
        for a, row in enumerate(grid):
            for b, v in enumerate(row):
                if v == v:  # not NaN
                    ax.text(
                        b,
                        a,
                        "-" if v >= 13 else str(int(v)),
                        ha="center",
                        va="center",
                        fontsize=8,
                        color="white" if v < 8 else "black",
                    )
        ax.set_xticks(range(len(ms)), [str(m) if m else "none" for m in ms])
        ax.set_yticks(range(len(ks)), [str(k) for k in ks])
        ax.set_xlabel("score to beat (posted by one player)")
        ax.set_ylabel("players after")
        ax.set_title(f"{left} roll{'s' if left != 1 else ''} left")
        fig.colorbar(im, ax=ax, label="stand on cargo >= (- = always reroll)")
    return fig
