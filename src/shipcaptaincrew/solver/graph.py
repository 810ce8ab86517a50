"""The turn compiled into an indexed DAG of chance, decision and final nodes.

A turn has only a few hundred distinct states (a few thousand under wild captain, whose
assignments add decision nodes), and every rule of the turn is in
:mod:`shipcaptaincrew.turn`.  Rather than re-deriving any rule, :func:`turn_graph` walks the
engine itself -- ``legal_actions``, ``chance_outcomes`` and ``apply`` from the first roll (or
from any position) -- and numbers the states so that every child comes after its parent.  Any
question about one turn is then a *terminal-reward vector* ``g`` (a value for each final score)
pushed back through the graph in one linear pass:

* ``g(x) = x`` gives the expected-score (``ev``) policy;
* ``g(x) = P(win | final score x, the table)`` gives the win-maximising policy;
* a fixed choice per decision node (``never``, ``threshold:T``) gives that policy's values.

Three evaluators share the graph: exact (:class:`fractions.Fraction`), plain floats, and a
NumPy evaluator that pushes a whole batch of reward vectors through at once (the round
equilibrium needs one vector per table it can meet).  Ties between choices go to the *first*
legal action (``stand`` before ``reroll``), so a player who gains nothing by rerolling stands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..actions import Action
from ..engine import apply, chance_outcomes, initial_turn, is_chance, is_terminal, legal_actions
from ..rules import Rules
from ..state import TurnState

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "CHANCE_NODE",
    "DECISION_NODE",
    "FINAL_NODE",
    "TIE_TOLERANCE",
    "PositionNotReachableError",
    "TurnGraph",
    "compile_turn",
    "turn_graph",
]

FINAL_NODE = 0
CHANCE_NODE = 1
DECISION_NODE = 2

#: Two float values closer than this (relative to their size) count as a tie.
TIE_TOLERANCE = 1e-12


class PositionNotReachableError(ValueError):
    """A turn state that play cannot reach under these rules."""


@dataclass(eq=False)
class TurnGraph:
    """One rule set's turn as a DAG; node 0 is the root, children have higher numbers.

    ``kind[i]`` is :data:`FINAL_NODE`, :data:`CHANCE_NODE` or :data:`DECISION_NODE`;
    ``kids[i]`` the children (distinct states: rolls leading to the same state are merged and
    their probabilities added); ``probs[i]`` the exact chance probabilities; ``actions[i]`` the
    legal actions of a decision node, in the engine's order, one per child; ``score[i]`` the
    final score of a final node.
    """

    rules: Rules
    states: list[TurnState]
    kind: list[int]
    kids: list[tuple[int, ...]]
    probs: list[tuple[Fraction, ...]]
    actions: list[tuple[Action, ...]]
    score: list[int]
    index: dict[TurnState, int]
    #: Every final score the turn can end with, ascending (0 = no full crew).
    scores: tuple[int, ...] = ()
    #: Final nodes: the position of their score in :attr:`scores`.
    score_pos: list[int] = field(default_factory=list)
    fprobs: list[tuple[float, ...]] = field(default_factory=list)
    _np: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.states)

    @property
    def edges(self) -> int:
        """Number of parent-child links."""
        return sum(len(k) for k in self.kids)

    def node(self, state: TurnState) -> int:
        """The node of a state; raises :class:`PositionNotReachableError` if play never gets there."""
        if state.rules != self.rules:
            raise PositionNotReachableError("the state is played under other rules than the graph")
        try:
            return self.index[state]
        except KeyError:
            raise PositionNotReachableError(
                f"no play under {self.rules} reaches this turn state "
                f"(held={state.held}, cargo={state.cargo}, rolls_used={state.rolls_used}, "
                f"cargo_rerolls={state.cargo_rerolls}, phase={state.phase.value})"
            ) from None

    # -- evaluation -------------------------------------------------------------------------
    def g_vector(self, g: dict[int, float] | list[float]) -> list[float]:
        """Normalise a reward given per score (dict) or per position in :attr:`scores` (list)."""
        if isinstance(g, dict):
            return [float(g.get(s, 0.0)) for s in self.scores]
        if len(g) != len(self.scores):
            raise ValueError(f"reward vector needs {len(self.scores)} values, got {len(g)}")
        return [float(x) for x in g]

    def evaluate(
        self, g: list[float], forced: list[int] | None = None
    ) -> tuple[list[float], list[int]]:
        """Values of every node for rewards ``g`` (per score position), and each choice.

        ``forced[i] >= 0`` fixes the choice at decision node ``i`` (its child position);
        ``-1`` (or no ``forced``) maximises.  Returns (values, chosen child position per node,
        -1 where there is no choice).
        """
        n = len(self.states)
        v = [0.0] * n
        choice = [-1] * n
        kind, kids, fp, spos = self.kind, self.kids, self.fprobs, self.score_pos
        for i in range(n - 1, -1, -1):
            k = kind[i]
            if k == FINAL_NODE:
                v[i] = g[spos[i]]
            elif k == CHANCE_NODE:
                v[i] = sum(p * v[c] for p, c in zip(fp[i], kids[i]))
            else:
                ch = kids[i]
                f = forced[i] if forced is not None else -1
                if f < 0:
                    vals = [v[c] for c in ch]
                    best = max(vals)
                    tol = TIE_TOLERANCE * max(1.0, abs(best))
                    f = next(j for j, x in enumerate(vals) if x >= best - tol)
                choice[i] = f
                v[i] = v[ch[f]]
        return v, choice

    def evaluate_exact(
        self, g: list[Fraction], forced: list[int] | None = None
    ) -> tuple[list[Fraction], list[int]]:
        """:meth:`evaluate` in exact rationals (ties are exact ties)."""
        n = len(self.states)
        v = [Fraction(0)] * n
        choice = [-1] * n
        for i in range(n - 1, -1, -1):
            k = self.kind[i]
            if k == FINAL_NODE:
                v[i] = g[self.score_pos[i]]
            elif k == CHANCE_NODE:
                v[i] = sum(
                    (p * v[c] for p, c in zip(self.probs[i], self.kids[i])), Fraction(0)
                )
            else:
                ch = self.kids[i]
                f = forced[i] if forced is not None else -1
                if f < 0:
                    vals = [v[c] for c in ch]
                    f = vals.index(max(vals))
                choice[i] = f
                v[i] = v[ch[f]]
        return v, choice

    def reach(self, choice: list[int], start: int = 0) -> list[Fraction]:
        """Exact probability of passing through each node from ``start`` under ``choice``."""
        r = [Fraction(0)] * len(self.states)
        r[start] = Fraction(1)
        for i in range(start, len(self.states)):
            if not r[i]:
                continue
            k = self.kind[i]
            if k == CHANCE_NODE:
                for p, c in zip(self.probs[i], self.kids[i]):
                    r[c] += r[i] * p
            elif k == DECISION_NODE:
                r[self.kids[i][choice[i]]] += r[i]
        return r

    def reach_float(self, choice: list[int], start: int = 0) -> list[float]:
        """:meth:`reach` in floats."""
        r = [0.0] * len(self.states)
        r[start] = 1.0
        for i in range(start, len(self.states)):
            if not r[i]:
                continue
            k = self.kind[i]
            if k == CHANCE_NODE:
                for p, c in zip(self.fprobs[i], self.kids[i]):
                    r[c] += r[i] * p
            elif k == DECISION_NODE:
                r[self.kids[i][choice[i]]] += r[i]
        return r

    # -- batched (NumPy) --------------------------------------------------------------------
    def _levels(self) -> dict[str, Any]:
        if self._np:
            return self._np
        import numpy as np

        n = len(self.states)
        level = [0] * n
        for i in range(n - 1, -1, -1):
            if self.kids[i]:
                level[i] = 1 + max(level[c] for c in self.kids[i])
        top = max(level)
        plan = []
        for lv in range(1, top + 1):
            nodes = [i for i in range(n) if level[i] == lv]
            chance = [i for i in nodes if self.kind[i] == CHANCE_NODE]
            dec = [i for i in nodes if self.kind[i] == DECISION_NODE]
            c_kids = [c for i in chance for c in self.kids[i]]
            c_p = [p for i in chance for p in self.fprobs[i]]
            starts = []
            pos = 0
            for i in chance:
                starts.append(pos)
                pos += len(self.kids[i])
            width = max((len(self.kids[i]) for i in dec), default=1)
            pad = np.full((len(dec), width), n, dtype=np.int64)  # n = the sentinel row
            for r, i in enumerate(dec):
                pad[r, : len(self.kids[i])] = self.kids[i]
            plan.append(
                (
                    np.array(chance, dtype=np.int64),
                    np.array(c_kids, dtype=np.int64),
                    np.array(c_p, dtype=np.float64),
                    np.array(starts, dtype=np.int64),
                    np.array(dec, dtype=np.int64),
                    pad,
                )
            )
        finals = np.array([i for i in range(n) if self.kind[i] == FINAL_NODE], dtype=np.int64)
        fpos = np.array([self.score_pos[i] for i in finals], dtype=np.int64)
        self._np.update(plan=plan, finals=finals, fpos=fpos)
        return self._np

    def evaluate_batch(
        self, g: np.ndarray, forced: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Push a batch of reward vectors through at once.

        ``g`` has shape (B, len(scores)).  ``forced`` (length = nodes, -1 = maximise) fixes
        choices.  Returns (values at the root (B,), the score distribution at the root under
        the chosen play (B, len(scores)), and the chosen child position per node (nodes, B)).
        """
        import numpy as np

        lv = self._levels()
        n = len(self.states)
        b = g.shape[0]
        v = np.empty((n + 1, b))
        v[n] = -np.inf
        v[lv["finals"]] = g[:, lv["fpos"]].T
        choice = np.full((n, b), -1, dtype=np.int64)
        cols = np.arange(b)
        for chance, c_kids, c_p, starts, dec, pad in lv["plan"]:
            if len(chance):
                contrib = v[c_kids] * c_p[:, None]
                v[chance] = np.add.reduceat(contrib, starts, axis=0)
            if len(dec):
                vals = v[pad]  # (d, w, b)
                best = vals.max(axis=1)
                tol = TIE_TOLERANCE * np.maximum(1.0, np.abs(best))
                ok = vals >= (best - tol)[:, None, :]
                ch = ok.argmax(axis=1)  # first near-best choice
                if forced is not None:
                    f = forced[dec]
                    ch = np.where(f[:, None] >= 0, f[:, None], ch)
                choice[dec] = ch
                v[dec] = np.take_along_axis(vals, ch[:, None, :], axis=1)[:, 0, :]
        # Forward: the chance of reaching each node under those choices.
        r = np.zeros((n, b))
        r[0] = 1.0
        for chance, c_kids, c_p, starts, dec, pad in reversed(lv["plan"]):
            if len(chance):
                counts = np.diff(np.append(starts, len(c_kids)))
                parents = np.repeat(chance, counts)
                np.add.at(r, c_kids, r[parents] * c_p[:, None])
            if len(dec):
                child = pad[np.arange(len(dec))[:, None], choice[dec]]  # (d, b)
                np.add.at(r, (child, np.broadcast_to(cols, child.shape)), r[dec])
        dist = np.zeros((b, len(self.scores)))
        np.add.at(dist.T, lv["fpos"], r[lv["finals"]])
        return v[0].copy(), dist, choice


def compile_turn(rules: Rules, root: TurnState | None = None) -> TurnGraph:
    """Walk the engine from ``root`` (default: a new turn) and number every reachable state."""
    start = root if root is not None else initial_turn(rules)
    children: dict[TurnState, tuple[list[TurnState], list[Fraction], list[Action]]] = {}
    post: list[TurnState] = []
    # Iterative depth-first search producing a post-order (children before parents).
    stack: list[tuple[TurnState, bool]] = [(start, False)]
    while stack:
        s, done = stack.pop()
        if done:
            post.append(s)
            continue
        if s in children:
            continue
        if is_terminal(s):
            children[s] = ([], [], [])
        elif is_chance(s):
            merged: dict[TurnState, Fraction] = {}
            for roll, p in chance_outcomes(s):
                c = apply(s, roll)
                merged[c] = merged.get(c, Fraction(0)) + p
            children[s] = (list(merged), list(merged.values()), [])
        else:
            acts = list(legal_actions(s))
            children[s] = ([apply(s, a) for a in acts], [], acts)
        stack.append((s, True))
        stack.extend((c, False) for c in children[s][0] if c not in children)
    order = post[::-1]  # reverse post-order: every parent before its children
    index = {s: i for i, s in enumerate(order)}
    kind, kids, probs, acts_l, score = [], [], [], [], []
    for s in order:
        ch, ps, acts = children[s]
        if is_terminal(s):
            kind.append(FINAL_NODE)
        elif is_chance(s):
            kind.append(CHANCE_NODE)
        else:
            kind.append(DECISION_NODE)
        kids.append(tuple(index[c] for c in ch))
        probs.append(tuple(ps))
        acts_l.append(tuple(acts))
        score.append(s.score if is_terminal(s) else 0)
    scores = tuple(sorted({score[i] for i in range(len(order)) if kind[i] == FINAL_NODE}))
    pos = {x: j for j, x in enumerate(scores)}
    return TurnGraph(
        rules=rules,
        states=order,
        kind=kind,
        kids=kids,
        probs=probs,
        actions=acts_l,
        score=score,
        index=index,
        scores=scores,
        score_pos=[pos[x] if k == FINAL_NODE else -1 for x, k in zip(score, kind)],
        fprobs=[tuple(float(p) for p in ps) for ps in probs],
    )


_GRAPHS: dict[Rules, TurnGraph] = {}


def turn_graph(rules: Rules) -> TurnGraph:
    """The compiled turn of a rule set from its first roll (cached by the rules value)."""
    g = _GRAPHS.get(rules)
    if g is None:
        g = _GRAPHS[rules] = compile_turn(rules)
    return g
