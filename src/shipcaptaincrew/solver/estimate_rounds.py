"""The match estimate of ``rounds:N`` (:mod:`.match.estimate`) for many turns at once.

The estimate of a turn is the chance of ending the last round on top of the totals, for
each score the turn can end with: everyone's total after this round (the scores posted, the
player's own, the later players' from the round equilibrium) plus the rounds left, each an
independent draw from the equilibrium's per-round score distribution.  Here that is worked
out for a whole batch of turns of the same place in the round and the same count of rounds
left, in a few array operations, which is what a simulator playing the match-optimal bot in
hundreds of thousands of positions needs; :func:`.match.estimate.estimate_rewards` asks here
for its one turn, so the bot, advice and the simulator play the same numbers.

How: relative to the player's own total, a final total ``v`` is the turn's score ``x`` plus
``d``, what the rounds left add (the ``r``-fold convolution of the per-round distribution).
An opponent with ``o`` more points after this round ends below ``v`` with chance
``P(o + D < v)``, level with it with ``P(o + D = v)`` (a later player's ``D`` includes this
round's score, from the table the turn leaves).  The chance of being on top with ties shared
evenly is the integral over ``u`` in [0, 1] of the product over opponents of
``below + u * level``: a polynomial in ``u`` whose coefficients are built opponent by
opponent and integrated exactly (``u**k`` integrates to ``1 / (k + 1)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..rules import Rules
from .graph import turn_graph
from .modelled import ESTIMATE, ESTIMATED_FORMATS
from .round_pass import table_after
from .rounds import Equilibrium, NotModelledError, equilibrium

__all__ = [
    "ESTIMATED_FORMATS",
    "MODELLED",
    "canonical",
    "estimate_ahead",
    "estimate_rounds_batch",
    "on_top_share",
    "later_scores",
    "optimal_round_eq",
    "per_round",
]

#: Turns worked out together at most (the arrays are turns x scores x totals wide).
CHUNK = 2048

#: What the match estimate states itself (see :mod:`.modelled`).
MODELLED = ESTIMATE


@lru_cache(maxsize=64)
def optimal_round_eq(rules: Rules, n: int) -> Equilibrium:
    """The round equilibrium of ``n`` players the estimate plays the round by, kept per
    process (the one-turn and the batched estimate ask it at every turn, and every estimate
    starts here, so the estimate's refusal of rules it does not model is here too)."""
    MODELLED.check(rules, NotModelledError)
    return equilibrium(rules, n, "optimal")


@lru_cache(maxsize=64)
def per_round(rules: Rules, n: int) -> tuple[np.ndarray, float]:
    """A player's score per round (over score values 0..top) and chance to win a round,
    both averaged over the round's positions."""
    eq = optimal_round_eq(rules, n)
    top = max(eq.scores)
    dist = np.zeros(top + 1)
    for (i, m, t), reach in eq.table_reach().items():
        if i < n:
            for x, p in zip(eq.scores, eq.tables[(i, m, t)][1]):
                dist[x] += reach * p / n
    return dist / dist.sum(), sum(eq.seat_win_probability) / n


@lru_cache(maxsize=65536)
def later_scores(rules: Rules, n: int, place: int, table: tuple[int, int]) -> np.ndarray:
    """(n - 1 - place, top + 1): the score distribution of each later player of the round,
    from the table ``(best, shared)`` left by the player at ``place`` (the equilibrium's play)."""
    eq = optimal_round_eq(rules, n)
    out = np.zeros((n - 1 - place, max(eq.scores) + 1))
    reach = {table: 1.0}
    for row, q in enumerate(range(place + 1, n)):
        nxt: dict[tuple[int, int], float] = {}
        for (m, t), r in reach.items():
            for x, p in zip(eq.scores, eq.tables[(q, m, t)][1]):
                if p:
                    out[row, x] += r * p
                    key = table_after(m, t, x)
                    nxt[key] = nxt.get(key, 0.0) + r * p
        reach = nxt
    return out


def _padded(dist: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(below, level)`` of a distribution over 0..L-1, indexed by ``k + 1`` clipped to
    ``0..L+1``: P(X < k) and P(X = k) for every integer ``k``."""
    below = np.concatenate([[0.0, 0.0], np.cumsum(dist)])
    below[-1] = 1.0
    level = np.concatenate([[0.0], dist, [0.0]])
    return below, level


@dataclass(frozen=True)
class _Kit:
    """What a batch of one place and one count of rounds left shares."""

    scores: np.ndarray  #: the turn's scores (S,)
    future: np.ndarray  #: what the rounds left add, over 0..L-1
    below: np.ndarray  #: :func:`_padded` of :attr:`future`
    level: np.ndarray
    win: np.ndarray  #: (best + 1, shared + 1, S) the round's win chance per table (-1: none)
    #: Later players: index of the table a turn leaves, (best + 1, shared + 2) -> row, and per
    #: later player the padded (below, level) of this round's score plus the rest, a row of
    #: :attr:`width` per table, flat (one gather finds a table's and a total's entry).
    table_row: np.ndarray
    later_below: tuple[np.ndarray, ...]
    later_level: tuple[np.ndarray, ...]
    width: int
    #: (V, S): the chance that the turn's score plus the rest make each final total ``v``.
    band: np.ndarray


@lru_cache(maxsize=256)
def _kit(rules: Rules, n: int, me: int, left: int) -> _Kit:
    eq = optimal_round_eq(rules, n)
    scores = np.asarray(turn_graph(rules).scores, dtype=np.int64)
    step, _ = per_round(rules, n)
    future = np.ones(1)
    for _ in range(left):
        future = np.convolve(future, step)
    below, level = _padded(future)
    top = int(scores.max())
    win = np.full((top + 1, n + 1, len(scores)), -1.0)
    for (i, m, t), (g, _, _) in eq.tables.items():
        if i == me:
            win[m, t] = [g[eq.scores.index(int(x))] for x in scores]
    later = n - 1 - me
    tables = [(m, t) for m in range(top + 1) for t in range(n + 2)]
    table_row = np.zeros((top + 1, n + 2), dtype=np.int64)
    width = top + len(future)  # this round's score plus the rest: 0..top + L - 1
    lb = np.zeros((len(tables), max(later, 1), width + 2))
    ll = np.zeros_like(lb)
    for row, (m, t) in enumerate(tables):
        table_row[m, t] = row
        if later:
            try:
                dists = later_scores(rules, n, me, (m, t))
            except KeyError:
                continue  # a table no turn can leave
            for q in range(later):
                lb[row, q], ll[row, q] = _padded(np.convolve(dists[q], future))
    flat = (
        tuple(lb[:, q].ravel() for q in range(later)),
        tuple(ll[:, q].ravel() for q in range(later)),
    )
    band = np.zeros((top + len(future), len(scores)))
    for col, x in enumerate(scores.tolist()):
        band[x : x + len(future), col] = future
    return _Kit(scores, future, below, level, win, table_row, *flat, width + 2, band)


def canonical(
    top: int, left: int, posted: np.ndarray, totals: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the estimate reads of B turns at the same place with ``left`` rounds after this
    one (``posted`` (B, place), ``totals`` (B, n) in this round's play order, ``top`` the best
    score): the table the posted scores make (best score ``m``, how many share it ``t``), and
    each opponent's points ahead of the player after this round as far as known -- the
    posted ones in ascending order (the estimate treats them alike), then the later ones in
    their places.  Clipped where an opponent can no longer be caught or catch up: the
    estimate is then exactly 0 or 1 for that opponent however far it is."""
    b, me = posted.shape
    m = t = np.zeros(b, dtype=np.int64)
    for j in range(me):
        m, t = table_after(m, t, posted[:, j])
    own = totals[:, me : me + 1]
    reach = top * (left + 1)  # what the player can add, this round included
    ahead_posted = np.sort(
        np.clip(totals[:, :me] + posted - own, -(top * left + 1), reach + 1), axis=1
    )
    ahead_later = np.clip(totals[:, me + 1 :] - own, -(reach + 1), reach + 1)
    return m, t, np.concatenate([ahead_posted, ahead_later], axis=1).astype(np.int64)


def estimate_rounds_batch(
    rules: Rules, n: int, left: int, posted: np.ndarray, totals: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(match estimate, exact round chance), (B, S) each, of B turns of ``rounds:N`` at the
    same place (``posted.shape[1]`` scores posted before it) with ``left`` rounds after this
    one; ``posted`` (B, place) and ``totals`` (B, n) are in this round's play order."""
    m, t, ahead = canonical(rules.max_score, left, posted, totals.astype(np.int64))
    return estimate_ahead(rules, n, posted.shape[1], left, m, t, ahead)


def estimate_ahead(
    rules: Rules, n: int, me: int, left: int, m: np.ndarray, t: np.ndarray, ahead: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`estimate_rounds_batch` from what :func:`canonical` reads of the turns."""
    kit = _kit(rules, n, me, left)
    b, s = len(m), len(kit.scores)
    est, rnd = np.empty((b, s)), np.empty((b, s))
    for lo in range(0, b, CHUNK):
        hi = min(b, lo + CHUNK)
        est[lo:hi], rnd[lo:hi] = _chunk(kit, me, m[lo:hi], t[lo:hi], ahead[lo:hi])
    return est, rnd


def _chunk(
    kit: _Kit, me: int, m: np.ndarray, t: np.ndarray, ahead: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    b, others = ahead.shape
    scores, future = kit.scores, kit.future
    rnd = kit.win[m, t]  # (B, S)
    if me == others:  # nobody after: by final total ``v`` once (relative to the player's own
        # total, 0..top + L - 1), then the chance of each score reaching it (one product)
        grid = np.arange(int(scores.max()) + len(future))
        poly = [np.ones((b, len(grid)))]  # the polynomial in u, a coefficient per opponent
        for j in range(me):
            idx = np.clip(grid - ahead[:, j, None] + 1, 0, len(future) + 1)
            poly = _times(poly, kit.below[idx], kit.level[idx])
        on_top = _integral(poly)  # (B, V)
        est: np.ndarray = on_top @ kit.band
        return est, rnd
    reach = scores[:, None] + np.arange(len(future))  # (S, L): the turn's score plus the rest
    poly = [np.ones((b, len(scores), len(future)))]
    for j in range(me):  # posted: their total after this round is known
        idx = np.clip(reach - ahead[:, j, None, None] + 1, 0, len(future) + 1)
        poly = _times(poly, kit.below[idx], kit.level[idx])
    tm, tt = table_after(m[:, None], t[:, None], scores)  # the table each score leaves
    width = kit.width
    base = (kit.table_row[tm, tt] * width)[:, :, None]  # (B, S, 1)
    for q in range(me, others):
        idx = base + np.clip(reach - ahead[:, q, None, None] + 1, 0, width - 1)
        poly = _times(poly, kit.later_below[q - me][idx], kit.later_level[q - me][idx])
    on_top = _integral(poly)  # (B, S, L)
    est = on_top @ future
    return est, rnd


def on_top_share(below: np.ndarray, level: np.ndarray, axis: int) -> np.ndarray:
    """The chance of being on top with ties shared evenly, given each opponent's chance of
    ending ``below`` one's own value and ``level`` with it (opponents along ``axis``): the
    integral over ``u`` in [0, 1] of the product of ``below + u * level``, exactly (the
    polynomial built opponent by opponent, ``u**k`` integrating to ``1 / (k + 1)``).

    >>> b, l = np.array([[0.5], [0.25]]), np.array([[0.25], [0.5]])
    >>> float(on_top_share(b, l, axis=0)[0]) == 0.5 * 0.25 + (0.5 * 0.5 + 0.25 * 0.25) / 2 + 0.25 * 0.5 / 3
    True
    """
    poly = [np.ones(np.delete(below.shape, axis))]
    for j in range(below.shape[axis]):
        poly = _times(poly, np.take(below, j, axis=axis), np.take(level, j, axis=axis))
    return _integral(poly)


def _integral(poly: list[np.ndarray]) -> np.ndarray:
    """The integral over [0, 1] of the polynomial in ``u`` with coefficients ``poly``."""
    out: np.ndarray = sum(c / (i + 1) for i, c in enumerate(poly))  # type: ignore[assignment]
    return out


def _times(poly: list[np.ndarray], below: np.ndarray, level: np.ndarray) -> list[np.ndarray]:
    """The polynomial ``poly`` times ``below + u * level``."""
    out = [c * below for c in poly] + [poly[-1] * level]
    for i in range(1, len(poly)):
        out[i] += poly[i - 1] * level
    return out
