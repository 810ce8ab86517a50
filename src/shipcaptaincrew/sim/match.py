"""Whole matches: the engine's own match loop, fed with turns from the vectorised sampler.

Rounds, tie-breaks, stakes, drinks and match formats are played by
:func:`shipcaptaincrew.engine.apply` itself, one match at a time, so they can never drift
from the rules.  What is vectorised is the expensive part, the turns: each seat's bot has a
pool of turn scores drawn in bulk from its :class:`~.tables.TurnTable` (one pool per table
context for the ``optimal`` bot), and a sampled score is posted to the engine by playing a
fixed sequence of engine moves that ends a turn with that score (:func:`~.tables.score_paths`);
the match engine reads nothing of a finished turn but its score.

The other dice of a match (roll-off for the starter, the cargo roll-off of sheet 002, the
captain's hand-out die) are rolled from a pool of NumPy dice; the captain's sips go where the
winning seat's bot chooses (its own ``choose``).
"""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..actions import Roll
from ..bots import make_bot, session_call
from ..engine import apply, dice_to_roll, initial_state, seat_to_act
from ..rules import Rules
from ..solver import ContestView, contest_view
from ..state import MatchState, Method, Phase, RoundResult, TurnPhase
from .policy import MatchPolicy, Policy, make_policy
from .tables import TurnTable, build_table, score_paths

__all__ = ["ROUND_ARRAYS", "ROUND_DTYPE", "STAT_NAMES", "MatchRunner", "round_arrays", "table_for"]

#: Per-seat statistics of a match, in the order of the columns of :meth:`MatchRunner.run`.
STAT_NAMES = ("won", "turns", "score_sum", "crews", "chips", "sips", "total", "round_wins")

#: Per-round arrays of a run, (matches, rounds[, seats]) each, -1 where there is nothing:
#: the round's starter, its winner, each seat's score and the seats in play order.
ROUND_ARRAYS = ("round_starter", "round_winner", "round_scores", "round_order")
#: Their type: seats and scores fit in a byte (at most :data:`~..facts.MAX_PLAYERS` seats,
#: scores of a few dice), so a million matches' rounds are a few hundred MB less to fill and
#: stack; the tidy table widens them again.
ROUND_DTYPE = np.int8

_POOL = 4096
_MEMO_LIMIT = 100_000
#: Posts after which the memo is dropped unless at least half of them were hits.
_MEMO_TRIAL = 5_000
_TABLES: dict[tuple[Rules, str, int, ContestView | None], TurnTable] = {}


def table_for(rules: Rules, policy: Policy, players: int, context: ContestView | None) -> TurnTable:
    """The (cached) turn table of a policy; context-free policies share one table."""
    key = (rules, policy.name, players, context if policy.contextual else None)
    table = _TABLES.get(key)
    if table is None:
        if len(_TABLES) > 4096:
            _TABLES.clear()
        table = build_table(rules, policy, key[3])
        _TABLES[key] = table
    return table


@dataclass
class _Pool:
    """Turn scores drawn in bulk from one table, handed out one by one.

    Refills start small and double up to :data:`_POOL`, so the many rarely met table contexts
    of the ``optimal`` bot do not each draw thousands of turns that are never used.
    """

    table: TurnTable
    values: list[int] = field(default_factory=list)
    pos: int = 0
    size: int = 64

    def next(self, rng: np.random.Generator) -> int:
        """The next sampled turn, as the done node of :attr:`table` it ended in."""
        if self.pos >= len(self.values):
            self.values = self.table.sample_ends(rng, self.size).tolist()
            self.size = min(_POOL, 2 * self.size)
            self.pos = 0
        v = self.values[self.pos]
        self.pos += 1
        return v


class MatchRunner:
    """Plays matches of one rule set and line-up with one random generator.

    ``run(m)`` returns per-match arrays; everything a match draws comes from ``rng`` in a
    fixed order, so a generator seeded the same way gives the same matches.
    """

    def __init__(self, rules: Rules, bots: list[str], rng: np.random.Generator) -> None:
        self.rules = rules
        self.players = len(bots)
        self.bots = bots
        self.rng = rng
        self.policies = {b: make_policy(b, rules, self.players) for b in set(bots)}
        # Hand-outs are the bot's own choice (a Python RNG seeded from this stream for bots
        # that choose at random).
        self.bot_objects = {b: make_bot(b) for b in set(bots)}
        self._py_rng = random.Random(int(rng.integers(2**63)))
        self.paths = score_paths(rules)
        self._pools: dict[tuple[str, ContestView | None], _Pool] = {}
        self._dice: list[int] = []
        self._dice_pos = 0
        self.max_score = rules.max_score
        self._memo: dict[tuple[MatchState, int], MatchState] | None = {}
        self._lookups = 0
        self._hits = 0

    # -- random sources -----------------------------------------------------------------------
    def _die(self) -> int:
        if self._dice_pos >= len(self._dice):
            self._dice = self.rng.integers(1, 7, size=_POOL, dtype=np.int8).tolist()
            self._dice_pos = 0
        d = self._dice[self._dice_pos]
        self._dice_pos += 1
        return d

    def _turn(self, seat: int, state: MatchState) -> tuple[int, bool]:
        """A sampled turn of the seat's bot: (score, crew completed), both read off the
        table's done node (a completed crew is the engine's flag, not "score > 0")."""
        policy = self.policies[self.bots[seat]]
        if isinstance(policy, MatchPolicy):
            cdf = policy.cdf(state)
            k = min(bisect.bisect_right(cdf, float(self.rng.random())), len(cdf) - 1)
            score = policy.scores[k]
            return score, score > 0
        ctx = contest_view(state) if policy.contextual else None
        key = (policy.name, ctx)
        pool = self._pools.get(key)
        if pool is None:
            pool = _Pool(table_for(self.rules, policy, self.players, ctx))
            self._pools[key] = pool
        end = pool.next(self.rng)
        return int(pool.table.score[end]), bool(pool.table.complete[end])

    def _post(self, state: MatchState, score: int) -> MatchState:
        """Post a turn score through the engine.

        The engine is a pure function, so results are memoised while that pays: a single
        round among few players meets the same states over and over; long matches carry
        totals that rarely repeat, and there the memo switches itself off.
        """
        if self._memo is not None:
            key = (state, score)
            after = self._memo.get(key)
            self._lookups += 1
            if after is not None:
                self._hits += 1
                return after
        after = state
        for action in self.paths[score]:
            after = apply(after, action)
        if self._memo is not None:
            if self._lookups >= _MEMO_TRIAL and self._hits < self._lookups // 2:
                self._memo = None
            else:
                if len(self._memo) >= _MEMO_LIMIT:
                    self._memo.clear()
                self._memo[key] = after
        return after

    # -- one match ----------------------------------------------------------------------------
    def _new_match(self) -> MatchState:
        """The engine's opening state (under ``starter=chosen`` the engine's default starter)."""
        return initial_state(self.rules, self.players)

    def play(self, hist: np.ndarray | None = None) -> tuple[MatchState, np.ndarray]:
        """One match; returns the final state and per-seat (turns, score sum, crews)."""
        s = self._new_match()
        turns = np.zeros((self.players, 3), dtype=np.int64)
        while s.phase is not Phase.MATCH_OVER:
            if s.phase is Phase.TURN:
                assert s.turn is not None and s.contest is not None
                if (
                    s.contest.method is Method.TURN
                    and s.turn.phase is TurnPhase.ROLL
                    and s.turn.rolls_used == 0
                ):
                    seat = seat_to_act(s)
                    assert seat is not None
                    score, crew = self._turn(seat, s)

                    turns[seat, 0] += 1
                    turns[seat, 1] += score
                    turns[seat, 2] += crew
                    if hist is not None:
                        hist[seat, score] += 1
                    s = self._post(s, score)
                    continue
                raise AssertionError(f"unexpected turn state in the simulator: {s.turn}")
            if s.phase in (Phase.HAND_OUT, Phase.ANOTHER_ROUND):
                actor = seat_to_act(s)
                assert actor is not None
                bot = self.bot_objects[self.bots[actor]]
                s = apply(s, session_call(s) or bot.choose(s, self._py_rng))
                continue
            # Every other chance node (roll-off, cargo roll-off, the captain's die): the
            # engine says how many dice it takes.
            n = dice_to_roll(s)
            if n < 1:
                raise AssertionError(f"the simulator met a state it cannot play: {s.phase}")
            s = apply(s, Roll(tuple(self._die() for _ in range(n))))
        return s, turns

    def run(self, matches: int) -> dict[str, Any]:
        """Play ``matches`` matches; per-match arrays plus per-seat score histograms."""
        p = self.players
        stats = np.zeros((matches, len(STAT_NAMES), p), dtype=np.int64)
        winner = np.full(matches, -1, dtype=np.int64)
        rounds = np.zeros(matches, dtype=np.int64)
        hist = np.zeros((p, self.max_score + 1), dtype=np.int64)
        # Chips won or lost are measured from the stacks the engine deals out.
        chips0 = np.asarray(self._new_match().chips, dtype=np.int64)
        records = []
        for i in range(matches):
            s, turns = self.play(hist)
            records.append(s.results)
            if s.winner is not None:
                winner[i] = s.winner
                stats[i, 0, s.winner] = 1
            stats[i, 1:4, :] = turns.T
            stats[i, 4, :] = np.asarray(s.chips) - chips0
            stats[i, 5, :] = s.sips
            stats[i, 6, :] = s.totals
            stats[i, 7, :] = s.wins
            rounds[i] = len(s.results)
        out = {"stats": stats, "winner": winner, "rounds": rounds, "hist": hist}
        return out | round_arrays(records, p)


def round_arrays(records: list[tuple[RoundResult, ...]], players: int) -> dict[str, np.ndarray]:
    """The :data:`ROUND_ARRAYS` of matches from the engine's own round results."""
    m, width = len(records), max([len(r) for r in records] + [1])
    starter = np.full((m, width), -1, dtype=ROUND_DTYPE)
    winner = np.full((m, width), -1, dtype=ROUND_DTYPE)
    scores = np.full((m, width, players), -1, dtype=ROUND_DTYPE)
    order = np.full((m, width, players), -1, dtype=ROUND_DTYPE)
    for i, results in enumerate(records):
        for k, r in enumerate(results):
            starter[i, k] = r.starter
            winner[i, k] = -1 if r.winner is None else r.winner
            scores[i, k] = [-1 if x is None else x for x in r.scores]
            order[i, k, : len(r.seats)] = r.seats
    return dict(zip(ROUND_ARRAYS, (starter, winner, scores, order)))
