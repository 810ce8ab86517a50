"""The nodes of the step tables: the engine states of a match where something is due.

A node is an engine state kept as the rest of the match reads it
(:func:`~shipcaptaincrew.engine.match_position`, then
:func:`~shipcaptaincrew.positions.contest_position`): no record, zero totals, an unknown
count of finished rounds (:class:`~.probes.CountProbe`), and the round's own scores carried by
each match rather than held by the node (:class:`~.probes.PostedMark`: whether a seat has posted,
nothing more).  So the rounds of a match share their nodes, and so do all the ways a round
can reach a position: a score that can no longer win the round is a 0 in the contest and a
carried value in the round's scores.

What is due at a node (:class:`Due`): a turn (drawn from the bot's exact score
distribution, :attr:`NodeTable.cdf`), dice (a roll-off), nothing more (the match is over), or
the format's decision after a round has ended (:func:`~shipcaptaincrew.positions.to_round_end`
stops there; the decision is a step of its own, with no random number).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from typing import Any

import numpy as np

from ...engine import dice_to_roll, match_position, seat_to_act
from ...positions import contest_position
from ...rules import Rules
from ...solver import contest_view
from ...state import MatchState, Phase, evolve
from ..inverse import InverseCdf
from ..match import table_for
from ..policy import MatchPolicy, make_policy
from .match_turns import MatchTurns, plays, round_turn
from .probes import DECIDED_MARK, POSTED_MARKS, CountProbe, DecidedMark, PostedMark

__all__ = ["Due", "NodeTable", "arg_at", "due_at", "pack_node", "seat_at"]

#: A turn sampler's outcomes: their chances, scores and crews completed (1/0).
Sampler = tuple[np.ndarray, np.ndarray, np.ndarray]


class Due(IntEnum):
    """What is due at a node: a turn, dice (a roll-off), nothing (the match is over), or the
    format's decision after a round (:attr:`DECIDE`: no random number; the step tables go
    on through it within the step that ended the round)."""

    TURN = 0
    DICE = 1
    OVER = 2
    DECIDE = 3


#: A node's packed word (:attr:`NodeTable.node_word`), one int64 per node for the hot loops:
#: what is due in the low bits, then the seat to act, then the sampler (a turn) or the
#: number of dice (a roll-off).  Read it through the helpers below, never with bare masks.
_DUE_BITS, _SEAT_BITS = 2, 4
_SEAT_SHIFT, _ARG_SHIFT = _DUE_BITS, _DUE_BITS + _SEAT_BITS


def pack_node(due: Due, seat: int, arg: int) -> int:
    """A node's word: what is due, the seat to act, the sampler or the number of dice.

    >>> word = pack_node(Due.TURN, 3, 17)
    >>> int(due_at(word)), int(seat_at(word)), int(arg_at(word))
    (0, 3, 17)
    """
    return int(due) | seat << _SEAT_SHIFT | arg << _ARG_SHIFT


def due_at(word: Any) -> Any:
    """What is due (a :class:`Due` value) at node words ``word`` (an int or an array)."""
    return word & ((1 << _DUE_BITS) - 1)


def seat_at(word: Any) -> Any:
    """The seat to act at node words ``word``."""
    return (word >> _SEAT_SHIFT) & ((1 << _SEAT_BITS) - 1)


def arg_at(word: Any) -> Any:
    """The turn's sampler (a turn node) or the number of dice (a roll-off) of ``word``."""
    return word >> _ARG_SHIFT


def _marker(x: object) -> object:
    """A round's score as a node's key holds it: the stand-ins by name, so that keys compare
    without asking a stand-in what it is."""
    if isinstance(x, PostedMark):
        return "+"
    if isinstance(x, DecidedMark):
        return "?"
    return x


class NodeTable:
    """The nodes of one rule set and line-up, and the turn samplers of its bots.

    ``scores_carried``: the round's scores are carried by each match (the default, where the engine
    only adds them up and tests them against 0); otherwise the nodes hold them exactly.
    """

    def __init__(self, rules: Rules, bots: list[str], scores_carried: bool) -> None:
        self.rules = rules
        self.bots = list(bots)
        self.players = p = len(bots)
        self.scores_carried = scores_carried
        self.policies = {b: make_policy(b, rules, p) for b in set(bots)}
        #: The match-optimal bot's round turns (:mod:`.match_turns`), if a seat plays it.
        self.match_turns = (
            MatchTurns(rules, p)
            if any(plays(pol, rules, p) for pol in self.policies.values())
            else None
        )
        #: Per node: 1 where the turn due is the match-optimal bot's round turn (drawn by
        #: :attr:`match_turns`, not by a sampler), with the round's seats in play order and
        #: the place of the turn in it.
        self.by_match = np.zeros(64, dtype=np.int64)
        self.order = np.zeros((64, p), dtype=np.int64)
        self.place = np.zeros(64, dtype=np.int64)
        self._ids: dict[tuple[int, MatchState], int] = {}
        self.states: list[MatchState] = []
        #: Per node: its packed word (:func:`pack_node`; read by :func:`due_at`,
        #: :func:`seat_at`, :func:`arg_at`) and, at a finished match, its winner (-1: none).
        self.node_word = np.zeros(64, dtype=np.int64)
        self.node_winner = np.full(64, -1, dtype=np.int64)
        self._info: list[tuple[int, int, int]] = []  # (kind, seat, arg) for the builders
        self._samplers: dict[tuple[str, object], int] = {}
        #: Per sampler: its turn's outcomes' cumulative distribution, drawn by lookup.
        self.draw: list[InverseCdf] = []
        self.turn_score: list[np.ndarray] = []
        self.turn_crew: list[np.ndarray] = []

    def _grown(self) -> None:
        """Called when the node arrays have just doubled (the step tables grow with them)."""

    def _rep(self, state: MatchState, decided: bool) -> MatchState:
        """The node's state: the position, with the round's scores as the node holds them
        (``decided``: the format has decided the round they belong to; neither they nor the
        round's winner are read again -- a tie for the match or for the final's places is
        broken by turns of its own, and a new round starts afresh -- so both are dropped)."""
        if isinstance(state.results, CountProbe):  # the child of a step played on a node
            state = evolve(state, results=())
        pos = contest_position(match_position(state))
        return evolve(
            pos,
            round_scores=self._scores(state.round_scores, decided),
            round_winner=None if decided else pos.round_winner,
            totals=(0,) * self.players,
            # Every format alike: where the engine never counts the rounds, nothing raises.
            results=CountProbe(),
        )

    def _scores(self, scores: tuple[object, ...], decided: bool) -> tuple[object, ...]:
        if not self.scores_carried:
            return tuple(None if x is None else int(x) for x in scores)  # type: ignore[call-overload]
        if decided:
            return tuple(None if x is None else DECIDED_MARK for x in scores)
        return tuple(
            x if x is None or isinstance(x, DecidedMark) else POSTED_MARKS[s]
            for s, x in enumerate(scores)
        )

    def _node(self, state: MatchState, *, ended: bool = False, decided: bool = False) -> int:
        """The node of ``state``: the end of a round (``ended``, the format to decide), the
        end of the match, or a turn or dice due."""
        if state.phase is Phase.MATCH_OVER:  # a finished match is its winner
            rep = evolve(
                self.states[0], phase=Phase.MATCH_OVER, winner=state.winner, contest=None, turn=None
            )
            kind = Due.OVER
        else:
            rep = self._rep(state, decided)
            if ended:
                # The format decides from the round's end alone: not from the contest that
                # ended it, nor from where that contest stood.
                rep = evolve(rep, contest=None, phase=Phase.TURN, turn=None)
                kind = Due.DECIDE
            elif rep.phase is Phase.TURN:
                kind = Due.TURN
            elif rep.phase in (Phase.ROLL_OFF, Phase.CARGO_ROLL_OFF):
                kind = Due.DICE
            else:
                raise AssertionError(f"the step tables met a state they cannot play: {rep.phase}")
        key = (int(kind), evolve(rep, round_scores=tuple(_marker(x) for x in rep.round_scores)))
        i = self._ids.get(key)
        if i is not None:
            return i
        i = len(self.states)
        if i >= len(self.node_word):
            for name in ("node_word", "node_winner", "by_match", "order", "place"):
                a = getattr(self, name)
                setattr(self, name, np.concatenate([a, np.zeros_like(a)]))
            self._grown()
        seat, arg, winner = 0, 0, -1
        if kind is Due.OVER:
            winner = -1 if rep.winner is None else rep.winner
        elif kind is not Due.DECIDE:
            at = seat_to_act(rep)
            assert at is not None
            seat = at
            arg = self._sampler(seat, rep) if kind is Due.TURN else dice_to_roll(rep)
            if arg < 0:  # the match-optimal bot's round turn
                arg, c = 0, rep.contest
                assert c is not None
                self.by_match[i], self.order[i], self.place[i] = 1, c.seats, len(c.scores)
        self.node_winner[i] = winner
        self._info.append((int(kind), seat, arg))
        self.node_word[i] = pack_node(kind, seat, arg)
        self._ids[key] = i
        self.states.append(rep)
        return i

    def _sampler(self, seat: int, rep: MatchState) -> int:
        """The sampler of the turn due at ``rep`` (-1: the match-optimal bot's round turn,
        drawn by match position)."""
        policy = self.policies[self.bots[seat]]
        if isinstance(policy, MatchPolicy):
            if round_turn(rep):
                return -1

            def tie_break() -> Sampler:
                # A tie-break of the match-optimal bot: the estimate plays it from the contest
                # alone (the sub-round's equilibrium), not from the totals or the round's scores.
                blank = evolve(rep, results=(), round_scores=(0,) * self.players)
                scores = np.asarray(policy.scores)
                return np.diff(policy.cdf(blank), prepend=0.0), scores, scores > 0

            return self._add_sampler((policy.name, contest_view(rep)), tie_break)
        ctx = contest_view(rep) if policy.contextual else None

        def turn() -> Sampler:
            table = table_for(self.rules, policy, self.players, ctx)
            ends = sorted(table.ends().items())
            return (
                np.array([float(q) for _, q in ends]),
                np.array([int(table.score[e]) for e, _ in ends]),
                np.array([int(table.complete[e]) for e, _ in ends]),
            )

        return self._add_sampler((policy.name, ctx), turn)

    def _add_sampler(self, key: tuple[str, object], build: Callable[[], Sampler]) -> int:
        """The sampler of ``key``, built (its outcomes' chances, scores and crews) the first
        time the key is met."""
        k = self._samplers.get(key)
        if k is None:
            probs, scores, crews = build()
            cdf = np.cumsum(probs) / probs.sum()
            cdf[-1] = 1.0
            self.draw.append(InverseCdf(cdf))
            self.turn_score.append(scores.astype(np.int64))
            self.turn_crew.append(crews.astype(np.int64))
            k = self._samplers[key] = len(self.draw) - 1
        return k
