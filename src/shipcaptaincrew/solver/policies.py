"""Turn policies by name, and the choice each makes at every decision node.

* ``never`` -- stand on the first cargo (never reroll it);
* ``threshold:T`` -- reroll the cargo while the cargo is below ``T`` and a reroll is
  allowed, else stand;
* ``ev`` -- maximise the expected score;
* ``optimal`` -- maximise the chance of winning the match (needs the position: see
  :mod:`.match.solve`; in a single round, the round: see :mod:`.rounds`);
* ``optimal:round`` -- maximise the chance of winning the round being played, whatever the
  match (the round equilibrium of :mod:`.rounds`).

A cargo rule says nothing about wild-captain assignments.  Under ``never`` and
``threshold:T`` a :class:`~shipcaptaincrew.actions.Take` follows :func:`best_take` (take the
lowest faces, which leaves the highest dice free), the rule the heuristic bots play too
(:mod:`shipcaptaincrew.bots.base` uses this very function), so the exact odds of these
policies are exactly the odds of the ``timid``, ``tip`` and ``threshold:T`` bots; ``ev`` and
``optimal`` choose assignments by their own objective.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from ..actions import Action, RerollCargo, Stand, Take
from ..errors import GameError
from ..messages import N_
from ..rules import Rules
from .graph import DECISION_NODE, TurnGraph, turn_graph

__all__ = [
    "BOT_ALIASES",
    "FIXED_KINDS",
    "MAX_THRESHOLD",
    "SEAT_KINDS",
    "Policy",
    "PolicyKind",
    "UnknownPolicyError",
    "best_take",
    "fixed_choices",
    "parse_policy",
]


class UnknownPolicyError(GameError):
    """A policy name that is not ``never``, ``ev``, ``optimal`` or ``threshold:T``."""


#: Largest accepted threshold (13 plus the largest same-roll bonus; any T > 12 always rerolls).
MAX_THRESHOLD = 113

_THRESHOLD = re.compile(r"threshold:(-?\d+)")


class PolicyKind(str, Enum):
    """What a turn policy plays for (its name, or ``threshold`` with a number)."""

    NEVER = "never"
    EV = "ev"
    THRESHOLD = "threshold"
    OPTIMAL = "optimal"
    ROUND = "optimal:round"


#: The policies that decide without looking at the table (one choice per turn state).
FIXED_KINDS = (PolicyKind.NEVER, PolicyKind.EV, PolicyKind.THRESHOLD)
#: Every policy a seat of a match can play (what ``--policy`` accepts).
SEAT_KINDS = (PolicyKind.OPTIMAL, PolicyKind.ROUND, *FIXED_KINDS)


@dataclass(frozen=True)
class Policy:
    """A parsed policy: its kind, and the cargo threshold of ``threshold:T``."""

    kind: PolicyKind
    threshold: int = 0

    def __str__(self) -> str:
        if self.kind is PolicyKind.THRESHOLD:
            return f"threshold:{self.threshold}"
        return str(self.kind.value)


def _kind_names(kinds: Sequence[PolicyKind]) -> str:
    return ", ".join("threshold:T" if k is PolicyKind.THRESHOLD else k.value for k in kinds)


#: The bots' names of the turn policies they play (:func:`shipcaptaincrew.bots.make_bot`), read
#: here as aliases, so that one set of names serves bots and policies: ``timid`` never rerolls,
#: ``tip`` rerolls the cargo at six or less.  (``make_bot`` reads ``never`` the other way.)
BOT_ALIASES = {"timid": "never", "tip": "threshold:7"}


def _read(text: str) -> Policy | None:
    """The policy a text names, or None (a bare ``threshold`` names none: it needs T).

    >>> _read("timid") == _read("never"), str(_read("tip"))
    (True, 'threshold:7')
    """
    t = text.strip().lower()
    t = BOT_ALIASES.get(t, t)
    m = _THRESHOLD.fullmatch(t)
    if m:
        return Policy(PolicyKind.THRESHOLD, int(m.group(1)))
    kinds = {k.value: k for k in PolicyKind if k is not PolicyKind.THRESHOLD}
    return Policy(kinds[t]) if t in kinds else None


def parse_policy(text: str | Policy, *, allow: Sequence[PolicyKind] = FIXED_KINDS) -> Policy:
    """Read ``never``, ``ev``, ``optimal`` or ``threshold:T`` (only the kinds in ``allow``).

    >>> str(parse_policy("threshold:8")), parse_policy("ev").kind is PolicyKind.EV
    ('threshold:8', True)
    >>> parse_policy("greedy")
    Traceback (most recent call last):
    ...
    shipcaptaincrew.solver.policies.UnknownPolicyError: unknown policy 'greedy': use never, ev, threshold:T
    """
    p = text if isinstance(text, Policy) else _read(text)
    if p is None or p.kind not in allow:
        names = _kind_names(allow)
        if p is not None and p.kind in (PolicyKind.OPTIMAL, PolicyKind.ROUND):
            # Known, but it needs a table to win against (scc equilibrium / scc advise).
            raise UnknownPolicyError(
                N_(
                    "policy '{policy}' needs a round to win (use scc equilibrium or scc "
                    "advise); here use {names}"
                ),
                policy=str(p),
                names=names,
            )
        raise UnknownPolicyError(
            N_("unknown policy {policy}: use {names}"), policy=repr(str(text)), names=names
        )
    if p.kind is PolicyKind.THRESHOLD and not 0 <= p.threshold <= MAX_THRESHOLD:
        raise UnknownPolicyError(
            N_(
                "threshold:{t} is out of range: use 0..{most} (the cargo is 2..12; 13 or more "
                "always rerolls)"
            ),
            t=p.threshold,
            most=MAX_THRESHOLD,
        )
    return p


def best_take(actions: Sequence[Action]) -> Take:
    """Among wild-captain assignments, the one that sets aside the lowest faces.

    Lower faces for the roles leave higher faces free for the cargo: a quick rule (not the
    expected-score choice) shared by the ``never`` and ``threshold:T`` policies and the
    heuristic bots, so that their exact odds are one and the same.  Equal sums go to the
    lexicographically smallest faces.

    >>> from shipcaptaincrew.actions import Stand
    >>> str(best_take([Take((6, 1, 4)), Take((1, 1, 4)), Stand()]))
    'take:114'
    """
    takes = [a for a in actions if isinstance(a, Take)]
    if not takes:
        raise ValueError("there is no wild-captain assignment among these actions")
    return min(takes, key=lambda t: (sum(t.faces), t.faces))


def _cargo_rule(graph: TurnGraph, policy: Policy) -> list[int]:
    """Forced choices of never / threshold:T at every decision node."""
    forced = [-1] * len(graph)
    for i, acts in enumerate(graph.actions):
        if graph.kind[i] != DECISION_NODE:
            continue
        if any(isinstance(a, Take) for a in acts):
            forced[i] = acts.index(best_take(acts))
            continue
        want: Stand | RerollCargo = Stand()
        if policy.kind is PolicyKind.THRESHOLD and sum(graph.states[i].cargo) < policy.threshold:
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
    if p.kind is PolicyKind.EV:
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
