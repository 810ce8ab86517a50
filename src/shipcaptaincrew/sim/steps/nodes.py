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
distribution, :mod:`.samplers`), dice (a roll-off), nothing more (the match is over), or
the format's decision after a round has ended (:func:`~shipcaptaincrew.positions.to_round_end`
stops there; the decision is a step of its own, with no random number).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

import numpy as np

from ...engine import dice_to_roll, match_position, seat_to_act
from ...positions import contest_position
from ...state import MatchState, Phase, evolve
from .probes import DECIDED_MARK, POSTED_MARKS, CountProbe, DecidedMark, PostedMark
from .samplers import BY_MATCH, TurnSamplers

__all__ = ["Due", "NodeGraph", "arg_at", "due_at", "pack_node", "seat_at"]


class Due(IntEnum):
    """What is due at a node: a turn, dice (a roll-off), nothing (the match is over), or the
    format's decision after a round (:attr:`DECIDE`: no random number; the step tables go
    on through it within the step that ended the round)."""

    TURN = 0
    DICE = 1
    OVER = 2
    DECIDE = 3


#: A node's packed word (:attr:`NodeGraph.word`), one int64 per node for the hot loops:
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


class NodeGraph:
    """The nodes of one rule set and line-up, found as the steps reach them.

    ``scores_carried``: the round's scores are carried by each match (the default, where the engine
    only adds them up and tests them against 0); otherwise the nodes hold them exactly.
    ``samplers``: the bots' turn samplers, which a turn node names.
    """

    def __init__(self, players: int, samplers: TurnSamplers, scores_carried: bool) -> None:
        self.players = p = players
        self.samplers = samplers
        self.scores_carried = scores_carried
        self._ids: dict[tuple[int, MatchState], int] = {}
        #: Per node: its state as the steps are played from it.
        self.states: list[MatchState] = []
        #: Per node: its packed word (:func:`pack_node`; read by :func:`due_at`,
        #: :func:`seat_at`, :func:`arg_at`) and, at a finished match, its winner (-1: none).
        self.word = np.zeros(64, dtype=np.int64)
        self.winner = np.full(64, -1, dtype=np.int64)
        #: Per node: what is due, the seat to act and the sampler or number of dice (the
        #: word's fields as plain ints, for the builders).
        self.info: list[tuple[Due, int, int]] = []
        #: Per node: 1 where the turn due is the match-optimal bot's round turn (drawn by
        #: :attr:`~.samplers.TurnSamplers.match_turns`, not by a sampler), with the round's
        #: seats in play order and the place of the turn in it.
        self.by_match = np.zeros(64, dtype=np.int64)
        self.order = np.zeros((64, p), dtype=np.int64)
        self.place = np.zeros(64, dtype=np.int64)

    def due(self, node: int) -> Due:
        """What is due at ``node``."""
        return self.info[node][0]

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

    def node(self, state: MatchState, *, ended: bool = False, decided: bool = False) -> int:
        """The node of ``state``, added if new: the end of a round (``ended``, the format to
        decide), the end of the match, or a turn or dice due.  The per-node arrays double
        when full (:attr:`word`'s length says how many slots there are)."""
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
        if i >= len(self.word):
            for name in ("word", "winner", "by_match", "order", "place"):
                a = getattr(self, name)
                setattr(self, name, np.concatenate([a, np.zeros_like(a)]))
        seat, arg, winner = 0, 0, -1
        if kind is Due.OVER:
            winner = -1 if rep.winner is None else rep.winner
        elif kind is not Due.DECIDE:
            at = seat_to_act(rep)
            assert at is not None
            seat = at
            arg = self.samplers.for_turn(seat, rep) if kind is Due.TURN else dice_to_roll(rep)
            if arg == BY_MATCH:  # the match-optimal bot's round turn
                arg, c = 0, rep.contest
                assert c is not None
                self.by_match[i], self.order[i], self.place[i] = 1, c.seats, len(c.scores)
        self.winner[i] = winner
        self.info.append((kind, seat, arg))
        self.word[i] = pack_node(kind, seat, arg)
        self._ids[key] = i
        self.states.append(rep)
        return i
