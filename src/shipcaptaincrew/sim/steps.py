"""The step tables of whole matches: each distinct step of a match resolved once by the engine.

A match is a walk through the nodes of :mod:`.nodes`: states where a turn (the bot's exact
score distribution) or a roll-off die is due.  The engine's answer to "this node, this
outcome" is the same for every match that reaches them, so :class:`MatchTable` asks
:func:`~shipcaptaincrew.engine.post_score` (or :func:`~shipcaptaincrew.engine.apply` for dice)
once per distinct (node, outcome) and records what it did: the next node, what it adds to the
totals, sips and round wins, and whether it posted the seat's score of the round (which each
match then carries).  Many matches then step at once through these tables with a few NumPy
gathers (:mod:`.fast`).

Three things keep the tables small, each asked of the engine rather than assumed:

* **The round's scores travel with the match** (:mod:`.probes`): a step is played with
  stand-ins for them, and the totals it adds say which seats' scores went in; a step that
  asks whether a score is 0 (a round without a winner, a failed ship drinking double) is
  resolved once per pattern of zeros.  A score that can no longer win the round
  (:func:`~shipcaptaincrew.match.beaten`) is posted as the lowest score that stands for all
  of them: one step, not one per value.
* **The end of a round is a node of its own** (:func:`~shipcaptaincrew.positions.to_round_end`):
  the step that ends a round stops where the totals, wins and drinks are counted, and the
  format's decision (:func:`~shipcaptaincrew.positions.after_round`) is a second step from a
  :attr:`~.nodes.NodeKind.DECIDE` node, which a few ways of ending rounds share.
* **Totals and the count of rounds are not in the nodes**: a step is first played with
  totals that refuse to be compared and finished rounds that refuse to be counted.  A step
  that counts the rounds (the format's decision under ``rounds:N`` or the tournament) is
  resolved once per count; one that compares the totals (``rounds:N`` at its end,
  ``first_to:N``'s mark, the tournament's places) once per *order* of the totals (ties
  included) and, under ``first_to:N``, which seats reached the mark: the engine decides by
  totals through these two things only, so it is played from synthetic totals with the same
  order and marks.

What is not tabled, and plays through :class:`~.match.MatchRunner` instead
(:func:`fast_refusal` says which): pot games (the chips decide who can ante), the captain's
hand-out and sessions (a bot chooses, reading the whole match), ``rotation=loser`` (the next
starter depends on the last round's line) and the match-optimal bot (its turn reads the
totals).

Every random number is keyed by (seed, match, seat, draw) (:mod:`.keyed`) and turns are
sampled by inverse transform, so runs that differ in one seat's bot share everyone's numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum, IntEnum

import numpy as np

from ..actions import Roll
from ..engine import apply, counted_rounds, initial_state, post_score
from ..formats import FormatKind
from ..match import beaten
from ..positions import after_round, to_round_end, turn_scores
from ..rules import Drinking, Rotation, Rules, Stakes
from ..state import MatchState, evolve
from .dense import DenseIds
from .nodes import NodeKind, NodeTable
from .policy import MatchPolicy, make_policy
from .probes import (
    CARRIED,
    Carried,
    CountRead,
    Offset,
    Posted,
    Scored,
    ScoresRead,
    TotalsRead,
    appended,
)

__all__ = [
    "Col",
    "FastRefusal",
    "MatchTable",
    "NodeKind",
    "Word",
    "fast_refusal",
    "match_table",
]


class Word:
    """Bits of :attr:`MatchTable.step_word`, one word per step for the hot loop (plain ints:
    an enum's attribute lookups cost more than the loop's arithmetic); the child node is the
    word shifted right by :attr:`CHILD`.  ``TOTALS``, ``COUNT``, ``ZEROS``: the step is
    resolved per order of the totals, per count of rounds, per pattern of zeros among the
    round's scores (in the reverse order: zeros first)."""

    TOTALS = 1
    COUNT = 2
    ZEROS = 4
    KEYED = 7
    TOUCH = 8  #: adds to the record (totals, sips, wins, a finished round)
    ENDS = 16  #: its child is a round's end (a :attr:`~.nodes.NodeKind.DECIDE` node)
    POSTS = 32  #: posts the seat's score of the round (:attr:`Col.WRITE`)
    CARRIES = 64  #: adds seats' scores of the round to their totals (:attr:`MatchTable.carried`)
    CHILD = 7


class FastRefusal(Enum):
    """Why a set-up plays through the engine loop instead of the step tables."""

    POT = "stakes=pot: the chips decide who can ante"
    HAND_OUT = "drinking=captain_hands_out: the winner's bot chooses who drinks"
    SESSION = "format=session: a bot calls another round"
    LOSER = "rotation=loser: the next starter depends on the last round's line"
    MATCH_OPTIMAL = "the match-optimal bot: its turn reads the totals"


def fast_refusal(rules: Rules, bots: list[str]) -> FastRefusal | None:
    """None when the step tables can play this set-up, else why not."""
    if rules.stakes is Stakes.POT:
        return FastRefusal.POT
    if rules.drinking is Drinking.CAPTAIN_HANDS_OUT:
        return FastRefusal.HAND_OUT
    if rules.format.kind is FormatKind.SESSION:
        return FastRefusal.SESSION
    if rules.rotation is Rotation.LOSER:
        return FastRefusal.LOSER
    if any(isinstance(make_policy(b, rules, len(bots)), MatchPolicy) for b in set(bots)):
        return FastRefusal.MATCH_OPTIMAL
    return None


class Col(IntEnum):
    """Columns of :attr:`MatchTable.steps`; from ``FIXED`` on, one column per seat each: the
    totals, sips and round wins the step adds, which seats' carried scores it adds to their
    totals (1/0), the finished round's scores (-2: the seat's carried score, -1: none) and its
    play order.  ``KEYED``: what the step is resolved by (:attr:`Word.KEYED`'s bits; 0 for a
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


def _head(keyed: int) -> list[int]:
    """The fixed columns of a new step row (up to :attr:`Col.FIXED`): no child yet, keyed as
    given, no round finished (starter and winner -1), touching nothing, posting no score."""
    head = [0] * Col.FIXED
    head[Col.KEYED], head[Col.STARTER], head[Col.WINNER], head[Col.WRITE] = keyed, -1, -1, -1
    return head


def _round_score(x: object) -> int:
    """A finished round's score as a step row keeps it: -2 for a seat's carried score."""
    if x is None:
        return -1
    return -2 if isinstance(x, Carried | Scored) else int(x)  # type: ignore[call-overload]


class MatchTable(NodeTable):
    """The step tables of one rule set and line-up, grown as matches meet new steps."""

    def __init__(self, rules: Rules, bots: list[str], *, carry: bool = True) -> None:
        refusal = fast_refusal(rules, bots)
        if refusal is not None:
            raise ValueError(f"the step tables cannot play this set-up: {refusal.value}")
        super().__init__(rules, bots, carry)
        p = self.players
        self.max_score = rules.max_score
        self.width = max(self.max_score + 1, 36)  # a score, or up to two dice in base 6
        #: The score that stands for every score that can no longer win its round.
        self.low = min(x for x in turn_scores(rules) if x > 0)
        fmt = rules.format
        self.mark = fmt.n if fmt.kind is FormatKind.FIRST_TO else None
        #: (node, outcome) code -> step id (-1: not met yet); a slot for every code of every
        #: node (grown with the nodes).
        self.plain = np.full(64 * self.width, -1, dtype=np.int64)
        self._code: dict[int, int] = {}  # plain step -> its (node, outcome) code
        #: A step resolved per zero pattern or count -> (that pattern or None, that count or None).
        self._ctx: dict[int, tuple[int | None, int | None]] = {}
        self._zero_ids: dict[tuple[int, int], int] = {}  # (step, pattern it reads) -> id
        self.key_space = p**p * 2**p
        #: Steps by the pattern of zeros among the round's scores (bit s: seat s scored);
        #: count-keyed steps by count of finished rounds; totals-keyed steps by totals key, in
        #: a dense table where the keys are few (two players), else as sorted
        #: (keyed step, totals key) combinations and their step ids.
        self.by_zeros = DenseIds(2**p)
        self.by_count = DenseIds(8)
        #: The format's decision at a round's end, by (its node, count of rounds and order of
        #: totals as one key) where the keys are few (:func:`~.fast.decision_step`).
        self.by_decision = DenseIds(8 * self.key_space if self.key_space <= DECISION_KEYS else 1)
        #: Per round-end node: its decision asks whether the round's scores were 0 (1), not
        #: (0), not known yet (-1).
        self.zeros_at = np.full(64, -1, dtype=np.int64)
        self.by_totals = DenseIds(self.key_space) if self.key_space <= DENSE_KEYS else None
        self.keyed_keys = np.zeros(0, dtype=np.int64)
        self.keyed_vals = np.zeros(0, dtype=np.int64)
        self.steps = np.zeros((256, Col.FIXED + 6 * p), dtype=np.int64)
        #: Per step, what it adds to a match's record, contiguous for the hot loops: the
        #: totals, sips and round wins by seat (as in :attr:`steps`), then its :attr:`Col.OWN`.
        self.adds = np.zeros((256, 3 * p + 1), dtype=np.int64)
        #: The same as (column, value) pairs of its few entries that are not 0, padded with
        #: the record's spare column (:func:`~.fast.new_record`) and 0: a step adds a round
        #: won and a round counted, seldom more, so the hot loop touches those columns only.
        self.add_col = np.full((256, 1), 4 * p + 1, dtype=np.int64)
        self.add_val = np.zeros((256, 1), dtype=np.int64)
        #: Per step, which seats' carried scores it adds to their totals (1/0).
        self.carried = np.zeros((256, p), dtype=np.int64)
        #: Per step, the column of a match's record (:func:`~.fast.new_record`) its outcome
        #: goes to: the seat's score of the round if it posts one, else the spare column
        #: (so the hot loop writes every match's outcome without asking which step posts).
        self.post_col = np.full(256, 4 * p + 1, dtype=np.int64)
        self.n_steps = 0
        #: The same packed for the hot loop (:class:`Word`).
        self.step_word = np.zeros(256, dtype=np.int64)
        self._checking = False  # in :meth:`carries`, where a read score is an answer
        self.start = self._node(initial_state(rules, p))

    def _grown(self) -> None:
        # Every node's outcome codes have a slot, so the hot loop gathers unchecked.
        self.plain = np.concatenate([self.plain, np.full_like(self.plain, -1)])

    # -- steps --------------------------------------------------------------------------------
    def _act(self, node: int, outcome: int) -> Callable[[MatchState], tuple[MatchState, bool]]:
        """What the engine does at ``node`` with ``outcome``: the state it leads to, stopped at
        a round's end, and whether the round ended there."""
        kind, seat, dice = self._info[node]
        if kind == NodeKind.DECIDE:
            return lambda s: (after_round(s), False)
        # Holding the round's exact scores, a round ends in as many ways as they make: the
        # format's decision is then no node of its own (it would only add nodes).
        stop = to_round_end if self.carry else lambda step: (step(), False)
        if kind == NodeKind.TURN:
            score = Posted(outcome, seat) if self.carry else outcome
            return lambda s: stop(lambda: post_score(s, score))
        faces = tuple(1 + (outcome // 6**k) % 6 for k in range(int(dice)))
        return lambda s: stop(lambda: apply(s, Roll(faces)))

    def _row(self, head: list[int], rest: list[int], carried: list[int]) -> int:
        """Append a step row, built as a Python list and stored at once (small NumPy writes
        cost more than the rest)."""
        i = self.n_steps
        p = self.players
        if i >= len(self.steps):  # every per-step array doubles at once
            for name in ("steps", "step_word", "adds", "add_col", "add_val", "carried", "post_col"):
                a = getattr(self, name)
                fill = 4 * p + 1 if name in ("add_col", "post_col") else 0
                setattr(self, name, np.concatenate([a, np.full_like(a, fill)]))
        self.steps[i, : len(head) + len(rest)] = head + rest
        if rest:
            self.adds[i] = row = rest[: 3 * p] + [head[Col.OWN]]
            self.carried[i] = carried
            entries = [(c, v) for c, v in enumerate(row) if v]
            if len(entries) > self.add_col.shape[1]:
                extra = len(entries) - self.add_col.shape[1]
                self.add_col = np.pad(self.add_col, ((0, 0), (0, extra)), constant_values=4 * p + 1)
                self.add_val = np.pad(self.add_val, ((0, 0), (0, extra)))
            for k, (c, v) in enumerate(entries):
                self.add_col[i, k], self.add_val[i, k] = c, v
        child = head[Col.CHILD]
        word = child << Word.CHILD | head[Col.KEYED]
        if head[Col.WRITE] >= 0:
            word |= Word.POSTS
            self.post_col[i] = 3 * p + 1 + head[Col.WRITE]
        if head[Col.TOUCH]:
            word |= Word.TOUCH
        if any(carried):
            word |= Word.CARRIES
        if rest and self._info[child][0] == NodeKind.DECIDE:
            word |= Word.ENDS
        self.step_word[i] = word
        self.n_steps += 1
        return i

    def _record(
        self,
        node: int,
        base: MatchState,
        after: MatchState,
        ended: bool,
        dtot: tuple[int, ...],
        carried: tuple[int, ...] = (),
        keyed: int = 0,
    ) -> int:
        """Store a step from ``node`` (played from ``base``) to ``after``, which added ``dtot``
        to the totals and the round's scores of the seats ``carried`` (``ended``: it stopped
        at a round's end)."""
        p = self.players
        mask = [int(s in carried) for s in range(p)]
        adds = [
            *dtot,
            *(a - b for a, b in zip(after.sips, base.sips)),
            *(a - b for a, b in zip(after.wins, base.wins)),
            *mask,
        ]
        head = _head(keyed)
        posted = [s for s, x in enumerate(after.round_scores) if isinstance(x, Posted)]
        if posted:
            head[Col.WRITE] = posted[0]
        tail = [-1] * (2 * p)
        res = appended(base.results, after.results)
        if res is not None:
            head[Col.NEW_ROUND], head[Col.STARTER] = 1, res.starter
            head[Col.WINNER] = -1 if res.winner is None else res.winner
            head[Col.OWN] = int(not res.tie_round)
            tail = [_round_score(x) for x in res.scores]
            tail += list(res.seats) + [-1] * (p - len(res.seats))
        head[Col.TOUCH] = int(head[Col.NEW_ROUND] == 1 or any(adds))
        decided = self._info[node][0] == NodeKind.DECIDE
        head[Col.CHILD] = self._node(evolve(after, totals=(0,) * p), ended=ended, decided=decided)
        return self._row(head, adds + tail, mask)

    def _base(self, node: int, ctx: tuple[int | None, int | None]) -> MatchState:
        """The state a step of ``node`` is played from in context ``ctx``: its scores of the
        round by a pattern of zeros (bit s: seat s scored), its count of rounds."""
        state = self.states[node]
        zeros, count = ctx
        if zeros is not None:
            scores = tuple(
                (CARRIED[s] if zeros >> s & 1 else 0) if isinstance(x, Scored) else x
                for s, x in enumerate(state.round_scores)
            )
            state = evolve(state, round_scores=scores)
        if count is not None:
            state = evolve(state, results=counted_rounds(count))
        return state

    def _resolve(self, code: int, ctx: tuple[int | None, int | None]) -> int:
        """The step of (node, outcome) ``code`` in context ``ctx``, or a row that says what
        else it must be resolved by (:attr:`Word.KEYED`): the pattern of zeros, the count."""
        node, outcome = divmod(code, self.width)
        try:
            i = self._played(node, outcome, self._base(node, ctx))
        except ScoresRead:
            if ctx[0] is not None:  # the scores' values, beyond whether they are 0
                if self._checking:
                    raise
                raise AssertionError(
                    f"the engine compared a round's scores at a step of {self.rules}, which "
                    "the step tables' check of the rule set did not meet (MatchTable.carries)"
                ) from None
            i = self._row(_head(keyed=Word.ZEROS), [], [])
        except CountRead:
            i = self._row(_head(keyed=Word.COUNT), [], [])
        self._code[i], self._ctx[i] = code, ctx
        return i

    def _played(self, node: int, outcome: int, base: MatchState) -> int:
        """The step of ``outcome`` at ``node`` played from ``base``: plain, or keyed by the
        order of the totals if it compares them."""
        act = self._act(node, outcome)
        try:
            after, ended = act(evolve(base, totals=tuple(Offset(0) for _ in self.bots)))
        except TotalsRead:
            after, ended = act(base)  # zero totals: what the step adds to them
            return self._record(node, base, after, ended, after.totals, keyed=Word.TOTALS)
        offsets: tuple[Offset, ...] = after.totals  # type: ignore[assignment]
        carried = tuple(s for t in offsets for s in t.carried)
        return self._record(node, base, after, ended, tuple(t.value for t in offsets), carried)

    def plain_step(self, code: int) -> int:
        """The step of (node, outcome) ``code``; marked keyed if it counts the finished rounds
        or compares the totals.  A turn's score that can no longer win its round is the step of
        the lowest score (:attr:`low`): it posts the match's own score all the same."""
        node, outcome = divmod(code, self.width)
        state = self.states[node]
        if (
            self.carry
            and self._info[node][0] == NodeKind.TURN
            and outcome > self.low
            and state.contest is not None
            and beaten(state.contest.scores, state.contest.slots, outcome)
        ):
            low = node * self.width + self.low
            if self.plain[low] < 0:
                self.plain[low] = self.plain_step(low)
            return int(self.plain[low])
        return self._resolve(code, (None, None))

    def zeros_step(self, step: int, pattern: int) -> int:
        """A zero-keyed step played with the round's scores in ``pattern`` (bit s: seat s
        scored above 0); patterns that differ only in seats that have not posted share it."""
        node = self._code[step] // self.width
        scored = sum(1 << s for s, x in enumerate(self.states[node].round_scores) if x is not None)
        key = (step, pattern & scored)
        i = self._zero_ids.get(key)
        if i is None:
            i = self._zero_ids[key] = self._resolve(self._code[step], (key[1], None))
        return i

    def count_step(self, step: int, count: int) -> int:
        """A count-keyed step played with ``count`` finished rounds of the match's own."""
        return self._resolve(self._code[step], (self._ctx[step][0], count))

    def keyed_step(self, step: int, key: int) -> int:
        """A keyed step played from totals in the order ``key`` describes (a
        :meth:`totals_key`; and in its context: zeros, count)."""
        node, outcome = divmod(self._code[step], self.width)
        p = self.players
        dtot = tuple(int(x) for x in self.steps[step, Col.FIXED : Col.FIXED + p])
        final = self.synthetic(key)
        base = self._base(node, self._ctx[step])
        try:
            after, ended = self._act(node, outcome)(
                evolve(base, totals=tuple(f - d for f, d in zip(final, dtot)))
            )
        except CountRead:
            raise AssertionError(
                "the engine counted the finished rounds after comparing the totals; the step "
                "tables resolve the count first"
            ) from None
        assert after.totals == final, (after.totals, final)
        return self._record(node, base, after, ended, dtot)

    def reads_zeros(self, nodes: np.ndarray) -> np.ndarray:
        """Per round-end node: whether its decision asks if the round's scores were 0 (then
        not found by count and totals alone)."""
        if len(self.zeros_at) < len(self.states):
            grown = np.full(2 * len(self.states), -1, dtype=np.int64)
            grown[: len(self.zeros_at)] = self.zeros_at
            self.zeros_at = grown
        known: np.ndarray = self.zeros_at[nodes]
        if known.min() < 0:
            for n in np.unique(nodes[known < 0]).tolist():
                code = n * self.width
                if self.plain[code] < 0:
                    self.plain[code] = self.plain_step(code)
                self.zeros_at[n] = int(self.step_word[self.plain[code]] & Word.ZEROS != 0)
            known = self.zeros_at[nodes]
        reads: np.ndarray = known == 1
        return reads

    def decision(self, node: int, key: int) -> int:
        """:func:`~.fast.decision_step`, which the tables look up by node and key."""
        from .fast import decision_step

        return decision_step(self, node, key)

    # -- the rule set's own check -------------------------------------------------------------
    def carries(self) -> bool:
        """Whether the engine only adds up and tests the round's scores under these rules:
        one round played on the tables to its end and the format's decision, every seat
        scoring, the last the best; False where the engine read a score beyond that (the
        step tables then keep the exact scores)."""
        positive = [x for x in turn_scores(self.rules) if x > 0]
        node, posted, p = self.start, 0, self.players
        self._checking = True
        try:
            for _ in range(4 * p):
                kind = self._info[node][0]
                if kind == NodeKind.OVER:
                    break
                if kind == NodeKind.DICE:  # the roll-off: the first to roll wins it
                    outcome = 5 if not self.states[node].contest.scores else 0  # type: ignore[union-attr]
                elif kind == NodeKind.TURN:
                    outcome, posted = positive[min(posted, len(positive) - 1)], posted + 1
                else:
                    outcome = 0
                step = self.plain_step(node * self.width + outcome)
                if self.steps[step, Col.KEYED] == Word.ZEROS:
                    step = self.zeros_step(step, 2**p - 1)
                if self.steps[step, Col.KEYED] == Word.COUNT:
                    step = self.count_step(step, 0)
                if self.steps[step, Col.KEYED] == Word.TOTALS:
                    step = self.keyed_step(step, int(self.totals_key(np.zeros((p, 1)))[0]))
                if kind == NodeKind.DECIDE:
                    break
                node = int(self.steps[step, Col.CHILD])
        except ScoresRead:
            return False
        finally:
            self._checking = False
        return True

    # -- what of the totals the engine reads ----------------------------------------------------
    def totals_key(self, totals: np.ndarray) -> np.ndarray:
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

    def synthetic(self, key: int) -> tuple[int, ...]:
        """Totals with the order (and marks) of ``key``."""
        p = self.players
        reached, ranks = divmod(key, p**p)
        r = [(ranks // p**s) % p for s in range(p)]
        if self.mark is None:
            return tuple(r)
        return tuple(
            self.mark + r[s] if (reached >> s) & 1 else self.mark - p + r[s] for s in range(p)
        )


#: The most totals keys a dense table of keyed steps takes (two players have 16, three 216).
DENSE_KEYS = 64
#: The most totals keys for which the format's decisions are looked up by count and order of
#: the totals in one dense table (:attr:`MatchTable.by_decision`; four players have 4,096).
DECISION_KEYS = 4096

_CACHE: dict[tuple[Rules, tuple[str, ...]], MatchTable] = {}


def match_table(rules: Rules, bots: list[str]) -> MatchTable:
    """The (cached, per process) step tables of a set-up: carrying the round's scores where
    the rule set lets them (:meth:`MatchTable.carries`), else holding them exactly."""
    key = (rules, tuple(bots))
    table = _CACHE.get(key)
    if table is None:
        if len(_CACHE) > 64:
            _CACHE.clear()
        table = MatchTable(rules, bots)
        if not table.carries():
            table = MatchTable(rules, bots, carry=False)
        _CACHE[key] = table
    return table
