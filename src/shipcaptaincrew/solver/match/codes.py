"""The codes of the match model's positions: one integer per position, and the solving order.

A position (:mod:`.model`) is the start of a round in play order: the offset (which seat's
policy opens), the per-seat fields the format reads (totals or round wins) and, under
``rounds:N``, the rounds played.  The solver keeps one row of values per position, so each
gets a code, an index into that table: the offset first, then the fields as digits of one
radix (``rounds:N`` stores the lowest seat and the others' differences from it, since only
differences decide it).  Codes are dense, so some are never reached (:meth:`PositionCodes.levels`
lists the canonical ones), and the solving order -- last rounds first -- is read off them.
"""

from __future__ import annotations

import numpy as np

from ...formats import FormatKind

__all__ = ["PositionCodes"]


class PositionCodes:
    """The codes of the positions of one kind of format (``kind``, its number ``target``) for
    ``n`` seats whose policies repeat every ``period`` seats; ``scores``: a turn's scores."""

    def __init__(
        self, kind: FormatKind, target: int, n: int, period: int, scores: np.ndarray
    ) -> None:
        self.kind, self.target, self.n, self.period = kind, target, n, period
        self.scores = scores
        big = int(scores.max())
        #: The radix of a seat's field: its largest value plus one.
        self.radix = 1
        #: How many position codes there are (some unreachable).
        self.size = period
        if kind is FormatKind.ROUNDS:
            # The totals less the lowest: which seat is lowest (the first of them), and the
            # others' differences, each at most (rounds before the last) * the top score.
            self.radix = (target - 1) * big + 1
            self.size = int(period * target * n * self.radix ** (n - 1))
        elif kind is not FormatKind.SINGLE:
            self.radix = target
            self.size = int(period * target**n)

    def encode(self, offset: np.ndarray, fields: np.ndarray, played: np.ndarray) -> np.ndarray:
        """Codes of positions: offset, per-seat fields (totals, wins) and rounds played."""
        n, r = self.n, self.radix
        if self.kind is FormatKind.SINGLE:
            return offset.astype(np.int64)
        if self.kind is FormatKind.ROUNDS:
            low = fields.argmin(axis=-1)
            d = fields - fields.min(axis=-1, keepdims=True)
            rest = np.zeros(d.shape[:-1], dtype=np.int64)
            # The other seats' differences, in play order after removing the lowest.
            for j in range(n - 1, -1, -1):
                keep = j != low
                rest = np.where(keep, rest * r + d[..., j], rest)
            inner = (played * n + low) * r ** (n - 1) + rest
        else:
            inner = np.zeros(fields.shape[:-1], dtype=np.int64)
            for j in range(n - 1, -1, -1):
                inner = inner * r + fields[..., j]
        out: np.ndarray = offset + self.period * inner
        return out

    def decode(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(offset, fields (..., n), played) of codes: the inverse of :meth:`encode`."""
        n, r = self.n, self.radix
        offset = codes % self.period
        inner = codes // self.period
        fields = np.zeros((*codes.shape, n), dtype=np.int64)
        played = np.zeros(codes.shape, dtype=np.int64)
        if self.kind is FormatKind.SINGLE:
            return offset, fields, played
        if self.kind is FormatKind.ROUNDS:
            rest = inner % r ** (n - 1)
            low = (inner // r ** (n - 1)) % n
            played = inner // (r ** (n - 1) * n)
            others = []  # the other seats' differences, first in play order first
            for _ in range(n - 1):
                others.append(rest % r)
                rest = rest // r
            for j in range(n):
                if n == 1:
                    break
                # Seat j's place among the others: j, less one when the lowest comes first.
                place = np.clip(j - (low < j), 0, n - 2)
                pick = np.choose(place, others) if n > 2 else others[0]
                fields[..., j] = np.where(low == j, 0, pick)
            return offset, fields, played
        for j in range(n):
            fields[..., j] = inner % r
            inner = inner // r
        return offset, fields, played

    def levels(self) -> list[np.ndarray]:
        """Every position's code, level by level in solving order (last rounds first).

        A round leads from a level only to levels listed before it, or back into its own
        (everyone failed, or no winner); ``span`` consecutive levels never lead into each
        other, so they can be solved together.
        """
        codes = np.arange(self.size, dtype=np.int64)
        offset, fields, played = self.decode(codes)
        canonical = self.encode(offset, fields, played) == codes
        if self.kind is FormatKind.ROUNDS:
            big = int(self.scores.max())
            canonical &= fields.max(axis=-1) <= played * big
            key = played
        else:
            key = fields.sum(axis=-1)
        codes, key = codes[canonical], key[canonical]
        return [codes[key == v] for v in sorted(set(key.tolist()), reverse=True)]

    @property
    def span(self) -> int:
        """How many consecutive levels never lead into each other (see :meth:`levels`)."""
        if self.kind is FormatKind.FIRST_TO:
            return int(self.scores[1])  # a round that scores at all adds its lowest score
        return 1

    def initial(self) -> int:
        """The code of the match's first round, starter first (offset 0, nothing scored)."""
        zero = np.zeros((1, self.n), dtype=np.int64)
        return int(self.encode(np.zeros(1, dtype=np.int64), zero, np.zeros(1, np.int64))[0])
