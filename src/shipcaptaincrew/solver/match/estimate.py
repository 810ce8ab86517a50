"""An estimate of the match objective for tables the exact match solver cannot take.

Why
---
The exact solver (:mod:`.solve`) resolves every line of scores of a round at every
position: ``S**n`` lines (eleven scores under most rule sets), so four or more players of
``rounds:N``, ``first_to:N`` or ``wins:N`` are beyond :data:`~.model.MAX_WORK`.  Playing
the round there instead throws away what the score says (a player far behind must gamble,
one far ahead need not).  This module estimates the match chance of each final score of the
turn being decided from exact ingredients, and the turn is then played exactly on it:

- **This round**: the players after the one deciding play the round equilibrium
  (:func:`.rounds.equilibrium`, the round-maximiser's exact play).  From the table the
  decision leaves (the best score posted, how many share it) the score distribution of each
  of them follows exactly, by a forward pass over the equilibrium's tables; the chance to
  win the round for each score is the equilibrium's own (exact).
- **Later rounds**: every player scores per round as the equilibrium's score distribution
  averaged over the round's positions (the rotation moves everyone through them), each
  independently of the others.  A total at the end is then a convolution, and the chance of
  being on top a product over the others; a tie on top is shared evenly (the contests that
  break it are fair between equals).  ``first_to:N`` is the same race round by round (the
  first round in which a total reaches the mark ends it), ``wins:N`` a race of round wins at
  the equilibrium's chance of winning a round, averaged over positions.
- **The turn**: played on these rewards in the exact solver's order -- the match estimate,
  then the exact round chance, then the expected score, then the first legal action.

So the estimate is one step of policy improvement over the round-maximiser: it keeps the
round exact and replaces only the match's future by a model with independent totals.  Where
that costs points is measured head to head (``benchmarks/match_winrates.py``): against the
exact player where one exists (three players) and against ``optimal:round`` and ``ev`` up to
eight players.  The estimate is for play (the ``optimal`` bot and the simulator); advice shows
exact numbers only and says when a table is too large for the exact match chance.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...formats import FormatKind
from ...rules import Rules
from ..batch import best_play
from ..estimate_rounds import (
    ESTIMATED_FORMATS,
    estimate_rounds_batch,
    later_scores,
    on_top_share,
    optimal_round_eq,
    per_round,
)
from ..graph import turn_graph
from ..round_pass import table_after
from ..rounds import SolverError, equilibrium
from .tournament import PRELIMINARIES
from .view import ContestKind, MatchView

__all__ = ["ESTIMATED_FORMATS", "estimate_rewards", "estimated_distribution"]


#: Rounds of a race (``first_to:N``, ``wins:N``) followed before the rest is neglected: the
#: chance that nobody has finished by then is below :data:`_NEGLIGIBLE` in every rule set.
_MAX_RACE_ROUNDS = 2000
_NEGLIGIBLE = 1e-12


def _table(posted: tuple[int, ...]) -> tuple[int, int]:
    """The round model's table (best score, how many share it) after these scores."""
    m, t = 0, 0
    for x in posted:
        m, t = table_after(m, t, x)
    return m, t


def _convolve(a: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Every row of ``a`` (..., L) convolved with the distribution ``d``; length L + len(d) - 1."""
    out: np.ndarray = a @ _band(d.tobytes(), a.shape[-1])
    return out


@lru_cache(maxsize=256)
def _band(d: bytes, width: int) -> np.ndarray:
    """The (width, width + len(d) - 1) matrix that convolves a row with ``d`` (one product
    instead of a sum per score: the race of ``first_to:N`` convolves every round)."""
    dist = np.frombuffer(d)
    out = np.zeros((width, width + len(dist) - 1))
    rows = np.arange(width)
    for x, p in enumerate(dist):
        out[rows, rows + x] = p
    return out


def _on_top(mine: np.ndarray, others: np.ndarray, below: np.ndarray) -> np.ndarray:
    """Chance of being on top, ties shared evenly: ``mine`` (B, L) my chances per value,
    ``others`` (B, k, L) each other's chance of each value, ``below`` (B, k, L) of less."""
    share = on_top_share(below, others, axis=1)  # the same integral as rounds:N's estimate
    out: np.ndarray = (mine * share).sum(axis=-1)
    return out


def _to_final(a: np.ndarray, me: int) -> np.ndarray:
    """Chance of one of the two best totals ``a`` (B, n, L) once the preliminaries are played,
    a tie for a place shared evenly: (B,).  Over the others, the chance that A of them are
    above my total (0, 1, two or more) and E level with it, built seat by seat."""
    others = np.delete(a, me, axis=1)  # (B, k, L)
    k = others.shape[1]
    below = np.cumsum(others, axis=-1) - others
    above = 1.0 - below - others
    d = np.zeros((a.shape[0], a.shape[-1], 3, k + 1))
    d[..., 0, 0] = 1.0
    for j in range(k):
        pb, pe, pa = (x[:, j, :, None, None] for x in (below, others, above))
        nxt = d * pb
        nxt[..., 1:] += d[..., :-1] * pe
        nxt[..., 1:, :] += d[..., :-1, :] * pa
        nxt[..., 2, :] += d[..., 2, :] * pa[..., 0]
        d = nxt
    e = np.arange(k + 1)
    share = np.stack([np.minimum(1.0, 2.0 / (e + 1)), 1.0 / (e + 1), 0.0 * e])  # (3, k+1)
    through = (d * share).sum(axis=(-2, -1))  # (B, L): through at each of my totals
    out: np.ndarray = (a[:, me] * through).sum(axis=-1)
    return out


def _race(a: np.ndarray, me: int, step: np.ndarray, mark: int) -> np.ndarray:
    """``first_to:mark``: totals ``a`` (B, n, L) after this round, then rounds of ``step``
    each until a total reaches the mark; the highest total past it wins."""
    alive = a[..., :mark].copy()
    done = a[..., mark:]
    win = np.zeros(a.shape[0])
    width = done.shape[-1]
    for _ in range(_MAX_RACE_ROUNDS):
        left = alive.sum(axis=-1)  # (B, n): not past the mark yet
        others = np.delete(done, me, axis=1)
        below = np.delete(left, me, axis=1)[..., None] + np.cumsum(others, axis=-1) - others
        win += _on_top(done[:, me], others, below)
        if np.prod(left, axis=1).max() < _NEGLIGIBLE:  # nobody's future left to win
            return win
        grown = _convolve(alive, step)
        alive = grown[..., :mark]
        tail = grown[..., mark:]
        done = np.zeros((*tail.shape[:-1], max(width, tail.shape[-1])))
        done[..., : tail.shape[-1]] = tail
        width = done.shape[-1]
    raise SolverError(f"first_to:{mark}: the race did not end in {_MAX_RACE_ROUNDS} rounds")


def _wins_race(wins: np.ndarray, me: int, p: float, mark: int) -> np.ndarray:
    """``wins:mark``: round wins ``wins`` (B, n) after this round, then each player wins a
    round with chance ``p`` independently until someone has ``mark``."""
    need = np.maximum(mark - wins, 0)
    finished = need == 0
    win = np.zeros(len(wins))
    over = finished.any(axis=1)
    win[over] = finished[over, me] / finished[over].sum(axis=1)
    k = need[~over]
    if not len(k):
        return win
    counts = np.zeros(mark + 1)  # P(j rounds won since this one), the last bucket: mark or more
    counts[0] = 1.0
    part = np.zeros(len(k))
    for _ in range(_MAX_RACE_ROUNDS):
        at = counts[k - 1] * p  # (B', n): the mark reached exactly in this round
        grown = counts * (1 - p)
        grown[1:] += counts[:-1] * p
        grown[-1] += counts[-1] * p
        counts = grown
        left = np.cumsum(counts)[k - 1]  # not reached yet
        others = np.delete(at, me, axis=1)[..., None]
        below = np.delete(left, me, axis=1)[..., None]
        part += _on_top(at[:, me, None], others, below)
        if left.prod(axis=1).max() < _NEGLIGIBLE:  # nobody's future left to win
            win[~over] = part
            return win
    raise SolverError(f"wins:{mark}: the race did not end in {_MAX_RACE_ROUNDS} rounds")


@lru_cache(maxsize=4096)
def estimate_rewards(rules: Rules, view: MatchView) -> tuple[np.ndarray, np.ndarray]:
    """(match estimate, exact round chance) per final score of the turn of ``view``'s player.

    Indexed like the turn graph's scores.  Only a round of the match itself is estimated
    (a tie-break's turns are all or nothing: the round's tables play them).
    """
    fmt = rules.format
    if fmt.kind not in ESTIMATED_FORMATS or view.contest is not ContestKind.ROUND:
        raise SolverError(f"no estimate of the match for this turn of {fmt}")
    n, me = view.players, len(view.posted)
    if fmt.kind is FormatKind.ROUNDS:  # the batched estimate, for one turn
        est, rnd = estimate_rounds_batch(
            rules,
            n,
            fmt.n - view.played - 1,
            np.asarray([view.posted], dtype=np.int64).reshape(1, me),
            np.asarray([view.totals], dtype=np.int64),
        )
        return est[0], rnd[0]
    eq = optimal_round_eq(rules, n)
    scores = turn_graph(rules).scores
    m, t = _table(view.posted)
    g_round = np.asarray([eq.g(me, m, t)[eq.scores.index(x)] for x in scores])
    step, p_round = per_round(rules, n)
    top = len(step) - 1
    if fmt.kind is FormatKind.WINS:
        wins = np.tile(np.asarray(view.wins, dtype=np.int64), (len(scores), n, 1))
        for j in range(n):
            wins[:, j, j] += 1  # the round won by place j (line j of each score's block)
        values = _wins_race(wins.reshape(-1, n), me, p_round, fmt.n).reshape(len(scores), n)
        mine, rest = values[:, me], np.delete(values, me, axis=1).mean(axis=1)
        return g_round * mine + (1.0 - g_round) * rest, g_round
    low = min(view.totals)
    rounds_left = PRELIMINARIES - view.played - 1 if fmt.kind is FormatKind.TOURNAMENT else 0
    width = max(view.totals) - low + top + 1
    a = np.zeros((len(scores), n, width))
    for j, x in enumerate(view.posted):
        a[:, j, view.totals[j] - low + x] = 1.0
    for row, x in enumerate(scores):
        a[row, me, view.totals[me] - low + x] = 1.0
        if me < n - 1:
            later = later_scores(rules, n, me, table_after(m, t, x))
            for q, dist in enumerate(later, start=me + 1):
                base = view.totals[q] - low
                a[row, q, base : base + top + 1] = dist
    if fmt.kind is FormatKind.TOURNAMENT:
        for _ in range(rounds_left):
            a = _convolve(a, step)
        # The final is a round of two, each finalist's chance one half on average.
        return 0.5 * _to_final(a, me), g_round
    mark = fmt.n - low
    if mark <= 0:
        raise SolverError(f"totals {view.totals} are past the mark of {fmt}")
    if a.shape[-1] < mark + 1:
        a = np.concatenate([a, np.zeros((*a.shape[:-1], mark + 1 - a.shape[-1]))], axis=-1)
    return _race(a, me, step, mark), g_round


def estimated_distribution(rules: Rules, view: MatchView) -> np.ndarray:
    """The score distribution (over the turn graph's scores) the estimate plays from the
    start of the turn of ``view``'s player (what the simulator draws from).

    A round of the match is played on :func:`estimate_rewards`; a tie-break is all or
    nothing, played as the round equilibrium's sub-round among the tied.
    """
    scores = turn_graph(rules).scores
    if view.contest is ContestKind.ROUND:
        g, g2 = estimate_rewards(rules, view)
        out: np.ndarray = best_play(turn_graph(rules), g[None], g2[None])[0]
        return out
    sub = equilibrium(rules, len(view.seats), "optimal", sub=True)
    m, t = _table(view.posted)
    d = sub.tables[(len(view.posted), m, t)][1]
    return np.asarray([d[sub.scores.index(x)] for x in scores])
