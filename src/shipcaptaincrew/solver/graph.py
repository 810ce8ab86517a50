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

Three evaluators share the graph: exact (:class:`fractions.Fraction`, worked in integers:
:mod:`.exact`), plain floats (here), and a NumPy evaluator that pushes a whole batch of reward
vectors through at once (:func:`.batch.evaluate_batch`: the round equilibrium needs one vector
per table it can meet).  Ties between choices go to the *first*
legal action (``stand`` before ``reroll``), so a player who gains nothing by rerolling stands.

This is the project's one enumeration of the turn: the simulator's sampling tables
(:mod:`shipcaptaincrew.sim.tables`) fold a bot's decisions into this same graph.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..actions import Action
from ..engine import apply, chance_outcomes, initial_turn, is_chance, is_terminal, legal_actions
from ..rules import Rules
from ..state import TurnState
from .exact import ExactEvaluation
from .nodes import CHANCE_NODE, DECISION_NODE, FINAL_NODE, TIE_TOLERANCE, NodeKind

__all__ = [
    "CHANCE_NODE",
    "DECISION_NODE",
    "FINAL_NODE",
    "TIE_TOLERANCE",
    "NodeKind",
    "PositionNotReachableError",
    "TurnGraph",
    "compile_turn",
    "turn_graph",
]


class PositionNotReachableError(ValueError):
    """A turn state that play cannot reach under these rules."""


@dataclass(eq=False)
class TurnGraph(ExactEvaluation):
    """One rule set's turn as a DAG; node 0 is the root, children have higher numbers.

    ``kind[i]`` is a :class:`NodeKind`; ``kids[i]`` the children (distinct states: rolls
    leading to the same state are merged and their probabilities added); ``probs[i]`` the exact
    chance probabilities; ``actions[i]`` the legal actions of a decision node, in the engine's
    order, one per child; ``score[i]`` the final score of a final node.
    """

    rules: Rules
    states: list[TurnState]
    kind: list[NodeKind]
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

    def evaluate_lex(
        self, g: list[float], h: list[float] | None = None
    ) -> tuple[list[float], list[float], list[int]]:
        """Maximise ``g``; among (near-)ties prefer the larger ``h`` (default: the score).

        The win-maximising player uses this: when two choices win equally often, the one with
        the higher expected score is taken (it matters to the players after, whose odds depend
        on the whole score distribution).  Returns (g-values, h-values, choices) per node;
        the work is done on the :meth:`reduced` graph.
        """
        red, cls = self.reduced()
        v, e, ch = red._evaluate_lex_nodes(g, h)
        return [v[c] for c in cls], [e[c] for c in cls], [ch[c] for c in cls]

    def _evaluate_lex_nodes(
        self, g: list[float], h: list[float] | None = None
    ) -> tuple[list[float], list[float], list[int]]:
        """:meth:`evaluate_lex` on this graph's own nodes."""
        if h is None:
            h = [float(x) for x in self.scores]
        n = len(self.states)
        v = [0.0] * n
        e = [0.0] * n
        choice = [-1] * n
        kind, kids, fp, spos = self.kind, self.kids, self.fprobs, self.score_pos
        for i in range(n - 1, -1, -1):
            k = kind[i]
            if k == FINAL_NODE:
                v[i] = g[spos[i]]
                e[i] = h[spos[i]]
            elif k == CHANCE_NODE:
                v[i] = sum(p * v[c] for p, c in zip(fp[i], kids[i]))
                e[i] = sum(p * e[c] for p, c in zip(fp[i], kids[i]))
            else:
                ch = kids[i]
                best = max(v[c] for c in ch)
                tol = TIE_TOLERANCE * max(1.0, abs(best))
                f = -1
                for j, c in enumerate(ch):
                    if v[c] >= best - tol and (f < 0 or e[c] > e[ch[f]]):
                        f = j
                choice[i] = f
                v[i] = v[ch[f]]
                e[i] = e[ch[f]]
        return v, e, choice

    def reduced(self) -> tuple[TurnGraph, list[int]]:
        """The graph with equivalent nodes merged, and each node's class in it.

        Two nodes are equivalent when their futures are the same for every reward: final
        nodes with the same score, chance nodes with the same distribution over classes,
        decision nodes with the same classes in the same action order (so a choice's position
        means the same in both).  Different held faces, old cargo or pending rolls with the
        same future collapse (classic: 1611 links become 155; wild captain: 13020 become
        613), which makes every unforced evaluation much cheaper.  The reduced graph keeps one
        representative state per class; lookups by state stay on the full graph.
        """
        hit = self._np.get("reduced")
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        n = len(self.states)
        cls = [0] * n
        table: dict[tuple[Any, ...], int] = {}
        members: list[int] = []
        merged_kids: list[tuple[tuple[int, ...], tuple[Fraction, ...]]] = []
        for i in range(n - 1, -1, -1):
            k = self.kind[i]
            key: tuple[Any, ...]
            kid: tuple[tuple[int, ...], tuple[Fraction, ...]]
            if k == FINAL_NODE:
                key = (k, self.score[i])
                kid = ((), ())
            elif k == CHANCE_NODE:
                acc: dict[int, Fraction] = {}
                for p, c in zip(self.probs[i], self.kids[i]):
                    acc[cls[c]] = acc.get(cls[c], Fraction(0)) + p
                items = tuple(sorted(acc.items()))
                key = (k, items)
                kid = (tuple(c for c, _ in items), tuple(p for _, p in items))
            else:
                kid = (tuple(cls[c] for c in self.kids[i]), ())
                key = (k, kid[0])
            c_id = table.get(key)
            if c_id is None:
                c_id = table[key] = len(members)
                members.append(i)
                merged_kids.append(kid)
            cls[i] = c_id
        m = len(members)
        new = [m - 1 - c for c in range(m)]  # parents first, the root's class is 0
        order = sorted(range(m), key=lambda c: new[c])
        red = TurnGraph(
            rules=self.rules,
            states=[self.states[members[c]] for c in order],
            kind=[self.kind[members[c]] for c in order],
            kids=[tuple(new[x] for x in merged_kids[c][0]) for c in order],
            probs=[merged_kids[c][1] for c in order],
            actions=[self.actions[members[c]] for c in order],
            score=[self.score[members[c]] for c in order],
            index={},
            scores=self.scores,
            score_pos=[self.score_pos[members[c]] for c in order],
            fprobs=[tuple(float(p) for p in merged_kids[c][1]) for c in order],
        )
        result = (red, [new[c] for c in cls])
        self._np["reduced"] = result
        return result


def compile_turn(rules: Rules) -> TurnGraph:
    """Walk the engine from a new turn and number every reachable state, parents first."""
    start = initial_turn(rules)
    # state -> (kind, children, chance probabilities, legal actions)
    found: dict[TurnState, tuple[NodeKind, list[TurnState], list[Fraction], tuple[Action, ...]]]
    found = {}
    post: list[TurnState] = []
    # Iterative depth-first search producing a post-order (children before parents).
    stack: list[tuple[TurnState, bool]] = [(start, False)]
    while stack:
        s, done = stack.pop()
        if done:
            post.append(s)
            continue
        if s in found:
            continue
        if is_terminal(s):
            found[s] = (NodeKind.FINAL, [], [], ())
        elif is_chance(s):
            merged: dict[TurnState, Fraction] = {}
            for roll, p in chance_outcomes(s):
                c = apply(s, roll)
                merged[c] = merged[c] + p if c in merged else p
            found[s] = (NodeKind.CHANCE, list(merged), list(merged.values()), ())
        else:
            acts = legal_actions(s)
            found[s] = (NodeKind.DECISION, [apply(s, a) for a in acts], [], acts)
        stack.append((s, True))
        stack.extend((c, False) for c in found[s][1] if c not in found)
    order = post[::-1]  # reverse post-order: every parent before its children
    index = {s: i for i, s in enumerate(order)}
    rows = [found[s] for s in order]
    kind = [k for k, _, _, _ in rows]
    score = [s.score if k is NodeKind.FINAL else 0 for s, k in zip(order, kind)]
    scores = tuple(sorted({x for x, k in zip(score, kind) if k is NodeKind.FINAL}))
    pos = {x: j for j, x in enumerate(scores)}
    return TurnGraph(
        rules=rules,
        states=order,
        kind=kind,
        kids=[tuple(index[c] for c in ch) for _, ch, _, _ in rows],
        probs=[tuple(ps) for _, _, ps, _ in rows],
        actions=[acts for _, _, _, acts in rows],
        score=score,
        index=index,
        scores=scores,
        score_pos=[pos[x] if k is NodeKind.FINAL else -1 for x, k in zip(score, kind)],
        fprobs=[tuple(float(p) for p in ps) for _, _, ps, _ in rows],
    )


_GRAPHS: dict[Rules, TurnGraph] = {}


def turn_graph(rules: Rules) -> TurnGraph:
    """The compiled turn of a rule set from its first roll (cached by the rules value)."""
    g = _GRAPHS.get(rules)
    if g is None:
        g = _GRAPHS[rules] = compile_turn(rules)
    return g
