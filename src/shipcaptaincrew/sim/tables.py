"""Transition tables of a whole turn, derived from the engine, and their bulk sampler.

Nothing in this module knows a rule of the game.  It walks the engine: from
:func:`~shipcaptaincrew.engine.initial_turn` it follows every exact outcome of
:func:`~shipcaptaincrew.engine.chance_outcomes` through :func:`~shipcaptaincrew.engine.apply`,
and every decision through the bot's table (:mod:`.policy`).  Decisions are folded away, so
what remains is a small Markov chain over the turn states where dice are due (*roll nodes*)
and the finished turns (*done nodes*): one row of exact probabilities per roll node.

Sampling a batch of turns is then one vector step per roll: every row is an alias table
(Walker/Vose, built exactly in rationals), so each turn of the batch needs one random 64-bit
word and a handful of gathers per roll, whatever the row's length.  Done nodes loop to
themselves, so three steps finish every turn of the batch.

>>> from shipcaptaincrew.rules import Rules
>>> from shipcaptaincrew.sim.policy import make_policy
>>> table = build_table(Rules(), make_policy("timid", Rules()))
>>> table.exact().p_complete_by_roll[0]
Fraction(205, 1296)
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from ..actions import Action
from ..engine import apply, chance_outcomes, dice_to_roll, initial_turn, legal_actions
from ..rules import Rules
from ..state import MatchState, TurnPhase, TurnState
from .policy import Policy, TableContext

__all__ = [
    "ExactTurnOdds",
    "ExpectedScoreBot",
    "TurnSample",
    "TurnTable",
    "build_table",
    "score_paths",
]

#: A turn has at most three rolls (all sheets), so three chain steps finish every turn.
ROLLS_PER_TURN = 3


class IllegalPolicyError(ValueError):
    """A policy chose an action that is not legal in the turn state it was asked about."""


@dataclass(frozen=True)
class ExactTurnOdds:
    """Exact statistics of one turn under a policy, from the table itself (no sampling)."""

    #: P(crew complete after roll 1, 2, 3).
    p_complete_by_roll: tuple[Fraction, ...]
    p_complete: Fraction
    #: Score -> probability (0 = no full crew).
    distribution: dict[int, Fraction]
    expected_score: Fraction
    #: Expected number of dice rolled in a turn.
    expected_dice: Fraction


@dataclass(frozen=True)
class TurnSample:
    """A batch of sampled turns: final score and the roll that completed the crew (0: never)."""

    scores: np.ndarray
    completed_on: np.ndarray

    def summary(self) -> dict[str, Any]:
        """Means and standard errors of the statistics the exact solver also gives."""
        n = len(self.scores)
        out: dict[str, Any] = {"turns": n}
        s = self.scores.astype(np.float64)
        out["expected_score"] = float(s.mean())
        out["expected_score_se"] = float(s.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
        done = self.completed_on > 0
        out["p_complete"] = float(done.mean())
        out["p_complete_by_roll"] = [
            float(((self.completed_on > 0) & (self.completed_on <= k)).mean())
            for k in range(1, ROLLS_PER_TURN + 1)
        ]
        values, counts = np.unique(self.scores, return_counts=True)
        out["distribution"] = {int(v): int(c) / n for v, c in zip(values, counts)}
        return out


class TurnTable:
    """The Markov chain of one turn under a policy (and table context), ready to sample."""

    def __init__(
        self,
        rules: Rules,
        policy_name: str,
        context: TableContext | None,
        nodes: list[TurnState],
        rows: list[list[tuple[int, Fraction]]],
    ) -> None:
        self.rules = rules
        self.policy_name = policy_name
        self.context = context
        self.nodes = nodes
        self.rows = rows
        self.start = 0
        n = len(nodes)
        self.done = np.array([t.phase is TurnPhase.DONE for t in nodes], dtype=bool)
        self.score = np.array([t.score for t in nodes], dtype=np.int16)
        self.complete = np.array([t.complete for t in nodes], dtype=bool)
        self.dice = np.array([dice_to_roll(t) for t in nodes], dtype=np.int8)
        self._build_alias()

    def _build_alias(self) -> None:
        """Walker/Vose alias tables, exact in rationals, thresholds as 64-bit integers.

        Row ``i`` gets ``2**b`` slots (``b >= 1``).  One random 64-bit word per turn per roll
        picks the slot with its top ``b`` bits; the remaining bits, shifted up, are compared
        with the slot's threshold: below it the slot's own successor, else its alias.
        """
        starts = np.empty(len(self.rows), dtype=np.int64)
        shifts = np.empty(len(self.rows), dtype=np.uint64)
        thresholds: list[int] = []
        pairs: list[int] = []
        top = 2**64
        for i, row in enumerate(self.rows):
            bits = max(1, (len(row) - 1).bit_length())
            width = 2**bits
            starts[i] = len(thresholds)
            shifts[i] = bits
            q = [p * width for _, p in row] + [Fraction(0)] * (width - len(row))
            succ = [k for k, _ in row] + [row[0][0]] * (width - len(row))
            alias = list(succ)
            small = [j for j in range(width) if q[j] < 1]
            large = [j for j in range(width) if q[j] >= 1]
            while small and large:
                s_, l_ = small.pop(), large.pop()
                alias[s_] = succ[l_]
                q[l_] -= 1 - q[s_]
                (small if q[l_] < 1 else large).append(l_)
            for j in small + large:  # exactly 1 left over: the slot keeps its own successor
                q[j] = Fraction(1)
            for j in range(width):
                if q[j] >= 1:
                    alias[j] = succ[j]
                thresholds.append(min(top - 1, int(q[j] * top)))
                pairs.extend((succ[j], alias[j]))
        self._starts = starts
        self._shifts = shifts
        self._down = np.uint64(64) - shifts
        self._thresholds = np.array(thresholds, dtype=np.uint64)
        self._pairs = np.array(pairs, dtype=np.int32)

    def __repr__(self) -> str:
        return (f"<TurnTable {self.rules} policy={self.policy_name} context={self.context} "
                f"nodes={len(self.nodes)} entries={len(self._succ)}>")

    # -- exact ------------------------------------------------------------------------------
    def exact(self) -> ExactTurnOdds:
        """Exact turn statistics by pushing the probability mass through the chain."""
        mass: dict[int, Fraction] = {self.start: Fraction(1)}
        by_roll: list[Fraction] = []
        dice = Fraction(0)
        for _ in range(ROLLS_PER_TURN):
            nxt: dict[int, Fraction] = defaultdict(Fraction)
            for i, p in mass.items():
                dice += p * int(self.dice[i])
                for k, q in self.rows[i]:
                    nxt[k] += p * q
            mass = dict(nxt)
            by_roll.append(sum((p for i, p in mass.items() if self.complete[i]), Fraction(0)))
        if any(not self.done[i] for i in mass):
            raise AssertionError("a turn did not finish within three rolls")
        dist: dict[int, Fraction] = defaultdict(Fraction)
        for i, p in mass.items():
            dist[int(self.score[i])] += p
        expected = sum((s * p for s, p in dist.items()), Fraction(0))
        return ExactTurnOdds(tuple(by_roll), by_roll[-1], dict(sorted(dist.items())),
                             expected, dice)

    # -- sampling ---------------------------------------------------------------------------
    def step(self, nodes: np.ndarray, words: np.ndarray) -> np.ndarray:
        """One roll for every turn of the batch: next nodes given random 64-bit ``words``."""
        slot = self._starts[nodes] + (words >> self._down[nodes]).astype(np.int64)
        rest = words << self._shifts[nodes]
        pick = 2 * slot + (rest >= self._thresholds[slot])
        result: np.ndarray = self._pairs[pick]
        return result

    def _words(self, rng: np.random.Generator, n: int) -> np.ndarray:
        words: np.ndarray = rng.bit_generator.random_raw(n)
        return words

    def sample_scores(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """Scores of ``n`` independent turns (one uniform per roll per turn)."""
        x = np.zeros(n, dtype=np.int32)
        for _ in range(ROLLS_PER_TURN):
            x = self.step(x, self._words(rng, n))
        result: np.ndarray = self.score[x]
        return result

    def sample(self, rng: np.random.Generator, n: int) -> TurnSample:
        """``n`` turns with their scores and the roll that completed each crew."""
        x = np.zeros(n, dtype=np.int32)
        completed_on = np.zeros(n, dtype=np.int8)
        for k in range(1, ROLLS_PER_TURN + 1):
            x = self.step(x, self._words(rng, n))
            newly = self.complete[x] & (completed_on == 0)
            completed_on[newly] = k
        return TurnSample(self.score[x], completed_on)


def _check_policy(turn: TurnState, row: tuple[tuple[Action, Fraction], ...], name: str) -> None:
    legal = legal_actions(turn)
    for action, _ in row:
        if action not in legal:
            raise IllegalPolicyError(f"bot {name} chose {action}, not legal in {turn}")
    if sum(p for _, p in row) != 1:
        raise IllegalPolicyError(f"bot {name}: decision probabilities do not sum to 1")


def build_table(rules: Rules, policy: Policy, context: TableContext | None = None) -> TurnTable:
    """Enumerate a turn with the engine and fold the policy's decisions into a chain."""
    resolved: dict[TurnState, dict[TurnState, Fraction]] = {}

    def resolve(t: TurnState) -> dict[TurnState, Fraction]:
        """Where a state leads once the player's decisions are taken: roll or done nodes."""
        if t.phase in (TurnPhase.ROLL, TurnPhase.DONE):
            return {t: Fraction(1)}
        if t in resolved:
            return resolved[t]
        row = policy.decide(t, context)
        _check_policy(t, row, policy.name)
        out: dict[TurnState, Fraction] = defaultdict(Fraction)
        for action, p in row:
            for nxt, q in resolve(apply(t, action)).items():
                out[nxt] += p * q
        resolved[t] = dict(out)
        return resolved[t]

    start = initial_turn(rules)
    index: dict[TurnState, int] = {start: 0}
    nodes = [start]
    rows: list[list[tuple[int, Fraction]]] = []
    i = 0
    while i < len(nodes):
        t = nodes[i]
        i += 1
        if t.phase is TurnPhase.DONE:
            rows.append([(index[t], Fraction(1))])
            continue
        acc: dict[TurnState, Fraction] = defaultdict(Fraction)
        for roll, p in chance_outcomes(t):
            for nxt, q in resolve(apply(t, roll)).items():
                acc[nxt] += p * q
        row = []
        for nxt, p in acc.items():
            if nxt not in index:
                index[nxt] = len(nodes)
                nodes.append(nxt)
            row.append((index[nxt], p))
        rows.append(row)
    return TurnTable(rules, policy.name, context, nodes, rows)


@lru_cache(maxsize=64)
def score_paths(rules: Rules) -> dict[int, tuple[Action, ...]]:
    """For every possible turn score, one sequence of actions that ends a turn with it.

    The match engine only ever reads a finished turn's score; the simulator posts a sampled
    score by playing one of these sequences through the engine (a breadth-first search over
    the engine's own moves, so every sequence is legal by construction).
    """
    start = initial_turn(rules)
    paths: dict[int, tuple[Action, ...]] = {}
    seen = {start}
    frontier: list[tuple[TurnState, tuple[Action, ...]]] = [(start, ())]
    while frontier:
        nxt_frontier: list[tuple[TurnState, tuple[Action, ...]]] = []
        for t, path in frontier:
            if t.phase is TurnPhase.DONE:
                paths.setdefault(t.score, path)
                continue
            moves: list[Action] = [r for r, _ in chance_outcomes(t)] or list(legal_actions(t))
            for a in moves:
                nxt = apply(t, a)
                if nxt not in seen:
                    seen.add(nxt)
                    nxt_frontier.append((nxt, (*path, a)))
        frontier = nxt_frontier
    return dict(sorted(paths.items()))


class ExpectedScoreBot:
    """Maximises the turn's expected score, valued through the engine (``ev`` fallback).

    Used only until the exact solver provides ``make_bot("ev")``; values come from
    ``chance_outcomes`` and ``apply`` alone.  On equal values it keeps the first legal action
    (standing before rerolling).
    """

    name = "ev"

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def choose(self, state: MatchState | TurnState, rng: random.Random) -> Action:
        """The legal action with the highest expected final score."""
        turn = state if isinstance(state, TurnState) else state.turn
        if turn is None:
            acts = legal_actions(state)
            return rng.choice(acts)
        acts = legal_actions(turn)
        return max(acts, key=lambda a: (_value(apply(turn, a)), -acts.index(a)))


@lru_cache(maxsize=200_000)
def _value(t: TurnState) -> Fraction:
    if t.phase is TurnPhase.DONE:
        return Fraction(t.score)
    if t.phase is TurnPhase.ROLL:
        return sum((p * _value(apply(t, r)) for r, p in chance_outcomes(t)), Fraction(0))
    return max(_value(apply(t, a)) for a in legal_actions(t))
