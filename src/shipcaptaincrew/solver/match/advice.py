"""The match objective at one turn: each choice's chance to win the match and the round.

A turn of a match is worth, per final score, what the position after posting it is worth:
the solved match (:func:`.solve.solve_match`, every seat playing ``optimal``) gives that
value for the player at the table as two rewards per score -- the chance to win the match and
the chance to win the round.  The turn graph is then played lexicographically on them (match
chance, then round chance, then expected score, then the first legal action: stand before a
reroll) and every node's three numbers describe that one plan.

Where the turn belongs to a tie-break played with turns: a tie for the match is all the match
(both rewards are the chance to win the tie-break); a tie for the round is worth, per tied
player, the position after the round with that player as its winner, weighted by the chance
of each winning the tie-break after this turn's score.  A turn of the tournament's final or of
a contest for a place in it is answered by :mod:`.tournament` (the chance to win the
match, and to win the final or the place).

:func:`match_rates` returns ``None`` where the format has no match positions in the model
(one round only, chips, ``tie_break=round``, a session past the rounds programs play), so the
caller answers with the round instead and says so; it never answers something else silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

import numpy as np

from ...formats import FormatKind
from ...rules import Rules
from ..graph import CHANCE_NODE, FINAL_NODE, TIE_TOLERANCE, TurnGraph, turn_graph
from ..policies import SEAT_KINDS, Policy, parse_policy
from ..rounds import SolverError
from .estimate import estimate_rewards
from .model import BeyondExact
from .play import tie_contest
from .solve import MatchSolution, solve_match
from .tournament import TournamentModel, contest_distribution, contest_rewards
from .view import ContestKind, MatchView, locate, node_of

__all__ = [
    "Estimate",
    "NodeRates",
    "has_match",
    "match_rates",
    "match_solution",
    "turn_distribution",
    "turn_rewards",
]

OPTIMAL: Policy = parse_policy("optimal", allow=SEAT_KINDS)
_TOURNAMENT = (ContestKind.FINAL, ContestKind.FINAL_PLACES)


def has_match(rules: Rules) -> bool:
    """Whether the format plays more than one round (a match chance differs from a round's)."""
    fmt = rules.format
    return not (fmt.kind is FormatKind.SINGLE or (fmt.kind is FormatKind.ROUNDS and fmt.n == 1))


def match_solution(rules: Rules, players: int) -> MatchSolution:
    """The match with every seat playing ``optimal`` (solved once, then cached)."""
    return solve_match(rules, (OPTIMAL,) * players)


@dataclass(frozen=True)
class NodeRates:
    """Per node of the turn graph: match chance, round chance and expected score of the plan."""

    match: list[float]
    round: list[float]
    score: list[float]
    #: The match chances are :mod:`.estimate`'s (a table too large to solve exactly).
    estimated: bool = False


def turn_rewards(sol: MatchSolution, view: MatchView) -> tuple[np.ndarray, np.ndarray]:
    """(match, round) reward per final score of the turn of the player at the table."""
    model = sol.model
    n, s = model.n, len(model.scores)
    scores = tuple(int(x) for x in model.scores)
    p = len(view.posted)
    node = node_of(view.posted, scores)
    me = view.place
    if view.contest is ContestKind.ROUND:
        leaves = sol.tree(locate(model, view)).values[p + 1][0, node * s : (node + 1) * s]
        return leaves[:, me], leaves[:, n + me]
    if view.contest in _TOURNAMENT:
        assert isinstance(model, TournamentModel)
        return contest_rewards(model, view)
    if view.contest not in (ContestKind.ROUND_TIE, ContestKind.MATCH_TIE):
        raise SolverError("this contest (a round among the tied) has no model")
    pols = tuple(sol.policies[(view.starter + q) % n] for q in view.seats)
    shares = tie_contest(sol.rules, pols).values[p + 1][0, node * s : (node + 1) * s]
    mine = shares[:, view.seats.index(me)]
    if view.contest is ContestKind.MATCH_TIE:
        return mine, mine
    code = locate(model, view)
    line = node_of(view.round_scores, scores)
    worth = np.array([sol.after_round(code, line, w)[me] for w in view.seats])
    return shares @ worth, mine


def turn_distribution(sol: MatchSolution, view: MatchView) -> np.ndarray:
    """The score distribution an ``optimal`` player plays at this turn (the solver's own)."""
    s = len(sol.model.scores)
    p = len(view.posted)
    node = node_of(view.posted, tuple(int(x) for x in sol.model.scores))
    if view.contest is ContestKind.ROUND:
        out: np.ndarray = sol.tree(locate(sol.model, view)).dists[p][0, node]
        return out
    if view.contest in _TOURNAMENT:
        assert isinstance(sol.model, TournamentModel)
        return contest_distribution(sol.model, view)
    if view.contest not in (ContestKind.ROUND_TIE, ContestKind.MATCH_TIE):
        raise SolverError("this contest (a round among the tied) has no model")
    n = sol.players
    pols = tuple(sol.policies[(view.starter + q) % n] for q in view.seats)
    dist: np.ndarray = tie_contest(sol.rules, pols).dists[p][0, node]
    assert dist.shape == (s,)
    return dist


class Estimate(Enum):
    """When the match chances may come from :mod:`.estimate` instead of the solver."""

    NEVER = "never"  #: exact numbers only (advice for people)
    BEYOND = "beyond"  #: the estimate where the table is too large to solve (the bot's play)
    ALWAYS = "always"  #: the estimate everywhere (to measure it against the exact player)


def match_rates(
    rules: Rules, view: MatchView, *, estimate: Estimate = Estimate.NEVER
) -> NodeRates | None:
    """Every node's rates for the player at the table, or ``None`` with no match model."""
    if not has_match(rules):
        return None
    try:
        if estimate is Estimate.ALWAYS:
            return _estimated(rules, view)
        match_solution(rules, view.players)
    except BeyondExact:
        return _estimated(rules, view) if estimate is Estimate.BEYOND else None
    except SolverError:
        return None  # a format or option the match model refuses: the caller says so
    try:
        return _compute(rules, view)
    except SolverError:
        return None  # a position the model does not reach (a session past the programs' cap)


def _estimated(rules: Rules, view: MatchView) -> NodeRates | None:
    """The estimate's rates, or ``None`` where it has none (a tie-break, another format)."""
    if view.contest is not ContestKind.ROUND:
        return None
    try:
        return _rates(rules, *estimate_rewards(rules, view), estimated=True)
    except SolverError:
        return None


def _rates(rules: Rules, g: np.ndarray, g2: np.ndarray, estimated: bool = False) -> NodeRates:
    red, cls = turn_graph(rules).reduced()
    m, r, e = _lex_values(red, g.tolist(), g2.tolist())
    return NodeRates([m[c] for c in cls], [r[c] for c in cls], [e[c] for c in cls], estimated)


@lru_cache(maxsize=4096)
def _compute(rules: Rules, view: MatchView) -> NodeRates:
    return _rates(rules, *turn_rewards(match_solution(rules, view.players), view))


def _lex_values(
    graph: TurnGraph, g: list[float], g2: list[float]
) -> tuple[list[float], list[float], list[float]]:
    """Every node's (match, round, score) values under the lexicographic plan.

    The same order as :func:`.batch.best_play` -- each objective keeps the choices within
    :data:`~.graph.TIE_TOLERANCE` of its best, the first legal action of those left wins --
    in plain Python on the reduced graph (a few dozen nodes): a bot's decision must not wait
    for NumPy's per-call overhead.
    """
    n = len(graph.states)
    vals = ([0.0] * n, [0.0] * n, [0.0] * n)
    rewards = (g, g2, [float(x) for x in graph.scores])
    kind, kids, fp, spos = graph.kind, graph.kids, graph.fprobs, graph.score_pos
    for i in range(n - 1, -1, -1):
        k = kind[i]
        if k == FINAL_NODE:
            for v, rw in zip(vals, rewards):
                v[i] = rw[spos[i]]
        elif k == CHANCE_NODE:
            for v in vals:
                v[i] = sum(p * v[c] for p, c in zip(fp[i], kids[i]))
        else:
            cand = list(kids[i])
            for v in vals:
                best = max(v[c] for c in cand)
                tol = TIE_TOLERANCE * max(1.0, abs(best))
                cand = [c for c in cand if v[c] >= best - tol]
            for v in vals:
                v[i] = v[cand[0]]
    return vals
