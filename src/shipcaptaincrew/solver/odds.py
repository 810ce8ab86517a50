"""Exact odds of one turn under a policy: completion by roll, score distribution, expected score.

>>> from shipcaptaincrew.rules import find_rules
>>> o = turn_odds(find_rules("classic"), "never", exact=True)
>>> o.p_complete == Fraction(42314697971, 78364164096)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..rules import Rules
from .graph import CHANCE_NODE, DECISION_NODE, FINAL_NODE, turn_graph
from .policies import Policy, fixed_choices, parse_policy

__all__ = ["TurnOdds", "turn_odds"]


@dataclass(frozen=True)
class TurnOdds:
    """One turn's odds.  Values are :class:`~fractions.Fraction` when exact, else float."""

    rules: Rules
    policy: str
    #: P(the crew is completed on roll 1), on roll 2, ... up to the rule set's last roll.
    p_complete_by_roll: tuple[Any, ...]
    #: P(the crew is completed within the turn's rolls).
    p_complete: Any
    #: Final score -> probability (scores that cannot happen are left out; 0 = no crew).
    distribution: dict[int, Any]
    expected_score: Any
    exact: bool

    def to_json(self) -> dict[str, Any]:
        """The ``scc odds --json`` object (exact values as ``"p/q"`` strings)."""

        def conv(x: Any) -> Any:
            if self.exact:
                return f"{x.numerator}/{x.denominator}"
            return float(x)

        return {
            "rules": str(self.rules),
            "policy": self.policy,
            "p_complete_by_roll": [conv(x) for x in self.p_complete_by_roll],
            "p_complete": conv(self.p_complete),
            "distribution": {str(k): conv(v) for k, v in sorted(self.distribution.items())},
            "expected_score": conv(self.expected_score),
        }


_CACHE: dict[tuple[Rules, Policy], TurnOdds] = {}


def turn_odds(rules: Rules, policy: str | Policy = "ev", exact: bool = False) -> TurnOdds:
    """The odds of one turn played with ``policy`` (``never``, ``ev`` or ``threshold:T``).

    Exact rationals are always computed (the graph is small); ``exact=False`` converts them to
    floats.  Raises :class:`~.policies.UnknownPolicyError` for an unknown policy.
    """
    p = parse_policy(policy)
    key = (rules, p)
    odds = _CACHE.get(key)
    if odds is None:
        odds = _CACHE[key] = _solve(rules, p)
    if exact:
        return odds
    return TurnOdds(
        rules=rules,
        policy=odds.policy,
        p_complete_by_roll=tuple(float(p) for p in odds.p_complete_by_roll),
        p_complete=float(odds.p_complete),
        distribution={k: float(v) for k, v in odds.distribution.items()},
        expected_score=float(odds.expected_score),
        exact=False,
    )


def _solve(rules: Rules, policy: Policy) -> TurnOdds:
    """Push the chance of reaching each node forward in whole numbers, divide once at the end.

    Every reach probability is ``r / total`` with ``total = 6**d`` (see
    :meth:`~.graph.TurnGraph.reach_counts`) and every chance probability ``count / 6**dice``,
    so the sums below are exact integer sums: several times faster than adding Fractions.
    """
    graph = turn_graph(rules)
    choice = fixed_choices(rules, policy)
    reach, total = graph.reach_counts(choice)
    dice, _, counts = graph._integer_plan()
    by_roll = [0] * rules.rolls
    dist: dict[int, int] = {}
    kind, kids, states = graph.kind, graph.kids, graph.states
    for i, r in enumerate(reach):
        if not r:
            continue
        k = kind[i]
        if k == FINAL_NODE:
            dist[graph.score[i]] = dist.get(graph.score[i], 0) + r
        if states[i].complete:
            continue
        # The crew is completed on the link from an incomplete state to a complete one.
        if k == CHANCE_NODE:
            den = 6 ** dice[i]
            for cnt, c in zip(counts[i], kids[i]):
                cs = states[c]
                if cs.complete:
                    by_roll[cs.rolls_used - 1] += r * cnt // den
        elif k == DECISION_NODE:
            cs = states[kids[i][choice[i]]]
            if cs.complete:
                by_roll[cs.rolls_used - 1] += r
    exact = {x: Fraction(v, total) for x, v in sorted(dist.items()) if v}
    rolls = tuple(Fraction(x, total) for x in by_roll)
    return TurnOdds(
        rules=rules,
        policy=str(policy),
        p_complete_by_roll=rolls,
        p_complete=Fraction(sum(by_roll), total),
        distribution=exact,
        expected_score=Fraction(sum(x * v for x, v in dist.items()), total),
        exact=True,
    )
