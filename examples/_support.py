"""Pieces shared by the examples: the project's ``optimal`` bot, the solver's view of a choice,
exact match values, and command-line parsing that reports bad input in one line.

:func:`shipcaptaincrew.solver.advise` lists every legal choice of a turn with its exact win
probability under best play (everyone after playing the same way; in a match, the chance of
winning the match); the ``optimal`` bot of :func:`shipcaptaincrew.bots.make_bot` plays its
first choice.  :func:`exact_match_value` asks the exact match solver how often one policy
beats another.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import NoReturn

import numpy as np

from shipcaptaincrew import MatchState, apply, chance_outcomes, current_player, legal_actions
from shipcaptaincrew.actions import Action
from shipcaptaincrew.bots import Bot, make_bot
from shipcaptaincrew.engine import CHANCE
from shipcaptaincrew.envs.common import new_match
from shipcaptaincrew.envs.views import position_key
from shipcaptaincrew.rules import Rules
from shipcaptaincrew.sim.policy import make_policy
from shipcaptaincrew.sim.tables import build_table, score_paths
from shipcaptaincrew.solver import ContestView, advise, contest_view, parse_policy
from shipcaptaincrew.solver.match.solve import solve_match
from shipcaptaincrew.solver.policies import PolicyKind
from shipcaptaincrew.state import Method, TurnPhase


def optimal_bot() -> Bot:
    """The project's ``optimal`` bot."""
    return make_bot("optimal")


def optimal_set(
    state: MatchState, tolerance: float = 1e-9
) -> tuple[set[Action], float, dict[Action, float]]:
    """The choices with the best win probability, that probability, and every choice's."""
    choices = advise(state)
    values = {
        c.action: c.match_win_probability
        if c.match_win_probability is not None
        else c.win_probability
        for c in choices
    }
    best = max(values.values())
    return {a for a, v in values.items() if v >= best - tolerance}, best, values


def exact_match_value(rules: Rules, challenger: str, opponent: str) -> float:
    """The exact chance that ``challenger`` beats ``opponent`` in a two-player match of ``rules``.

    Both are policies of the match solver (``optimal``, ``optimal:round``, ``ev``, ...).  The
    starter's roll-off treats the two seats alike, so each starts half the matches: the value
    is the mean of the challenger's chance when it starts and when the opponent does.
    """
    kinds = tuple(PolicyKind)
    c, o = parse_policy(challenger, allow=kinds), parse_policy(opponent, allow=kinds)
    first = solve_match(rules, (c, o))
    second = solve_match(rules, (o, c))
    start = first.model.codes.initial()  # seat 0 starts, nothing scored yet
    return float(first.values[start][0] + second.values[second.model.codes.initial()][1]) / 2


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit status 2, like ``scc``."""

    def error(self, message: str) -> NoReturn:
        """Report ``message`` in one line (no usage block) and exit with status 2."""
        fail(f"{self.prog}: error: {message}")


def fail(message: str) -> NoReturn:
    """One clear line on stderr, exit status 2 (the project's convention for bad input)."""
    sys.stderr.write(message + "\n")
    raise SystemExit(2)


def at_least(low: int) -> Callable[[str], int]:
    """An argparse ``type`` for an integer of at least ``low``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value

    parse.__name__ = f"integer >= {low}"
    return parse


def seed_list(text: str) -> list[int]:
    """An argparse ``type`` for ``--seeds 1,2,3``: distinct seeds, at least one."""
    try:
        seeds = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seeds like 1,2,3, got {text!r}") from None
    if len(set(seeds)) != len(seeds):
        raise argparse.ArgumentTypeError(f"a seed is given twice in {text!r}")
    return seeds


def exact_table_chance(rules: Rules, specs: Sequence[str], seat: int) -> float:
    """The exact chance that ``seat`` wins a match in which seat ``i`` plays bot ``specs[i]``.

    The match is a Markov chain over the engine's states once every bot's turn is a score
    distribution: the simulator's exact tables give each turn's (:func:`~shipcaptaincrew.sim.
    policy.make_policy` and :func:`~shipcaptaincrew.sim.tables.build_table`: ``random`` spreads
    every decision evenly over the legal actions, ``optimal`` is the solver's play at the
    table it sees), and the engine posts each score (:func:`~shipcaptaincrew.sim.tables.
    score_paths`) and plays everything else: the roll-off, who wins, ties, replays.  States are
    keyed by position (:func:`~shipcaptaincrew.envs.views.position_key`) without the repeat
    counters, which change nothing of the future without a cap, so a replayed round is the
    state it replays; the chain is then solved as one linear system.  Meant for small
    matches (one round of two is a few hundred states).
    """
    players = len(specs)
    policies = [make_policy(spec, rules, players) for spec in specs]
    bots = [make_bot(spec) for spec in specs]
    paths = score_paths(rules)
    turn_odds: dict[tuple[int, ContestView | None], list[tuple[int, float]]] = {}
    index: dict[str, int] = {}
    rows: list[list[tuple[str, float]]] = []
    wins: list[float] = []
    todo: list[tuple[str, MatchState]] = []

    def key(state: MatchState) -> str:
        contest = state.contest
        plain = replace(state, replays=0)
        if contest is not None:
            plain = replace(plain, contest=replace(contest, depth=0))
        return position_key(plain)

    def visit(state: MatchState) -> str:
        k = key(state)
        if k not in index:
            index[k] = len(rows)
            rows.append([])
            wins.append(0.0)
            todo.append((k, state))
        return k

    def post(state: MatchState, score: int) -> MatchState:
        for action in paths[score]:
            state = apply(state, action)
        return state

    def successors(state: MatchState) -> list[tuple[MatchState, float]]:
        player = current_player(state)
        turn, contest = state.turn, state.contest
        if (
            turn is not None
            and contest is not None
            and contest.method is Method.TURN
            and turn.phase is TurnPhase.ROLL
            and turn.rolls_used == 0
        ):
            who = contest.seats[len(contest.scores)]
            context = contest_view(state) if policies[who].contextual else None
            odds = turn_odds.get((who, context))
            if odds is None:
                exact = build_table(rules, policies[who], context).exact().distribution
                odds = turn_odds[who, context] = [(s, float(p)) for s, p in exact.items() if p]
            return [(post(state, s), p) for s, p in odds]
        if player == CHANCE:
            return [(apply(state, roll), float(p)) for roll, p in chance_outcomes(state)]
        acts = legal_actions(state)
        if bots[player].name == "random":
            return [(apply(state, a), 1.0 / len(acts)) for a in acts]
        return [(apply(state, bots[player].choose(state, random.Random(0))), 1.0)]

    start = visit(new_match(rules, players, None))
    while todo:
        k, state = todo.pop()
        i = index[k]
        for after, p in successors(state):
            if after.is_over:
                wins[i] += p * (after.winner == seat)
            else:
                rows[i].append((visit(after), p))
    n = len(rows)
    system = np.eye(n)
    for i, row in enumerate(rows):
        for k, p in row:
            system[i, index[k]] -= p
    return float(np.linalg.solve(system, np.array(wins))[index[start]])
