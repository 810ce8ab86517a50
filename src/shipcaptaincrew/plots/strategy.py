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

from ..provenance import record
from ..rules import Rules, find_rules
from ..solver.findings import StrategyFindings, strategy_findings
from ..solver.match.findings import match_findings
from ..solver.match.report import match_markdown
from ..solver.report import FIGURES, strategy_markdown
from ..solver.table import DecisionRow
from .figure import (
    NEVER,
    NEVER_COLOUR,
    NEVER_MARK,
    PAGE,
    pyplot,
    save,
    threshold_bar,
    threshold_colours,
    threshold_map,
)
from .match_strategy import plot_match_strategy

__all__ = ["REPORT_DPI", "draw_figures", "plot_strategy", "strategy_figure", "write_report"]


#: The resolution of the report's PNG figures (the documentation site's pictures).
REPORT_DPI = 150


def write_report(out: Path, command: str | None = None) -> Path:
    """Write ``strategy.md`` and ``img/strategy_*.png`` under ``out``; returns the .md path.

    The round's findings first, then the match's (:mod:`~shipcaptaincrew.solver.match.report`).
    Each figure carries the provenance of ``command`` (the command line that asked for it).
    """
    findings = strategy_findings()
    match = match_findings()
    img = out / "img"
    img.mkdir(parents=True, exist_ok=True)
    prov = record(command, rules=find_rules("classic"), report="strategy")
    draw_figures(findings, img, prov)
    rules = find_rules("classic").replace(format="rounds:3")
    plot_match_strategy(
        rules,
        match.rounds3,
        img / "strategy_match_rounds3.png",
        ("rounds left", "lead"),
        {**prov, "rules": str(rules)},
        REPORT_DPI,
    )
    path = out / "strategy.md"
    path.write_text(strategy_markdown(findings) + "\n" + match_markdown(match))
    return path


def draw_figures(f: StrategyFindings, img: Path, prov: dict[str, Any]) -> None:
    """Every figure of :data:`~shipcaptaincrew.solver.report.FIGURES` into ``img``."""
    draw: dict[str, Callable[[StrategyFindings], Any]] = {
        "completion": _completion,
        "distribution": _distribution,
        "seats": _seats,
        "threshold": _threshold,
        "variants": _variants,
    }
    assert tuple(draw) == FIGURES
    for name in FIGURES:
        save(draw[name](f), img / f"strategy_{name}.png", prov, REPORT_DPI)


def _completion(f: StrategyFindings) -> Any:
    fig, ax = pyplot().subplots(figsize=(PAGE, 3.0), layout="constrained")
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
    return fig


def _distribution(f: StrategyFindings) -> Any:
    fig, ax = pyplot().subplots(figsize=(PAGE, 3.0), layout="constrained")
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
    return fig


def _seats(f: StrategyFindings) -> Any:
    fig, ax = pyplot().subplots(figsize=(PAGE, 3.0), layout="constrained")
    for n, w in sorted(f.seat_odds.items()):
        ax.plot(range(1, n + 1), [p * n for p in w], marker="o", label=f"{n} players")
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.set_xlabel("seat (play order)")
    ax.set_ylabel("win probability x n (1 = fair share)")
    ax.legend(ncol=2)
    ax.set_title("Going last is better: win probability by seat (everyone plays to win)")
    return fig


def _threshold(f: StrategyFindings) -> Any:
    return strategy_figure(find_rules("classic"), f.thresholds_four, "win", 4)


def _variants(f: StrategyFindings) -> Any:
    fig, ax = pyplot().subplots(figsize=(PAGE, 3.0), layout="constrained")
    ax.barh([v.name for v in f.variants], [v.expected_score for v in f.variants], color="tab:blue")
    ax.invert_yaxis()
    ax.set_xlabel("expected score of one turn (best-expected-score play)")
    ax.set_title("Variants")
    return fig


def plot_strategy(
    rules: Rules,
    rows: Sequence[DecisionRow],
    objective: str,
    players: int,
    path: Path,
    prov: dict[str, Any],
    dpi: int,
) -> None:
    """Heat map of the decision table (``scc strategy --plot``), saved with its provenance."""
    save(strategy_figure(rules, rows, objective, players), path, prov, dpi)


def strategy_figure(rules: Rules, rows: Sequence[DecisionRow], objective: str, players: int) -> Any:
    """Heat map of the decision table.

    ``ev``: stand / reroll by cargo and rolls left.  ``win``: the lowest cargo to stand on,
    by score to beat and players after, one panel per number of rolls left.  Both speak the
    one language of :mod:`.figure`: the threshold scale, and :data:`~.figure.NEVER_COLOUR`
    with :data:`~.figure.NEVER_MARK` where the plan always rerolls.
    """
    if not rows:
        raise ValueError(f"nothing to plot: under {rules} there is no cargo decision")
    if objective == "ev":
        fig = _ev_heat_map(rows)
    else:
        fig = _win_heat_map(rows)
    what = "best expected score" if objective == "ev" else f"best chance to win, {players} players"
    fig.suptitle(f"When to stand: {what} ({rules})")
    return fig


def _ev_heat_map(rows: Sequence[DecisionRow]) -> Any:
    """Stand, reroll both, or a choice that depends on the pair (half cargo's keeps), by cargo
    and rolls left; rerolling takes the threshold maps' "never stands" colour and mark."""
    import numpy as np
    from matplotlib.colors import ListedColormap

    lefts = sorted({r.rolls_left for r in rows})
    cargos = sorted({c for r in rows for c in r.decisions})
    fig, ax = pyplot().subplots(figsize=(PAGE, 0.8 + 0.45 * len(lefts)), layout="constrained")
    stand_colour, _ = threshold_colours()
    colours = ListedColormap([NEVER_COLOUR, "#f0e442", stand_colour(0.0)])
    grid = np.zeros((len(lefts), len(cargos)))
    for r in rows:
        for j, c in enumerate(cargos):
            d = r.decisions.get(c, "")
            acts = d.split("/") if d else []
            cell = 2 if acts == ["stand"] else 0 if acts == ["reroll"] else 1
            grid[lefts.index(r.rolls_left), j] = cell
            label = "\n".join(a.replace("reroll:keep", "keep ") for a in acts)
            text = NEVER_MARK if cell == 0 else label
            colour = "black" if cell == 1 else "white"
            ax.text(j, lefts.index(r.rolls_left), text, ha="center", va="center", fontsize=6,
                    color=colour)  # fmt: skip
    ax.imshow(grid, cmap=colours, vmin=0, vmax=2, aspect="auto", origin="lower")
    ax.set_xticks(range(len(cargos)), [str(c) for c in cargos])
    ax.set_yticks(range(len(lefts)), [f"{x} left" for x in lefts])
    ax.set_xlabel(
        f"cargo (dark: stand; red, {NEVER_MARK}: reroll both; yellow: depends on the pair)"
    )
    return fig


def _win_heat_map(rows: Sequence[DecisionRow]) -> Any:
    """The lowest cargo to stand on, by score to beat and players after, per rolls left."""
    import numpy as np

    lefts = sorted({r.rolls_left for r in rows})
    fig, axes = pyplot().subplots(
        1, len(lefts), figsize=(PAGE, 2.8), squeeze=False, layout="constrained"
    )
    image = None
    for ax, left in zip(axes[0], lefts):
        sel = [r for r in rows if r.rolls_left == left]
        ks = sorted({r.players_after for r in sel if r.players_after is not None})
        ms = sorted({r.score_to_beat for r in sel if r.score_to_beat is not None})
        grid = np.full((len(ks), len(ms)), np.nan)
        for r in sel:
            assert r.players_after is not None and r.score_to_beat is not None
            sf = r.stand_from
            grid[ks.index(r.players_after), ms.index(r.score_to_beat)] = NEVER if sf is None else sf
        image = threshold_map(ax, grid, fontsize=6)
        ax.set_xticks(range(len(ms)), [str(m) if m else "none" for m in ms])
        ax.set_yticks(range(len(ks)), [str(k) for k in ks])
        ax.set_xlabel("score to beat (posted by one player)")
        ax.set_ylabel("players after")
        ax.set_title(f"{left} roll{'s' if left != 1 else ''} left")
    threshold_bar(fig, image, axes, shrink=0.9)
    return fig
