"""How fast the three adapters play: rounds (or games) and steps per second, printed.

Random legal play, classic rules; the figures in docs/learning.md come from this script.
It prints figures and asserts nothing (timings depend on the machine and its load).

    python examples/envs_throughput.py
    python examples/envs_throughput.py --rounds 2000
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _support import Parser, at_least

from shipcaptaincrew.envs import openspiel_game
from shipcaptaincrew.envs.gym_env import ShipCaptainCrewEnv
from shipcaptaincrew.envs.pettingzoo_env import raw_env


def gymnasium_rate(rounds: int) -> tuple[float, float]:
    """One agent against ``tip``: rounds and steps per second."""
    env = ShipCaptainCrewEnv(rules="classic", bots=["tip"])
    env.action_space.seed(0)
    steps, start = 0, time.perf_counter()
    for episode in range(rounds):
        env.reset(seed=episode)
        done = False
        while not done:
            _, _, done, _, _ = env.step(env.action_space.sample())
            steps += 1
    seconds = time.perf_counter() - start
    return rounds / seconds, steps / seconds


def pettingzoo_rate(rounds: int, players: int = 4) -> tuple[float, float]:
    """``players`` agents, each taking its first legal id: rounds and steps per second."""
    aec = raw_env(players=players, rules="classic")
    steps, start = 0, time.perf_counter()
    for episode in range(rounds):
        aec.reset(seed=episode)
        for _agent in aec.agent_iter():
            obs, _, term, trunc, _ = aec.last()
            aec.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
            steps += 1
    seconds = time.perf_counter() - start
    return rounds / seconds, steps / seconds


def openspiel_rate(games: int) -> tuple[float, float]:
    """Two players, random play with chance sampled from its exact outcomes."""
    game = openspiel_game.load(2, "classic")
    rng = random.Random(0)
    actions, start = 0, time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                ids, probs = zip(*outcomes, strict=True)
                state.apply_action(rng.choices(ids, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    seconds = time.perf_counter() - start
    return games / seconds, actions / seconds


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rounds", type=at_least(1), default=500, help="rounds (games) per adapter"
    )
    args = parser.parse_args(argv)
    rate, steps = gymnasium_rate(args.rounds)
    print(f"Gymnasium, 1 agent vs tip     {rate:7.0f} rounds/s  {steps:7.0f} steps/s")
    rate, steps = pettingzoo_rate(args.rounds)
    print(f"PettingZoo, 4 agents          {rate:7.0f} rounds/s  {steps:7.0f} steps/s")
    rate, steps = openspiel_rate(args.rounds)
    print(f"OpenSpiel, 2 players          {rate:7.0f} games/s   {steps:7.0f} actions/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
