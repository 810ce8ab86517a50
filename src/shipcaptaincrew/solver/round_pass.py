"""One pass of the round model (:mod:`.rounds`): backward induction given the tie values.

:func:`sweep` takes what a tie and an all-fail round are worth to each seat (the fixed
point's current guess, or exact values where the model has them) and returns every table's
reward vector, score distribution and value, from the last seat back to the first, and then
each seat's win probability forwards.  :mod:`.rounds` iterates it to the fixed point.

Under ``tie_break=no_winner`` a round whose top score is shared has no winner at all, whoever
shares it, and the next round decides: then every seat's reward for a score carries a second
term, the chance that the round ends tied at the top times what the next round is worth to
it (``tie_carry``).  That chance is built from the last seat back like the tie counts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..rules import Rules
from .graph import TurnGraph, turn_graph
from .policies import Policy, PolicyKind, fixed_choices

__all__ = [
    "Sweep",
    "TableValues",
    "fixed_distribution",
    "play",
    "sweep",
    "table_after",
    "table_reach",
]

Table = tuple[int, int]  # (m, t)
#: (position, m, t) -> (reward per score, score distribution, win probability).
TableValues = dict[tuple[int, int, int], tuple[list[float], list[float], float]]


def play(
    graph: TurnGraph, pol: Policy, gs: list[list[float]]
) -> tuple[list[list[float]], list[float]]:
    """Score distributions and values for reward vectors under the policy."""
    if pol.kind is PolicyKind.OPTIMAL:
        import numpy as np

        from .batch import evaluate_batch  # NumPy: loaded only when used

        v, d, _ = evaluate_batch(graph, np.array(gs, dtype=np.float64))
        return d.tolist(), v.tolist()
    dist = fixed_distribution(graph.rules, pol)
    return [dist] * len(gs), [sum(p * x for p, x in zip(dist, g)) for g in gs]


_DIST: dict[tuple[Rules, Policy], list[float]] = {}


def fixed_distribution(rules: Rules, pol: Policy) -> list[float]:
    """A fixed policy's score distribution (per score of the turn graph), exact then rounded."""
    key = (rules, pol)
    if key not in _DIST:
        graph = turn_graph(rules)
        reach = graph.reach(fixed_choices(rules, pol))
        dist = [0.0] * len(graph.scores)
        for i, r in enumerate(reach):
            if graph.score_pos[i] >= 0:
                dist[graph.score_pos[i]] += float(r)
        _DIST[key] = dist
    return _DIST[key]


@dataclass(frozen=True)
class Sweep:
    """What one pass found: the tables, each seat's odds, and the chances of the round ending
    with everyone failed, everyone tied above 0, and any tie at the top above 0."""

    tables: TableValues
    seat_odds: list[float]
    p_fail: float
    p_tie_all: float
    p_tie_top: float


def sweep(
    graph: TurnGraph,
    pol: Policy,
    n: int,
    tie_share: Callable[[int, int], float],
    all_fail_share: Callable[[int], float],
    tie_carry: Callable[[int], float] | None = None,
) -> Sweep:
    """One backward-induction pass given the tie and all-fail values.

    ``tie_share(T, j)`` is what place ``j`` (1-based) of ``T`` players tied at the top wins;
    with ``tie_carry`` given instead, a shared top score leaves the round without a winner and
    is worth ``tie_carry(i)`` to the player in position ``i``.
    """
    tables = _backward(graph, pol, n, tie_share, all_fail_share, tie_carry)
    reach = table_reach(graph.scores, n, tables)
    w = [0.0] * n
    for (i, m, t), r in reach.items():
        if i < n:
            w[i] += r * tables[(i, m, t)][2]
    ends = [(m, t, r) for (i, m, t), r in reach.items() if i == n]
    return Sweep(
        tables,
        w,
        reach.get((n, 0, n), 0.0),
        sum(r for m, t, r in ends if m > 0 and t == n),
        sum(r for m, t, r in ends if m > 0 and t > 1),
    )


def _tables_at(i: int, positive: list[int]) -> list[Table]:
    """Every table (m, t) the player in position i can meet."""
    if i == 0:
        return [(0, 0)]
    return [(0, i)] + [(m, t) for m in positive for t in range(1, i + 1)]


def table_after(m: Any, t: Any, x: Any) -> Any:
    """The table ``(m, t)`` after a score ``x`` is posted at table ``(m, t)``: a higher score
    is the new best, alone; an equal one adds to those sharing it.  Plain ints or NumPy
    arrays alike (broadcast), so the round's tables and the batched estimates share it.

    >>> table_after(9, 1, 11), table_after(9, 1, 9), table_after(9, 1, 4), table_after(0, 0, 0)
    ((11, 1), (9, 2), (9, 1), (0, 1))
    >>> import numpy as np
    >>> [a.tolist() for a in table_after(np.array([9, 9, 9]), np.array([1, 1, 1]), np.array([11, 9, 4]))]
    [[11, 9, 9], [1, 2, 1]]
    """
    higher, level = x > m, x == m
    return m + (x - m) * higher, higher + (x <= m) * (t + level)


def _backward(
    graph: TurnGraph,
    pol: Policy,
    n: int,
    tie_share: Callable[[int, int], float],
    all_fail_share: Callable[[int], float],
    tie_carry: Callable[[int], float] | None,
) -> TableValues:
    """Each position's reward vector, score distribution and value at every table.

    ``h[(m, t)]`` for the players from position i on is the list over s of P(none of them
    beats m, exactly s of them tie it); ``z[(m, t)]`` is P(the round ends with its top score
    above 0 shared); both are built from the last seat back.
    """
    scores: tuple[int, ...] = graph.scores
    positive = [x for x in scores if x > 0]
    h_next: dict[Table, list[float]] = {st: [1.0] for st in _tables_at(n, positive)}
    z_next = {(m, t): float(m > 0 and t > 1) for m, t in _tables_at(n, positive)}
    tables: TableValues = {}
    for i in range(n - 1, -1, -1):
        k = n - 1 - i
        sts = _tables_at(i, positive)
        gs: list[list[float]] = []
        for m, t in sts:
            g = [0.0] * len(scores)
            for j, x in enumerate(scores):
                if x == 0 and m == 0:
                    g[j] = h_next[(0, i + 1)][k] * all_fail_share(i)
                if tie_carry is not None:
                    # No winner when the top is shared: only a score nobody reaches wins.
                    if x > m:
                        g[j] += h_next[(x, 1)][0]
                    g[j] += z_next[table_after(m, t, x)] * tie_carry(i)
                elif x > m:
                    hv = h_next[(x, 1)]
                    g[j] = sum(p * tie_share(1 + s, 1) for s, p in enumerate(hv))
                elif x == m and m > 0:
                    hv = h_next[(m, t + 1)]
                    g[j] = sum(p * tie_share(t + 1 + s, t + 1) for s, p in enumerate(hv))
            gs.append(g)
        ds, vs = play(graph, pol, gs)
        h_cur: dict[Table, list[float]] = {}
        z_cur: dict[Table, float] = {}
        for (m, t), g, d, v in zip(sts, gs, ds, vs):
            z_cur[(m, t)] = sum(p * z_next[table_after(m, t, x)] for x, p in zip(scores, d))
            tables[(i, m, t)] = (g, d, v)
            p_eq = sum(p for x, p in zip(scores, d) if x == m)
            p_below = sum(p for x, p in zip(scores, d) if x < m)
            hv = [0.0] * (k + 2)
            for s, p in enumerate(h_next[(m, t + 1)]):
                hv[s + 1] += p_eq * p
            if m > 0:
                for s, p in enumerate(h_next[(m, t)]):
                    hv[s] += p_below * p
            h_cur[(m, t)] = hv
        h_next, z_next = h_cur, z_cur
    return tables


def table_reach(
    scores: tuple[int, ...], n: int, tables: TableValues
) -> dict[tuple[int, int, int], float]:
    """P(position i meets table (m, t)), for i = 0..n (n: the table after everyone played)."""
    reach: dict[Table, float] = {(0, 0): 1.0}
    out: dict[tuple[int, int, int], float] = {}
    for i in range(n + 1):
        for (m, t), r in reach.items():
            out[(i, m, t)] = r
        if i == n:
            break
        nxt: dict[Table, float] = {}
        for (m, t), r in reach.items():
            for x, p in zip(scores, tables[(i, m, t)][1]):
                if p:
                    st = table_after(m, t, x)
                    nxt[st] = nxt.get(st, 0.0) + r * p
        reach = nxt
    return out
