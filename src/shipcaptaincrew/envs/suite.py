"""A small benchmark for learning on this game: three tasks, each scored exactly.

Why: a learning curve's sampled win rate tells how a method did on its seeds; a paper wants a
number another method can be held against.  Each task here fixes an environment and scores a
policy by :func:`~.evaluate.exact_value`: its exact win chance and the exact best response's
(how exploitable it is), beside named baselines scored the same way (the solver's policies,
whose values the solver knows exactly).  ``benchmarks/learning_suite.py`` prints the table,
with the shipped examples' learned policies as its first rows (``docs/learning.md`` keeps it).

======== ================================================================================
task     environment and score
======== ================================================================================
turn     :class:`~.batched.BatchedTurnEnv`, classic, the first of two seats; the exact chance
         to win the round, and what the optimal plan has more (exploitability)
round    ``ShipCaptainCrew-v0``, classic, one round against ``optimal``; the exact chance to
         win it from the roll-off, and the best response's against the policy
match    the same over ``rounds:3`` (a walk of minutes per policy)
======== ================================================================================

>>> sorted(TASKS)
['match', 'round', 'turn']
>>> [round(r.value, 4) for r in baselines("turn") if r.policy in ("timid", "optimal")]
[0.4534, 0.4925]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..solver import policy_choices
from ..solver.evaluate import best_response, evaluate
from ..solver.policies import SEAT_KINDS, parse_policy
from .batched import BatchedTurnEnv
from .encoding import action_index
from .evaluate import ExactValue, exact_value
from .gym_env import ShipCaptainCrewEnv

__all__ = ["BASELINES", "TASKS", "Row", "Task", "baselines", "score"]

#: The baselines of every task, by the names bots and policies share.
BASELINES = ("timid", "tip", "ev", "optimal:round", "optimal")


@dataclass(frozen=True)
class Task:
    """One benchmark task: its environment and what its score means."""

    name: str
    description: str
    make_env: Callable[[], Any]


@dataclass(frozen=True)
class Row:
    """A policy's score on a task: exact values, and where the policy comes from."""

    task: str
    policy: str
    value: float
    best_response: float | None
    exploitability: float | None
    source: str


TASKS = {
    "turn": Task(
        "turn",
        "one turn, classic, the first of two seats; reward: the exact chance to win the round",
        lambda: BatchedTurnEnv(1024, rules="classic"),
    ),
    "round": Task(
        "round",
        "one round, classic, two players, against optimal; reward: 1 for winning it",
        lambda: ShipCaptainCrewEnv(rules="classic", bots=["optimal"]),
    ),
    "match": Task(
        "match",
        "rounds:3, classic, two players, against optimal; reward: 1 for winning the match",
        lambda: ShipCaptainCrewEnv(rules="classic", bots=["optimal"], format="rounds:3"),
    ),
}


def score(task: str, policy: Any, source: str, name: str = "learned") -> Row:
    """A learned policy's row: ``policy`` as :func:`~.evaluate.exact_value` takes it for the
    task's environment (a table of ids by node for ``turn``, a function of the Gymnasium
    observation for ``round`` and ``match``)."""
    found: ExactValue = exact_value(TASKS[task].make_env(), policy)
    return Row(task, name, found.value, found.best_response, found.exploitability, source)


def baselines(task: str) -> list[Row]:
    """The named policies' rows, exact (the solver's values)."""
    env = TASKS[task].make_env()
    if isinstance(env, BatchedTurnEnv):
        rows = []
        for name in BASELINES:
            if name.startswith("optimal"):
                best = exact_value(env, _table(env, "ev")).best_response
                assert best is not None
                rows.append(Row(task, name, best, best, 0.0, "the optimal plan"))
                continue
            found = exact_value(env, _table(env, name))
            rows.append(
                Row(task, name, found.value, found.best_response, found.exploitability, "solver")
            )
        return rows
    rules = env.rules
    opponent = parse_policy("optimal", allow=SEAT_KINDS)
    rows = []
    for name in BASELINES:
        mine = parse_policy(name, allow=SEAT_KINDS)
        # The roll-off: each seat opens half the matches.
        value = (
            evaluate(rules, (mine, opponent)).seat_win_probability[0]
            + evaluate(rules, (opponent, mine)).seat_win_probability[1]
        ) / 2
        best = (
            best_response(rules, (mine, mine), 1).seat_win_probability[1]
            + best_response(rules, (mine, mine), 0).seat_win_probability[0]
        ) / 2
        rows.append(Row(task, name, value, best, max(0.0, best - 0.5), "solver"))
    return rows


def _table(env: BatchedTurnEnv, name: str) -> np.ndarray:
    """A named fixed policy as a table of ids by node."""
    g = env.graph
    ids = np.zeros(len(g), dtype=np.int64)
    for node, pick in enumerate(policy_choices(env.rules, name)):
        if pick >= 0:
            ids[node] = action_index(g.states[node], g.actions[node][pick])
    return ids
