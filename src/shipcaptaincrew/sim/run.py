"""Running many matches: fixed-size chunks, seeded random numbers, workers or Dask.

Matches play on the step tables of :mod:`.fast` wherever they can (:func:`.fast_refusal`
says where not); there every random number is keyed by (seed, match, seat, draw), so match
``i`` of a seed is the same however the run is split, and runs with the same seed that
differ in a bot share their dice (:mod:`.keyed`).  Elsewhere the engine loop of
:class:`~.match.MatchRunner` plays: chunk ``i`` holds matches ``i*CHUNK .. (i+1)*CHUNK - 1``
and draws everything from ``numpy.random.SeedSequence(seed, spawn_key=(i,))``.  Either way a
seed gives the same matches in one process, in ``--workers K`` processes or on a Dask
cluster, and a run of N matches is a prefix of a longer run with the same seed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from typing import Any

import numpy as np

from ..errors import InvalidSetupError
from ..messages import N_
from ..rules import Rules
from .match import ROUND_ARRAYS, MatchRunner
from .result import SimulationResult, wilson
from .steps.fast import fast_matches
from .steps.refusal import fast_refusal

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

#: Matches per chunk of the engine loop (fixed: it is part of what a seed means there).
CHUNK = 500
#: Matches per chunk on the step tables (free: their numbers are keyed by match).
FAST_CHUNK = 1 << 15


def chunk_plan(matches: int, size: int = CHUNK) -> list[tuple[int, int]]:
    """(chunk index, matches in it) for a run of ``matches`` matches."""
    return [(i, min(size, matches - i * size)) for i in range(math.ceil(matches / size))]


def run_chunk(
    rules_text: str, bots: list[str], entropy: int, fast: bool, index: int, size: int
) -> dict[str, Any]:
    """Play one chunk, on the step tables (``fast``) or through the engine loop with its own
    generator from ``SeedSequence(entropy, spawn_key=(index,))``.

    Takes plain values (the rules as canonical text) so it travels to any worker.
    """
    rules = Rules.from_str(rules_text)
    if fast:
        out = fast_matches(rules, bots, entropy, index * FAST_CHUNK, size)
    else:
        rng = np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=(index,)))
        out = MatchRunner(rules, bots, rng).run(size)
    out["index"] = index
    return out


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
                    n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
                )
            elif self.dask == "local-threads":
                self._cluster = LocalCluster(
                    n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0"
                )
            if self._cluster is not None:
                self._client = Client(self._cluster)
            else:
                try:
                    self._client = Client(self.dask, timeout=10)
                except (OSError, ValueError, TypeError) as e:
                    raise InvalidSetupError(
                        N_("cannot reach the Dask scheduler {address}: {reason}"),
                        address=repr(self.dask),
                        reason=str(e),
                    ) from e
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
        self, tasks: list[tuple[int, int]], args: tuple[str, list[str], int, bool]
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
    engine_loop: bool = False,
    command: str | None = None,
) -> SimulationResult:
    """Play ``matches`` matches of ``bots`` (one per seat) under ``rules``.

    ``dask`` is a scheduler address, ``"local"`` for a two-process ``LocalCluster`` or
    ``"local-threads"`` for an in-process one (or pass an open :class:`Backend`);
    ``progress`` is called with the number of matches each finished chunk played.
    ``engine_loop`` plays through :class:`~.match.MatchRunner` even where the step tables
    could (to compare the two); ``command`` is recorded in the result's provenance.
    """
    if matches < 1:
        raise ValueError(f"matches must be at least 1, got {matches}")
    check_setup(rules, bots)
    if seed is None:
        seed = int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    refusal = fast_refusal(rules, bots)
    fast = refusal is None and not engine_loop
    tasks = chunk_plan(matches, FAST_CHUNK if fast else CHUNK)
    args = (str(rules), list(bots), seed, fast)
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
        per_round={k: _stack([p[k] for p in ordered]) for k in ROUND_ARRAYS},
        path="tables" if fast else f"engine loop: {refusal.value if refusal else 'asked for'}",
        command=command,
    )


def _stack(parts: list[np.ndarray]) -> np.ndarray:
    """Chunks' per-round arrays, padded with -1 to the longest match's rounds (written into
    one array: a million matches' rounds are copied once)."""
    width = max(x.shape[1] for x in parts)
    first = parts[0]
    out = np.full((sum(len(x) for x in parts), width, *first.shape[2:]), -1, dtype=first.dtype)
    at = 0
    for x in parts:
        out[at : at + len(x), : x.shape[1]] = x
        at += len(x)
    return out


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
