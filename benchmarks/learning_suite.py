"""The learning benchmark (shipcaptaincrew.envs.suite): the shipped examples' learned policies,
then the named baselines, each scored exactly.  Prints a table; asserts nothing.

Each example is trained under several seeds and each seed's greedy policy is scored exactly
(its win chance, the best response's against it, and the exploitability), so a row is a mean
and its spread over seeds, not one lucky run:

* ``turn``: ``examples/train_batched_turn.py`` (tabular Q-learning on 65,536 one-turn tables);
* ``round`` and ``match``: ``examples/train_tabular.py`` (tabular Q-learning in
  ``ShipCaptainCrew-v0`` against ``optimal``; ``match`` walks ``rounds:3``, minutes per seed).

Run:  .venv/bin/python benchmarks/learning_suite.py [--tasks turn,round] [--seeds 1,2,3]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from shipcaptaincrew.envs.suite import TASKS, Row, baselines, score

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def example(name: str) -> ModuleType:
    """An example script as a module (its folder on the path for its helpers)."""
    sys.path.insert(0, str(EXAMPLES))
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def learned_turn(seeds: list[int]) -> list[Row]:
    ex = example("train_batched_turn")
    env = TASKS["turn"].make_env()
    from shipcaptaincrew.envs.batched import BatchedTurnEnv

    big = BatchedTurnEnv(ex.TABLES, rules="classic")
    return [
        score("turn", ex.train(big, 300, seed), "examples/train_batched_turn.py")
        for seed in seeds
        if env is not None
    ]


def learned_tabular(task: str, seeds: list[int], episodes: int) -> list[Row]:
    ex = example("train_tabular")
    env = TASKS[task].make_env()
    rows = []
    for seed in seeds:
        table = ex.train(env, episodes, seed, lambda _: None)

        def policy(obs: dict[str, Any], table: Any = table) -> int:
            return int(table.greedy(ex.state_key(obs), ex.choices(obs)))

        rows.append(score(task, policy, f"examples/train_tabular.py ({episodes} matches)"))
    return rows


def pooled(rows: list[Row]) -> str:
    """Mean +- sd over seeds of the value, best response and exploitability."""

    def stat(values: list[float]) -> str:
        sd = statistics.stdev(values) if len(values) > 1 else 0.0
        return f"{100 * statistics.mean(values):8.4f} +- {100 * sd:.4f}"

    brs = [r.best_response for r in rows if r.best_response is not None]
    gaps = [r.exploitability for r in rows if r.exploitability is not None]
    return f"{stat([r.value for r in rows])} | {stat(brs)} | {stat(gaps)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", default="turn,round,match")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--episodes", type=int, default=30_000, help="train_tabular's matches")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    print(
        "task  | policy                    | exact win chance (%) | best response (%) | exploitability (points)"
    )
    for task in args.tasks.split(","):
        t0 = time.perf_counter()
        if task == "turn":
            rows = learned_turn(seeds)
        else:
            rows = learned_tabular(task, seeds, args.episodes)
        seconds = time.perf_counter() - t0
        print(
            f"{task:<5} | learned, {len(seeds)} seeds {'':<8} | {pooled(rows)}   "
            f"({rows[0].source}; {seconds:.0f} s)"
        )
        for r in baselines(task):
            br = "" if r.best_response is None else f"{100 * r.best_response:8.4f}"
            gap = "" if r.exploitability is None else f"{100 * r.exploitability:8.4f}"
            print(f"{task:<5} | {r.policy:<25} | {100 * r.value:8.4f} {'':<11} | {br:<17} | {gap}")


if __name__ == "__main__":
    main()
