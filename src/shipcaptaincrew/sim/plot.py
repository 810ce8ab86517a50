"""Plots of a simulation: win rates against the fair share, turn-score distributions, chips;
and the tables written with their provenance."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from .run import SimulationResult

__all__ = ["plot_result", "plot_sweep", "write_table"]


def plot_result(result: SimulationResult, path: str | Path) -> None:
    """Win rate per seat (Wilson 95% intervals) against the fair share 1/n, each bot's turn
    score distribution over the scores a turn can end with (no bar for an impossible 1), and
    in pot games the chips each seat won or lost per match (95% intervals)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..engine import turn_scores
    from ..rules import Stakes

    summary = result.summary()
    seats = summary["seats"]
    pot = result.rules.stakes is Stakes.POT
    fig, axes = plt.subplots(1, 3 if pot else 2, figsize=(16 if pot else 11, 4.2))
    ax1, ax2 = axes[0], axes[1]
    labels = [f"{s['seat']}: {s['bot']}" for s in seats]
    rates = np.array([s["win_rate"] for s in seats])
    lo = rates - np.array([s["ci95"][0] for s in seats])
    hi = np.array([s["ci95"][1] for s in seats]) - rates
    ax1.bar(labels, rates, yerr=[lo, hi], capsize=4, color="tab:blue")
    ax1.axhline(1 / len(seats), color="grey", ls="--", lw=1, label="fair share 1/n")
    ax1.set_ylabel("match win rate")
    ax1.set_title(f"Win rate per seat ({summary['matches']} matches, 95% CI)")
    ax1.tick_params(axis="x", rotation=30)
    ax1.legend()
    scores = np.array(turn_scores(result.rules))
    slots = np.arange(len(scores))
    width = 0.8 / max(1, len(summary["bots"]))
    for k, (bot, info) in enumerate(summary["bots"].items()):
        counts = result.hist[info["seats"]].sum(axis=0)[scores]
        total = counts.sum()
        share = counts / total if total else counts
        ax2.bar(slots + (k - (len(summary["bots"]) - 1) / 2) * width, share, width, label=bot)
    ax2.set_xlabel("turn score (0 = no full crew; 1 cannot happen)")
    ax2.set_ylabel("share of turns")
    ax2.set_title("Turn score distribution per bot")
    ax2.set_xticks(slots, [str(x) for x in scores])
    ax2.legend()
    if pot:
        chips = result.stat("chips").astype(float)
        mean = chips.mean(axis=0)
        half = 1.959963984540054 * chips.std(axis=0, ddof=1) / np.sqrt(max(1, len(chips)))
        ax3 = axes[2]
        ax3.bar(labels, mean, yerr=half, capsize=4, color="tab:green")
        ax3.axhline(0, color="grey", lw=1)
        ax3.set_ylabel("chips won per match")
        ax3.set_title(f"Chips per seat (ante {result.rules.ante}, 95% CI)")
        ax3.tick_params(axis="x", rotation=30)
    fig.suptitle(summary["rules"], fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_table(frame: Any, path: str | Path, provenance: dict[str, Any]) -> None:
    """Write a DataFrame as CSV, JSON or Parquet (by the file's suffix), with its provenance.

    The provenance (rules, seed, bots, package version, command, ...) goes where each format
    keeps such things: ``# key: value`` lines above a CSV's header (read it back with
    ``pandas.read_csv(path, comment="#")``), a ``"provenance"`` object beside the ``"rows"``
    of a JSON file, and the ``shipcaptaincrew`` key of a Parquet file's schema metadata.
    """
    import json

    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".csv":
        with p.open("w", encoding="utf-8", newline="") as f:
            for key, value in provenance.items():
                f.write(f"# {key}: {json.dumps(value)}\n")
            frame.to_csv(f, index=False)
    elif suffix == ".json":
        rows = json.loads(frame.to_json(orient="records"))
        p.write_text(json.dumps({"provenance": provenance, "rows": rows}, indent=1))
    elif suffix == ".parquet":
        import pyarrow as pa  # type: ignore[import-untyped]
        import pyarrow.parquet as pq  # type: ignore[import-untyped]

        table = pa.Table.from_pandas(frame, preserve_index=False)
        meta = {**(table.schema.metadata or {}), b"shipcaptaincrew": json.dumps(provenance)}
        pq.write_table(table.replace_schema_metadata(meta), p)
    else:
        raise ValueError(f"--out {path}: the file must end in .csv, .json or .parquet")


def plot_sweep(frame: Any, path: str | Path) -> None:
    """Seat-0 win rate of each tested bot relative to the fair share 1/n, against the player
    count, one panel per rule set: 1 is a fair share, 2 twice it.  Error bars are Wilson 95%
    intervals on the same scale."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    hero = frame[frame["seat"] == 0]
    rule_sets = list(dict.fromkeys(hero["rules"]))
    fig, axes = plt.subplots(
        1, len(rule_sets), figsize=(5.2 * len(rule_sets), 4.2), squeeze=False, sharey=True
    )
    for ax, rules in zip(axes[0], rule_sets):
        part = hero[hero["rules"] == rules]
        for bot in dict.fromkeys(part["bot"]):
            rows = part[part["bot"] == bot].sort_values("players")
            n = rows["players"]
            rel = rows["win_rate"] * n
            err = [rel - rows["ci95_low"] * n, rows["ci95_high"] * n - rel]
            ax.errorbar(
                n, rel, yerr=err, marker="o", capsize=3,
                label=f"{bot} (field: {rows['field'].iloc[0]})",
            )  # fmt: skip
        counts = sorted(set(part["players"]))
        ax.axhline(1.0, color="k", ls="--", lw=1, label="fair share 1/n")
        ax.set_title(rules, fontsize=9)
        ax.set_xlabel("players")
        ax.set_xticks(counts)
    axes[0][0].set_ylabel("seat-0 win rate / fair share 1/n")
    axes[0][-1].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
