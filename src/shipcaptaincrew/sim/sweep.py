"""A grid of simulations (rule sets x bots x player counts) as one tidy table.

Each cell seats the bot under test at seat 0 and the *field* bot (by default the same bot,
i.e. self-play) at every other seat, and plays ``matches`` matches.  Every cell uses the same
seed, and on the step tables (``path`` = ``tables``) that means common random numbers: match
``i``'s seat ``s`` draws the same numbers in every cell (:mod:`.keyed`), and a turn is drawn
from its score distribution by inverse transform, so cells that differ only in seat 0's bot
give the field the same dice and differences between them are not seed noise
(``benchmarks/bench_sim.py`` prints the agreement and the variance reduction).  Cells played
through the engine loop (``path`` names why) draw from chunk streams instead and are not
paired.  The table has one row per (rule set, player count, bot, seat); its ``place_*``
columns give the win rate of whoever played at place ``seat`` of the first round's play order
(0 = the starter), so the table reports by play order as well as by seat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..rules import Rules
from .run import Backend, check_setup, simulate

__all__ = ["SWEEP_COLUMNS", "sweep", "sweep_cells", "sweep_provenance"]

#: Columns of the sweep table, in order.
SWEEP_COLUMNS = (
    "rules",
    "players",
    "bot",
    "field",
    "seat",
    "seat_bot",
    "matches",
    "win_rate",
    "ci95_low",
    "ci95_high",
    "mean_score",
    "crew_rate",
    "chips_per_match",
    "sips_per_match",
    "mean_rounds",
    "seed",
    "path",
    "place_win_rate",
    "place_ci95_low",
    "place_ci95_high",
)


def sweep_cells(
    rules_list: list[Rules], bots: list[str], players: list[int], field: str | None
) -> list[tuple[Rules, list[str]]]:
    """The grid's cells as (rules, line-up), checked before anything runs."""
    cells = []
    for rules in rules_list:
        for n in players:
            for bot in bots:
                lineup = [bot] + [field or bot] * (n - 1)
                check_setup(rules, lineup)
                cells.append((rules, lineup))
    return cells


def sweep_provenance(
    rules_list: list[Rules],
    bots: list[str],
    players: list[int],
    matches: int,
    *,
    field: str | None,
    seed: int,
    command: str | None,
) -> dict[str, Any]:
    """What it takes to reproduce a sweep (:func:`~shipcaptaincrew.provenance.record`):
    written into its output files."""
    from ..provenance import record

    return record(
        command,
        rules=list(rules_list),
        seed=seed,
        bots=list(bots),
        field=field,
        players=list(players),
        matches=matches,
    )


def sweep(
    rules_list: list[Rules],
    bots: list[str],
    players: list[int],
    matches: int,
    *,
    field: str | None = None,
    seed: int = 0,
    workers: int = 1,
    dask: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Any:
    """Run the grid and return the tidy pandas DataFrame (columns :data:`SWEEP_COLUMNS`)."""
    import pandas as pd

    cells = sweep_cells(rules_list, bots, players, field)
    rows: list[dict[str, Any]] = []
    with Backend(workers, dask) as backend:
        for rules, lineup in cells:
            result = simulate(rules, lineup, matches, seed=seed, backend=backend, progress=progress)
            summary = result.summary()
            for seat, place in zip(summary["seats"], summary["play_order"]):
                rows.append(
                    {
                        "rules": str(rules),
                        "players": len(lineup),
                        "bot": lineup[0],
                        "field": lineup[1],
                        "seat": seat["seat"],
                        "seat_bot": seat["bot"],
                        "matches": summary["matches"],
                        "win_rate": seat["win_rate"],
                        "ci95_low": seat["ci95"][0],
                        "ci95_high": seat["ci95"][1],
                        "mean_score": seat["mean_score"],
                        "crew_rate": seat["crew_rate"],
                        "chips_per_match": seat["chips_per_match"],
                        "sips_per_match": seat["sips_per_match"],
                        "mean_rounds": summary["mean_rounds"],
                        "seed": summary["seed"],
                        "path": summary["path"],
                        "place_win_rate": place["win_rate"],
                        "place_ci95_low": place["ci95"][0],
                        "place_ci95_high": place["ci95"][1],
                    }
                )
    return pd.DataFrame(rows, columns=list(SWEEP_COLUMNS))
