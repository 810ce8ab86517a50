"""Exact evaluation of the turn graph, in integers rather than fractions.

Every chance probability of a turn is ``count / 6**dice``, so a value scaled by ``6**d`` (the
most dice any continuation rolls) is a whole number when the rewards are, and so is the chance
of reaching a node.  :class:`ExactEvaluation` holds the exact evaluators that work so:
:meth:`~ExactEvaluation.evaluate_exact` (values and choices as exact rationals) and
:meth:`~ExactEvaluation.reach` (the chance of passing through each node under a play), many
times faster than :class:`~fractions.Fraction` arithmetic.  :class:`.graph.TurnGraph` has them
as methods of its own; this module reads only the graph's arrays, so it needs not import it.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd
from typing import TYPE_CHECKING, Any

from .nodes import CHANCE_NODE, DECISION_NODE, FINAL_NODE, NodeKind

if TYPE_CHECKING:
    from ..state import TurnState

__all__ = ["ExactEvaluation"]


class ExactEvaluation:
    """The exact evaluators of :class:`.graph.TurnGraph` (a base class reading its arrays)."""

    states: list[TurnState]
    kind: list[NodeKind]
    kids: list[tuple[int, ...]]
    probs: list[tuple[Fraction, ...]]
    score_pos: list[int]
    _np: dict[str, Any]

    def _integer_plan(self) -> tuple[list[int], list[int], list[tuple[int, ...]]]:
        """Exact arithmetic in integers: dice per chance node, dice remaining, roll counts.

        Every chance probability is ``count / 6**dice``; a value at node ``i`` times
        ``6**remaining[i]`` (the most dice any continuation rolls) is an integer when the
        rewards are, and so is the chance of reaching a node times ``6**remaining[root]``.
        Integers are many times faster than :class:`~fractions.Fraction` here.
        """
        plan = self._np.get("integer")
        if plan is None:
            n = len(self.states)
            dice = [0] * n
            counts: list[tuple[int, ...]] = [()] * n
            remaining = [0] * n
            for i in range(n - 1, -1, -1):
                if self.kind[i] == CHANCE_NODE:
                    denominators = max(p.denominator for p in self.probs[i])
                    d = 0
                    while 6**d % denominators:
                        d += 1
                    dice[i] = d
                    counts[i] = tuple(int(p * 6**d) for p in self.probs[i])
                kids = self.kids[i]
                remaining[i] = dice[i] + (max(remaining[c] for c in kids) if kids else 0)
            plan = self._np["integer"] = (dice, remaining, counts)
        return plan

    def evaluate_exact(
        self, g: list[Fraction], forced: list[int] | None = None
    ) -> tuple[list[Fraction], list[int]]:
        """:meth:`evaluate` in exact rationals (ties are exact ties)."""
        dice, rem, counts = self._integer_plan()
        scale = 1
        for x in g:
            scale = scale * Fraction(x).denominator // gcd(scale, Fraction(x).denominator)
        gi = [int(Fraction(x) * scale) for x in g]
        n = len(self.states)
        w = [0] * n  # w[i] = value[i] * scale * 6**rem[i]
        choice = [-1] * n
        for i in range(n - 1, -1, -1):
            k = self.kind[i]
            if k == FINAL_NODE:
                w[i] = gi[self.score_pos[i]]
            elif k == CHANCE_NODE:
                top = rem[i] - dice[i]
                w[i] = sum(
                    cnt * w[c] * 6 ** (top - rem[c]) for cnt, c in zip(counts[i], self.kids[i])
                )
            else:
                ch = self.kids[i]
                f = forced[i] if forced is not None else -1
                if f < 0:
                    vals = [w[c] * 6 ** (rem[i] - rem[c]) for c in ch]
                    f = vals.index(max(vals))
                choice[i] = f
                w[i] = w[ch[f]] * 6 ** (rem[i] - rem[ch[f]])
        return [Fraction(w[i], scale * 6 ** rem[i]) for i in range(n)], choice

    def reach_counts(self, choice: list[int], start: int = 0) -> tuple[list[int], int]:
        """:meth:`reach` as integers: ``(r, total)`` with P(reach node i) = ``r[i] / total``.

        ``total`` is ``6**d`` for the most dice any line of play rolls from ``start``, so every
        ``r[i]`` is a whole number of equally likely dice sequences; callers that add many
        reach probabilities stay in integers and divide once (much faster than Fractions).
        """
        dice, rem, counts = self._integer_plan()
        total = 6 ** rem[start]
        r = [0] * len(self.states)  # r[i] = P(reach i) * total, always an integer
        r[start] = total
        for i in range(start, len(self.states)):
            if not r[i]:
                continue
            k = self.kind[i]
            if k == CHANCE_NODE:
                den = 6 ** dice[i]
                for cnt, c in zip(counts[i], self.kids[i]):
                    r[c] += r[i] * cnt // den
            elif k == DECISION_NODE:
                r[self.kids[i][choice[i]]] += r[i]
        return r, total

    def reach(self, choice: list[int], start: int = 0) -> list[Fraction]:
        """Exact probability of passing through each node from ``start`` under ``choice``."""
        r, total = self.reach_counts(choice, start)
        return [Fraction(x, total) if x else Fraction(0) for x in r]
