"""The turn graph's NumPy evaluator: a whole batch of reward vectors in one pass.

The round equilibrium asks the same question -- the best play and its score distribution --
for every table a player can meet, and the match solver for every position of a match: one
reward vector per table or position.  Here the graph's nodes are grouped by level (distance
from the end of the turn) so that each level is a few array operations for the whole batch:
chance nodes average their children, decision nodes take the best, and a forward pass gives
the chance of reaching each node, hence each final score.

"The best" is lexicographic: the first reward, then (among choices within
:data:`~.graph.TIE_TOLERANCE` of the best) an optional second reward, then the expected score,
then the first legal action -- the match solver's order (match chance, round chance, score,
stand) and, without a second reward, the round equilibrium's (as in
:meth:`.graph.TurnGraph.evaluate_lex`).  Values are kept as ``(node, objective, batch)``
arrays, so every gather moves whole rows; the forward pass pulls each node's mass from its
parents (no scatter into full-size arrays).  Imported only when used, so the solver loads
without NumPy.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .graph import TurnGraph
from .nodes import CHANCE_NODE, DECISION_NODE, FINAL_NODE, TIE_TOLERANCE

__all__ = ["best_play", "evaluate_batch", "evaluate_batch_nodes", "opening", "undecided"]


@dataclass(frozen=True)
class _Level:
    """One level of the graph: what the backward pass reads and the forward pass pulls."""

    chance: np.ndarray  #: chance nodes of the level
    c_kids: np.ndarray  #: their children, node after node
    c_p: np.ndarray  #: the children's probabilities
    c_starts: np.ndarray  #: where each chance node's children start in ``c_kids``
    dec: np.ndarray  #: decision nodes of the level
    pad: np.ndarray  #: (decisions, widest) children, padded with the sentinel row
    #: Forward: the level's nodes, and for each its incoming edges (grouped by node).
    nodes: np.ndarray
    in_parent: np.ndarray
    in_p: np.ndarray  #: chance probability of the edge (0 for a decision edge)
    in_col: np.ndarray  #: the child's place among a decision parent's children (-1: chance)
    in_starts: np.ndarray


@dataclass(frozen=True)
class _Plan:
    levels: tuple[_Level, ...]
    finals: np.ndarray  #: final nodes
    fpos: np.ndarray  #: their score positions
    scores: np.ndarray  #: the expected-score objective at the final nodes
    to_score: np.ndarray  #: (finals, scores) 1 where a final node ends with that score


def _plan(graph: TurnGraph) -> _Plan:
    """The graph's nodes by level, as index arrays (computed once per graph)."""
    hit = graph._np.get("batch_plan")
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    n = len(graph.states)
    height = [0] * n
    for i in range(n - 1, -1, -1):
        if graph.kids[i]:
            height[i] = 1 + max(height[c] for c in graph.kids[i])
    incoming: list[list[tuple[int, float, int]]] = [[] for _ in range(n)]
    for i in range(n):
        for j, c in enumerate(graph.kids[i]):
            if graph.kind[i] == CHANCE_NODE:
                incoming[c].append((i, graph.fprobs[i][j], -1))
            else:
                incoming[c].append((i, 0.0, j))
    levels = []
    for lv in range(max(height) + 1):
        members = [i for i in range(n) if height[i] == lv]
        levels.append(_level(graph, members, incoming))
    finals = np.array([i for i in range(n) if graph.kind[i] == FINAL_NODE], dtype=np.int64)
    fpos = np.array([graph.score_pos[i] for i in finals], dtype=np.int64)
    to_score = np.zeros((len(finals), len(graph.scores)))
    to_score[np.arange(len(finals)), fpos] = 1.0
    plan = _Plan(
        tuple(levels), finals, fpos, np.asarray(graph.scores, dtype=np.float64)[fpos], to_score
    )
    graph._np["batch_plan"] = plan
    return plan


def _level(
    graph: TurnGraph, members: list[int], incoming: list[list[tuple[int, float, int]]]
) -> _Level:
    n = len(graph.states)
    chance = [i for i in members if graph.kind[i] == CHANCE_NODE]
    dec = [i for i in members if graph.kind[i] == DECISION_NODE]
    starts, pos = [], 0
    for i in chance:
        starts.append(pos)
        pos += len(graph.kids[i])
    width = max((len(graph.kids[i]) for i in dec), default=1)
    pad = np.full((len(dec), width), n, dtype=np.int64)  # n = the sentinel row
    for r, i in enumerate(dec):
        pad[r, : len(graph.kids[i])] = graph.kids[i]
    nodes = [i for i in members if incoming[i]]
    edges = [e for i in nodes for e in incoming[i]]
    in_starts, pos = [], 0
    for i in nodes:
        in_starts.append(pos)
        pos += len(incoming[i])
    return _Level(
        chance=np.array(chance, dtype=np.int64),
        c_kids=np.array([c for i in chance for c in graph.kids[i]], dtype=np.int64),
        c_p=np.array([p for i in chance for p in graph.fprobs[i]], dtype=np.float64),
        c_starts=np.array(starts, dtype=np.int64),
        dec=np.array(dec, dtype=np.int64),
        pad=pad,
        nodes=np.array(nodes, dtype=np.int64),
        in_parent=np.array([e[0] for e in edges], dtype=np.int64),
        in_p=np.array([e[1] for e in edges], dtype=np.float64),
        in_col=np.array([e[2] for e in edges], dtype=np.int64),
        in_starts=np.array(in_starts, dtype=np.int64),
    )


def _backward(
    graph: TurnGraph, plan: _Plan, objectives: np.ndarray, forced: np.ndarray | None
) -> np.ndarray:
    """The chosen child position at every decision node, (nodes + 1, B).

    ``objectives`` is (K, B, scores): the rewards in lexicographic order; the expected score
    is appended as the last objective.
    """
    n = len(graph.states)
    k, b, _ = objectives.shape
    v = np.empty((n + 1, k + 1, b))
    v[n] = -np.inf
    v[plan.finals, :k, :] = objectives[:, :, plan.fpos].transpose(2, 0, 1)
    v[plan.finals, k, :] = plan.scores[:, None]
    choice = np.full((n + 1, b), -1, dtype=np.int64)
    for lv in plan.levels:
        if len(lv.chance):
            v[lv.chance] = np.add.reduceat(v[lv.c_kids] * lv.c_p[:, None, None], lv.c_starts)
        if not len(lv.dec):
            continue
        vals = v[lv.pad]  # (d, w, K+1, B)
        ok = np.ones(vals[:, :, 0].shape, dtype=bool)
        for obj in range(k + 1):
            cand = np.where(ok, vals[:, :, obj], -np.inf)
            best = cand.max(axis=1)
            tol = TIE_TOLERANCE * np.maximum(1.0, np.abs(best))
            ok &= cand >= (best - tol)[:, None, :]
        ch = ok.argmax(axis=1)  # the first of the lexicographically best
        if forced is not None:
            f = forced[lv.dec]
            ch = np.where(f[:, None] >= 0, f[:, None], ch)
        choice[lv.dec] = ch
        v[lv.dec] = np.take_along_axis(vals, ch[:, None, None, :], axis=1)[:, 0]
    return choice


def _forward(graph: TurnGraph, plan: _Plan, choice: np.ndarray) -> np.ndarray:
    """The root's score distribution (B, len(scores)) under ``choice``: each node's chance of
    being reached, pulled from its parents level by level from the root down."""
    n = len(graph.states)
    b = choice.shape[1]
    r = np.zeros((n + 1, b))
    r[0] = 1.0
    for lv in reversed(plan.levels):
        if not len(lv.nodes):
            continue
        chosen = choice[lv.in_parent] == lv.in_col[:, None]
        w = np.where(lv.in_col[:, None] < 0, lv.in_p[:, None], chosen)
        r[lv.nodes] = np.add.reduceat(r[lv.in_parent] * w, lv.in_starts)
    result: np.ndarray = r[plan.finals].T @ plan.to_score
    return result


def _objectives(g: np.ndarray, g2: np.ndarray | None) -> np.ndarray:
    g = np.asarray(g, dtype=np.float64)
    if g2 is None:
        return g[None]
    return np.stack([g, np.asarray(g2, dtype=np.float64)])


def best_play(graph: TurnGraph, g: np.ndarray, g2: np.ndarray | None = None) -> np.ndarray:
    """The score distribution (B, len(scores)) of the lexicographically best play.

    ``g`` (and ``g2``, if given) are (B, len(scores)) rewards per final score.  Worked on the
    :meth:`~.graph.TurnGraph.reduced` graph; no choice per node is returned, which is what
    the match solver needs for hundreds of thousands of positions at a time.
    """
    red, _ = graph.reduced()
    plan = _plan(red)
    choice = _backward(red, plan, _objectives(g, g2), None)
    return _forward(red, plan, choice)


def evaluate_batch(
    graph: TurnGraph, g: np.ndarray, forced: np.ndarray | None = None, g2: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`evaluate_batch_nodes`, on the reduced graph unless choices are ``forced``.

    Without ``forced`` the work is done on :meth:`~.graph.TurnGraph.reduced` and the choices
    are mapped back to every node.
    """
    if forced is not None:
        return evaluate_batch_nodes(graph, g, forced, g2)
    red, cls = graph.reduced()
    v, dist, choice = evaluate_batch_nodes(red, g, None, g2)
    return v, dist, choice[np.asarray(cls, dtype=np.int64)]


def evaluate_batch_nodes(
    graph: TurnGraph, g: np.ndarray, forced: np.ndarray | None = None, g2: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Push a batch of reward vectors through this graph's own nodes.

    ``g`` has shape (B, len(scores)); ``g2`` (same shape) is the second objective.  ``forced``
    (length = nodes, -1 = maximise) fixes choices.  Returns (values of ``g`` at the root (B,),
    the score distribution at the root under the chosen play (B, len(scores)), and the chosen
    child position per node (nodes, B)).
    """
    plan = _plan(graph)
    g = np.asarray(g, dtype=np.float64)
    choice = _backward(graph, plan, _objectives(g, g2), forced)
    dist = _forward(graph, plan, choice)
    return (dist * g).sum(axis=1), dist, choice[:-1]


def opening(graph: TurnGraph) -> list[Fraction]:
    """Where a fresh turn's dice first stop, exactly: per node, the chance that rolling from
    the start reaches it before any decision -- a decision node, or the end of a turn the
    dice alone decided (a crew completed on the last roll, or never); 0 elsewhere."""
    reach = [Fraction(0)] * len(graph)
    reach[0] = Fraction(1)
    for i, kind in enumerate(graph.kind):  # children come after their parents
        if reach[i] and kind == CHANCE_NODE:
            for child, p in zip(graph.kids[i], graph.probs[i]):
                reach[child] += reach[i] * p
            reach[i] = Fraction(0)
    return reach


def undecided(graph: TurnGraph) -> np.ndarray:
    """The part of every play's score distribution (over the graph's scores) that no decision
    can change: the ends of :func:`opening` by score.  A batch that needs a player's play only
    where the turn reaches a decision draws the rest from this, the same for every player."""
    out = [Fraction(0)] * len(graph.scores)
    for i, r in enumerate(opening(graph)):
        if r and graph.kind[i] == FINAL_NODE:
            out[graph.score_pos[i]] += r
    return np.array([float(x) for x in out])
