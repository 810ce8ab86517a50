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
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..rules import Rules
from .match import STAT_NAMES, MatchRunner

__all__ = [
    "CHUNK",
    "Backend",
    "check_setup",
    "SimulationResult",
    "chunk_plan",
    "run_chunk",
    "simulate",
    "simulate_turns",
    "wilson",
]

#: Matches per chunk (fixed: it is part of what a seed means).
CHUNK = 500


def chunk_plan(matches: int) -> list[tuple[int, int]]:
    """(chunk index, matches in it) for a run of ``matches`` matches."""
    return [(i, min(CHUNK, matches - i * CHUNK)) for i in range(math.ceil(matches / CHUNK))]


def run_chunk(
    rules_text: str, bots: list[str], entropy: int, index: int, size: int
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
                "crews": int(crews[:, seats].sum()),
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


class Backend:
    """Where chunks run: this process, ``workers`` processes, or a Dask cluster.

    Use it as a context manager so that pools and clusters are shut down; one backend can
    serve several runs (a sweep starts its cluster once).
    """

    def __init__(self, workers: int = 1, dask: str | None = None) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        if dask is not None and workers > 1:
            raise ValueError("choose either --workers or --dask, not both")
        self.workers = workers
        self.dask = dask
        self._pool: Any = None
        self._client: Any = None
        self._cluster: Any = None

    def __enter__(self) -> Backend:
        if self.dask is not None:
            from dask.distributed import Client, LocalCluster

            if self.dask == "local":
                self._cluster = LocalCluster(
                    n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
                )
            elif self.dask == "local-threads":
                self._cluster = LocalCluster(
                    n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
                )
            if self._cluster is not None:
                self._client = Client(self._cluster)
            else:
                try:
                    self._client = Client(self.dask, timeout=10)
                except (OSError, ValueError, TypeError) as e:
                    raise ValueError(f"cannot reach the Dask scheduler {self.dask!r}: {e}") from e
        elif self.workers > 1:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            # spawn, not fork: the parent may run a progress-bar thread.
            ctx = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
        if self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()

    def run(
        self, tasks: list[tuple[int, int]], args: tuple[str, list[str], int]
    ) -> Iterator[dict[str, Any]]:
        """Yield each chunk's result as it finishes (in any order)."""
        if self._client is not None:
            from dask.distributed import as_completed as dask_completed

            futures = [self._client.submit(run_chunk, *args, i, n, pure=False) for i, n in tasks]
            for f in dask_completed(futures):
                yield f.result()
        elif self._pool is not None:
            from concurrent.futures import as_completed

            pending = [self._pool.submit(run_chunk, *args, i, n) for i, n in tasks]
            for f in as_completed(pending):
                yield f.result()
        else:
            for i, n in tasks:
                yield run_chunk(*args, i, n)


def check_setup(rules: Rules, bots: list[str]) -> None:
    """Refuse a line-up or rule set that cannot be simulated, naming the problem."""
    from ..engine import check_players, initial_state
    from .policy import make_policy

    check_players(rules, len(bots))
    for b in bots:  # fail early, with the bot's own message, before any worker starts
        make_policy(b, rules, len(bots))
    initial_state(rules, len(bots))


def simulate(
    rules: Rules,
    bots: list[str],
    matches: int,
    *,
    seed: int | None = None,
    workers: int = 1,
    dask: str | None = None,
    backend: Backend | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play ``matches`` matches of ``bots`` (one per seat) under ``rules``.

    ``dask`` is a scheduler address, ``"local"`` for a two-process ``LocalCluster`` or
    ``"local-threads"`` for an in-process one (or pass an open :class:`Backend`);
    ``progress`` is called with the number of matches each finished chunk played.
    """
    if matches < 1:
        raise ValueError(f"matches must be at least 1, got {matches}")
    check_setup(rules, bots)
    if seed is None:
        seed = int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    tasks = chunk_plan(matches)
    args = (str(rules), list(bots), seed)
    parts: dict[int, dict[str, Any]] = {}
    context = nullcontext(backend) if backend is not None else Backend(workers, dask)
    with context as b:
        for part in b.run(tasks, args):
            parts[part["index"]] = part
            if progress is not None:
                progress(int(part["stats"].shape[0]))
    ordered = [parts[i] for i, _ in tasks]
    return SimulationResult(
        rules=rules,
        bots=list(bots),
        seed=seed,
        stats=np.concatenate([p["stats"] for p in ordered]),
        winner=np.concatenate([p["winner"] for p in ordered]),
        rounds=np.concatenate([p["rounds"] for p in ordered]),
        hist=sum((p["hist"] for p in ordered[1:]), ordered[0]["hist"].copy()),
    )


#: Turns per chunk of :func:`simulate_turns`.
TURN_CHUNK = 1_000_000


def simulate_turns(rules: Rules, bot: str, turns: int, *, seed: int = 0) -> dict[str, Any]:
    """Sample ``turns`` standalone turns of one bot in chunks, with flat memory.

    Chunk ``i`` draws from ``SeedSequence(seed, spawn_key=(i,))``.  Returns the counts (score
    histogram, completions by roll) and the statistics the exact solver gives, each with its
    standard error.

    >>> out = simulate_turns(Rules(), "tip", 20_000, seed=1)
    >>> abs(out["expected_score"] - 4.0621) < 4 * out["expected_score_se"]
    True
    """
    from .match import table_for
    from .policy import make_policy

    if turns < 1:
        raise ValueError(f"turns must be at least 1, got {turns}")
    policy = make_policy(bot, rules)
    table = table_for(rules, policy, 2, None)
    hist = np.zeros(rules.max_score + 1, dtype=np.int64)
    by_roll = np.zeros(table.rolls + 1, dtype=np.int64)
    for i in range(math.ceil(turns / TURN_CHUNK)):
        m = min(TURN_CHUNK, turns - i * TURN_CHUNK)
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(i,)))
        sample = table.sample(rng, m)
        hist += np.bincount(sample.scores, minlength=hist.size)
        by_roll += np.bincount(sample.completed_on, minlength=by_roll.size)
    scores = np.arange(hist.size)
    mean = float((hist * scores).sum() / turns)
    var = float((hist * (scores - mean) ** 2).sum() / max(1, turns - 1))

    def prop(k: int) -> tuple[float, float]:
        p = k / turns
        return p, math.sqrt(p * (1 - p) / turns)

    p_complete, p_complete_se = prop(int(by_roll[1:].sum()))
    return {
        "rules": str(rules),
        "bot": policy.name,
        "turns": turns,
        "seed": seed,
        "expected_score": mean,
        "expected_score_se": math.sqrt(var / turns),
        "p_complete": p_complete,
        "p_complete_se": p_complete_se,
        "p_complete_by_roll": [prop(int(by_roll[k]))[0] for k in range(1, by_roll.size)],
        "distribution": {int(s): int(c) / turns for s, c in zip(scores, hist) if c},
        "histogram": hist.tolist(),
    }
