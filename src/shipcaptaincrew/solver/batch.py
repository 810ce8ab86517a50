"""The turn graph's NumPy evaluator: a whole batch of reward vectors in one pass.

The round equilibrium asks the same question -- the best play and its score distribution --
for every table a player can meet, i.e. for one reward vector per table.  Here the graph's
nodes are grouped by level (distance from the end of the turn) so that each level is a few
array operations for the whole batch: chance nodes average their children, decision nodes
take the best (near-ties going to the higher expected score, as in
:meth:`.graph.TurnGraph.evaluate_lex`), and a forward pass gives the chance of reaching
each node, hence each final score.  Imported only when used, so the solver loads without
NumPy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .graph import CHANCE_NODE, DECISION_NODE, FINAL_NODE, TIE_TOLERANCE, TurnGraph

__all__ = ["evaluate_batch", "evaluate_batch_nodes"]

#: Per level: chance nodes, their children, probabilities, where each node's children start,
#: decision nodes, and their children padded to one width with the sentinel row ``n``.
Level = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def evaluate_batch(
    graph: TurnGraph, g: np.ndarray, forced: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`evaluate_batch_nodes`, on the reduced graph unless choices are ``forced``.

    Without ``forced`` the work is done on :meth:`~.graph.TurnGraph.reduced` and the choices
    are mapped back to every node.
    """
    if forced is not None:
        return evaluate_batch_nodes(graph, g, forced)
    red, cls = graph.reduced()
    v, dist, choice = evaluate_batch_nodes(red, g)
    return v, dist, choice[np.asarray(cls, dtype=np.int64)]


def evaluate_batch_nodes(
    graph: TurnGraph, g: np.ndarray, forced: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Push a batch of reward vectors through this graph's own nodes.

    ``g`` has shape (B, len(scores)).  ``forced`` (length = nodes, -1 = maximise) fixes
    choices.  Returns (values at the root (B,), the score distribution at the root under the
    chosen play (B, len(scores)), and the chosen child position per node (nodes, B)).
    """
    plan = _plan(graph)
    v, choice = _backward(graph, plan, g, forced)
    return v[0].copy(), _forward(graph, plan, choice), choice


def _plan(graph: TurnGraph) -> dict[str, Any]:
    """The graph's nodes by level, as index arrays (computed once per graph)."""
    cache = graph._np
    if "plan" in cache:
        return cache
    n = len(graph.states)
    level = [0] * n
    for i in range(n - 1, -1, -1):
        if graph.kids[i]:
            level[i] = 1 + max(level[c] for c in graph.kids[i])
    plan = [
        _level(graph, [i for i in range(n) if level[i] == lv]) for lv in range(1, max(level) + 1)
    ]
    finals = np.array([i for i in range(n) if graph.kind[i] == FINAL_NODE], dtype=np.int64)
    fpos = np.array([graph.score_pos[i] for i in finals], dtype=np.int64)
    cache.update(plan=plan, finals=finals, fpos=fpos)
    return cache


def _level(graph: TurnGraph, nodes: list[int]) -> Level:
    n = len(graph.states)
    chance = [i for i in nodes if graph.kind[i] == CHANCE_NODE]
    dec = [i for i in nodes if graph.kind[i] == DECISION_NODE]
    starts = []
    pos = 0
    for i in chance:
        starts.append(pos)
        pos += len(graph.kids[i])
    width = max((len(graph.kids[i]) for i in dec), default=1)
    pad = np.full((len(dec), width), n, dtype=np.int64)  # n = the sentinel row
    for r, i in enumerate(dec):
        pad[r, : len(graph.kids[i])] = graph.kids[i]
    return (
        np.array(chance, dtype=np.int64),
        np.array([c for i in chance for c in graph.kids[i]], dtype=np.int64),
        np.array([p for i in chance for p in graph.fprobs[i]], dtype=np.float64),
        np.array(starts, dtype=np.int64),
        np.array(dec, dtype=np.int64),
        pad,
    )


def _backward(
    graph: TurnGraph, plan: dict[str, Any], g: np.ndarray, forced: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """Values of every node (plus the sentinel row) and the choice at every decision."""
    n = len(graph.states)
    b = g.shape[0]
    v = np.empty((n + 1, b))
    v[n] = -np.inf
    v[plan["finals"]] = g[:, plan["fpos"]].T
    # Second objective for ties: the expected score (as in TurnGraph.evaluate_lex).
    e = np.empty((n + 1, b))
    e[n] = -np.inf
    e[plan["finals"]] = np.asarray(graph.scores, dtype=np.float64)[plan["fpos"]][:, None]
    choice = np.full((n, b), -1, dtype=np.int64)
    for chance, c_kids, c_p, starts, dec, pad in plan["plan"]:
        if len(chance):
            v[chance] = np.add.reduceat(v[c_kids] * c_p[:, None], starts, axis=0)
            e[chance] = np.add.reduceat(e[c_kids] * c_p[:, None], starts, axis=0)
        if len(dec):
            vals = v[pad]  # (d, w, b)
            best = vals.max(axis=1)
            tol = TIE_TOLERANCE * np.maximum(1.0, np.abs(best))
            ok = vals >= (best - tol)[:, None, :]
            ch = np.where(ok, e[pad], -np.inf).argmax(axis=1)  # near-best, best score
            if forced is not None:
                f = forced[dec]
                ch = np.where(f[:, None] >= 0, f[:, None], ch)
            choice[dec] = ch
            v[dec] = np.take_along_axis(vals, ch[:, None, :], axis=1)[:, 0, :]
            e[dec] = np.take_along_axis(e[pad], ch[:, None, :], axis=1)[:, 0, :]
    return v, choice


def _forward(graph: TurnGraph, plan: dict[str, Any], choice: np.ndarray) -> np.ndarray:
    """The root's score distribution (B, len(scores)) under ``choice``.

    Scatter-adds go through ``bincount`` over flat (node, column) indices, much faster than
    ``add.at``.
    """
    n, b = choice.shape
    cols = np.arange(b)
    r = np.zeros((n, b))
    r[0] = 1.0
    size = n * b
    for chance, c_kids, c_p, starts, dec, pad in reversed(plan["plan"]):
        if len(chance):
            counts = np.diff(np.append(starts, len(c_kids)))
            parents = np.repeat(chance, counts)
            flat = (c_kids[:, None] * b + cols[None, :]).ravel()
            w = (r[parents] * c_p[:, None]).ravel()
            r += np.bincount(flat, weights=w, minlength=size).reshape(n, b)
        if len(dec):
            child = pad[np.arange(len(dec))[:, None], choice[dec]]  # (d, b)
            flat = (child * b + cols[None, :]).ravel()
            r += np.bincount(flat, weights=r[dec].ravel(), minlength=size).reshape(n, b)
    ns = len(graph.scores)
    flat = (plan["fpos"][:, None] * b + cols[None, :]).ravel()
    dist = np.bincount(flat, weights=r[plan["finals"]].ravel(), minlength=ns * b)
    result: np.ndarray = dist.reshape(ns, b).T
    return result
