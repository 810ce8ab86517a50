"""The match-optimal bot's turns on the step tables: drawn by match position, worked out in batches.

The ``optimal`` bot of a table too large for the exact match solver plays each turn of a round
on the match estimate (:mod:`shipcaptaincrew.solver.match.estimate`): its score distribution
depends on everyone's totals, the scores posted before it and the rounds left, so it is no
sampler of a node but of a node and a match.  :class:`MatchTurns` draws these turns for many
matches at once:

* **Only where the turn decides anything.**  A turn whose dice meet no decision (the crew
  completed on the last roll, or never) ends the same whatever the player wants: that part of
  every play's distribution (:func:`~shipcaptaincrew.solver.batch.undecided`, nearly two
  thirds of the turns under the classic rules) is drawn without asking the estimate.  The
  uniform is laid out on that part first, then on the rest, so the draw is still exact.
* **By what the estimate reads.**  The rest is keyed by the rounds left, the place in the
  round, the scores posted before it and every other total relative to the player's own --
  clipped where a total can no longer be caught or catch up (the estimate is then exactly 0
  or 1 for that opponent, whatever the distance).  Each key is worked out once, in batches
  of one place and one count of rounds left
  (:func:`~shipcaptaincrew.solver.estimate_rounds.estimate_rounds_batch`, then the turn played
  on it by :func:`~shipcaptaincrew.solver.batch.best_play`), the same numbers the bot plays in
  the engine's own match loop.

The tables play this bot under ``rounds:N`` beyond the exact solver (three players of three
rounds or more, four to six players: :func:`plays`); elsewhere :func:`~.steps.fast_refusal` says the engine loop plays it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...formats import FormatKind
from ...rules import Rules
from ...solver.batch import best_play, undecided
from ...solver.estimate_rounds import canonical, estimate_ahead
from ...solver.graph import turn_graph
from ...state import MatchState, Purpose
from ..inverse import InverseCdf
from ..policy import MatchPolicy
from .dense import SortedIds

__all__ = ["MAX_PLAYERS", "MatchTurns", "Positions", "plays"]

#: The most players whose keys pack into one 64-bit word (the table, and every other
#: player's points ahead).
MAX_PLAYERS = 6
_OFFSET_BITS = 9
_SCORE_BITS = 5


def plays(policy: object, rules: Rules, players: int) -> bool:
    """Whether :class:`MatchTurns` plays this policy's turns (else the engine loop does): the
    estimate under ``rounds:N``, with keys that pack into one word."""
    return (
        isinstance(policy, MatchPolicy)
        and policy.estimated
        and rules.format.kind is FormatKind.ROUNDS
        and players <= MAX_PLAYERS
        and rules.max_score < 1 << _SCORE_BITS
        and rules.max_score * (rules.format.n + 1) < 1 << (_OFFSET_BITS - 1)
    )


class Positions(NamedTuple):
    """Turns of the match-optimal bot, one row each: the round's seats in play order
    (B, n), the place of the turn in it, the rounds of the match's own finished, and every
    seat's total and posted score of this round (B, n, by seat)."""

    order: np.ndarray
    place: np.ndarray
    played: np.ndarray
    totals: np.ndarray
    posted: np.ndarray


def round_turn(state: MatchState) -> bool:
    """Whether the turn due at ``state`` is one of a round of the match (the ones the estimate
    plays; a tie-break's turns are played from the node alone)."""
    c = state.contest
    return c is not None and c.purpose is Purpose.ROUND and not state.tie_round


class MatchTurns:
    """The match-optimal bot's round turns of one rule set and table size."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules, self.players = rules, players
        graph = turn_graph(rules)
        self.scores = np.asarray(graph.scores, dtype=np.int64)
        self.rounds = rules.format.n
        self.top = rules.max_score
        self.fixed = undecided(graph)
        self.p_fixed = float(self.fixed.sum())
        fixed_cdf = np.minimum(np.cumsum(self.fixed) / self.p_fixed, 1.0)
        fixed_cdf[-1] = 1.0  # whatever the rounding left: InverseCdf needs it
        self._fixed_draw = InverseCdf(fixed_cdf)
        self._rows = SortedIds()  # a key's row of :attr:`_cdf`
        #: Per key: the cumulative distribution of the turns that meet a decision (rows up to
        #: :attr:`_used` filled).
        self._cdf = np.zeros((1024, len(self.scores)))
        self._used = 0

    def draw(self, u: np.ndarray, at: Positions) -> np.ndarray:
        """Turn scores for uniforms ``u``, one per turn of ``at``."""
        out = np.empty(len(u), dtype=np.int64)
        cut = u < self.p_fixed
        fixed = np.flatnonzero(cut)
        if fixed.size:
            out[fixed] = self.scores[self._fixed_draw(u[fixed] / self.p_fixed)]
        rest = np.flatnonzero(~cut)
        if rest.size:
            rows = self._lookup(Positions(*(a[rest] for a in at)))
            v = (u[rest] - self.p_fixed) / (1.0 - self.p_fixed)
            pick = (v[:, None] >= self._cdf[rows]).sum(axis=1)
            out[rest] = self.scores[np.minimum(pick, len(self.scores) - 1)]
        return out

    def _lookup(self, at: Positions) -> np.ndarray:
        """The row of :attr:`_cdf` of each turn, working out the keys not met before."""
        order, place, played, totals, posted = at
        n, top = self.players, self.top
        b = np.arange(len(order))[:, None]
        tot, post = totals[b, order], posted[b, order]  # (B, n) in play order
        left = self.rounds - played - 1
        m = np.zeros(len(order), dtype=np.int64)
        t, ahead = m.copy(), np.zeros((len(order), n - 1), dtype=np.int64)
        for g in np.unique(left * (n + 1) + place).tolist():
            r, me = divmod(g, n + 1)
            sel = np.flatnonzero((left == r) & (place == me))
            m[sel], t[sel], ahead[sel] = canonical(top, r, post[sel, :me], tot[sel])
        # Decided: an opponent out of reach ahead, or every one out of reach behind.  The
        # estimate is then 0 (or 1) for every score, and the play the round chance's alone:
        # one key per table, whatever the rest.
        reach = (top * (left + 1))[:, None]
        later = np.arange(n - 1) >= place[:, None]
        behind = np.where(later, ahead + reach, ahead + reach - top) < 0
        decided = (ahead > reach).any(axis=1) | behind.all(axis=1)
        left = np.where(decided, 0, left)
        ahead[decided] = top + 1  # everyone out of reach ahead with no round left: 0
        key = (left * (n + 1) + place) * (top + 1) + m
        key = key * (n + 1) + t
        for k in range(n - 1):
            key = (key << _OFFSET_BITS) + ahead[:, k] + (1 << (_OFFSET_BITS - 1))

        def work_out(new: np.ndarray, miss: np.ndarray) -> np.ndarray:
            cdf = self._work_out(left[miss], place[miss], m[miss], t[miss], ahead[miss])
            base = self._used
            if base + len(new) > len(self._cdf):  # grown geometrically, not per batch
                grown = np.empty((max(2 * len(self._cdf), base + len(new)), cdf.shape[1]))
                grown[:base] = self._cdf[:base]
                self._cdf = grown
            self._cdf[base : base + len(new)] = cdf
            self._used = base + len(new)
            return base + np.arange(len(new))

        return self._rows.lookup(key, work_out)

    def _work_out(
        self,
        left: np.ndarray,
        place: np.ndarray,
        m: np.ndarray,
        t: np.ndarray,
        ahead: np.ndarray,
    ) -> np.ndarray:
        """The cumulative distributions of the decided part of these turns' play, a batch per
        (rounds left, place): the estimate, the turn played on it, less the fixed part."""
        out = np.empty((len(left), len(self.scores)))
        graph = turn_graph(self.rules)
        groups = left * (self.players + 1) + place
        for g in np.unique(groups).tolist():
            sel = np.flatnonzero(groups == g)
            r, me = divmod(g, self.players + 1)
            est, rnd = estimate_ahead(self.rules, self.players, me, r, m[sel], t[sel], ahead[sel])
            dist = best_play(graph, est, rnd)
            decided = np.maximum(dist - self.fixed, 0.0)
            cdf = np.cumsum(decided, axis=1)
            out[sel] = cdf / cdf[:, -1:]
        return out
