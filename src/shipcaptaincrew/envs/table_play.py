"""One table's match between its agents' decisions, played on the tables the batched
environments already have: why a single-table environment can step as fast as a small game.

The engine's ``apply`` copies a frozen match state for every roll and every choice, and a
single-table environment used to call it some ten times per step of the agent (its own dice,
then each bot's turn roll by roll and choice by choice).  Here the same match is played with
what the engine has already answered once, so that a step is a few list lookups:

* **an agent's turn** runs on the solver's compiled turn (:class:`~.batched.CompiledTurn`,
  the engine's own turn walked once, as the batched environments play it): a legal id leads
  to the graph's child, dice are one uniform slot of a chance node, and a new turn is drawn at
  once to its first decision.  The match state during the turn is the turn-start state with
  the graph's turn state in it -- what :func:`~shipcaptaincrew.engine.apply` makes of a move
  that does not end a turn -- and a finished turn is posted with
  :func:`~shipcaptaincrew.engine.post_score`, which the match reads as any line of play that
  ends with that score (the step tables and the exact solvers post turns the same way);
* **a bot's turn** is one draw from its exact score distribution (the simulator's turn table
  of its policy at the contest it sees, :func:`~shipcaptaincrew.sim.match.table_for`), posted
  the same way.  A bot given as an object, or the match-optimal bot (whose turn reads the
  match's totals), plays its turn through the engine instead, roll by roll;
* everything else -- roll-offs, the end of a round, a hand-out, a session's call -- is the
  engine's, as before;
* and the engine is asked each thing once: it is pure (a state and an outcome give one next
  state), so every answer is kept (:class:`~.memo.EngineMemo`) and a match met again is a
  dictionary lookup.

Two things differ from a roll-by-roll walk and are said where they show: the random numbers
are used differently (a seed gives other matches than before, the same ones every time), and
a state's ``turn.last_roll`` (compared by nobody, shown by ``render``) is a roll that leads to
where the dice fell, not necessarily the faces as they fell.  ``tests/test_envs_fast.py`` plays
the environments against the engine: the same distribution of outcomes, the same masks.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..bots import Bot
from ..engine import (
    CHANCE,
    TERMINAL,
    initial_turn,
)
from ..rules import Rules
from ..sim.match import table_for
from ..sim.policy import MatchPolicy, Policy, make_policy
from ..solver import contest_view
from ..state import MatchState, Phase, TurnState, evolve
from .batched import CompiledTurn
from .common import close_session
from .encoding import action_label
from .memo import EngineMemo, Node

__all__ = ["NO_NODE", "TablePlay", "TurnLists"]

#: The node of a state that is no decision of an agent's turn on the compiled turn.
NO_NODE = -1
#: A seat without a sampler kept yet (None is a kept "plays through the engine").
_MISSING: Any = object()


class TurnLists:
    """A :class:`~.batched.CompiledTurn` as Python lists, for one table at a time (a NumPy
    scalar lookup costs more than the whole list lookup)."""

    def __init__(self, rules: Rules) -> None:
        turn = self.compiled = CompiledTurn(rules)
        self.states: list[TurnState] = list(turn.graph.states)
        self.final: list[bool] = turn.final.tolist()
        self.chance: list[bool] = turn.chance.tolist()
        self.score: list[int] = turn.node_score.tolist()
        self.child: list[list[int]] = turn.child.tolist()
        self.masks: list[np.ndarray] = [row.copy() for row in turn.masks]
        self.features: list[list[int]] = turn.features.tolist()
        self._base: list[int] = turn._base.tolist()
        self._span: list[float] = turn._span.tolist()
        self._slots: list[int] = turn._slots.tolist()
        cdf: list[float] = turn._open_draw.cdf.tolist()
        self._open_cdf: list[float] = cdf
        self._open_node: list[int] = turn._open_node.tolist()
        #: Per decision node, its legal ids and their labels (``"0=stand"``), made when met.
        self._labels: dict[int, list[str]] = {}

    def open(self, rng: random.Random) -> int:
        """A new turn's dice rolled at once to its first decision (or its end)."""
        return self._open_node[
            min(bisect_right(self._open_cdf, rng.random()), len(self._open_cdf) - 1)
        ]

    def roll(self, node: int, rng: random.Random) -> int:
        """The dice of a chance node rolled, and on, until a decision or the end."""
        while self.chance[node]:
            node = self._slots[self._base[node] + int(rng.random() * self._span[node])]
        return node

    def labels(self, node: int) -> list[str]:
        """``"id=action"`` for each legal id at a decision node."""
        found = self._labels.get(node)
        if found is None:
            state = self.states[node]
            ids = np.flatnonzero(self.masks[node]).tolist()
            found = self._labels[node] = [f"{i}={action_label(state, i)}" for i in ids]
        return found


@dataclass
class _Sampler:
    """A bot's turn in one contest: the cumulative chances of its scores."""

    cdf: list[float]
    scores: list[int]

    def draw(self, rng: random.Random) -> int:
        return self.scores[min(bisect_right(self.cdf, rng.random()), len(self.cdf) - 1)]


class TablePlay:
    """The match at one table between the decisions of ``agents`` (see the module's docstring).

    :param bots: the bots of the other seats; ``specs`` names the ones made from a name, whose
        turns are drawn from their tables (the others play through the engine).
    """

    def __init__(
        self,
        rules: Rules,
        players: int,
        agents: frozenset[int],
        bots: dict[int, Bot],
        specs: dict[int, str],
        session_rounds: int,
    ) -> None:
        self.rules, self.players, self.agents = rules, players, agents
        self.bots, self.session_rounds = bots, session_rounds
        self.turn = TurnLists(rules)
        self.fresh = initial_turn(rules)
        self._policies: dict[int, Policy] = {}
        for seat, spec in specs.items():
            policy = make_policy(spec, rules, players)
            if not isinstance(policy, MatchPolicy):
                self._policies[seat] = policy
        self._samplers: dict[Hashable, _Sampler] = {}
        #: The memo node of the state where the agent's turn began (its score is posted there).
        self.turn_start: Node | None = None
        self.memo = EngineMemo(rules)

    def _sampler(self, seat: int, node: Node) -> _Sampler | None:
        """The turn table of the bot at ``seat`` for the turn due at ``node`` (None: the bot
        plays through the engine); kept on the node."""
        found: _Sampler | None = node.extra.get(seat, _MISSING)
        if found is not _MISSING:
            return found
        found = node.extra[seat] = self._table_sampler(seat, node.state)
        return found

    def _table_sampler(self, seat: int, state: MatchState) -> _Sampler | None:
        policy = self._policies.get(seat)
        if policy is None:
            return None
        ctx = contest_view(state) if policy.contextual else None
        key = (seat, ctx)
        found = self._samplers.get(key)
        if found is None:
            table = table_for(self.rules, policy, self.players, ctx)
            ends = sorted(table.ends().items())
            total = float(sum(q for _, q in ends))
            cdf, acc = [], 0.0
            for _, q in ends:
                acc += float(q) / total
                cdf.append(acc)
            cdf[-1] = 1.0
            scores = [int(table.score[e]) for e, _ in ends]
            found = self._samplers[key] = _Sampler(cdf, scores)
        return found

    def in_turn(self, start: MatchState, node: int) -> MatchState:
        """The match at a node of the agent's turn begun at ``start`` (``apply``'s state for a
        move that does not end the turn)."""
        return evolve(start, turn=self.turn.states[node])

    def advance(self, state: MatchState, rng: random.Random) -> tuple[MatchState, int]:
        """Play on to an agent's decision or the end: (state, the turn's node or NO_NODE)."""
        turn, memo, agents = self.turn, self.memo, self.agents
        node = memo.node(state)
        while True:
            if state.phase is Phase.ANOTHER_ROUND:
                closed = close_session(state, self.session_rounds)
                if closed is not state:
                    state, node = closed, memo.node(closed)
            player = node.player
            if player == TERMINAL:
                return state, NO_NODE
            if player == CHANCE:
                seat = node.turn_seat
                if seat is not None:
                    if seat in agents:
                        at = turn.open(rng)
                        if turn.final[at]:  # the dice decided the whole turn
                            state = memo.post(node, turn.score[at])
                            node = memo.node(state)
                            continue
                        self.turn_start = node
                        return self.in_turn(state, at), at
                    sampler = self._sampler(seat, node)
                    if sampler is not None:
                        state = memo.post(node, sampler.draw(rng))
                        node = memo.node(state)
                        continue
                state = memo.roll(node, rng.random())
            elif player in agents:
                return state, NO_NODE  # a decision between turns: the engine's
            else:
                state = memo.then(node, self.bots[player].choose(state, rng))
            node = memo.node(state)

    def move(self, node: int, action: int, rng: random.Random) -> tuple[MatchState, int]:
        """The agent's legal id ``action`` at ``node`` of its turn, then on to a decision."""
        turn = self.turn
        child = turn.roll(turn.child[node][action], rng)
        start = self.turn_start
        assert start is not None
        if turn.final[child]:
            self.turn_start = None
            return self.advance(self.memo.post(start, turn.score[child]), rng)
        return self.in_turn(start.state, child), child
