"""Turn policies by name, and the choice each makes at every decision node.

* ``never`` -- stand on the first cargo (never reroll it);
* ``threshold:T`` -- reroll both cargo dice while the cargo is below ``T`` and a reroll is
  allowed, else stand;
* ``ev`` -- maximise the expected score;
* ``optimal`` -- maximise the chance of winning the round (needs the table: see
  :mod:`.rounds`).

A cargo rule says nothing about wild-captain assignments.  Under ``never`` and
``threshold:T`` a :class:`~shipcaptaincrew.actions.Take` follows the heuristic bots' rule
(:func:`shipcaptaincrew.bots.base.best_take`: take the lowest faces, which leaves the highest
dice free), so the exact odds of these policies are exactly the odds of the ``timid``, ``tip``
and ``threshold:T`` bots; ``ev`` and ``optimal`` choose assignments by their own objective.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from ..actions import Action, RerollCargo, Stand, Take
from ..rules import Rules
from .graph import DECISION_NODE, TurnGraph, turn_graph

__all__ = [
    "MAX_THRESHOLD",
    "Policy",
    "UnknownPolicyError",
    "ev_choices",
    "fixed_choices",
    "parse_policy",
]


class UnknownPolicyError(ValueError):
    """A policy name that is not ``never``, ``ev``, ``optimal`` or ``threshold:T``."""


#: Largest accepted threshold (13 plus the largest same-roll bonus; any T > 12 always rerolls).
MAX_THRESHOLD = 113

_THRESHOLD = re.compile(r"threshold:(-?\d+)")


@dataclass(frozen=True)
class Policy:
    """A parsed policy: ``kind`` is never, ev, optimal or threshold (with ``threshold``)."""

    kind: str
    threshold: int = 0

    def __str__(self) -> str:
        return f"threshold:{self.threshold}" if self.kind == "threshold" else self.kind


def parse_policy(
    text: str | Policy, *, allow: tuple[str, ...] = ("never", "ev", "threshold")
) -> Policy:
    """Read ``never``, ``ev``, ``optimal`` or ``threshold:T`` (only the kinds in ``allow``).

    >>> parse_policy("threshold:8")
    Policy(kind='threshold', threshold=8)
    >>> parse_policy("greedy")
    Traceback (most recent call last):
    ...
    shipcaptaincrew.solver.policies.UnknownPolicyError: unknown policy 'greedy': use never, ev, threshold:T
    """
    if isinstance(text, Policy):
        p = text
    else:
        t = text.strip().lower()
        m = _THRESHOLD.fullmatch(t)
        if m:
            p = Policy("threshold", int(m.group(1)))
        elif t in ("never", "ev", "optimal"):
            p = Policy(t)
        else:
            p = Policy("?")
    if p.kind not in allow:
        names = ", ".join("threshold:T" if a == "threshold" else a for a in allow)
        if p.kind == "optimal":
            # Known, but it needs a table to win against (scc equilibrium / scc advise).
            raise UnknownPolicyError(
                f"policy 'optimal' needs a round to win (use scc equilibrium or scc advise); "
                f"here use {names}"
            )
        raise UnknownPolicyError(f"unknown policy {str(text)!r}: use {names}")
    if p.kind == "threshold" and not 0 <= p.threshold <= MAX_THRESHOLD:
        raise UnknownPolicyError(
            f"threshold:{p.threshold} is out of range: use 0..{MAX_THRESHOLD} "
            "(the cargo is 2..12; 13 or more always rerolls)"
        )
    return p


def _take_rule(acts: tuple[Action, ...]) -> int:
    """The heuristic bots' assignment: lowest faces taken (kept in step with ``best_take``)."""
    takes = [(sum(a.faces), a.faces, j) for j, a in enumerate(acts) if isinstance(a, Take)]
    return min(takes)[2]


def _cargo_rule(graph: TurnGraph, policy: Policy) -> list[int]:
    """Forced choices of never / threshold:T at every decision node."""
    forced = [-1] * len(graph)
    for i, acts in enumerate(graph.actions):
        if graph.kind[i] != DECISION_NODE:
            continue
        if any(isinstance(a, Take) for a in acts):
            forced[i] = _take_rule(acts)
            continue
        want: Stand | RerollCargo = Stand()
        if policy.kind == "threshold" and sum(graph.states[i].cargo) < policy.threshold:
            want = RerollCargo()
        forced[i] = acts.index(want)
    return forced


_FIXED: dict[tuple[Rules, Policy], list[int]] = {}


def fixed_choices(rules: Rules, policy: Policy | str) -> list[int]:
    """The chosen child position at every decision node for never / threshold:T / ev.

    Computed exactly (rationals), so a tie in expected score is a true tie and goes to the
    first legal action (stand).
    """
    p = parse_policy(policy)
    key = (rules, p)
    hit = _FIXED.get(key)
    if hit is not None:
        return hit
    graph = turn_graph(rules)
    if p.kind == "ev":
        # Maximised on the reduced graph (equivalent nodes merged, actions in the same order,
        # so a choice's position means the same) and mapped back: exact and many times faster
        # under wild captain, whose assignments multiply the nodes but not the futures.
        red, cls = graph.reduced()
        _, red_choice = red.evaluate_exact([Fraction(x) for x in graph.scores])
        choice = [red_choice[c] for c in cls]
    else:
        # A fixed rule: the forced choice is the choice (-1 where nothing is decided).
        choice = _cargo_rule(graph, p)
    _FIXED[key] = choice
    return choice


def ev_choices(rules: Rules) -> list[int]:
    """The expected-score-maximising choice per decision node (see :func:`fixed_choices`)."""
    return fixed_choices(rules, Policy("ev"))
