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
  (:func:`~shipcaptaincrew.positions.beaten`) is posted as the lowest score that stands for all
  of them: one step, not one per value.
* **The end of a round is a node of its own** (:func:`~shipcaptaincrew.positions.to_round_end`):
  the step that ends a round stops where the totals, wins and drinks are counted, and the
  format's decision (:func:`~shipcaptaincrew.positions.after_round`) is a second step from a
  :attr:`~.nodes.Due.DECIDE` node, which a few ways of ending rounds share.
* **Totals and the count of rounds are not in the nodes**: a step is first played with
  totals that refuse to be compared and finished rounds that refuse to be counted.  A step
  that counts the rounds (the format's decision under ``rounds:N`` or the tournament) is
  resolved once per count; one that compares the totals (``rounds:N`` at its end,
  ``first_to:N``'s mark, the tournament's places) once per *order* of the totals (ties
  included) and, under ``first_to:N``, which seats reached the mark: the engine decides by
  totals through these two things only, so it is played from synthetic totals with the same
  order and marks.

What is not tabled, and plays through :class:`~..match.MatchRunner` instead
(:func:`fast_refusal` says which): pot games (the chips decide who can ante), the captain's
hand-out and sessions (a bot chooses, reading the whole match), ``rotation=loser`` (the next
starter depends on the last round's line) and the match-optimal bot (its turn reads the
totals; the tables play it under ``rounds:N`` beyond the exact solver, :mod:`.match_turns`).

Every random number is keyed by (seed, match, seat, draw) (:mod:`..keyed`) and turns are
sampled by inverse transform, so runs that differ in one seat's bot share everyone's numbers.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...actions import Roll
from ...engine import apply, counted_rounds, initial_state, post_score
from ...facts import FACES
from ...positions import after_round, beaten, to_round_end, turn_scores
from ...rules import Rules
from ...state import MatchState, evolve
from .dense import DenseIds, SortedIds, TotalsKeys
from .nodes import Due, NodeGraph
from .probes import (
    CARRIED_SCORES,
    CountRead,
    PostedMark,
    PostedScore,
    ScoresRead,
    TotalsProbe,
    TotalsRead,
)
from .refusal import MODELLED, FastRefusal, fast_refusal
from .rows import RecordRows, Row, StepBits, StepColumn, StepRows, head_row, step_row
from .samplers import TurnSamplers

__all__ = [
    "StepColumn",
    "FastRefusal",
    "MatchTable",
    "Due",
    "StepBits",
    "fast_refusal",
    "match_table",
]


class MatchTable:
    """The step tables of one rule set and line-up, grown as matches meet new steps: the
    bots' turn samplers (:attr:`samplers`), the nodes (:attr:`nodes`), the step rows
    (:attr:`rows`) and the lookups from a node and an outcome, or a keyed step and its key,
    to a step id; asking the engine for every step not met before."""

    def __init__(self, rules: Rules, bots: list[str], *, scores_carried: bool = True) -> None:
        refusal = fast_refusal(rules, bots)
        if refusal is FastRefusal.UNMODELLED:
            MODELLED.check(rules)  # the refusal that names the option
        if refusal is not None:
            raise ValueError(f"the step tables cannot play this set-up: {refusal.value}")
        self.rules = rules
        self.players = p = len(bots)
        self.scores_carried = scores_carried
        self.samplers = TurnSamplers(rules, bots)
        self.nodes = NodeGraph(p, self.samplers, scores_carried)
        #: The rows of a match's record (:func:`~.fast.new_record`).
        self.rec = RecordRows(p)
        self.rows = StepRows(p, self.rec)
        self.keys = TotalsKeys(rules, p)
        self.max_score = rules.max_score
        # An outcome code: a score, or a roll-off's dice (up to the cargo's) in base 6.
        self.width = max(self.max_score + 1, len(FACES) ** rules.cargo_dice)
        #: The score that stands for every score that can no longer win its round.
        self.low = min(x for x in turn_scores(rules) if x > 0)
        #: (node, outcome) code -> step id (-1: not met yet); a slot for every code of every
        #: node (grown with the nodes).
        self.by_outcome = np.full(64 * self.width, -1, dtype=np.int64)
        self._code: dict[int, int] = {}  # plain step -> its (node, outcome) code
        #: A step resolved per zero pattern or count -> (that pattern or None, that count or None).
        self._ctx: dict[int, tuple[int | None, int | None]] = {}
        self._zero_ids: dict[tuple[int, int], int] = {}  # (step, pattern it reads) -> id
        #: Steps by the pattern of zeros among the round's scores (bit s: seat s scored);
        #: count-keyed steps by count of finished rounds (dense tables); totals-keyed steps
        #: by totals key (:attr:`by_totals`, below).
        self.by_zeros = DenseIds(2**p)
        self.by_count = DenseIds(8)
        #: Totals-keyed steps as sorted (keyed step, totals key) combinations and their ids.
        self.by_totals = SortedIds()
        self._checking = False  # in :meth:`carries`, where a read score is an answer
        self.start = self._node(initial_state(rules, p))

    def _node(self, state: MatchState, *, ended: bool = False, decided: bool = False) -> int:
        """The node of ``state`` (:meth:`.nodes.NodeGraph.node`)."""
        i = self.nodes.node(state, ended=ended, decided=decided)
        if len(self.by_outcome) < len(self.nodes.word) * self.width:
            # Every node's outcome codes have a slot, so the hot loop gathers unchecked.
            self.by_outcome = np.concatenate([self.by_outcome, np.full_like(self.by_outcome, -1)])
        return i

    def _record(self, node: int, after: MatchState, ended: bool, row: Row) -> int:
        """Store a step from ``node`` to ``after`` (``ended``: it stopped at a round's end),
        laid out as ``row`` (:func:`~.rows.step_row`): its child node found or added."""
        head, rest, mask = row
        decided = self.nodes.due(node) == Due.DECIDE
        child = self._node(evolve(after, totals=(0,) * self.players), ended=ended, decided=decided)
        head[StepColumn.CHILD] = child
        return self.rows.add(head, rest, mask, ends=self.nodes.due(child) == Due.DECIDE)

    def _keyed(self, keyed: int) -> int:
        """A row that says what else a step must be resolved by (:attr:`StepBits.KEYED`)."""
        return self.rows.add(head_row(keyed), [], [], ends=False)

    # -- steps --------------------------------------------------------------------------------
    def _act(self, node: int, outcome: int) -> Callable[[MatchState], tuple[MatchState, bool]]:
        """What the engine does at ``node`` with ``outcome``: the state it leads to, stopped at
        a round's end, and whether the round ended there."""
        kind, seat, dice = self.nodes.info[node]
        if kind == Due.DECIDE:
            return lambda s: (after_round(s), False)
        # Holding the round's exact scores, a round ends in as many ways as they make: the
        # format's decision is then no node of its own (it would only add nodes).
        stop = to_round_end if self.scores_carried else lambda step: (step(), False)
        if kind == Due.TURN:
            score = PostedScore(outcome, seat) if self.scores_carried else outcome
            return lambda s: stop(lambda: post_score(s, score))
        faces = tuple(1 + (outcome // 6**k) % 6 for k in range(int(dice)))
        return lambda s: stop(lambda: apply(s, Roll(faces)))

    def _base(self, node: int, ctx: tuple[int | None, int | None]) -> MatchState:
        """The state a step of ``node`` is played from in context ``ctx``: its scores of the
        round by a pattern of zeros (bit s: seat s scored), its count of rounds."""
        state = self.nodes.states[node]
        zeros, count = ctx
        if zeros is not None:
            scores = tuple(
                (CARRIED_SCORES[s] if zeros >> s & 1 else 0) if isinstance(x, PostedMark) else x
                for s, x in enumerate(state.round_scores)
            )
            state = evolve(state, round_scores=scores)
        if count is not None:
            state = evolve(state, results=counted_rounds(count))
        return state

    def _resolve(self, code: int, ctx: tuple[int | None, int | None]) -> int:
        """The step of (node, outcome) ``code`` in context ``ctx``, or a row that says what
        else it must be resolved by (:attr:`StepBits.KEYED`): the pattern of zeros, the count."""
        node, outcome = divmod(code, self.width)
        try:
            i = self._played(node, outcome, self._base(node, ctx))
        except ScoresRead:
            if ctx[0] is not None:  # the scores' values, beyond whether they are 0
                if self._checking:
                    raise
                raise AssertionError(
                    f"the engine compared a round's scores at a step of {self.rules}, which "
                    "the step tables' check of the rule set did not meet (MatchTable.can_carry_scores)"
                ) from None
            i = self._keyed(StepBits.ZEROS)
        except CountRead:
            i = self._keyed(StepBits.COUNT)
        self._code[i], self._ctx[i] = code, ctx
        return i

    def _played(self, node: int, outcome: int, base: MatchState) -> int:
        """The step of ``outcome`` at ``node`` played from ``base``: plain, or keyed by the
        order of the totals if it compares them."""
        act = self._act(node, outcome)
        try:
            after, ended = act(
                evolve(base, totals=tuple(TotalsProbe(0) for _ in range(self.players)))
            )
        except TotalsRead:
            after, ended = act(base)  # zero totals: what the step adds to them
            row = step_row(self.players, base, after, after.totals, keyed=StepBits.TOTALS)
            return self._record(node, after, ended, row)
        offsets: tuple[TotalsProbe, ...] = after.totals  # type: ignore[assignment]
        carried = tuple(s for t in offsets for s in t.carried)
        dtot = tuple(t.value for t in offsets)
        row = step_row(self.players, base, after, dtot, carried=carried)
        return self._record(node, after, ended, row)

    def outcome_step(self, code: int) -> int:
        """The step of (node, outcome) ``code``; marked keyed if it counts the finished rounds
        or compares the totals.  A turn's score that can no longer win its round is the step of
        the lowest score (:attr:`low`): it posts the match's own score all the same."""
        node, outcome = divmod(code, self.width)
        state = self.nodes.states[node]
        if (
            self.scores_carried
            and self.nodes.due(node) == Due.TURN
            and outcome > self.low
            and state.contest is not None
            and beaten(state.contest.scores, state.contest.slots, outcome)
        ):
            low = node * self.width + self.low
            if self.by_outcome[low] < 0:
                self.by_outcome[low] = self.outcome_step(low)
            return int(self.by_outcome[low])
        return self._resolve(code, (None, None))

    def zeros_step(self, step: int, pattern: int) -> int:
        """A zero-keyed step played with the round's scores in ``pattern`` (bit s: seat s
        scored above 0); patterns that differ only in seats that have not posted share it."""
        node = self._code[step] // self.width
        scored = sum(
            1 << s for s, x in enumerate(self.nodes.states[node].round_scores) if x is not None
        )
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
        :meth:`~.dense.TotalsKeys.key_of`; and in its context: zeros, count)."""
        node, outcome = divmod(self._code[step], self.width)
        p = self.players
        dtot = tuple(int(x) for x in self.rows.steps[step, StepColumn.FIXED : StepColumn.FIXED + p])
        final = self.keys.totals_of(key)
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
        return self._record(node, after, ended, step_row(self.players, base, after, dtot))

    # -- the rule set's own check -------------------------------------------------------------
    def can_carry_scores(self) -> bool:
        """Whether the engine only adds up and tests the round's scores under these rules:
        one round played on the tables to its end and the format's decision, every seat
        scoring, the last the best; False where the engine read a score beyond that (the
        step tables then keep the exact scores)."""
        positive = [x for x in turn_scores(self.rules) if x > 0]
        node, posted, p = self.start, 0, self.players
        self._checking = True
        try:
            for _ in range(4 * p):
                kind = self.nodes.due(node)
                if kind == Due.OVER:
                    break
                if kind == Due.DICE:  # the roll-off: the first to roll wins it
                    outcome = 5 if not self.nodes.states[node].contest.scores else 0  # type: ignore[union-attr]
                elif kind == Due.TURN:
                    outcome, posted = positive[min(posted, len(positive) - 1)], posted + 1
                else:
                    outcome = 0
                step = self.outcome_step(node * self.width + outcome)
                if self.rows.steps[step, StepColumn.KEYED] == StepBits.ZEROS:
                    step = self.zeros_step(step, 2**p - 1)
                if self.rows.steps[step, StepColumn.KEYED] == StepBits.COUNT:
                    step = self.count_step(step, 0)
                if self.rows.steps[step, StepColumn.KEYED] == StepBits.TOTALS:
                    step = self.keyed_step(step, int(self.keys.key_of(np.zeros((p, 1)))[0]))
                if kind == Due.DECIDE:
                    break
                node = int(self.rows.steps[step, StepColumn.CHILD])
        except ScoresRead:
            return False
        finally:
            self._checking = False
        return True


_CACHE: dict[tuple[Rules, tuple[str, ...]], MatchTable] = {}


def match_table(rules: Rules, bots: list[str]) -> MatchTable:
    """The (cached, per process) step tables of a set-up: carrying the round's scores where
    the rule set lets them (:meth:`MatchTable.can_carry_scores`), else holding them exactly."""
    key = (rules, tuple(bots))
    table = _CACHE.get(key)
    if table is None:
        if len(_CACHE) > 64:
            _CACHE.clear()
        table = MatchTable(rules, bots)
        if not table.can_carry_scores():
            table = MatchTable(rules, bots, scores_carried=False)
        _CACHE[key] = table
    return table
