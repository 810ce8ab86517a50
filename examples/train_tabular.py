"""Train a tabular Q-learning agent for a two-player match and measure it against exact play.

The agent learns by playing whole matches (by default ``rounds:3`` under the classic rules,
``ShipCaptainCrew-v0`` with ``format=``) against the exact match-optimal player
(``optimal``).  Afterwards the greedy learned policy plays evaluation matches (fixed seeds)
against ``optimal`` and against the round-maximiser (``optimal:round``, best play for each
round whatever the match), and so does the solver's own ``optimal`` policy on the same seeds.
The script prints

* the exact values the match solver gives (``optimal`` against itself is exactly one half,
  as the two seats start equally often; ``optimal`` against ``optimal:round`` and back),
* each sampled win rate with a 95% interval, next to the exact value where there is one,
* the learned policy's exact values, walked through the engine roll by roll
  (:func:`shipcaptaincrew.solver.walk.exact_chances`): against ``optimal``, against
  ``optimal:round``, and the exact best response against it (the most any player can win
  from it: how exploitable it is); skipped under ``--quick`` unless ``--exact`` asks,
* agreement per decision with the match solver's best choice
  (:func:`shipcaptaincrew.solver.advise`: every choice's exact chance of winning the match).

No deep-learning dependency: the Q-table is a dict of numpy arrays.

    python examples/train_tabular.py              # about 25 minutes on a busy core
    python examples/train_tabular.py --quick      # a few seconds: the smoke test's run
    python examples/train_tabular.py --quick --exact --format rounds:1
    python examples/train_tabular.py --format first_to:21 --episodes 60000
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _support import (
    Parser,
    at_least,
    exact_match_value,
    fail,
    optimal_bot,
    optimal_set,
    seed_list,
)

import shipcaptaincrew.envs  # noqa: F401  (registers ShipCaptainCrew-v0)
from shipcaptaincrew import MatchState, legal_actions
from shipcaptaincrew.bots import make_bot
from shipcaptaincrew.envs.encoding import OBS_PHASES, action_index, index_action
from shipcaptaincrew.envs.evaluate import exact_value
from shipcaptaincrew.envs.gym_env import ShipCaptainCrewEnv

Key = tuple[Any, ...]
#: The lead in the key is clipped to this (a larger lead or deficit plays alike).
LEAD_CAP = 13
#: The opponents of the evaluation: the match-optimal player and the round-maximiser.
OPPONENTS = ("optimal", "optimal:round")


def state_key(obs: dict[str, Any]) -> Key:
    """What matters for the agent's choice: its dice, the scores to beat, and the match."""
    me = int(obs["seat"])
    others = [int(v) for s, v in enumerate(obs["posted"]) if s != me and v >= 0]
    best = max(others, default=-1)
    totals = [int(t) for t in obs["totals"]]
    lead = totals[me] - max(t for s, t in enumerate(totals) if s != me)
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
        max(-LEAD_CAP, min(LEAD_CAP, lead)),
        int(obs["round_no"][0]),
    )


#: Where in a state key is what the agent reads of the match (contest, score to beat, seats
#: tied and after, sips to hand out, lead, round); the rest is its turn.
MATCH_PARTS = (1, 8, 9, 10, 11, 12, 13)


def match_key(obs: dict[str, Any]) -> Key:
    """The part of :func:`state_key` that is the same all through a turn."""
    key = state_key(obs)
    return tuple(key[i] for i in MATCH_PARTS)


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
                f"  trained {episode + 1:>7} matches  ({len(table.q)} states, "
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
    """The win rate of ``policy`` over the matches of ``episodes`` resets with fixed seeds.

    A reset also plays the matches the agent has nothing to decide in (they are no episode,
    see ``info["undecided_episodes"]``); they count here, so the rate is over every match
    dealt.  Returns the rate and the number of matches.
    """
    wins = 0.0
    matches = 0
    for episode in range(episodes):
        obs, info = env.reset(seed=seed + episode)
        matches += 1 + info["undecided_episodes"]
        wins += info["undecided_reward"]
        done = False
        reward = 0.0
        while not done:
            action = policy(obs)
            if on_decision is not None:
                on_decision(obs, action)
            obs, reward, done, _, _ = env.step(action)
        wins += float(reward)
    return wins / matches, matches


def interval(p: float, n: int) -> str:
    """p with a 95% normal interval."""
    half = 1.96 * math.sqrt(max(p * (1 - p), 1e-12) / n)
    return f"{100 * p:5.2f}% +- {100 * half:.2f}"


def describe(key: Key) -> str:
    """A state key in words."""
    phase, contest, held, cargo, pending, rolls, _rerolls, _bonus, best, tied, after = key[:11]
    lead, round_no = key[12], key[13]
    parts = [f"round {round_no}, lead {lead:+d}", OBS_PHASES[phase]]
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


def exact_learned(envs: dict[str, ShipCaptainCrewEnv], table: QTable) -> dict[str, float]:
    """The learned policy's exact chance (at seat 0) against each opponent, and the best
    response's chance against it, from the match's start (its roll-off included), by the
    public evaluation API (:func:`shipcaptaincrew.envs.evaluate.exact_value`).  The policy
    reads its turn and :func:`match_key` of the match, which is the walk's key."""
    out = {}
    for opponent in OPPONENTS:
        env = envs[opponent]

        def policy(obs: dict[str, Any]) -> int:
            return table.greedy(state_key(obs), choices(obs))

        def key(state: MatchState, seat: int, env: ShipCaptainCrewEnv = env) -> Key:
            return match_key(env.observe(state))

        found = exact_value(env, policy, key=key, best_response=opponent == "optimal")
        out[opponent] = found.value
        if found.best_response is not None:
            out["best response"] = found.best_response
    return out


def bot(spec: str) -> Any:
    """The field's bot: the shared ``optimal`` bot, or any other spec."""
    return optimal_bot() if spec == "optimal" else make_bot(spec)


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="classic", help="rules text (default classic)")
    parser.add_argument(
        "--format", default="rounds:3", help="the two-player match (default rounds:3)"
    )
    parser.add_argument("--episodes", type=at_least(1), default=30_000, help="training matches")
    parser.add_argument(
        "--eval", type=at_least(1), default=5_000, help="evaluation matches per line"
    )
    parser.add_argument(
        "--quick", action="store_true", help="300 training and 100 evaluation matches"
    )
    parser.add_argument(
        "--exact",
        action="store_true",
        help="walk the learned policy's exact values under --quick too (minutes for rounds:3)",
    )
    parser.add_argument(
        "--seeds", type=seed_list, default=[1], help="seeds to train and pool (1 or 1,2,3)"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.episodes, args.eval = 300, 100

    try:
        envs = {
            o: ShipCaptainCrewEnv(rules=args.rules, bots=[o], seat=0, format=args.format)
            for o in OPPONENTS
        }
    except (ValueError, TypeError) as error:  # bad rules or format: one line, status 2
        fail(f"train_tabular.py: error: {error}")
    print(f"rules {envs['optimal'].rules}; two players; the agent at seat 0 learns against optimal")
    runs = [run_seed(args, envs, seed) for seed in args.seeds]
    if len(runs) > 1:
        print(f"pooled over seeds {','.join(map(str, args.seeds))} (mean +- sd):")
        for name in runs[0]:
            values = [run[name] for run in runs]
            mean, sd = statistics.mean(values), statistics.stdev(values)
            print(f"  {name:<44} {100 * mean:8.4f}% +- {100 * sd:.4f}")
    return 0


def run_seed(
    args: argparse.Namespace, envs: dict[str, ShipCaptainCrewEnv], seed: int
) -> dict[str, float]:
    """Train, evaluate and print one seed; its figures, for the pooled lines."""
    env = envs["optimal"]
    rules = env.rules
    print(f"seed {seed}: training: Q-learning, {args.episodes} matches")
    t0 = time.perf_counter()
    table = train(env, args.episodes, seed, print)
    train_s = time.perf_counter() - t0

    def learned(obs: dict[str, Any]) -> int:
        return table.greedy(state_key(obs), choices(obs))

    solver_bot = optimal_bot()
    solver_rng = random.Random(0)

    def solver_in(e: ShipCaptainCrewEnv) -> Callable[[dict[str, Any]], int]:
        def solver(obs: dict[str, Any]) -> int:
            state = e.state
            return action_index(state, solver_bot.choose(state, solver_rng))

        return solver

    visits: Counter[Key] = Counter()
    agree: Counter[Key] = Counter()
    lost: defaultdict[Key, float] = defaultdict(float)
    example: dict[Key, tuple[str, str]] = {}

    def check(obs: dict[str, Any], action: int) -> None:
        state = env.state
        if len(legal_actions(state)) < 2 or state.turn is None:
            # Nothing to choose, or a sip to hand out (the solver values win chances, and a
            # sip changes none, so there is no best choice to agree with).
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

    exact = {o: exact_match_value(rules, "optimal", o) for o in OPPONENTS}
    eval_seed = 10**9 + seed
    t1 = time.perf_counter()
    rows = []
    for opponent in OPPONENTS:
        e = envs[opponent]
        on = check if opponent == "optimal" else None
        rate_learned, matches = evaluate(e, learned, args.eval, eval_seed, on)
        rate_solver, _ = evaluate(e, solver_in(e), args.eval, eval_seed)  # the same seeds
        rows.append((opponent, rate_learned, rate_solver, matches))
    eval_s = time.perf_counter() - t1

    print()
    print("exact (match solver; each seat starts half the matches):")
    for opponent in OPPONENTS:
        print(f"  optimal vs {opponent:<14} {100 * exact[opponent]:.4f}%")
    print(
        f"  optimal:round vs optimal   "
        f"{100 * exact_match_value(rules, 'optimal:round', 'optimal'):.4f}%"
    )
    walked: dict[str, float] = {}
    if args.exact or not args.quick:
        t2 = time.perf_counter()
        walked = exact_learned(envs, table)
        seconds = time.perf_counter() - t2
        print(
            f"exact values of the learned policy (the engine walked roll by roll, {seconds:.0f} s):"
        )
        for opponent in OPPONENTS:
            print(f"  learned (greedy Q) vs {opponent:<14} {100 * walked[opponent]:.4f}%")
        best, optimal_takes = walked["best response"], 1 - walked["optimal"]
        print(
            f"  best response vs learned (greedy Q) {100 * best:.4f}%  (the most any player "
            f"wins from it; optimal wins {100 * optimal_takes:.4f}%)"
        )
    else:
        print(
            "exact values of the learned policy: skipped under --quick (walking the engine "
            "takes minutes for rounds:3; add --exact)"
        )
    print("win rates over the evaluation matches (same seeds; 95% intervals):")
    for opponent, rate_learned, rate_solver, matches in rows:
        exact_text = f"  (exact {100 * walked[opponent]:.2f}%)" if walked else ""
        print(
            f"  learned (greedy Q) vs {opponent:<14} {interval(rate_learned, matches)}"
            f"  ({matches} matches){exact_text}"
        )
        print(
            f"  optimal            vs {opponent:<14} {interval(rate_solver, matches)}"
            f"  (exact {100 * exact[opponent]:.2f}%)"
        )
    decisions = sum(visits.values())
    agreed = sum(agree.values())
    states_ok = sum(1 for k in visits if agree[k] == visits[k])
    print("agreement with the match solver's best choice (against optimal, 2+ legal actions):")
    print(f"  decisions           {agreed}/{decisions} = {100 * agreed / max(decisions, 1):.2f}%")
    print(
        f"  distinct states     {states_ok}/{len(visits)} = "
        f"{100 * states_ok / max(len(visits), 1):.2f}%"
    )
    total_lost = sum(lost.values())
    print(f"  match win probability given up per decision: {total_lost / max(decisions, 1):.5f}")
    worst = sorted(lost, key=lambda k: -lost[k])[:6]
    if worst:
        print("where they differ most (match win probability given up in total):")
        for k in worst:
            mine, best_text = example[k]
            print(
                f"  {describe(k)}: learned {mine}, solver {best_text}  "
                f"({visits[k] - agree[k]}x, {lost[k]:.3f})"
            )
    print(f"time: training {train_s:.1f} s, evaluation {eval_s:.1f} s")
    figures = {f"sampled: learned (greedy Q) vs {o}": rate for o, rate, _, _ in rows}
    figures["agreement with the solver per decision"] = agreed / max(decisions, 1)
    figures |= {
        f"exact: learned (greedy Q) vs {o}": v for o, v in walked.items() if o != "best response"
    }
    if "best response" in walked:
        figures["exact: best response vs learned (greedy Q)"] = walked["best response"]
    return figures


if __name__ == "__main__":
    gym.logger.min_level = 40  # quiet
    raise SystemExit(main())
