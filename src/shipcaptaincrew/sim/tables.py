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
themselves, so as many steps as the longest path through the chain (:attr:`TurnTable.rolls`,
three under every sheet -- read from the chain, not assumed) finish every turn of the batch.

>>> from shipcaptaincrew.rules import Rules
>>> from shipcaptaincrew.sim.policy import make_policy
>>> table = build_table(Rules(), make_policy("timid", Rules()))
>>> table.exact().p_complete_by_roll[0]
Fraction(205, 1296)
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from ..actions import Action
from ..engine import apply, chance_outcomes, dice_to_roll, initial_turn, legal_actions
from ..rules import Rules
from ..state import TurnPhase, TurnState
from .policy import Policy, TableContext

__all__ = [
    "ExactTurnOdds",
    "TurnMoves",
    "TurnSample",
    "TurnTable",
    "build_table",
    "score_paths",
    "turn_moves",
]

#: Turns sampled together in one block (a few hundred kB of working arrays per step).
BLOCK = 1 << 16


class IllegalPolicyError(ValueError):
    """A policy chose an action that is not legal in the turn state it was asked about."""


@dataclass(frozen=True)
class ExactTurnOdds:
    """Exact statistics of one turn under a policy, from the table itself (no sampling)."""

    #: P(the crew is completed on roll 1), on roll 2, on roll 3 (as the solver reports it).
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
    #: The most rolls a turn can take (the table's :attr:`TurnTable.rolls`).
    rolls: int

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
            float((self.completed_on == k).mean()) for k in range(1, self.rolls + 1)
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
        self.done = np.array([t.phase is TurnPhase.DONE for t in nodes], dtype=bool)
        self.score = np.array([t.score for t in nodes], dtype=np.int16)
        self.complete = np.array([t.complete for t in nodes], dtype=bool)
        self.dice = np.array([dice_to_roll(t) for t in nodes], dtype=np.int8)
        #: The most rolls any turn takes: the longest path of roll nodes in the chain.
        self.rolls = self._longest_path()
        self._build_alias()

    def _longest_path(self) -> int:
        """Roll steps on the longest path from the start to a done node.

        The engine decides how many rolls a turn has; the chain inherits it, so the sampler
        takes its step count from here rather than assuming the sheets' three.  A chain that
        loops between roll nodes has no such bound and is refused.
        """
        depth: dict[int, int] = {}
        on_path: set[int] = set()

        def visit(i: int) -> int:
            if self.done[i]:
                return 0
            if i in depth:
                return depth[i]
            if i in on_path:
                raise ValueError(f"the turn chain of {self.rules} loops: no bound on its rolls")
            on_path.add(i)
            depth[i] = 1 + max(visit(k) for k, _ in self.rows[i])
            on_path.discard(i)
            return depth[i]

        return visit(self.start)

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
            # Exact integer weights over a common denominator: q[j] / denom = p_j * width.
            denom = math.lcm(*(p.denominator for _, p in row))
            q = [p.numerator * (denom // p.denominator) * width for _, p in row]
            q += [0] * (width - len(row))
            succ = [k for k, _ in row] + [row[0][0]] * (width - len(row))
            alias = list(succ)
            small = [j for j in range(width) if q[j] < denom]
            large = [j for j in range(width) if q[j] >= denom]
            while small and large:
                s_, l_ = small.pop(), large.pop()
                alias[s_] = succ[l_]
                q[l_] -= denom - q[s_]
                (small if q[l_] < denom else large).append(l_)
            for j in small + large:  # exactly one left over: the slot keeps its own successor
                q[j] = denom
            for j in range(width):
                if q[j] >= denom:
                    alias[j] = succ[j]
                thresholds.append(min(top - 1, q[j] * top // denom))
                pairs.extend((succ[j], alias[j]))
        self._starts = starts
        self._shifts = shifts
        self._down = np.uint64(64) - shifts
        self._thresholds = np.array(thresholds, dtype=np.uint64)
        self._pairs = np.array(pairs, dtype=np.int32)

    def __repr__(self) -> str:
        return (
            f"<TurnTable {self.rules} policy={self.policy_name} context={self.context} "
            f"nodes={len(self.nodes)} slots={len(self._pairs) // 2}>"
        )

    # -- exact ------------------------------------------------------------------------------
    def exact(self) -> ExactTurnOdds:
        """Exact turn statistics by pushing the probability mass through the chain."""
        mass: dict[int, Fraction] = {self.start: Fraction(1)}
        by_roll: list[Fraction] = []
        dice = Fraction(0)
        for _ in range(self.rolls):
            nxt: dict[int, Fraction] = defaultdict(Fraction)
            for i, p in mass.items():
                dice += p * int(self.dice[i])
                for k, q in self.rows[i]:
                    nxt[k] += p * q
            mass = dict(nxt)
            by_roll.append(sum((p for i, p in mass.items() if self.complete[i]), Fraction(0)))
        if any(not self.done[i] for i in mass):
            raise AssertionError(f"a turn did not finish within {self.rolls} rolls")
        dist: dict[int, Fraction] = defaultdict(Fraction)
        for i, p in mass.items():
            dist[int(self.score[i])] += p
        expected = sum((s * p for s, p in dist.items()), Fraction(0))
        on_roll = tuple(b - a for a, b in zip([Fraction(0), *by_roll], by_roll))
        return ExactTurnOdds(on_roll, by_roll[-1], dict(sorted(dist.items())), expected, dice)

    # -- sampling ---------------------------------------------------------------------------
    def step(self, nodes: np.ndarray, words: np.ndarray) -> np.ndarray:
        """One roll for every turn of the batch: next nodes given random 64-bit ``words``."""
        slot = self._starts[nodes] + (words >> self._down[nodes]).astype(np.int64)
        rest = words << self._shifts[nodes]
        pick = 2 * slot + (rest >= self._thresholds[slot])
        result: np.ndarray = self._pairs[pick]
        return result

    def first_step(self, words: np.ndarray) -> np.ndarray:
        """The first roll of a batch: every turn starts at node 0, so no per-turn lookups."""
        slot = int(self._starts[0]) + (words >> self._down[0]).astype(np.int64)
        rest = words << self._shifts[0]
        pick = 2 * slot + (rest >= self._thresholds[slot])
        result: np.ndarray = self._pairs[pick]
        return result

    def _words(self, rng: np.random.Generator, n: int) -> np.ndarray:
        words: np.ndarray = rng.bit_generator.random_raw(n)
        return words

    def sample_scores(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """Scores of ``n`` independent turns (one random word per roll per turn).

        Works through the batch in blocks of :data:`BLOCK` turns so the working arrays stay
        in the processor's cache; the draws for a given ``n`` are always the same.
        """
        out = np.empty(n, dtype=np.int16)
        for a in range(0, n, BLOCK):
            m = min(BLOCK, n - a)
            out[a : a + m] = self.score[self._finish(rng, m)]
        return out

    def sample_ends(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """The done nodes ``n`` independent turns end in (same draws as :meth:`sample_scores`).

        A done node carries both the score and whether the crew was completed
        (:attr:`score`, :attr:`complete`), so callers need not infer one from the other.
        """
        out = np.empty(n, dtype=np.int32)
        for a in range(0, n, BLOCK):
            m = min(BLOCK, n - a)
            out[a : a + m] = self._finish(rng, m)
        return out

    def _finish(self, rng: np.random.Generator, m: int) -> np.ndarray:
        x = self.first_step(self._words(rng, m))
        for _ in range(self.rolls - 1):
            x = self.step(x, self._words(rng, m))
        return x

    def sample(self, rng: np.random.Generator, n: int) -> TurnSample:
        """``n`` turns with their scores and the roll that completed each crew."""
        scores = np.empty(n, dtype=np.int16)
        completed_on = np.zeros(n, dtype=np.int8)
        for a in range(0, n, BLOCK):
            m = min(BLOCK, n - a)
            done = completed_on[a : a + m]
            x = self.first_step(self._words(rng, m))
            done[self.complete[x]] = 1
            for k in range(2, self.rolls + 1):
                x = self.step(x, self._words(rng, m))
                done[self.complete[x] & (done == 0)] = k
            scores[a : a + m] = self.score[x]
        return TurnSample(scores, completed_on, self.rolls)


def _check_policy(turn: TurnState, row: tuple[tuple[Action, Fraction], ...], name: str) -> None:
    legal = legal_actions(turn)
    for action, _ in row:
        if action not in legal:
            raise IllegalPolicyError(f"bot {name} chose {action}, not legal in {turn}")
    if sum(p for _, p in row) != 1:
        raise IllegalPolicyError(f"bot {name}: decision probabilities do not sum to 1")


@dataclass(frozen=True)
class TurnMoves:
    """Every turn state reachable under some choices, with where each roll or choice leads.

    Computed once per rule set from the engine (``chance_outcomes`` and ``apply``); outcomes
    of a roll that lead to the same state are merged.  Building a policy's table is then a
    pass over these dictionaries, with no engine call.
    """

    #: Roll node -> ((next state, probability), ...).
    rolls: dict[TurnState, tuple[tuple[TurnState, Fraction], ...]]
    #: Decision node -> {action: next state}.
    choices: dict[TurnState, dict[Action, TurnState]]


@lru_cache(maxsize=32)
def turn_moves(rules: Rules) -> TurnMoves:
    """The engine's turn, enumerated (see :class:`TurnMoves`)."""
    rolls: dict[TurnState, tuple[tuple[TurnState, Fraction], ...]] = {}
    choices: dict[TurnState, dict[Action, TurnState]] = {}
    start = initial_turn(rules)
    seen = {start}
    stack = [start]
    while stack:
        t = stack.pop()
        nexts: list[TurnState]
        if t.phase is TurnPhase.DONE:
            continue
        if t.phase is TurnPhase.ROLL:
            acc: dict[TurnState, Fraction] = defaultdict(Fraction)
            for roll, p in chance_outcomes(t):
                acc[apply(t, roll)] += p
            rolls[t] = tuple(acc.items())
            nexts = list(acc)
        else:
            choices[t] = {a: apply(t, a) for a in legal_actions(t)}
            nexts = list(choices[t].values())
        for nxt in nexts:
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return TurnMoves(rolls, choices)


def build_table(rules: Rules, policy: Policy, context: TableContext | None = None) -> TurnTable:
    """Fold the policy's decisions into the engine's enumerated turn: a chain to sample."""
    moves = turn_moves(rules)
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
            for nxt, q in resolve(moves.choices[t][action]).items():
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
        for after, p in moves.rolls[t]:
            for nxt, q in resolve(after).items():
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
