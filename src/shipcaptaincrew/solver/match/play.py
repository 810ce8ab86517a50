"""One contest of a match played seat by seat: the tree of posted scores, and tie-break contests.

A contest (a round, or a tie-break among some of its players) is played in order, and every
seat sees the scores posted before it.  Given the value of every complete line of scores (a
*leaf*: one value vector per leaf, from the match solver), :func:`play_contest` works back from
the last seat: at each node of the tree of posted scores the seat to play turns the values of
its possible scores into a score distribution -- by the best play of its turn for its own entry
of the value vector (``optimal`` seats: :func:`.batch.best_play`, the match chance first, the
round chance second), by the round equilibrium's play at that table (``optimal:round``), or by
its fixed policy (``ev``, ``never``, ``threshold:T``) -- and the node's value is the mean of its
children's.  A forward pass gives each leaf's probability.

:func:`tie_shares` is the same machinery for the contests that break a tie with turns (a tie
for the round under ``tie_break=replay``, a tie for the match): the tied play in play order,
the best score goes through, a shared best (everyone failing included) plays again among those
who share it.  The prize is all or nothing, so every ``optimal`` seat plays to win it; that is
the round model's sub-round (:func:`.rounds.equilibrium` with ``sub=True``) when everyone plays
alike, and ``tests/test_solver_match.py`` checks that it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from itertools import product

import numpy as np

from ...rules import Rules
from ..batch import best_play
from ..graph import turn_graph
from ..policies import Policy, PolicyKind
from ..round_pass import fixed_distribution
from ..rounds import SolverError, equilibrium

__all__ = [
    "MAX_POLICY_ITERATIONS",
    "Seat",
    "SeatKind",
    "Tree",
    "leaf_mass",
    "play_contest",
    "round_table",
    "score_lines",
    "seat_for",
    "settle_contest",
    "tie_contest",
    "tie_shares",
]

#: Bound on policy-iteration rounds of a contest that can start again (a handful suffice).
MAX_POLICY_ITERATIONS = 50


class SeatKind(Enum):
    """How a seat turns the values of its scores into a score distribution."""

    BEST = "best"  #: the best play for its own entry (then a second entry, then the score)
    TABLE = "table"  #: a distribution per node of the tree (the round equilibrium's play)
    FIXED = "fixed"  #: one distribution whatever the table (a fixed policy)


@dataclass(frozen=True)
class Seat:
    """One position of a contest: what it plays for, or the distributions it plays."""

    kind: SeatKind
    own: int = -1  #: BEST: the entry of the value vector it maximises
    second: int = -1  #: BEST: the entry it maximises among equal ``own`` (-1: none)
    #: TABLE: (nodes at this depth, scores); FIXED: (scores,).
    table: np.ndarray | None = None


@dataclass(frozen=True)
class Tree:
    """A contest played out: per depth the seat's distributions and the nodes' values."""

    #: depth p: (B, S**p, S), the seat at position p at every node of its depth.
    dists: tuple[np.ndarray, ...]
    #: depth p: (B, S**p, C), the value vectors at the nodes (depth 0: the contest's start;
    #: depth k: the leaves, the lines of scores played out).
    values: tuple[np.ndarray, ...]

    @property
    def root(self) -> np.ndarray:
        """(B, C): the value vector at the start of each contest of the batch."""
        return self.values[0][:, 0, :]


def score_lines(scores: int, seats: int) -> np.ndarray:
    """Every line of score positions, (S**seats, seats), the first seat's slowest.

    Leaf ``l`` of a contest is line ``l``: the node of depth p on its way is ``l // S**(k-p)``.
    """
    return np.array(list(product(range(scores), repeat=seats)), dtype=np.int64).reshape(
        scores**seats, seats
    )


def play_contest(rules: Rules, seats: Sequence[Seat], leaves: np.ndarray) -> Tree:
    """Play a batch of contests of ``len(seats)`` seats back from their leaves (B, S**k, C)."""
    graph = turn_graph(rules)
    s = len(graph.scores)
    b, _, c = leaves.shape
    vals = leaves
    dists: list[np.ndarray] = []
    values: list[np.ndarray] = [leaves]
    for p in range(len(seats) - 1, -1, -1):
        nodes = s**p
        child = vals.reshape(b, nodes, s, c)
        seat = seats[p]
        if seat.kind is SeatKind.BEST:
            g = child[..., seat.own].reshape(-1, s)
            g2 = child[..., seat.second].reshape(-1, s) if seat.second >= 0 else None
            d = best_play(graph, g, g2).reshape(b, nodes, s)
        else:
            assert seat.table is not None
            d = np.broadcast_to(seat.table, (b, nodes, s))
        vals = np.einsum("bns,bnsc->bnc", d, child)
        dists.append(d)
        values.append(vals)
    return Tree(tuple(reversed(dists)), tuple(reversed(values)))


def leaf_mass(tree: Tree) -> np.ndarray:
    """(B, S**k): the probability of every line of scores under the seats' play."""
    mass = np.ones((tree.dists[0].shape[0], 1))
    for d in tree.dists:
        mass = (mass[:, :, None] * d).reshape(mass.shape[0], -1)
    return mass


@lru_cache(maxsize=256)
def round_table(rules: Rules, seats: int, position: int, sub: bool) -> np.ndarray:
    """(S**position, S): the round equilibrium's score distribution at every node of a depth.

    What ``optimal:round`` plays: the node's posted scores give the table (best score, how
    many share it) the round model's tables are keyed by.
    """
    eq = equilibrium(rules, seats, "optimal", sub=sub)
    scores = eq.scores
    out = np.empty((len(scores) ** position, len(scores)))
    for node, line in enumerate(score_lines(len(scores), position)):
        posted = [scores[j] for j in line]
        m = max(posted, default=0)
        t = sum(1 for x in posted if x == m) if posted else 0
        out[node] = eq.tables[(position, m, t)][1]
    return out


def seat_for(
    rules: Rules,
    policy: Policy,
    contest_seats: int,
    position: int,
    own: int,
    second: int,
    sub: bool,
) -> Seat:
    """The seat a policy makes at ``position`` of a contest of ``contest_seats``."""
    if policy.kind is PolicyKind.OPTIMAL:
        return Seat(SeatKind.BEST, own, second)
    if policy.kind is PolicyKind.ROUND:
        return Seat(SeatKind.TABLE, table=round_table(rules, contest_seats, position, sub))
    return Seat(SeatKind.FIXED, table=np.asarray(fixed_distribution(rules, policy)))


def tie_shares(rules: Rules, policies: tuple[Policy, ...]) -> tuple[float, ...]:
    """Each tied player's chance to win a contest of turns among them (play order)."""
    if len(policies) == 1:
        return (1.0,)
    return tuple(float(x) for x in tie_contest(rules, policies).root[0])


@lru_cache(maxsize=1024)
def tie_contest(rules: Rules, policies: tuple[Policy, ...]) -> Tree:
    """A contest of turns among tied players (play order), played out (B = 1).

    Subsets that share the best score play again among themselves (solved first); the
    contest's own start, reached again when all of them share it, is the one unknown, found by
    policy iteration: guess it, play, solve the fixed play's linear equation, play again until
    nobody's play changes.
    """
    k = len(policies)
    graph = turn_graph(rules)
    scores = np.asarray(graph.scores)
    lines = scores[score_lines(len(scores), k)]
    best = lines.max(axis=1)
    top = lines == best[:, None]
    term = np.zeros((len(lines), k))
    again = top.all(axis=1)  # everyone shares the best: the same contest again
    for mask in {tuple(row) for row in top[~again]}:
        sub = [policies[j] for j in range(k) if mask[j]]
        shares = tie_shares(rules, tuple(sub))
        rows = (top == np.array(mask)).all(axis=1)
        term[np.ix_(rows, np.flatnonzero(mask))] = shares
    seats = [seat_for(rules, pol, k, p, p, -1, True) for p, pol in enumerate(policies)]
    return settle_contest(rules, seats, term, again, np.full(k, 1.0 / k), f"a tie-break among {k}")


def settle_contest(
    rules: Rules,
    seats: Sequence[Seat],
    term: np.ndarray,
    again: np.ndarray,
    start: np.ndarray,
    what: str,
) -> Tree:
    """A contest whose lines either end (``term``: the values they leave) or, where ``again``,
    come back to its own start, of unknown value: policy iteration from a guess ``start``
    (play, solve the fixed play's linear equation for the start, play again) until nobody's
    play changes.  ``what`` names the contest in the errors."""
    u = start
    before: tuple[np.ndarray, ...] | None = None
    for _ in range(MAX_POLICY_ITERATIONS):
        tree = play_contest(rules, seats, (term + again[:, None] * u)[None])
        if before is not None and all(np.array_equal(a, b) for a, b in zip(tree.dists, before)):
            return tree
        before = tree.dists
        back = float(leaf_mass(tree)[0] @ again)
        if back >= 1.0:
            raise SolverError(f"{what} under {rules} never ends: everyone fails")
        u = (tree.root[0] - back * u) / (1.0 - back)
    raise SolverError(f"{what} under {rules} did not settle in {MAX_POLICY_ITERATIONS} rounds")
