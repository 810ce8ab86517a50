"""Figures of a simulation (win rates against the fair share, turn-score distributions, chips,
a sweep's seat-0 win rates), and the tables written with their provenance.

The figures follow the package's print style (:mod:`~shipcaptaincrew.plots.figure`): a page
wide, text that reads at that size, PNG, SVG or PDF, and the run's provenance in the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..plots.figure import PAGE, pyplot, save
from ..provenance import csv_header, parquet_metadata, written
from .run import SimulationResult

__all__ = ["dodge", "fair_share", "plot_result", "plot_sweep", "sweep_figure", "write_table"]


def plot_result(result: SimulationResult, path: str | Path, prov: dict[str, Any], dpi: int) -> None:
    """Win rate per seat (Wilson 95% intervals) against the fair share 1/n, each bot's turn
    score distribution over the scores a turn can end with (no bar for an impossible 1), and
    in pot games the chips each seat won or lost per match (95% intervals)."""
    from ..engine import turn_scores
    from ..rules import Stakes

    plt = pyplot()
    summary = result.summary()
    seats = summary["seats"]
    pot = result.rules.stakes is Stakes.POT
    fig, axes = plt.subplots(
        1,
        3 if pot else 2,
        figsize=(PAGE, 2.7),
        width_ratios=[1, 1.6, 1][: 3 if pot else 2],
        layout="constrained",
    )
    ax1, ax2 = axes[0], axes[1]
    labels = [f"{s['seat']}: {s['bot']}" for s in seats]
    rates = np.array([s["win_rate"] for s in seats])
    lo = rates - np.array([s["ci95"][0] for s in seats])
    hi = np.array([s["ci95"][1] for s in seats]) - rates
    ax1.bar(labels, rates, yerr=[lo, hi], color="C0", width=0.6)
    fair_share(ax1, 1 / len(seats))
    ax1.set_ylabel("match win rate")
    ax1.set_title(f"Win rate per seat ({summary['matches']:,} matches, 95% CI)")
    ax1.tick_params(axis="x", rotation=30)
    scores = np.array(turn_scores(result.rules))
    slots = np.arange(len(scores))
    names = list(summary["bots"])
    width = 0.8 / max(1, len(names))
    for k, (bot, info) in enumerate(summary["bots"].items()):
        counts = result.hist[info["seats"]].sum(axis=0)[scores]
        total = counts.sum()
        share = counts / total if total else counts
        ax2.bar(slots + dodge(k, len(names), width), share, width, label=bot)
    ax2.set_xlabel("turn score (0 = no full crew)")
    ax2.set_ylabel("share of turns")
    ax2.set_title("Turn score distribution per bot")
    ax2.set_xticks(slots, [str(x) for x in scores])
    ax2.legend(ncols=2 if len(names) > 2 else 1)
    if pot:
        chips = result.stat("chips").astype(float)
        mean = chips.mean(axis=0)
        half = 1.959963984540054 * chips.std(axis=0, ddof=1) / np.sqrt(max(1, len(chips)))
        ax3 = axes[2]
        ax3.bar(labels, mean, yerr=half, color="C2", width=0.6)
        ax3.axhline(0, color="grey", lw=0.8)
        ax3.set_ylabel("chips won per match")
        ax3.set_title(f"Chips per seat (ante {result.rules.ante}, 95% CI)")
        ax3.tick_params(axis="x", rotation=30)
    fig.suptitle(summary["rules"])
    save(fig, path, prov, dpi)


def fair_share(ax: Any, y: float, text: str = "fair share 1/n") -> None:
    """A dashed line at the fair share, named at its right end above the line (no legend box
    to cover a bar)."""
    ax.axhline(y, color="grey", ls="--", lw=0.8, zorder=0)
    if not text:
        return
    ax.annotate(
        text, (1, y), xycoords=("axes fraction", "data"), ha="right", va="bottom",
        fontsize=6, color="grey", xytext=(0, 1), textcoords="offset points",
    )  # fmt: skip


def dodge(k: int, n: int, width: float) -> float:
    """The offset of series ``k`` of ``n`` drawn side by side at one x, ``width`` apart, so
    that their bars or error bars do not cover each other (centred on the x).

    >>> [dodge(k, 3, 0.1) for k in range(3)]
    [-0.1, 0.0, 0.1]
    """
    return (k - (n - 1) / 2) * width


def write_table(frame: Any, path: str | Path, provenance: dict[str, Any]) -> None:
    """Write a DataFrame as CSV, JSON or Parquet (by the file's suffix), with its provenance
    where each format keeps it (:mod:`~shipcaptaincrew.provenance`)."""
    import json

    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".csv":
        with p.open("w", encoding="utf-8", newline="") as f:
            f.write(csv_header(provenance))
            frame.to_csv(f, index=False)
    elif suffix == ".json":
        rows = json.loads(frame.to_json(orient="records"))
        doc = {"provenance": written(provenance), "rows": rows}
        p.write_text(json.dumps(doc, indent=1))
    elif suffix == ".parquet":
        import pyarrow as pa  # type: ignore[import-untyped]
        import pyarrow.parquet as pq  # type: ignore[import-untyped]

        table = pa.Table.from_pandas(frame, preserve_index=False)
        meta = {**(table.schema.metadata or {}), **parquet_metadata(provenance)}
        pq.write_table(table.replace_schema_metadata(meta), p)
    else:
        raise ValueError(f"--out {path}: the file must end in .csv, .json or .parquet")


def plot_sweep(frame: Any, path: str | Path, prov: dict[str, Any], dpi: int) -> None:
    """:func:`sweep_figure`, saved with its provenance."""
    save(sweep_figure(frame), path, prov, dpi)


def sweep_figure(frame: Any) -> Any:
    """Seat-0 win rate of each tested bot relative to the fair share 1/n, against the player
    count, one panel per rule set: 1 is a fair share, 2 twice it.  Error bars are Wilson 95%
    intervals on the same scale, each bot's set a little to the side of the player count
    (dodged) so that no interval hides another."""
    plt = pyplot()
    hero = frame[frame["seat"] == 0]
    rule_sets = list(dict.fromkeys(hero["rules"]))
    fig, axes = plt.subplots(
        1,
        len(rule_sets),
        figsize=(min(PAGE, 3.5 * len(rule_sets)), 2.8),
        squeeze=False,
        sharey=True,
        layout="constrained",
    )
    for ax, rules in zip(axes[0], rule_sets):
        part = hero[hero["rules"] == rules]
        bots = list(dict.fromkeys(part["bot"]))
        for k, bot in enumerate(bots):
            rows = part[part["bot"] == bot].sort_values("players")
            n = rows["players"]
            rel = rows["win_rate"] * n
            err = [rel - rows["ci95_low"] * n, rows["ci95_high"] * n - rel]
            ax.errorbar(
                n + dodge(k, len(bots), 0.12), rel, yerr=err, marker="o", ls="-",
                label=f"{bot} (field: {rows['field'].iloc[0]})",
            )  # fmt: skip
        counts = sorted(set(part["players"]))
        fair_share(ax, 1.0, "")  # the y label says it: 1 is the fair share
        ax.set_title(rules)
        ax.set_xlabel("players")
        ax.set_xticks(counts)
    axes[0][0].set_ylabel("seat-0 win rate / fair share 1/n")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=min(4, len(labels)))
    return fig
