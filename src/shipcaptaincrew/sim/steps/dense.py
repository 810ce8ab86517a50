"""Step ids by (step, key) in a dense table: the lookup of keyed steps in the hot loops.

A step that reads the count of finished rounds or the pattern of zeros among the round's
scores is resolved by the engine once per key; the loops then find the resolved step of
thousands of matches at once.  A dense table -- a row per keyed step met, a column per key
-- makes that one gather, where a sorted array would be a binary search per match.  Rows and
columns grow geometrically (never a copy per new step), and an entry not resolved yet is -1,
so a loop asks the engine only for what it has not met.  For the order of the totals, whose
keys are many, :class:`SortedIds` keeps them sorted: a binary search per match, the keys not
met before worked out in one batch and inserted in one pass; :class:`TotalsKeys` says what
that key is (the order of the totals as one integer, all the engine reads of them) and
makes totals with a given key to play a step from.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...formats import FormatKind
from ...rules import Rules

__all__ = ["DenseIds", "SortedIds", "TotalsKeys"]


class DenseIds:
    """Resolved step ids by (keyed step, key); ``width`` keys to start with."""

    def __init__(self, width: int) -> None:
        #: Per step id: its row in :attr:`ids` (-1: none yet).
        self.row = np.full(256, -1, dtype=np.int64)
        #: Per row and key: the resolved step id (-1: not resolved yet).
        self.ids = np.full((64, width), -1, dtype=np.int64)
        self.used = 0  # rows taken

    def lookup(
        self, step: np.ndarray, key: np.ndarray, n_steps: int, resolve: Callable[[int, int], int]
    ) -> np.ndarray:
        """The resolved ids of (``step``, ``key``) pairs; ``resolve(step, key)`` (the engine)
        for the pairs not met before; ``n_steps`` bounds the step ids there are."""
        rows = self._rows(step, n_steps)
        self._widen(int(key.max()) + 1)
        ids: np.ndarray = self.ids[rows, key]
        if ids.min() < 0:
            miss = ids < 0
            for s, k in {(int(a), int(b)) for a, b in zip(step[miss], key[miss])}:
                self.ids[self.row[s], k] = resolve(s, k)
            ids = self.ids[rows, key]
        return ids

    def get(self, step: int, key: int, resolve: Callable[[int, int], int]) -> int:
        """One pair's id (:meth:`lookup` for a single pair, without resolving others)."""
        row = int(self._rows(np.array([step]), step + 1)[0])
        self._widen(key + 1)
        found = int(self.ids[row, key])
        if found < 0:
            found = self.ids[row, key] = resolve(step, key)
        return found

    def _rows(self, step: np.ndarray, n_steps: int) -> np.ndarray:
        """The rows of ``step``, giving the steps met for the first time a row each."""
        if len(self.row) < n_steps:
            self.row = np.concatenate([self.row, np.full(n_steps, -1, dtype=np.int64)])
        rows: np.ndarray = self.row[step]
        if rows.min() < 0:
            new = np.unique(step[rows < 0])
            used = self.used
            if used + len(new) > len(self.ids):
                extra = max(used + len(new), 2 * len(self.ids)) - len(self.ids)
                self.ids = np.pad(self.ids, ((0, extra), (0, 0)), constant_values=-1)
            self.row[new] = used + np.arange(len(new))
            self.used = used + len(new)
            rows = self.row[step]
        return rows

    def _widen(self, width: int) -> None:
        """At least ``width`` keys wide (doubling: never a copy per new key)."""
        if width > self.ids.shape[1]:
            pad = max(width, 2 * self.ids.shape[1]) - self.ids.shape[1]
            self.ids = np.pad(self.ids, ((0, 0), (0, pad)), constant_values=-1)


class SortedIds:
    """Ids by integer key, the keys kept sorted (:attr:`keys`, their ids :attr:`ids`)."""

    __slots__ = ("ids", "keys")

    def __init__(self) -> None:
        self.keys = np.zeros(0, dtype=np.int64)
        self.ids = np.zeros(0, dtype=np.int64)

    def lookup(
        self, key: np.ndarray, resolve: Callable[[np.ndarray, np.ndarray], np.ndarray]
    ) -> np.ndarray:
        """The id of every key in ``key``; ``resolve(new, where)`` gives the ids of the keys
        not met before (``new``: sorted, each once; ``where``: the position in ``key`` of
        each's first occurrence), all in one call."""
        pos = np.minimum(np.searchsorted(self.keys, key), max(len(self.keys) - 1, 0))
        hit = (self.keys[pos] == key) if len(self.keys) else np.zeros(len(key), dtype=bool)
        if not hit.all():
            new, first = np.unique(key[~hit], return_index=True)
            ids = resolve(new, np.flatnonzero(~hit)[first])
            where = np.searchsorted(self.keys, new)  # both sorted: one insertion pass
            self.keys = np.insert(self.keys, where, new)
            self.ids = np.insert(self.ids, where, ids)
            pos = np.searchsorted(self.keys, key)
        found: np.ndarray = self.ids[pos]
        return found


class TotalsKeys:
    """The order of the totals of ``players`` seats (and, under ``first_to:N``, which seats
    reached N) as one integer below :attr:`space`: all the engine reads of the totals."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.players = p = players
        fmt = rules.format
        self.mark = fmt.n if fmt.kind is FormatKind.FIRST_TO else None
        self.space = p**p * 2**p

    def key_of(self, totals: np.ndarray) -> np.ndarray:
        """Per column of ``totals`` (a row per seat): the order of the totals (each seat's
        count of lower totals) and, under ``first_to:N``, which seats reached N, as one
        integer.  Seat by seat, so every operation is on whole rows of matches."""
        p = self.players
        key = np.zeros(totals.shape[1], dtype=np.int64)
        for s in range(p):
            weight = p**s
            for j in range(p):
                if j != s:
                    key += (totals[j] < totals[s]) * weight
            if self.mark is not None:
                key += (totals[s] >= self.mark) * (2**s * p**p)
        return key

    def totals_of(self, key: int) -> tuple[int, ...]:
        """Totals with the order (and marks) of ``key``."""
        p = self.players
        reached, ranks = divmod(key, p**p)
        r = [(ranks // p**s) % p for s in range(p)]
        if self.mark is None:
            return tuple(r)
        return tuple(
            self.mark + r[s] if (reached >> s) & 1 else self.mark - p + r[s] for s in range(p)
        )
