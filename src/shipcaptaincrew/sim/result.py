"""The result of a run: per-match arrays, summaries by bot, seat and play order, provenance."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..provenance import record
from ..rules import Rules
from .match import STAT_NAMES

__all__ = ["SimulationResult", "wilson"]


def wilson(wins: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score 95% interval of a proportion (sound near 0 and 1, unlike p +- 2 SE).

    >>> lo, hi = wilson(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class SimulationResult:
    """Everything a run produced, in match order."""

    rules: Rules
    bots: list[str]
    seed: int
    #: (matches, len(STAT_NAMES), players) per-seat statistics of each match.
    stats: np.ndarray
    winner: np.ndarray
    rounds: np.ndarray
    #: (players, max score + 1) how often each seat's turns scored each value.
    hist: np.ndarray
    #: The :data:`~.match.ROUND_ARRAYS`: each round's starter, winner, scores, play order.
    per_round: dict[str, np.ndarray]
    #: "tables" (the step tables of :mod:`.fast`) or "engine loop: <why>".
    path: str = "tables"
    #: The command line that ran it, when there was one.
    command: str | None = None

    def provenance(self) -> dict[str, Any]:
        """What it takes to reproduce the run (:func:`~shipcaptaincrew.provenance.record`):
        written into every output file, and the top of the ``--json`` summary."""
        return record(
            self.command,
            rules=self.rules,
            seed=self.seed,
            bots=list(self.bots),
            matches=self.matches,
            path=self.path,
        )

    def play_positions(self) -> np.ndarray:
        """(matches, players): each seat's place in the first round's play order (0 starts)."""
        order = self.per_round["round_order"][:, 0, :]
        pos = np.full(order.shape, -1, dtype=np.int64)
        rows, k = np.nonzero(order >= 0)
        pos[rows, order[rows, k]] = k
        return pos

    @property
    def matches(self) -> int:
        return int(self.stats.shape[0])

    def stat(self, name: str) -> np.ndarray:
        """(matches, players) values of one statistic of :data:`~.match.STAT_NAMES`."""
        result: np.ndarray = self.stats[:, STAT_NAMES.index(name), :]
        return result

    def summary(self) -> dict[str, Any]:
        """Win rates with 95% intervals, mean scores, crews, chips and sips per bot, per seat
        and per place in the first round's play order (``position`` 0 is the starter)."""
        n = self.matches
        won, turns = self.stat("won"), self.stat("turns")
        score, crews = self.stat("score_sum"), self.stat("crews")
        chips, sips = self.stat("chips"), self.stat("sips")

        def block(sel: np.ndarray) -> dict[str, Any]:
            """The figures of the (match, seat) cells ``sel`` picks."""
            w = int(won[sel].sum())
            t = int(turns[sel].sum())
            lo, hi = wilson(w, n)
            return {
                "win_rate": w / n if n else 0.0,
                "ci95": [lo, hi],
                "wins": w,
                "mean_score": float(score[sel].sum()) / t if t else 0.0,
                "turns": t,
                "crews": int(crews[sel].sum()),
                "crew_rate": float(crews[sel].sum()) / t if t else 0.0,
                "chips_per_match": float((chips * sel).sum(axis=1).mean()) if n else 0.0,
                "sips_per_match": float((sips * sel).sum(axis=1).mean()) if n else 0.0,
            }

        seat_of = np.broadcast_to(np.arange(len(self.bots)), won.shape)
        bots: dict[str, Any] = {}
        for b in dict.fromkeys(self.bots):
            seats = [i for i, x in enumerate(self.bots) if x == b]
            bots[b] = {"seats": seats, **block(np.isin(seat_of, seats))}
        seat_rows = [{"seat": i, "bot": b, **block(seat_of == i)} for i, b in enumerate(self.bots)]
        pos = self.play_positions()
        order_rows = [
            {"position": k, "name": f"{k + 1}.", **block(pos == k)} for k in range(len(self.bots))
        ]
        # The run's facts without the record's clock and machine, so two runs of the same
        # seed summarise alike however the work was split (the record: provenance()).
        stable = ("command", "rules", "seed", "bots", "version", "matches", "path")
        prov = self.provenance()
        return {
            **{key: prov[key] for key in stable},
            "players": list(self.bots),
            "mean_rounds": float(self.rounds.mean()) if n else 0.0,
            "bots": bots,
            "seats": seat_rows,
            "play_order": order_rows,
        }

    def table(self) -> Any:
        """One row per (match, seat): a tidy pandas DataFrame."""
        import pandas as pd

        m, _, p = self.stats.shape
        data: dict[str, Any] = {
            "match": np.repeat(np.arange(m), p),
            "seat": np.tile(np.arange(p), m),
            "bot": np.tile(np.array(self.bots, dtype=object), m),
        }
        for k, name in enumerate(STAT_NAMES):
            data[name] = self.stats[:, k, :].reshape(-1)
        data["rounds"] = np.repeat(self.rounds, p)
        data["starter"] = np.repeat(self.per_round["round_starter"][:, 0].astype(np.int64), p)
        data["position"] = self.play_positions().reshape(-1)
        # Per round: the seat's score (-1: did not play), place in play order, and a win.
        order, scores = self.per_round["round_order"], self.per_round["round_scores"]
        for r in range(order.shape[1]):
            place = np.full((m, p), -1, dtype=np.int64)
            rows, at = np.nonzero(order[:, r, :] >= 0)
            place[rows, order[rows, r, at]] = at
            data[f"r{r + 1}_score"] = scores[:, r, :].reshape(-1).astype(np.int64)
            data[f"r{r + 1}_position"] = place.reshape(-1)
            won = self.per_round["round_winner"][:, r, None] == np.arange(p)
            data[f"r{r + 1}_won"] = won.reshape(-1)
        return pd.DataFrame(data)
