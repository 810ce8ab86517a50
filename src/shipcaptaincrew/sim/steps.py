"""The step tables of whole matches: each distinct step of a match resolved once by the engine.

A match is a walk through engine states where something random is due: a turn (the bot's
score distribution, exact from its :class:`~.tables.TurnTable`) or a roll-off die.  The
engine's answer to "this state, this outcome" is the same for every match that reaches them,
so :class:`MatchTable` asks :func:`~shipcaptaincrew.engine.post_score` (or
:func:`~shipcaptaincrew.engine.apply` for dice) once per distinct (state, outcome) and records
what it did: the next state, the change in totals, sips and round wins, and the round it
finished.  Many matches then step at once through these tables with a few NumPy gathers.

States are stored without their record (:func:`~shipcaptaincrew.engine.match_position`'s
blanking, keeping the round's scores, which drinking reads), with zero totals and without the
count of finished rounds; the real totals and counts are carried per match.  Whether a step
reads them is asked of the engine, not assumed (:mod:`.probes`): the step is first played with
totals that refuse to be compared and finished rounds that refuse to be counted.  A step that
reads neither is the same for every total and every round number, so all the rounds of a
match share their nodes.  A step that counts the rounds (the end of a round of ``rounds:N`` or
of the tournament) is resolved once per count.  A step that compares the totals (the end of
``rounds:N``, the mark of ``first_to:N``, the tournament's final places) is resolved once per
*order* of the totals after the round (ties included) and, under ``first_to:N``, which seats
reached the mark: the engine decides by totals through these two things only (grouping equal
totals, the best first; 001's mark), so it is played from synthetic totals with the same order
and marks.

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
from ..engine import (
    apply,
    counted_rounds,
    dice_to_roll,
    initial_state,
    match_position,
    post_score,
    seat_to_act,
)
from ..formats import FormatKind
from ..rules import Drinking, Rotation, Rules, Stakes
from ..solver import contest_view
from ..state import MatchState, Phase, evolve
from .dense import DenseIds
from .match import table_for
from .policy import MatchPolicy, make_policy
from .probes import Count, CountRead, Offset, TotalsRead, appended

__all__ = ["CELLS", "Col", "FastRefusal", "MatchTable", "NodeKind", "fast_refusal", "match_table"]


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


class NodeKind(IntEnum):
    """What is due at a node: a turn, dice (a roll-off), or nothing (the match is over)."""

    TURN = 0
    DICE = 1
    OVER = 2


class Col(IntEnum):
    """Columns of :attr:`MatchTable.steps`; from ``FIXED`` on, one column per seat each: the
    totals, sips and round wins the step adds, the round's scores and its play order.
    ``KEYED``: 1 resolved per order of the totals, 2 per count of finished rounds; ``OWN``: the
    round the step finished is one of the match's own (not a round of the tied)."""

    CHILD = 0
    KEYED = 1
    NEW_ROUND = 2
    STARTER = 3
    WINNER = 4
    TOUCH = 5
    OWN = 6
    FIXED = 7


def _head(keyed: int) -> list[int]:
    """The fixed columns of a new step row (up to :attr:`Col.FIXED`): no child yet, keyed as
    given, no round finished (starter and winner -1), touching nothing."""
    head = [0] * Col.FIXED
    head[Col.KEYED], head[Col.STARTER], head[Col.WINNER] = keyed, -1, -1
    return head


class MatchTable:
    """The step tables of one rule set and line-up, grown as matches meet new steps."""

    def __init__(self, rules: Rules, bots: list[str]) -> None:
        refusal = fast_refusal(rules, bots)
        if refusal is not None:
            raise ValueError(f"the step tables cannot play this set-up: {refusal.value}")
        self.rules = rules
        self.bots = list(bots)
        self.players = p = len(bots)
        self.policies = {b: make_policy(b, rules, p) for b in set(bots)}
        self.max_score = rules.max_score
        self.width = max(self.max_score + 1, 36)  # a score, or up to two dice in base 6
        fmt = rules.format
        self.mark = fmt.n if fmt.kind is FormatKind.FIRST_TO else None
        self._ids: dict[MatchState, int] = {}
        self.states: list[MatchState] = []
        self.nodes = np.zeros((64, 4), dtype=np.int64)  # kind, seat, sampler or dice, winner
        #: The same packed in one word per node for the hot loop: kind | seat << 2 | arg << 6.
        self.node_word = np.zeros(64, dtype=np.int64)
        self._info: list[tuple[int, int, int]] = []  # (kind, seat, arg) for the builders
        self._samplers: dict[tuple[str, object], int] = {}
        self.cdf: list[np.ndarray] = []
        #: Per sampler: the first outcome of each of CELLS equal slices of [0, 1), and how
        #: many outcome boundaries one slice holds at most (inverse transform by lookup).
        self.first: list[np.ndarray] = []
        self.spill: list[int] = []
        self.turn_score: list[np.ndarray] = []
        self.turn_crew: list[np.ndarray] = []
        #: (node, outcome) code -> step id (-1: not met yet); a slot for every code of every
        #: node (grown with :attr:`nodes`).
        self.plain = np.full(64 * self.width, -1, dtype=np.int64)
        self._code: dict[int, int] = {}  # plain step -> its (node, outcome) code
        self.key_space = p**p * 2**p
        #: Count-keyed steps by count of finished rounds; totals-keyed steps by totals key, in
        #: a dense table where the keys are few (two players), else as sorted
        #: (keyed step, totals key) combinations and their step ids.
        self.by_count = DenseIds(8)
        self.by_totals = DenseIds(self.key_space) if self.key_space <= DENSE_KEYS else None
        self.keyed_keys = np.zeros(0, dtype=np.int64)
        self.keyed_vals = np.zeros(0, dtype=np.int64)
        self._count_of: dict[int, int] = {}  # a step resolved at a count -> that count
        self.steps = np.zeros((256, Col.FIXED + 5 * p), dtype=np.int64)
        #: Per step, what it adds to a match's record, contiguous for the hot loops: the
        #: totals, sips and round wins by seat (as in :attr:`steps`), then its :attr:`Col.OWN`.
        self.adds = np.zeros((256, 3 * p + 1), dtype=np.int64)
        self.n_steps = 0
        #: The same packed for the hot loop: child << 3 | touches the record << 2 | keyed.
        self.step_word = np.zeros(256, dtype=np.int64)
        self.start = self._node(initial_state(rules, p))

    # -- nodes --------------------------------------------------------------------------------
    def _over(self, winner: int | None) -> MatchState:
        return evolve(
            self.states[0], phase=Phase.MATCH_OVER, winner=winner, contest=None, turn=None
        )

    def _rep(self, state: MatchState) -> MatchState:
        if isinstance(state.results, Count):  # the child of a step played on a node
            state = evolve(state, results=())
        pos = match_position(state)
        return evolve(
            pos,
            round_scores=state.round_scores,
            totals=(0,) * self.players,
            # Every format alike: where the engine never counts the rounds, nothing raises.
            results=Count(),
        )

    def _node(self, state: MatchState) -> int:
        # A finished match is its winner: nothing else of it is read.
        rep = self._over(state.winner) if state.phase is Phase.MATCH_OVER else self._rep(state)
        i = self._ids.get(rep)
        if i is not None:
            return i
        i = len(self.states)
        if i >= len(self.nodes):
            self.nodes = np.concatenate([self.nodes, np.zeros_like(self.nodes)])
            self.node_word = np.concatenate([self.node_word, np.zeros_like(self.node_word)])
            # Every node's outcome codes have a slot, so the hot loop gathers unchecked.
            self.plain = np.concatenate([self.plain, np.full_like(self.plain, -1)])
        row = self.nodes[i]
        if rep.phase is Phase.MATCH_OVER:
            row[:] = (NodeKind.OVER, 0, 0, -1 if rep.winner is None else rep.winner)
        elif rep.phase is Phase.TURN:
            seat = seat_to_act(rep)
            assert seat is not None
            row[:] = (NodeKind.TURN, seat, self._sampler(seat, rep), -1)
        elif rep.phase in (Phase.ROLL_OFF, Phase.CARGO_ROLL_OFF):
            seat = seat_to_act(rep)
            assert seat is not None
            row[:] = (NodeKind.DICE, seat, dice_to_roll(rep), -1)
        else:
            raise AssertionError(f"the step tables met a state they cannot play: {rep.phase}")
        kind, seat_, arg = (int(x) for x in row[:3])
        self._info.append((kind, seat_, arg))
        self.node_word[i] = kind | seat_ << 2 | arg << 6
        self._ids[rep] = i
        self.states.append(rep)
        return i

    def _sampler(self, seat: int, rep: MatchState) -> int:
        policy = self.policies[self.bots[seat]]
        ctx = contest_view(rep) if policy.contextual else None
        key = (policy.name, ctx)
        k = self._samplers.get(key)
        if k is None:
            table = table_for(self.rules, policy, self.players, ctx)
            ends = sorted(table.ends().items())
            probs = np.array([float(q) for _, q in ends])
            cdf = np.cumsum(probs) / probs.sum()
            cdf[-1] = 1.0
            self.cdf.append(cdf)
            self.first.append(np.searchsorted(cdf, np.arange(CELLS) / CELLS, side="right"))
            self.spill.append(int(np.bincount((cdf[:-1] * CELLS).astype(np.int64)).max()))
            self.turn_score.append(np.array([int(table.score[e]) for e, _ in ends]))
            self.turn_crew.append(np.array([int(table.complete[e]) for e, _ in ends]))
            k = self._samplers[key] = len(self.cdf) - 1
        return k

    # -- steps --------------------------------------------------------------------------------
    def _act(self, node: int, outcome: int) -> Callable[[MatchState], MatchState]:
        kind, _, dice = self._info[node]
        if kind == NodeKind.TURN:
            return lambda s: post_score(s, outcome)
        faces = tuple(1 + (outcome // 6**k) % 6 for k in range(int(dice)))
        return lambda s: apply(s, Roll(faces))

    def _row(self, head: list[int], rest: list[int]) -> int:
        """Append a step row, built as a Python list and stored at once (small NumPy writes
        cost more than the rest)."""
        i = self.n_steps
        if i >= len(self.steps):
            self.steps = np.concatenate([self.steps, np.zeros_like(self.steps)])
        if i >= len(self.step_word):
            self.step_word = np.concatenate([self.step_word, np.zeros_like(self.step_word)])
            self.adds = np.concatenate([self.adds, np.zeros_like(self.adds)])
        self.steps[i, : len(head) + len(rest)] = head + rest
        if rest:
            self.adds[i] = rest[: 3 * self.players] + [head[Col.OWN]]
        self.step_word[i] = head[Col.CHILD] << 3 | head[Col.TOUCH] << 2 | head[Col.KEYED]
        self.n_steps += 1
        return i

    def _record(
        self, base: MatchState, after: MatchState, dtot: tuple[int, ...], keyed: int = 0
    ) -> int:
        """Store a step from ``base`` to ``after`` (which added ``dtot`` to the totals)."""
        p = self.players
        adds = [
            *dtot,
            *(a - b for a, b in zip(after.sips, base.sips)),
            *(a - b for a, b in zip(after.wins, base.wins)),
        ]
        head = _head(keyed)
        tail = [-1] * (2 * p)
        res = appended(base.results, after.results)
        if res is not None:
            head[Col.NEW_ROUND], head[Col.STARTER] = 1, res.starter
            head[Col.WINNER] = -1 if res.winner is None else res.winner
            head[Col.OWN] = int(not res.tie_round)
            tail = [-1 if x is None else x for x in res.scores]
            tail += list(res.seats) + [-1] * (p - len(res.seats))
        head[Col.TOUCH] = int(head[Col.NEW_ROUND] == 1 or any(adds))
        head[Col.CHILD] = self._node(evolve(after, totals=(0,) * p))
        return self._row(head, adds + tail)

    def _played(self, node: int, outcome: int, base: MatchState) -> int:
        """The step of ``outcome`` at ``node`` played from ``base`` (the node, or the node at
        a known round count): plain, or keyed by the order of the totals if it compares them."""
        act = self._act(node, outcome)
        try:
            after = act(evolve(base, totals=tuple(Offset(0) for _ in range(self.players))))
        except TotalsRead:
            after = act(base)  # zero totals: what the step adds to them
            return self._record(base, after, after.totals, keyed=1)
        offsets: tuple[Offset, ...] = after.totals  # type: ignore[assignment]
        return self._record(base, after, tuple(t.value for t in offsets))

    def plain_step(self, code: int) -> int:
        """The step of (node, outcome) ``code``; marked keyed if it counts the finished rounds
        or compares the totals."""
        node, outcome = divmod(code, self.width)
        try:
            i = self._played(node, outcome, self.states[node])
        except CountRead:
            # Resolved per count (:meth:`count_step`); this row only says so.
            i = self._row(_head(keyed=2), [])
        self._code[i] = code
        return i

    def count_step(self, step: int, count: int) -> int:
        """A count-keyed step played with ``count`` finished rounds of the match's own."""
        node, outcome = divmod(self._code[step], self.width)
        base = evolve(self.states[node], results=counted_rounds(count))
        i = self._played(node, outcome, base)
        self._code[i], self._count_of[i] = self._code[step], count
        return i

    def keyed_step(self, step: int, key: int) -> int:
        """A keyed step played from totals in the order ``key`` describes (a
        :meth:`totals_key`; and at its count of rounds, if it has one)."""
        node, outcome = divmod(self._code[step], self.width)
        p = self.players
        dtot = tuple(int(x) for x in self.steps[step, Col.FIXED : Col.FIXED + p])
        final = self.synthetic(key)
        base = self.states[node]
        if step in self._count_of:
            base = evolve(base, results=counted_rounds(self._count_of[step]))
        try:
            after = self._act(node, outcome)(
                evolve(base, totals=tuple(f - d for f, d in zip(final, dtot)))
            )
        except CountRead:
            raise AssertionError(
                "the engine counted the finished rounds after comparing the totals; the step "
                "tables resolve the count first"
            ) from None
        assert after.totals == final, (after.totals, final)
        return self._record(base, after, dtot)

    # -- what of the totals the engine reads ----------------------------------------------------
    def totals_key(self, totals: np.ndarray) -> np.ndarray:
        """Per row: the order of the totals (each seat's count of lower totals) and, under
        ``first_to:N``, which seats reached N, as one integer."""
        p = self.players
        ranks = (totals[:, None, :] < totals[:, :, None]).sum(axis=2)
        key: np.ndarray = (ranks * p ** np.arange(p)).sum(axis=1)
        if self.mark is not None:
            reached = (totals >= self.mark) * 2 ** np.arange(p)
            key = key + reached.sum(axis=1) * p**p
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


#: Slices of [0, 1) in the inverse-transform lookup of a turn's outcome.
CELLS = 4096
#: The most totals keys a dense table of keyed steps takes (two players have 16, three 216).
DENSE_KEYS = 64

_CACHE: dict[tuple[Rules, tuple[str, ...]], MatchTable] = {}


def match_table(rules: Rules, bots: list[str]) -> MatchTable:
    """The (cached, per process) step tables of a set-up."""
    key = (rules, tuple(bots))
    table = _CACHE.get(key)
    if table is None:
        if len(_CACHE) > 64:
            _CACHE.clear()
        table = _CACHE[key] = MatchTable(rules, bots)
    return table
