"""The rows of the step tables: what each step of a match does, laid out for the hot loops.

A step of :mod:`.table` -- one engine call from a node with an outcome -- is stored once as a
row of :attr:`StepRows.steps` (its child, what it adds to the totals, sips and round wins,
the round it finished) and, for the loops of :mod:`.fast` that step thousands of matches at
once, as a packed word (:class:`StepBits`) and the few additions it makes (a round won, a round
counted, the seats' scores of the round added to their totals).  The rows know nothing of the
engine or the nodes: :func:`step_row` lays out what a played step did, and
:class:`~.table.MatchTable` names its child node.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

import numpy as np

from ...state import MatchState
from .probes import CarriedScore, PostedMark, PostedScore, appended

__all__ = [
    "StepColumn",
    "RecordRows",
    "StepRows",
    "StepBits",
    "child_at",
    "head_row",
    "Row",
    "step_row",
]


class StepBits:
    """Bits of :attr:`StepRows.step_word`, one word per step for the hot loop (plain ints:
    an enum's attribute lookups cost more than the loop's arithmetic); the child node is the
    word shifted right by :attr:`CHILD`.  ``TOTALS``, ``COUNT``, ``ZEROS``: the step is
    resolved per order of the totals, per count of rounds, per pattern of zeros among the
    round's scores (in the reverse order: zeros first)."""

    TOTALS = 1
    COUNT = 2
    ZEROS = 4
    KEYED = 7
    TOUCH = 8  #: adds to the record (totals, sips, wins, a finished round)
    ENDS = 16  #: its child is a round's end (a :attr:`~.nodes.Due.DECIDE` node)
    POSTS = 32  #: posts the seat's score of the round (:attr:`StepColumn.WRITE`)
    CARRIES = 64  #: adds seats' scores of the round to their totals (:attr:`StepRows.carried`)
    CHILD = 7


def child_at(word: Any) -> Any:
    """The child node of step words ``word`` (an int or an array)."""
    return word >> StepBits.CHILD


class StepColumn(IntEnum):
    """Columns of :attr:`StepRows.steps`; from ``FIXED`` on, one column per seat each: the
    totals, sips and round wins the step adds, which seats' carried scores it adds to their
    totals (1/0), the finished round's scores (-2: the seat's carried score, -1: none) and its
    play order.  ``KEYED``: what the step is resolved by (:attr:`StepBits.KEYED`'s bits; 0 for a
    resolved step); ``OWN``: the round the step finished is one of the match's own (not a
    round of the tied); ``WRITE``: the seat whose score of the round this step posted (-1:
    none)."""

    CHILD = 0
    KEYED = 1
    NEW_ROUND = 2
    STARTER = 3
    WINNER = 4
    TOUCH = 5
    OWN = 6
    WRITE = 7
    FIXED = 8


class RecordRows:
    """The rows of a match's record (:func:`~.fast.new_record`, a column per match) for
    ``p`` players: the totals, sips and round wins by seat and the count of the match's own
    rounds -- what a step adds, in the order of :attr:`StepRows.adds` -- then the seats'
    scores of the round being played (each match carries them; the nodes do not) and a spare
    row that padding and outcomes that post no score go to."""

    __slots__ = ("count", "scores", "sips", "size", "spare", "totals", "wins")

    def __init__(self, p: int) -> None:
        self.totals, self.sips, self.wins = slice(0, p), slice(p, 2 * p), slice(2 * p, 3 * p)
        self.count = 3 * p
        self.scores = slice(3 * p + 1, 4 * p + 1)
        self.spare = 4 * p + 1
        self.size = 4 * p + 2


def head_row(keyed: int) -> list[int]:
    """The fixed columns of a new step row (up to :attr:`StepColumn.FIXED`): no child yet, keyed as
    given, no round finished (starter and winner -1), touching nothing, posting no score."""
    head = [0] * StepColumn.FIXED
    (
        head[StepColumn.KEYED],
        head[StepColumn.STARTER],
        head[StepColumn.WINNER],
        head[StepColumn.WRITE],
    ) = keyed, -1, -1, -1
    return head


def _round_score(x: object) -> int:
    """A finished round's score as a step row keeps it: -2 for a seat's carried score."""
    if x is None:
        return -1
    return -2 if isinstance(x, CarriedScore | PostedMark) else int(x)  # type: ignore[call-overload]


#: A step row as :func:`step_row` lays it out: its fixed columns, the rest, and which seats'
#: carried scores it adds to their totals (1/0).
Row = tuple[list[int], list[int], list[int]]


def step_row(
    players: int,
    base: MatchState,
    after: MatchState,
    dtot: tuple[int, ...],
    *,
    carried: tuple[int, ...] = (),
    keyed: int = 0,
) -> Row:
    """The row of a step of ``players`` played from ``base`` to ``after``, which added ``dtot`` to the totals
    and the round's scores of the seats ``carried`` to theirs: its fixed columns (the child
    left for the caller), the rest of the row, and which seats' carried scores it adds (1/0)."""
    p = players
    mask = [int(s in carried) for s in range(p)]
    adds = [
        *dtot,
        *(a - b for a, b in zip(after.sips, base.sips)),
        *(a - b for a, b in zip(after.wins, base.wins)),
        *mask,
    ]
    head = head_row(keyed)
    posted = [s for s, x in enumerate(after.round_scores) if isinstance(x, PostedScore)]
    if posted:
        head[StepColumn.WRITE] = posted[0]
    tail = [-1] * (2 * p)
    res = appended(base.results, after.results)
    if res is not None:
        head[StepColumn.NEW_ROUND], head[StepColumn.STARTER] = 1, res.starter
        head[StepColumn.WINNER] = -1 if res.winner is None else res.winner
        head[StepColumn.OWN] = int(not res.tie_round)
        tail = [_round_score(x) for x in res.scores]
        tail += list(res.seats) + [-1] * (p - len(res.seats))
    head[StepColumn.TOUCH] = int(head[StepColumn.NEW_ROUND] == 1 or any(adds))
    return head, adds + tail, mask


class StepRows:
    """The per-step arrays of one line-up (``rec``: its matches' record rows), grown as steps
    are stored."""

    def __init__(self, players: int, rec: RecordRows) -> None:
        self.players = p = players
        self.rec = rec
        spare = rec.spare
        self.steps = np.zeros((256, StepColumn.FIXED + 6 * p), dtype=np.int64)
        #: Per step, what it adds to a match's record, contiguous for the hot loops: the
        #: totals, sips and round wins by seat (as in :attr:`steps`), then its :attr:`StepColumn.OWN`.
        self.adds = np.zeros((256, rec.count + 1), dtype=np.int64)
        #: The same as (column, value) pairs of its few entries that are not 0, padded with
        #: the record's spare column (:func:`~.fast.new_record`) and 0: a step adds a round
        #: won and a round counted, seldom more, so the hot loop touches those columns only.
        self.add_col = np.full((256, 1), spare, dtype=np.int64)
        self.add_val = np.zeros((256, 1), dtype=np.int64)
        #: Per step, which seats' carried scores it adds to their totals (1/0).
        self.carried = np.zeros((256, p), dtype=np.int64)
        #: Per step, the column of a match's record (:func:`~.fast.new_record`) its outcome
        #: goes to: the seat's score of the round if it posts one, else the spare column
        #: (so the hot loop writes every match's outcome without asking which step posts).
        self.post_col = np.full(256, spare, dtype=np.int64)
        self.n_steps = 0
        #: The same packed for the hot loop (:class:`StepBits`).
        self.step_word = np.zeros(256, dtype=np.int64)

    def add(self, head: list[int], rest: list[int], carried: list[int], ends: bool) -> int:
        """Append a step row, built as a Python list and stored at once (small NumPy writes
        cost more than the rest); ``ends``: its child is a round's end.  Its step id."""
        i = self.n_steps
        p, spare = self.players, self.rec.spare
        if i >= len(self.steps):  # every per-step array doubles at once
            for name in ("steps", "step_word", "adds", "add_col", "add_val", "carried", "post_col"):
                a = getattr(self, name)
                fill = spare if name in ("add_col", "post_col") else 0
                setattr(self, name, np.concatenate([a, np.full_like(a, fill)]))
        self.steps[i, : len(head) + len(rest)] = head + rest
        if rest:
            self.adds[i] = row = rest[: 3 * p] + [head[StepColumn.OWN]]
            self.carried[i] = carried
            entries = [(c, v) for c, v in enumerate(row) if v]
            if len(entries) > self.add_col.shape[1]:
                extra = len(entries) - self.add_col.shape[1]
                self.add_col = np.pad(self.add_col, ((0, 0), (0, extra)), constant_values=spare)
                self.add_val = np.pad(self.add_val, ((0, 0), (0, extra)))
            for k, (c, v) in enumerate(entries):
                self.add_col[i, k], self.add_val[i, k] = c, v
        word = head[StepColumn.CHILD] << StepBits.CHILD | head[StepColumn.KEYED]
        if head[StepColumn.WRITE] >= 0:
            word |= StepBits.POSTS
            self.post_col[i] = self.rec.scores.start + head[StepColumn.WRITE]
        if head[StepColumn.TOUCH]:
            word |= StepBits.TOUCH
        if any(carried):
            word |= StepBits.CARRIES
        if rest and ends:
            word |= StepBits.ENDS
        self.step_word[i] = word
        self.n_steps += 1
        return i
