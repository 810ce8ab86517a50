"""Running many matches: fixed-size chunks, independent seeded streams, workers or Dask.

Chunk ``i`` always holds matches ``i*CHUNK .. (i+1)*CHUNK - 1`` and draws everything from
``numpy.random.SeedSequence(seed, spawn_key=(i,))`` -- the same stream as
``SeedSequence(seed).spawn(n)[i]`` -- so a seed gives the same matches whether the chunks run
in one process, in ``--workers K`` processes or on a Dask cluster, and a run of N matches is a
prefix of a longer run with the same seed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..rules import Rules
from .match import STAT_NAMES, MatchRunner

__all__ = [
    "CHUNK",
    "SimulationResult",
    "chunk_plan",
    "run_chunk",
    "simulate",
    "wilson",
]

#: Matches per chunk (fixed: it is part of what a seed means).
CHUNK = 500


def chunk_plan(matches: int) -> list[tuple[int, int]]:
    """(chunk index, matches in it) for a run of ``matches`` matches."""
    return [(i, min(CHUNK, matches - i * CHUNK)) for i in range(math.ceil(matches / CHUNK))]


def run_chunk(rules_text: str, bots: list[str], entropy: int, index: int, size: int
              ) -> dict[str, Any]:
    """Play one chunk: its own generator from ``SeedSequence(entropy, spawn_key=(index,))``.

    Takes plain values (the rules as canonical text) so it travels to any worker.
    """
    rules = Rules.from_str(rules_text)
    rng = np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=(index,)))
    out = MatchRunner(rules, bots, rng).run(size)
    out["index"] = index
    return out


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

    @property
    def matches(self) -> int:
        return int(self.stats.shape[0])

    def stat(self, name: str) -> np.ndarray:
        """(matches, players) values of one statistic of :data:`~.match.STAT_NAMES`."""
        result: np.ndarray = self.stats[:, STAT_NAMES.index(name), :]
        return result

    def summary(self) -> dict[str, Any]:
        """Win rates with 95% intervals, mean scores, crews, chips and sips per bot and seat."""
        n = self.matches
        won, turns = self.stat("won"), self.stat("turns")
        score, crews = self.stat("score_sum"), self.stat("crews")
        chips, sips = self.stat("chips"), self.stat("sips")

        def block(seats: list[int]) -> dict[str, Any]:
            w = int(won[:, seats].sum())
            t = int(turns[:, seats].sum())
            lo, hi = wilson(w, n)
            per_match_chips = chips[:, seats].sum(axis=1)
            return {
                "win_rate": w / n if n else 0.0,
                "ci95": [lo, hi],
                "wins": w,
                "mean_score": float(score[:, seats].sum()) / t if t else 0.0,
                "turns": t,
                "crew_rate": float(crews[:, seats].sum()) / t if t else 0.0,
                "chips_per_match": float(per_match_chips.mean()) if n else 0.0,
                "sips_per_match": float(sips[:, seats].sum(axis=1).mean()) if n else 0.0,
            }

        bots: dict[str, Any] = {}
        for b in dict.fromkeys(self.bots):
            seats = [i for i, x in enumerate(self.bots) if x == b]
            bots[b] = {"seats": seats, **block(seats)}
        seat_rows = [{"seat": i, "bot": b, **block([i])} for i, b in enumerate(self.bots)]
        return {
            "rules": str(self.rules),
            "players": list(self.bots),
            "seed": self.seed,
            "matches": n,
            "mean_rounds": float(self.rounds.mean()) if n else 0.0,
            "bots": bots,
            "seats": seat_rows,
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
        return pd.DataFrame(data)


def _iter_local(tasks: list[tuple[int, int]], args: tuple[Any, ...], workers: int
                ) -> Iterator[dict[str, Any]]:
    if workers <= 1:
        for index, size in tasks:
            yield run_chunk(*args, index, size)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        futures = [pool.submit(run_chunk, *args, index, size) for index, size in tasks]
        for f in as_completed(futures):
            yield f.result()


def _iter_dask(tasks: list[tuple[int, int]], args: tuple[Any, ...], address: str
               ) -> Iterator[dict[str, Any]]:
    from dask.distributed import Client, LocalCluster, as_completed

    cluster = None
    if address == "local":
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    elif address == "local-threads":
        cluster = LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(address, timeout=10)
    try:
        futures = [client.submit(run_chunk, *args, index, size, pure=False)
                   for index, size in tasks]
        for f in as_completed(futures):
            yield f.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def simulate(
    rules: Rules,
    bots: list[str],
    matches: int,
    *,
    seed: int | None = None,
    workers: int = 1,
    dask: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play ``matches`` matches of ``bots`` (one per seat) under ``rules``.

    ``dask`` is a scheduler address, ``"local"`` for a two-process ``LocalCluster`` or
    ``"local-threads"`` for an in-process one; ``progress`` is called with the number of
    matches each finished chunk played.
    """
    from .policy import make_policy

    if matches < 1:
        raise ValueError(f"matches must be at least 1, got {matches}")
    if not 2 <= len(bots) <= 8:
        raise ValueError(f"a match needs 2..8 players (001), got {len(bots)}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    for b in bots:  # fail early, with the bot's own message, before any worker starts
        make_policy(b, rules, len(bots))
    from ..engine import initial_state

    initial_state(rules, len(bots), starter=0 if rules.starter.value == "chosen" else None)
    entropy = int(np.random.SeedSequence().entropy) if seed is None else seed  # type: ignore[arg-type]
    if entropy < 0:
        raise ValueError(f"seed must be a non-negative integer, got {entropy}")
    tasks = chunk_plan(matches)
    args = (str(rules), list(bots), entropy)
    source = _iter_dask(tasks, args, dask) if dask else _iter_local(tasks, args, workers)
    parts: dict[int, dict[str, Any]] = {}
    for part in source:
        parts[part["index"]] = part
        if progress is not None:
            progress(int(part["stats"].shape[0]))
    ordered = [parts[i] for i, _ in tasks]
    return SimulationResult(
        rules=rules,
        bots=list(bots),
        seed=entropy,
        stats=np.concatenate([p["stats"] for p in ordered]),
        winner=np.concatenate([p["winner"] for p in ordered]),
        rounds=np.concatenate([p["rounds"] for p in ordered]),
        hist=sum((p["hist"] for p in ordered[1:]), ordered[0]["hist"].copy()),
    )
