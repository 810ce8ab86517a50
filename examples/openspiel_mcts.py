"""OpenSpiel's MCTS against the project's ``optimal`` bot in ``python_ship_captain_crew``.

Each game is one round of two players (or the match format of ``--rules``); the MCTS bot and
the optimal bot swap seats every game, the dice are OpenSpiel chance nodes sampled with their
exact probabilities (every turn opens with its player's ``roll``, the one move there), and
the script prints each bot's win rate with a 95% interval (uniform random play is shown as a
baseline).  The games are played under several seeds (``--seeds``, five by default), each
seed's rate printed and all of them pooled: one seed's sample is one draw, and a rate far
from its exact value on a single seed says little.  Next to a sample stands the exact value where one
exists: uniform random play is a fixed policy, so its chance against ``optimal`` in one round
is computed exactly (:func:`_support.exact_table_chance`, from the engine and the solver's
tables), and the sample's distance from it is given in standard errors; MCTS is a search,
not a table of choices, so it has no exact value here.  Against best play a round is close
to a coin toss (``optimal`` against itself wins exactly half), so the interesting number is
how near 50% each bot gets.

    python examples/openspiel_mcts.py                      # a few minutes
    python examples/openspiel_mcts.py --games 1000 --simulations 400 --seeds 1,2,3
"""

from __future__ import annotations

import math
import random
import sys
import time
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python.algorithms.mcts import MCTSBot, RandomRolloutEvaluator

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _support import Parser, at_least, exact_table_chance, fail, optimal_bot, seed_list

from shipcaptaincrew.envs import openspiel_game
from shipcaptaincrew.envs.encoding import ROLL_ID, action_index
from shipcaptaincrew.formats import FormatKind


def play(
    game: pyspiel.Game,
    challenger: str,
    games: int,
    simulations: int,
    seed: int,
) -> tuple[float, float]:
    """The challenger's win rate against ``optimal`` over ``games``, and seconds per game."""
    rng = random.Random(seed)
    nprng = np.random.RandomState(seed)
    optimal = optimal_bot()
    mcts = MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=simulations,
        evaluator=RandomRolloutEvaluator(n_rollouts=1, random_state=nprng),
        random_state=nprng,
        solve=False,
    )
    wins = 0.0
    start = time.perf_counter()
    for g in range(games):
        seat = g % 2  # swap seats every game
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            elif state.legal_actions() == [ROLL_ID]:
                action = ROLL_ID  # a turn opens with its player's roll: no choice
            elif state.current_player() == seat:
                if challenger == "mcts":
                    action = mcts.step(state)
                else:
                    action = rng.choice(state.legal_actions())
            else:
                action = action_index(state.match, optimal.choose(state.match, rng))
            state.apply_action(action)
        wins += state.returns()[seat]
    return wins / games, (time.perf_counter() - start) / games


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--games", type=at_least(1), default=100, help="games per seed and line")
    parser.add_argument(
        "--simulations", type=at_least(1), default=200, help="MCTS simulations per move"
    )
    parser.add_argument(
        "--seeds", type=seed_list, default=[1, 2, 3, 4, 5], help="seeds to pool (1,2,3,4,5)"
    )
    args = parser.parse_args(argv)
    try:
        game = openspiel_game.load(2, args.rules)
    except (ValueError, TypeError) as error:  # bad rules: one line, status 2
        fail(f"openspiel_mcts.py: error: {error}")
    seeds = args.seeds
    print(
        f"{game}: {args.games} games per seed and line, seeds {','.join(map(str, seeds))}, "
        "seats swapped every game"
    )
    exact: float | None = None
    if game.rules.format.kind is FormatKind.SINGLE:
        # The seats swap every game: the mean of the two seats' exact chances.
        lineups = (["random", "optimal"], ["optimal", "random"])
        exact = sum(exact_table_chance(game.rules, lineups[s], s) for s in (0, 1)) / 2
        itself = exact_table_chance(game.rules, ["optimal", "optimal"], 0)
        print(
            f"  exact: optimal vs optimal {100 * itself:.2f}%; "
            f"uniform random vs optimal {100 * exact:.2f}%"
        )
    else:
        print("  exact: computed for one round (format single) only; a whole match is too large")
    for challenger in ("mcts", "random"):
        label = (
            f"MCTS ({args.simulations} simulations)" if challenger == "mcts" else "uniform random"
        )
        runs = [play(game, challenger, args.games, args.simulations, s) for s in seeds]
        for s, (rate, _) in zip(seeds, runs):
            print(f"  {label:<28} seed {s:<3} {line(rate, args.games, exact, challenger)}")
        pooled = sum(rate for rate, _ in runs) / len(runs)
        per_game = sum(t for _, t in runs) / len(runs)
        print(
            f"  {label:<28} pooled   {line(pooled, args.games * len(runs), exact, challenger)}"
            f"  ({per_game * 1000:.0f} ms/game)"
        )
    return 0


def line(rate: float, games: int, exact: float | None, challenger: str) -> str:
    """A win rate with its 95% interval over ``games``, and its distance from the exact value."""
    half = 1.96 * math.sqrt(max(rate * (1 - rate), 1e-12) / games)
    if challenger == "mcts":
        note = "exact: none (a search, not a fixed policy)"
    elif exact is None:
        note = "exact: not computed"
    else:
        se = math.sqrt(exact * (1 - exact) / games)
        note = f"exact {100 * exact:.2f}%, z = {(rate - exact) / se:+.1f}"
    return f"vs optimal: wins {100 * rate:5.1f}% +- {100 * half:4.1f} over {games:>5} ({note})"


if __name__ == "__main__":
    raise SystemExit(main())
