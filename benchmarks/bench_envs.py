"""Benchmark of the single-table learning environments.  Prints figures; asserts nothing.

Environment steps per second on one core, random legal play, measured in one run so the lines
compare like with like on this machine.  First each single-table environment beside the
reference of its library, measured alternately (ours, the reference, ours, ...: three rounds
each, the median printed), so a busy moment of the shared machine hits both alike:

* Gymnasium ``ShipCaptainCrew-v0`` (one agent against ``tip``, one round per episode, raw
  view) beside ``Blackjack-v1``, Gymnasium's own card game: a step is one ``env.step`` of a
  random legal action, a reset with a seed per episode, through ``gym.make``'s wrappers;
* PettingZoo ``shipcaptaincrew_v0`` (two agents, raw view) beside the classic
  ``tictactoe_v3``: a step is one ``env.step`` of the first legal id (the dead agents' final
  steps included), ``env()``'s wrappers on both;
* OpenSpiel ``python_ship_captain_crew`` (two players, raw view) beside OpenSpiel's own Python
  ``python_tic_tac_toe``: a step is one ``apply_action`` (chance included), plus one
  observation tensor per decision.

Then every adapter in every view:

* Gymnasium ``ShipCaptainCrew-v0``: one agent against ``tip``, one round per episode, in each
  observation view; a step is one ``env.step`` (one decision of the agent: every roll is
  chance, rolled inside the step with the bot's turns); rounds per second count the rounds a
  reset plays out because the agent had nothing to decide in them too;
* PettingZoo ``shipcaptaincrew_v0``: four agents, each taking its first legal id; a step is
  one ``env.step`` of any agent (the dead agents' final steps included, as AEC asks), games
  per second count the games a reset plays out because nobody had anything to decide;
* OpenSpiel ``python_ship_captain_crew``: two players, chance sampled from its exact outcomes;
  a step is one ``apply_action``, chance outcomes included, plus one observation tensor per
  decision (what a learner reads);
* the batched NumPy environment (:class:`~shipcaptaincrew.envs.batched.BatchedTurnEnv`):
  65,536 tables of one turn each, classic rules, the first of two seats; a step is one
  decision of one table (one ``env.step`` call is 65,536 steps: every table applies its action
  and rolls on to its next decision, a finished turn being dealt anew), observation and
  masks included; random legal play (``sample_actions``) and the ``ev`` policy looked up by
  node.  The issue's target is 1 M steps per second on one core;
* whole matches, batched (:class:`~shipcaptaincrew.envs.batched_match.BatchedMatchEnv`):
  65,536 tables, each a whole match of the agent against ``ev`` bots (two players in
  ``rounds:3`` and ``first_to:21``, three in ``tournament``, four in ``rounds:5``); a step is
  one decision of one table, the match played on between decisions (the bots' turns, the
  agent's turns without a decision, round ends, what the format decides) on the simulator's
  step tables; next to it the single-table Gymnasium environment playing the same match,
  in the same run.  The first seconds of a set-up fill the step tables (the engine resolving
  each new step once); the figure is taken once they are filled (a second of play adding
  under 0.1% new steps, or after 90 s), and the warm-up is printed with it.

Run:  .venv/bin/python benchmarks/bench_envs.py [--seconds 3] [--only references]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from open_spiel.python.observation import make_observation

from shipcaptaincrew.envs import openspiel_game
from shipcaptaincrew.envs.batched import BatchedTurnEnv
from shipcaptaincrew.envs.batched_match import BatchedMatchEnv
from shipcaptaincrew.envs.encoding import action_index
from shipcaptaincrew.envs.gym_env import ShipCaptainCrewEnv
from shipcaptaincrew.envs.pettingzoo_env import raw_env
from shipcaptaincrew.envs.views import VIEWS
from shipcaptaincrew.solver import policy_choices

#: The tables of the batched environment stepping together.
TABLES = 1 << 16
#: The longest warm-up of a batched match line (seconds): larger tables keep finding steps.
WARM_UP_CAP = 90.0


def timed(seconds: float, episode: Callable[[int], tuple[int, int]]) -> tuple[float, float]:
    """Episodes until ``seconds`` have passed: (rounds per second, steps per second)."""
    rounds = steps = n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        r, s = episode(n)
        rounds, steps, n = rounds + r, steps + s, n + 1
    elapsed = time.perf_counter() - start
    return rounds / elapsed, steps / elapsed


def gym_episodes(env: Any, seconds: float) -> tuple[float, float]:
    """Random legal episodes of a Gymnasium environment: (episodes per second, counting the
    ones a reset plays out undecided, and steps per second)."""
    env.action_space.seed(0)

    def episode(n: int) -> tuple[int, int]:
        _, info = env.reset(seed=n)
        steps, done = 0, False
        while not done:
            _, _, terminated, truncated, _ = env.step(env.action_space.sample())
            done = terminated or truncated
            steps += 1
        return 1 + info.get("undecided_episodes", 0), steps

    return timed(seconds, episode)


def aec_episodes(aec: Any, seconds: float) -> tuple[float, float]:
    """Episodes of a PettingZoo AEC environment, each agent taking its first legal id."""

    def episode(n: int) -> tuple[int, int]:
        aec.reset(seed=n)
        undecided = aec.infos[aec.agent_selection].get("undecided_episodes", 0)
        steps = 0
        for _agent in aec.agent_iter():
            obs, _, term, trunc, _ = aec.last()
            aec.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
            steps += 1
        return 1 + undecided, steps

    return timed(seconds, episode)


def spiel_episodes(game: Any, seconds: float, view: str | None = None) -> tuple[float, float]:
    """Random games of an OpenSpiel game: one observation tensor per decision."""
    params = {"view": view} if view is not None else None
    observer = make_observation(game, None, params)
    rng = random.Random(0)

    def episode(_n: int) -> tuple[int, int]:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                ids, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(ids, probs)[0])
            else:
                observer.set_from(state, state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return 1, steps

    return timed(seconds, episode)


def references(seconds: float) -> None:
    """Each single-table environment beside its library's reference, measured alternately."""
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # tictactoe_v3 imports pygame
    import gymnasium as gym
    import pyspiel
    from open_spiel.python.games import tic_tac_toe  # noqa: F401  (registers python_tic_tac_toe)
    from pettingzoo.classic import tictactoe_v3

    from shipcaptaincrew.envs import GYM_ID
    from shipcaptaincrew.envs.pettingzoo_env import env as aec_env

    pairs = [
        (
            "Gymnasium",
            f"{GYM_ID} (vs tip)",
            lambda: gym_episodes(gym.make(GYM_ID, rules="classic", bots=["tip"]), seconds),
            "Blackjack-v1",
            lambda: gym_episodes(gym.make("Blackjack-v1"), seconds),
        ),
        (
            "PettingZoo",
            "shipcaptaincrew_v0 (2 agents)",
            lambda: aec_episodes(aec_env(players=2, rules="classic"), seconds),
            "tictactoe_v3",
            lambda: aec_episodes(tictactoe_v3.env(), seconds),
        ),
        (
            "OpenSpiel",
            "python_ship_captain_crew (2)",
            lambda: spiel_episodes(openspiel_game.load(2, "classic"), seconds),
            "python_tic_tac_toe",
            lambda: spiel_episodes(pyspiel.load_game("python_tic_tac_toe"), seconds),
        ),
    ]
    print("== single-table environments beside their library's reference (steps/s, median of 3) ==")
    for library, ours, run_ours, theirs, run_theirs in pairs:
        mine, ref = [], []
        for _ in range(3):
            mine.append(run_ours()[1])
            ref.append(run_theirs()[1])
        a, b = sorted(mine)[1], sorted(ref)[1]
        print(
            f"{library:<11} {ours:<32} {a:9,.0f} | {theirs:<19} {b:9,.0f} | "
            f"ratio {a / b:4.2f} (within 2x: {'yes' if a >= b / 2 else 'no'})"
        )


def gymnasium(view: str, seconds: float) -> tuple[float, float]:
    return gym_episodes(ShipCaptainCrewEnv(rules="classic", bots=["tip"], view=view), seconds)


def pettingzoo(view: str, seconds: float) -> tuple[float, float]:
    return aec_episodes(raw_env(players=4, rules="classic", view=view), seconds)


def openspiel(view: str, seconds: float) -> tuple[float, float]:
    return spiel_episodes(openspiel_game.load(2, "classic"), seconds, view)


def batched(policy: str, seconds: float) -> tuple[float, float]:
    """The batched environment: (turns per second, steps per second)."""
    env = BatchedTurnEnv(TABLES, rules="classic")
    ids = np.zeros(len(env.graph), dtype=np.int64)
    for node, pick in enumerate(policy_choices(env.rules, "ev")):
        if pick >= 0:
            ids[node] = action_index(env.graph.states[node], env.graph.actions[node][pick])
    obs, info = env.reset(seed=0)
    turns = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = env.sample_actions() if policy == "random" else ids[obs["node"]]
        obs, _, terminated, _, info = env.step(actions)
        steps += TABLES
        turns += int(terminated.sum()) + len(info["undecided_scores"])
    elapsed = time.perf_counter() - start
    return turns / elapsed, steps / elapsed


#: The matches of the batched match environment: (format, opponents).
MATCHES = (
    ("rounds:3", ["ev"]),
    ("first_to:21", ["ev"]),
    ("tournament", ["ev", "ev"]),
    ("rounds:5", ["ev", "ev", "ev"]),
)


def batched_match(fmt: str, opponents: list[str], seconds: float) -> tuple[float, float, str]:
    """The batched match environment, random legal play: (matches per second, steps per
    second, how it was warmed up).  Warmed up until the step tables are filled (a second of
    play adds under 0.1% new steps; at most :data:`WARM_UP_CAP` seconds): the figure is the
    steady state a long training run sees, and the warm-up is printed next to it."""
    env = BatchedMatchEnv(TABLES, rules="classic", match_format=fmt, opponents=opponents)
    env.reset(seed=0)
    start = time.perf_counter()
    while time.perf_counter() - start < WARM_UP_CAP:
        before, window = env.table.rows.n_steps, time.perf_counter()
        while time.perf_counter() - window < 1.0:
            env.step(env.sample_actions())
        if env.table.rows.n_steps - before <= before / 1000:
            break
    warm = f"warm-up {time.perf_counter() - start:.0f} s, {env.table.rows.n_steps:,} steps"
    matches = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, terminated, _, info = env.step(env.sample_actions())
        steps += TABLES
        matches += int(terminated.sum()) + len(info["undecided_rewards"])
    elapsed = time.perf_counter() - start
    return matches / elapsed, steps / elapsed, warm


def gymnasium_match(fmt: str, opponents: list[str], seconds: float) -> tuple[float, float]:
    """The single-table Gymnasium environment playing the same match: (matches/s, steps/s)."""
    return gym_episodes(ShipCaptainCrewEnv(rules="classic", bots=opponents, format=fmt), seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per line")
    parser.add_argument("--only", choices=["references"], help="only the reference lines")
    args = parser.parse_args()
    references(args.seconds)
    if args.only:
        return
    print("== single-table environment steps per second (one core, random legal play) ==")
    for name, run, unit in [
        ("Gymnasium, 1 agent vs tip", gymnasium, "rounds"),
        ("PettingZoo, 4 agents", pettingzoo, "games"),
        ("OpenSpiel, 2 players", openspiel, "games"),
    ]:
        for view in VIEWS:
            rate, steps = run(view, args.seconds)
            print(f"{name:<28} view={view:<9} {steps:9.0f} steps/s  {rate:8.0f} {unit}/s")
    print(f"== batched NumPy environment, {TABLES} tables of one turn (one core) ==")
    for policy in ("random", "ev"):
        rate, steps = batched(policy, args.seconds)
        print(
            f"{'batched, ' + policy + ' play':<28} {'':<14} {steps:9.0f} steps/s  {rate:8.0f} turns/s"
        )
    print(f"== whole matches: batched ({TABLES} tables) against one table (one core, random) ==")
    for fmt, opponents in MATCHES:
        m_rate, b_steps, warm = batched_match(fmt, opponents, args.seconds)
        g_rate, g_steps = gymnasium_match(fmt, opponents, args.seconds)
        who = f"{len(opponents) + 1} players, {fmt}"
        print(
            f"{who:<26} batched {b_steps:10.0f} steps/s {m_rate:9.0f} matches/s | one table "
            f"{g_steps:7.0f} steps/s {g_rate:6.0f} matches/s (x{b_steps / g_steps:.0f}; {warm})"
        )


if __name__ == "__main__":
    main()
