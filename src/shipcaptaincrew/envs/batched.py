"""Many tables stepping at once: a batched NumPy environment of one agent's turn.

Each of ``num_envs`` tables plays one turn of the agent at a fixed contest (the
:class:`~shipcaptaincrew.solver.ContestView`: the seats, the best score posted and how many
posted it, the seats still to come).  Nothing here knows a rule.  Everything is read off the
solver's compiled turn (:func:`~shipcaptaincrew.solver.turn_graph`, the project's one
enumeration of the engine's turn: every exact outcome of
:func:`~shipcaptaincrew.engine.chance_outcomes` followed through
:func:`~shipcaptaincrew.engine.apply`, every legal action of a decision):

* the legal ids of a decision node are the engine's ``legal_actions`` under the shared ids
  (:func:`~.encoding.decision_mask`), and each id's successor is the graph's child;
* a chance node's exact probabilities are ``count / L`` over a common denominator ``L``, so
  the node gets ``L`` equally likely slots (its outcomes, each ``count`` times) and a roll is
  one uniform slot: exact sampling with one random number and one gather per table;
* the reward of a finished turn is a number per final score: ``score`` (the score itself) or
  ``win``, the exact chance that the score wins the round at this table with every seat after
  playing the round equilibrium (:func:`~shipcaptaincrew.solver.win_rewards`), so its mean is
  the round's win rate and its variance lower than a 0/1 draw's.

**A step** is one decision of one table: ``step(actions)`` takes one action id per table,
applies it, rolls the dice on to that table's next decision or the end of its turn, and so
advances every table by one decision; ``num_envs`` environment steps per call.  A table whose
turn ends is dealt a new turn at once (Gymnasium's same-step autoreset): ``terminated`` says
so, ``reward`` is the finished turn's, and the observation is the new turn's first decision.
As in :mod:`.common`, a turn's start is no decision, and a turn in which the agent has nothing
to decide (no crew in all its rolls, a crew on the last roll) is played out and another dealt;
``info["undecided_rewards"]`` and ``info["undecided_scores"]`` list those turns (and
``info["undecided_tables"]`` their tables, in the order they were played), so a mean over
every turn dealt can add them back (:func:`~.evaluate.sampled_value` does).

The API follows Gymnasium's ``VectorEnv``: ``reset(seed=...) -> (obs, info)`` and
``step(actions) -> (obs, reward, terminated, truncated, info)``, with arrays over the tables;
``obs`` holds ``node`` (the turn graph's node of each table, a key for tabular learners),
``observation`` (the turn's fields of :func:`~.encoding.observation`: phase, held, cargo,
pending, rolls used, cargo rerolls used, bonus, then the contest: best posted score, tied,
seats after) and ``action_mask`` (1 for each legal id, :data:`~.encoding.NUM_ACTIONS` wide).

>>> env = BatchedTurnEnv(4, rules="classic")
>>> obs, info = env.reset(seed=1)
>>> obs["action_mask"].shape, sorted(set(obs["action_mask"].sum(axis=1).tolist()))
((4, 34), [2])
>>> obs, reward, terminated, truncated, info = env.step(env.sample_actions())
>>> reward.shape, terminated.dtype.name, bool(truncated.any())
((4,), 'bool', False)
"""

from __future__ import annotations

import math
from enum import StrEnum
from fractions import Fraction
from typing import Any

import numpy as np

from ..rules import Rules
from ..sim.inverse import InverseCdf
from ..solver import ContestView, turn_graph, win_rewards
from ..solver.batch import opening
from ..solver.graph import CHANCE_NODE, DECISION_NODE, FINAL_NODE
from ..state import TurnState
from .common import make_rules
from .encoding import (
    NUM_ACTIONS,
    action_index,
    decision_mask,
    observation_bounds,
    turn_fields,
    turn_phase,
)

__all__ = ["TURN_FIELDS", "BatchReward", "BatchedTurnEnv", "CompiledTurn"]


class BatchReward(StrEnum):
    """What a finished turn of the batched environment pays."""

    WIN = "win"  #: the exact chance the final score wins the round at this table
    SCORE = "score"  #: the final score


#: The columns of ``obs["observation"]``, each field with its width: the turn's fields of
#: :func:`~.encoding.observation`, then the contest's.
TURN_FIELDS: tuple[tuple[str, int], ...] = (
    ("phase", 1),
    *((name, observation_bounds(1)[name][0]) for name in turn_fields(None)),
    ("posted_max", 1),
    ("tied", 1),
    ("players_after", 1),
)


def _turn_row(state: TurnState) -> list[int]:
    """A turn state's own fields, flat, as :func:`~.encoding.observation` lays them out."""
    row = [int(turn_phase(state))]
    for value in turn_fields(state).values():
        row += value if isinstance(value, list) else [value]
    return row


class CompiledTurn:
    """The solver's compiled turn of a rule set as arrays, for many tables at once.

    Per node of :func:`~shipcaptaincrew.solver.turn_graph`: its kind, final score (-1 where
    none), legal-id mask and each id's child (decisions), equally likely slots (chance) and the
    turn's own observation fields (:func:`_turn_row`).  :class:`BatchedTurnEnv` and
    :class:`~.batched_match.BatchedMatchEnv` both play the agent's turn on it.
    """

    def __init__(self, rules: Rules) -> None:
        self.graph = graph = turn_graph(rules)
        n = len(graph)
        kind = np.array([int(k) for k in graph.kind], dtype=np.int8)
        self.chance = kind == CHANCE_NODE
        self.decision = kind == DECISION_NODE
        if not self.decision.any():
            # Every turn would be played out and another dealt, for ever.
            raise ValueError(f"under {rules} a turn has nothing to decide: no agent can play it")

        self.final = kind == FINAL_NODE
        self.node_score = np.array(
            [graph.score[i] if self.final[i] else -1 for i in range(n)], dtype=np.int16
        )
        self._build_moves(graph.states)
        self._build_slots()
        self._build_opening()
        self.features = np.array([_turn_row(s) for s in graph.states], dtype=np.int16)

    def _build_moves(self, states: list[TurnState]) -> None:
        """Per decision node: the mask, each id's child, and the legal ids in a padded row."""
        n = len(states)
        self.masks = np.zeros((n, NUM_ACTIONS), dtype=np.int8)
        self.child = np.full((n, NUM_ACTIONS), -1, dtype=np.int32)
        widest = max((len(a) for a in self.graph.actions), default=1)
        self.legal = np.zeros((n, max(widest, 1)), dtype=np.int32)
        self.legal_count = np.ones(n, dtype=np.int32)
        for i in np.flatnonzero(self.decision):
            state = states[i]
            self.masks[i] = decision_mask(state)
            ids = [action_index(state, a) for a in self.graph.actions[i]]
            for k, child in zip(ids, self.graph.kids[i]):
                self.child[i, k] = child
            self.legal[i, : len(ids)] = ids
            self.legal_count[i] = len(ids)

    def _build_slots(self) -> None:
        """Each node's equally likely slots: a chance node's outcomes, anything else itself."""
        base = np.zeros(len(self.graph), dtype=np.int64)
        span = np.ones(len(self.graph), dtype=np.float64)
        slots: list[int] = []
        for i, (kids, probs) in enumerate(zip(self.graph.kids, self.graph.probs)):
            base[i] = len(slots)
            if not self.chance[i]:
                slots.append(i)
                continue
            common = math.lcm(*(Fraction(p).denominator for p in probs))
            for child, p in zip(kids, probs):
                slots += [child] * int(p * common)
            span[i] = common
        self._base, self._span = base, span
        self._slots = np.array(slots, dtype=np.int32)

    def _build_opening(self) -> None:
        """Where the dice take a fresh turn before anything is decided: the exact chance of
        each first decision (or of the end, a turn decided by the dice alone), so a new turn
        is one draw (:meth:`open`) instead of a roll per chance node."""
        reach = opening(self.graph)
        ends = [i for i, r in enumerate(reach) if r]
        cdf = np.cumsum([float(reach[i]) for i in ends])
        cdf[-1] = 1.0
        self._open_node, self._open_draw = np.array(ends, dtype=np.int64), InverseCdf(cdf)

    def open(self, node: np.ndarray, where: np.ndarray, rng: np.random.Generator) -> None:
        """Start a new turn at the tables ``where``: its dice rolled until a decision or the
        end, drawn at once from where they take a fresh turn."""
        node[where] = self._open_node[self._open_draw(rng.random(where.size))]

    def roll(self, node: np.ndarray, where: np.ndarray, rng: np.random.Generator) -> None:
        """Roll the dice of the tables ``where`` (``node`` holds every table's node) until each
        is at a decision or finished."""
        idx = where
        while idx.size:
            at = node[idx]
            u = rng.random(idx.size)
            at = self._slots[self._base[at] + (u * self._span[at]).astype(np.int64)]
            node[idx] = at
            idx = idx[self.chance[at]]

    def moves(self, node: np.ndarray, actions: Any) -> np.ndarray:
        """Each table's child after its action id; a clear error naming the first table whose
        id is no integer, out of range or not legal at its node."""
        actions = np.asarray(actions)
        if actions.shape != node.shape or actions.dtype.kind not in "iu":
            raise ValueError(f"actions must be {len(node)} integer ids, got {actions!r}")
        if ((actions < 0) | (actions >= NUM_ACTIONS)).any():
            raise ValueError(f"action ids are 0..{NUM_ACTIONS - 1}")
        child: np.ndarray = self.child[node, actions]
        bad = np.flatnonzero(child < 0)
        if bad.size:
            i = int(bad[0])
            legal = np.flatnonzero(self.masks[node[i]]).tolist()
            raise ValueError(
                f"table {i}: action id {int(actions[i])} is not legal now; legal ids: {legal}"
            )
        return child

    def sample(self, node: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal id at every table's node."""
        pick = (rng.random(len(node)) * self.legal_count[node]).astype(np.int64)
        actions: np.ndarray = self.legal[node, pick]
        return actions


class BatchedTurnEnv:
    """``num_envs`` tables, each one turn of the agent at the contest ``view``.

    :param num_envs: the tables stepping together.
    :param rules: a :class:`~shipcaptaincrew.rules.Rules` or its text (its turn is played).
    :param view: the contest the agent's turn is played in; default: the first of two seats.
    :param reward: ``win`` (the exact chance the score wins the round here) or ``score``.
    """

    def __init__(
        self,
        num_envs: int,
        rules: Rules | str = "classic",
        view: ContestView | None = None,
        reward: BatchReward | str = BatchReward.WIN,
    ) -> None:
        check_num_envs(num_envs)
        if reward not in tuple(BatchReward):
            raise ValueError(f"reward must be one of win, score, got {reward!r}")
        self.num_envs = num_envs
        self.rules = make_rules(rules, match=False)
        self.view = view if view is not None else ContestView(2, 0, 0, 1)
        self.reward_kind = BatchReward(reward)
        self.turn = turn = CompiledTurn(self.rules)
        self.graph = graph = turn.graph
        self.masks = turn.masks
        per_score = (
            [float(s) for s in graph.scores]
            if self.reward_kind is BatchReward.SCORE
            else win_rewards(self.rules, self.view)
        )
        #: The reward of each final score of the turn graph (``graph.scores``).
        self.score_reward = per_score
        #: The reward of each node: its final score's (0 at nodes that are not final).
        self.node_reward = np.array(
            [per_score[graph.score_pos[i]] if turn.final[i] else 0.0 for i in range(len(graph))]
        )
        context = np.array([self.view.posted_max, self.view.tied, self.view.players_after])
        self._features = np.hstack(
            [turn.features, np.broadcast_to(context, (len(graph), 3))]
        ).astype(np.int16)
        self.node = np.zeros(num_envs, dtype=np.int32)
        self._rng = np.random.default_rng()
        self._undecided_tables = np.zeros(0, dtype=np.int64)

    # -- the vector API ---------------------------------------------------------------------
    def _deal(self, where: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """New turns at ``where``, rolled to a decision; the turns without one, played out.

        Returns the rewards and scores of those played out.
        """
        ended: list[np.ndarray] = []
        tables: list[np.ndarray] = []
        while where.size:
            self.turn.open(self.node, where, self._rng)
            done = self.turn.final[self.node[where]]
            where = where[done]
            ended.append(self.node[where])
            tables.append(where)
        nodes = np.concatenate(ended) if ended else np.zeros(0, dtype=np.int32)
        self._undecided_tables = np.concatenate(tables) if tables else np.zeros(0, np.int64)
        return self.node_reward[nodes], self.turn.node_score[nodes]

    def _obs(self) -> dict[str, np.ndarray]:
        return {
            "node": self.node.copy(),
            "observation": np.take(self._features, self.node, axis=0),
            "action_mask": np.take(self.masks, self.node, axis=0),
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new turn at every table, each rolled to the agent's first decision."""
        self._rng = np.random.default_rng(seed)
        rewards, scores = self._deal(np.arange(self.num_envs))
        info = {
            "undecided_rewards": rewards,
            "undecided_scores": scores,
            "undecided_tables": self._undecided_tables,
        }
        return self._obs(), info

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One decision at every table (one id each); a finished turn is dealt anew."""
        child = self.turn.moves(self.node, actions)
        self.node[:] = child
        self.turn.roll(self.node, np.flatnonzero(self.turn.chance[child]), self._rng)
        nodes = self.node
        terminated = self.turn.final[nodes]
        reward = self.node_reward[nodes]
        final_score = np.where(terminated, self.turn.node_score[nodes], -1)
        rewards, scores = self._deal(np.flatnonzero(terminated))
        info = {
            "final_score": final_score,
            "undecided_rewards": rewards,
            "undecided_scores": scores,
            "undecided_tables": self._undecided_tables,
        }
        truncated = np.zeros(self.num_envs, dtype=bool)
        return self._obs(), reward, terminated, truncated, info

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal id at every table (from the environment's generator)."""
        return self.turn.sample(self.node, self._rng)

    def states(self) -> list[TurnState]:
        """The engine's turn state at each table (for tests and debugging)."""
        return [self.graph.states[i] for i in self.node]


def check_num_envs(num_envs: object) -> None:
    """Refuse a table count that is no count from 1."""
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError(f"num_envs must be a count from 1, got {num_envs!r}")
