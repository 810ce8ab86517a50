"""Train a tabular Q-learning agent in ``ShipCaptainCrew-v0`` and compare it with the solver.

The agent learns by playing rounds against a field of bots (by default one ``optimal`` bot,
so the solver's policy is the exact best response and the target to reach).  Afterwards the
greedy learned policy and the solver's optimal policy each play the same evaluation rounds
(same seeds) against the same field, and the script prints

* the win rate of each (with a 95% interval),
* agreement per state: at every decision the learned policy met during evaluation, whether
  its choice is one of the solver's best (:func:`shipcaptaincrew.solver.advise`), weighted by
  visits and over distinct states, and the win probability given up where they differ,
* the states where they disagree most often.

No deep-learning dependency: the Q-table is a dict of numpy arrays.

    python examples/train_tabular.py              # about a minute
    python examples/train_tabular.py --long       # five times the training (about 10 min)
    python examples/train_tabular.py --rules "classic(half_cargo=true)" --bots optimal optimal
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _support import Parser, at_least, fail, optimal_bot, optimal_set

import shipcaptaincrew.envs  # noqa: F401  (registers ShipCaptainCrew-v0)
from shipcaptaincrew import legal_actions
from shipcaptaincrew.envs.encoding import OBS_PHASES, action_index, index_action
from shipcaptaincrew.envs.gym_env import ShipCaptainCrewEnv

Key = tuple[Any, ...]


def state_key(obs: dict[str, Any]) -> Key:
    """What matters for the agent's choice: its dice, its rolls, and the scores to beat."""
    me = int(obs["seat"])
    others = [int(v) for s, v in enumerate(obs["posted"]) if s != me and v >= 0]
    best = max(others, default=-1)
    return (
        int(obs["phase"]),
        int(obs["contest"]),
        tuple(int(x) for x in obs["held"]),
        tuple(int(x) for x in obs["cargo"]),
        tuple(int(x) for x in obs["pending"]),
        int(obs["rolls_used"]),
        int(obs["cargo_rerolls"]),
        int(obs["bonus"]),
        best,
        others.count(best) if others else 0,
        int(obs["players_after"]),
        int(obs["hand_out_left"]),
    )


def choices(obs: dict[str, Any]) -> np.ndarray:
    """The action ids to choose among (every stop is a decision)."""
    return np.flatnonzero(obs["action_mask"])


class QTable:
    """Q(s, a) with visit counts; unvisited entries start at ``init``."""

    def __init__(self, n_actions: int, init: float = 0.5) -> None:
        self.q: defaultdict[Key, np.ndarray] = defaultdict(lambda: np.full(n_actions, init))
        self.n: defaultdict[Key, np.ndarray] = defaultdict(lambda: np.zeros(n_actions))

    def greedy(self, key: Key, ids: np.ndarray) -> int:
        """The best-valued id (ties to the lowest id)."""
        values = self.q[key][ids]
        return int(ids[int(np.argmax(values))])

    def value(self, key: Key, ids: np.ndarray) -> float:
        """max Q over the ids."""
        return float(self.q[key][ids].max())


def train(env: ShipCaptainCrewEnv, episodes: int, seed: int, log: Callable[[str], None]) -> QTable:
    """Q-learning (gamma 1, the reward comes at the end) with decaying epsilon-greedy play."""
    table = QTable(env.action_space.n)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    for episode in range(episodes):
        eps = max(0.02, 0.5 * (1 - episode / (0.6 * episodes)))
        obs, _ = env.reset(seed=seed * 1_000_003 + episode)
        done = False
        while not done:
            key, ids = state_key(obs), choices(obs)
            action = int(rng.choice(ids)) if rng.random() < eps else table.greedy(key, ids)
            obs, reward, done, _, _ = env.step(action)
            target = float(reward)
            if not done:
                target += table.value(state_key(obs), choices(obs))
            table.n[key][action] += 1
            alpha = max(0.02, 1.0 / table.n[key][action] ** 0.7)
            table.q[key][action] += alpha * (target - table.q[key][action])
        if (episode + 1) % max(1, episodes // 5) == 0:
            log(
                f"  trained {episode + 1:>7} rounds  ({len(table.q)} states, "
                f"{time.perf_counter() - start:.0f} s)"
            )
    return table


def evaluate(
    env: ShipCaptainCrewEnv,
    policy: Callable[[dict[str, Any]], int],
    episodes: int,
    seed: int,
    on_decision: Callable[[dict[str, Any], int], None] | None = None,
) -> tuple[float, int]:
    """The win rate of ``policy`` over the rounds of ``episodes`` resets with fixed seeds.

    A reset also plays the rounds the agent has nothing to decide in (they are no episode,
    see ``info["undecided_episodes"]``); they count here, so the rate is over every round dealt.
    Returns the rate and the number of rounds.
    """
    wins = 0.0
    rounds = 0
    for episode in range(episodes):
        obs, info = env.reset(seed=seed + episode)
        rounds += 1 + info["undecided_episodes"]
        wins += info["undecided_reward"]
        done = False
        reward = 0.0
        while not done:
            action = policy(obs)
            if on_decision is not None:
                on_decision(obs, action)
            obs, reward, done, _, _ = env.step(action)
        wins += float(reward)
    return wins / rounds, rounds


def interval(p: float, n: int) -> str:
    """p with a 95% normal interval."""
    half = 1.96 * math.sqrt(max(p * (1 - p), 1e-12) / n)
    return f"{100 * p:5.2f}% +- {100 * half:.2f}"


def describe(key: Key) -> str:
    """A state key in words."""
    phase, contest, held, cargo, pending, rolls, _rerolls, _bonus, best, tied, after, _ = key
    parts = [OBS_PHASES[phase]]
    if contest == 3:
        parts.append("tie replay")
    parts.append(f"held {''.join(str(h) for h in held if h) or '-'}")
    if any(cargo):
        parts.append(f"cargo {cargo[0]}+{cargo[1]}")
    if any(pending):
        parts.append(f"roll {''.join(str(p) for p in pending if p)}")
    parts.append(f"rolls used {rolls}")
    parts.append(f"to beat {best if best >= 0 else '-'}" + (f" (x{tied})" if tied > 1 else ""))
    parts.append(f"{after} after")
    return ", ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="classic", help="rules text (default classic)")
    parser.add_argument("--bots", nargs="+", default=["optimal"], help="the field (bot specs)")
    parser.add_argument("--episodes", type=at_least(1), default=40_000, help="training rounds")
    parser.add_argument(
        "--eval", type=at_least(1), default=10_000, help="evaluation rounds per policy"
    )
    parser.add_argument(
        "--long", action="store_true", help="five times the training and the evaluation"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.long:
        args.episodes *= 5
        args.eval *= 5

    def bot(spec: str) -> Any:
        return optimal_bot() if spec == "optimal" else spec

    try:
        env = ShipCaptainCrewEnv(rules=args.rules, bots=[bot(b) for b in args.bots], seat=0)
    except (ValueError, TypeError) as error:  # bad rules, bot or table: one line, status 2
        fail(f"train_tabular.py: error: {error}")
    print(f"rules {env.rules}; agent at seat 0 against {', '.join(args.bots)}")
    print(f"training: Q-learning, {args.episodes} rounds")
    t0 = time.perf_counter()
    table = train(env, args.episodes, args.seed, print)
    train_s = time.perf_counter() - t0

    def learned(obs: dict[str, Any]) -> int:
        return table.greedy(state_key(obs), choices(obs))

    solver_bot = optimal_bot()
    solver_rng = random.Random(0)

    def solver(obs: dict[str, Any]) -> int:
        state = env.state
        return action_index(state, solver_bot.choose(state, solver_rng))

    visits: Counter[Key] = Counter()
    agree: Counter[Key] = Counter()
    lost: defaultdict[Key, float] = defaultdict(float)
    example: dict[Key, tuple[str, str]] = {}

    def check(obs: dict[str, Any], action: int) -> None:
        state = env.state
        if len(legal_actions(state)) < 2:
            return  # nothing to choose
        if state.turn is None:
            # A sip to hand out (captain_hands_out): the solver values win chances, and a sip
            # changes none, so there is no best choice to agree with.
            return
        best_set, best, values = optimal_set(state)
        chosen = index_action(state, action)
        key = state_key(obs)
        visits[key] += 1
        assert chosen is not None
        if chosen in best_set:
            agree[key] += 1
        else:
            lost[key] += best - values[chosen]
            example[key] = (str(chosen), "/".join(sorted(str(a) for a in best_set)))

    eval_seed = 10**9 + args.seed
    t1 = time.perf_counter()
    rate_learned, rounds = evaluate(env, learned, args.eval, eval_seed, check)
    rate_solver, _ = evaluate(env, solver, args.eval, eval_seed)  # the same rounds
    eval_s = time.perf_counter() - t1

    decisions = sum(visits.values())
    agreed = sum(agree.values())
    states_ok = sum(1 for k in visits if agree[k] == visits[k])
    print()
    print(f"win rate against the field over {rounds} rounds (same seeds):")
    print(f"  learned (greedy Q)  {interval(rate_learned, rounds)}")
    print(f"  solver optimal      {interval(rate_solver, rounds)}")
    print("agreement with the solver's best choice (decisions with 2+ legal actions):")
    print(f"  decisions           {agreed}/{decisions} = {100 * agreed / max(decisions, 1):.2f}%")
    print(
        f"  distinct states     {states_ok}/{len(visits)} = "
        f"{100 * states_ok / max(len(visits), 1):.2f}%"
    )
    total_lost = sum(lost.values())
    print(f"  win probability given up per decision: {total_lost / max(decisions, 1):.5f}")
    worst = sorted(lost, key=lambda k: -lost[k])[:8]
    if worst:
        print("where they differ most (win probability given up in total):")
        for k in worst:
            mine, best_text = example[k]
            print(
                f"  {describe(k)}: learned {mine}, solver {best_text}  "
                f"({visits[k] - agree[k]}x, {lost[k]:.3f})"
            )
    print(f"time: training {train_s:.1f} s, evaluation {eval_s:.1f} s")
    return 0


if __name__ == "__main__":
    gym.logger.min_level = 40  # quiet
    raise SystemExit(main())
