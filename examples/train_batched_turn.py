"""Tabular Q-learning on the batched one-turn environment, scored exactly, pooled over seeds.

65,536 tables step at once (:class:`shipcaptaincrew.envs.batched.BatchedTurnEnv`: one turn of
the first of two seats under the classic rules, rewarded with the exact chance that its final
score wins the round).  The Q-table has one row per node of the compiled turn (the
observation's ``node``); every step updates the rows of all tables at once, one-step
Q-learning with gamma 1 and epsilon-greedy play.  The greedy table is then scored by
:func:`shipcaptaincrew.envs.evaluate.exact_value`: its exact win chance and the optimal plan's
(the best response here), whose difference is how much the table leaves on the table.  Several
seeds are trained and pooled: one run is one draw of the learning's noise.

    python examples/train_batched_turn.py                 # five seeds, a few seconds each
    python examples/train_batched_turn.py --seeds 1,2 --steps 100
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _support import Parser, at_least, seed_list

from shipcaptaincrew.envs.batched import BatchedTurnEnv
from shipcaptaincrew.envs.encoding import NUM_ACTIONS
from shipcaptaincrew.envs.evaluate import exact_value

#: Tables stepping together.
TABLES = 1 << 16


def train(env: BatchedTurnEnv, steps: int, seed: int) -> np.ndarray:
    """The greedy id at every node after ``steps`` batched steps of Q-learning."""
    rng = np.random.default_rng(seed)
    q = np.where(env.masks.astype(bool), 0.5, -np.inf)  # illegal ids never chosen
    visits = np.zeros(q.shape)
    obs, _ = env.reset(seed=seed)
    for step in range(steps):
        node = obs["node"]
        eps = max(0.02, 0.5 * (1 - step / (0.7 * steps)))
        greedy = q[node].argmax(axis=1)
        explore = rng.random(len(node)) < eps
        actions = np.where(explore, env.sample_actions(), greedy)
        obs, reward, terminated, _, _ = env.step(actions)
        target = np.where(terminated, reward, q[obs["node"]].max(axis=1))
        # Tables at one (node, id) update it together, by the mean of their targets.
        delta = np.zeros(q.shape)
        count = np.zeros(q.shape)
        np.add.at(delta, (node, actions), target - q[node, actions])
        np.add.at(count, (node, actions), 1)
        visits += count
        seen = count > 0
        step_size = np.maximum(0.02, visits[seen] ** -0.7)
        q[seen] += step_size * delta[seen] / count[seen]
    return np.where(env.turn.decision, q.argmax(axis=1), 0)


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=at_least(1), default=300, help="batched steps per seed")
    parser.add_argument("--seeds", type=seed_list, default=[1, 2, 3, 4, 5], help="seeds to pool")
    parser.add_argument("--tables", type=at_least(1), default=TABLES)
    args = parser.parse_args(argv)
    env = BatchedTurnEnv(args.tables, rules="classic")
    print(
        f"{env.rules}: one turn, the first of two seats; {args.tables} tables x {args.steps} "
        f"steps per seed; {NUM_ACTIONS} action ids"
    )
    values, gaps = [], []
    for seed in args.seeds:
        t0 = time.perf_counter()
        table = train(env, args.steps, seed)
        seconds = time.perf_counter() - t0
        exact = exact_value(env, table)
        assert exact.exploitability is not None
        values.append(exact.value)
        gaps.append(exact.exploitability)
        print(
            f"  seed {seed:<3} exact win chance {100 * exact.value:.4f}%  optimal "
            f"{100 * (exact.best_response or 0):.4f}%  left {100 * exact.exploitability:.4f} "
            f"points  ({seconds:.1f} s)"
        )
    spread = statistics.stdev(values) if len(values) > 1 else 0.0
    print(
        f"  pooled  exact win chance {100 * statistics.mean(values):.4f}% +- "
        f"{100 * spread:.4f} (sd over {len(values)} seeds); left "
        f"{100 * statistics.mean(gaps):.4f} points on average, at most {100 * max(gaps):.4f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
