"""Transition tables of a whole turn, derived from the engine, and their bulk sampler.

Nothing in this module knows a rule of the game, and nothing here walks the turn either: the
turn is the solver's compiled graph (:func:`shipcaptaincrew.solver.turn_graph`), the project's
one enumeration of the engine's turn (every exact outcome of
:func:`~shipcaptaincrew.engine.chance_outcomes` followed through
:func:`~shipcaptaincrew.engine.apply`, every legal action of a decision).  The bot's decisions
(:mod:`.policy`) are folded into that graph, so what remains is a small Markov chain over the
turn states where dice are due (*roll nodes*) and the finished turns (*done nodes*): one row of
exact probabilities per roll node.

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
from ..engine import apply, chance_outcomes, dice_to_roll
from ..rules import Rules
from ..solver import ContestView, TurnGraph, turn_graph
from ..solver.graph import DECISION_NODE, FINAL_NODE
from ..state import TurnPhase, TurnState
from .policy import Policy

__all__ = [
    "ExactTurnOdds",
    "IllegalPolicyError",
    "TurnSample",
    "TurnTable",
    "build_table",
    "score_paths",
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
        context: ContestView | None,
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
    def ends(self) -> dict[int, Fraction]:
        """Done node -> the exact probability that a turn ends in it."""
        return self._push()[0]

    def exact(self) -> ExactTurnOdds:
        """Exact turn statistics by pushing the probability mass through the chain."""
        mass, by_roll, dice = self._push()
        dist: dict[int, Fraction] = defaultdict(Fraction)
        for i, p in mass.items():
            dist[int(self.score[i])] += p
        expected = sum((s * p for s, p in dist.items()), Fraction(0))
        on_roll = tuple(b - a for a, b in zip([Fraction(0), *by_roll], by_roll))
        return ExactTurnOdds(on_roll, by_roll[-1], dict(sorted(dist.items())), expected, dice)

    def _push(self) -> tuple[dict[int, Fraction], list[Fraction], Fraction]:
        """The mass on the done nodes, P(complete by roll k) and the expected dice rolled."""
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
        return mass, by_roll, dice

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


def _folded_row(
    graph: TurnGraph, node: int, row: tuple[tuple[Action, Fraction], ...], name: str
) -> list[tuple[int, Fraction]]:
    """A decision row as (child node, probability), refusing what the engine does not allow."""
    acts = graph.actions[node]
    if sum(p for _, p in row) != 1:
        raise IllegalPolicyError(f"bot {name}: decision probabilities do not sum to 1")
    out = []
    for action, p in row:
        if action not in acts:
            raise IllegalPolicyError(
                f"bot {name} chose {action}, not legal in {graph.states[node]}"
            )
        out.append((graph.kids[node][acts.index(action)], p))
    return out


def build_table(rules: Rules, policy: Policy, context: ContestView | None = None) -> TurnTable:
    """Fold the policy's decisions into the solver's turn graph: a chain to sample.

    Each decision node is asked once (``policy.decide``); a roll node's row is its chance
    probabilities carried through the decisions that follow, to the next roll or done nodes.
    """
    graph = turn_graph(rules)
    resolved: dict[int, dict[int, Fraction]] = {}

    def resolve(i: int) -> dict[int, Fraction]:
        """Where a node leads once the player's decisions are taken: roll or done nodes."""
        if graph.kind[i] != DECISION_NODE:
            return {i: Fraction(1)}
        hit = resolved.get(i)
        if hit is not None:
            return hit
        out: dict[int, Fraction] = defaultdict(Fraction)
        for child, p in _folded_row(graph, i, policy.decide(graph.states[i], context), policy.name):
            for nxt, q in resolve(child).items():
                out[nxt] += p * q
        resolved[i] = dict(out)
        return resolved[i]

    index: dict[int, int] = {0: 0}  # graph node -> chain node; the root is a roll node
    order = [0]
    rows: list[list[tuple[int, Fraction]]] = []
    for i in order:  # grows while it is read: breadth first over the chain
        if graph.kind[i] == FINAL_NODE:
            rows.append([(index[i], Fraction(1))])
            continue
        acc: dict[int, Fraction] = defaultdict(Fraction)
        for child, p in zip(graph.kids[i], graph.probs[i]):
            for nxt, q in resolve(child).items():
                acc[nxt] += p * q
        row = []
        for nxt, p in acc.items():
            if nxt not in index:
                index[nxt] = len(order)
                order.append(nxt)
            row.append((index[nxt], p))
        rows.append(row)
    return TurnTable(rules, policy.name, context, [graph.states[i] for i in order], rows)


@lru_cache(maxsize=64)
def score_paths(rules: Rules) -> dict[int, tuple[Action, ...]]:
    """For every possible turn score, one sequence of actions that ends a turn with it.

    The match engine only ever reads a finished turn's score; the simulator posts a sampled
    score by playing one of these sequences through the engine.  The shortest line to each
    score is found breadth first on the solver's turn graph; its rolls are then taken from the
    engine's own outcomes (the first that leads along the line), so every sequence is legal by
    construction.
    """
    graph = turn_graph(rules)
    parent = {0: -1}
    finals: dict[int, int] = {}
    frontier = [0]
    while frontier:
        later = []
        for i in frontier:
            if graph.kind[i] == FINAL_NODE:
                finals.setdefault(graph.score[i], i)
                continue
            for c in graph.kids[i]:
                if c not in parent:
                    parent[c] = i
                    later.append(c)
        frontier = later
    return {score: _line_to(graph, parent, node) for score, node in sorted(finals.items())}


def _line_to(graph: TurnGraph, parent: dict[int, int], node: int) -> tuple[Action, ...]:
    """The engine actions along the graph's line from the root to ``node``."""
    line = [node]
    while parent[line[-1]] >= 0:
        line.append(parent[line[-1]])
    line.reverse()
    actions: list[Action] = []
    for a, b in zip(line, line[1:]):
        if graph.kind[a] == DECISION_NODE:
            actions.append(graph.actions[a][graph.kids[a].index(b)])
            continue
        state, target = graph.states[a], graph.states[b]
        actions.append(next(r for r, _ in chance_outcomes(state) if apply(state, r) == target))
    return tuple(actions)
