"""Many whole matches stepping at once: a batched NumPy environment of one agent's matches.

Each of ``num_envs`` tables plays a whole match (the rule set's format, or ``format=``:
``rounds:N``, ``first_to:N``, ``wins:N``, the tournament, one round) in which the agent holds
one seat and bots hold the others.  Nothing here knows a rule.  The agent's turn is the
solver's compiled turn (:class:`~.batched.CompiledTurn`, as in :class:`~.batched.BatchedTurnEnv`);
everything between two of its decisions -- the bots' turns, drawn exactly from their turn
tables, roll-offs, the end of a round, the totals, the count of rounds and what the format
decides -- is the simulator's step tables (:mod:`shipcaptaincrew.sim.steps`), which the engine
fills once per distinct step.  So what the step tables cannot play this cannot either (pot
games, the captain's hand-out, sessions, ``rotation=loser``, the match-optimal bot where the
exact solver plays it: a clear error says which); ``optimal:round`` bots, the round-maximiser,
play, and so does ``optimal`` where the match estimate plays it in ``rounds:N``.

**A step** is one decision of the agent at every table: ``step(actions)`` applies one action id
per table and rolls that table's dice on; when the agent's turn ends, its score is posted in
the match and the match is played on to the agent's next decision.  A finished match is
replaced at once by a new one (Gymnasium's same-step autoreset): ``terminated`` says so,
``reward`` is 1 where the agent won it (0 where another seat did or nobody did), and the
observation is the new match's first decision.  Chips are no reward here: pot games are what
the step tables do not play.  As in the turn environment, a turn in which the agent has nothing
to decide is played out; a new match can even end before the agent's first decision (rarely:
one round, its turn undecided), and such matches' rewards are listed in
``info["undecided_rewards"]`` (their tables in ``info["undecided_tables"]``, in the order they
ended) so a mean over every match can add them back (:func:`~.evaluate.sampled_value` does).

``obs`` holds ``node`` (the turn graph's node), ``match_node`` (the step tables' node: the
match position without totals or count, a key for tabular learners), ``observation``
(:data:`MATCH_FIELDS`: the turn's fields and its contest as in the turn environment, then the
match -- every seat's total and round wins from the agent's seat on, the rounds of the match's
own finished, the format's kind code and N) and ``action_mask``.

>>> env = BatchedMatchEnv(8, rules="classic", match_format="rounds:3", opponents=["ev"])
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape == (8, env.observation_width)
True
>>> obs, reward, terminated, truncated, info = env.step(env.sample_actions())
>>> reward.shape, terminated.dtype.name
((8,), 'bool')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..formats import MatchFormat
from ..rules import Rules
from ..sim.steps import Due, MatchTable, match_table
from ..sim.steps.fast import draw_outcomes, follow, new_record
from ..sim.steps.nodes import due_at, seat_at
from ..solver import contest_view
from .batched import TURN_FIELDS, CompiledTurn, check_num_envs
from .common import make_rules
from .encoding import FORMAT_CODES

__all__ = ["MATCH_FIELDS", "BatchedMatchEnv", "match_fields"]

# What is due at a match node (:meth:`BatchedMatchEnv._roles`): the tables' own node kinds
# (dice, the end) and a turn split into the agent's and a bot's.
_TURN, _OVER = int(Due.TURN), int(Due.OVER)  # dice keep their kind, Due.DICE
_MINE, _BOT = max(Due) + 1, max(Due) + 2  # past every kind, Due.DECIDE too


def match_fields(players: int) -> tuple[tuple[str, int], ...]:
    """The columns of ``obs["observation"]`` for ``players`` seats, each with its width."""
    return (
        *TURN_FIELDS,
        ("totals", players),  # from the agent's seat on: its own first, then the next seats
        ("wins", players),  # rounds won, in the same order (what wins:N counts)
        ("rounds_played", 1),  # rounds of the match's own finished (rounds of the tied not)
        ("format_kind", 1),  # a code of encoding.FORMAT_CODES
        ("format_n", 1),  # its N (0: the kind takes none)
    )


#: The columns for two players (:func:`match_fields` gives any other count).
MATCH_FIELDS = match_fields(2)


class BatchedMatchEnv:
    """``num_envs`` tables, each a whole match of the agent at ``seat`` against ``opponents``.

    :param num_envs: the tables stepping together.
    :param rules: a :class:`~shipcaptaincrew.rules.Rules` or its text.
    :param match_format: the match to play (text or :class:`~shipcaptaincrew.formats.MatchFormat`);
        default: the rule set's own format.
    :param opponents: the bots of the other seats in seat order, the agent's left out (a list,
        or one name for a table of two); the table has one seat more than this list.
    :param seat: the agent's seat (0: the first in seat order; who starts is the rules').
    """

    def __init__(
        self,
        num_envs: int,
        rules: Rules | str = "classic",
        match_format: MatchFormat | str | None = None,
        opponents: Sequence[str] | str = ("ev",),
        seat: int = 0,
    ) -> None:
        check_num_envs(num_envs)
        bots = [opponents] if isinstance(opponents, str) else list(opponents)
        if not bots or not all(isinstance(b, str) for b in bots):
            raise ValueError(f"opponents must be one bot name or a list of them, got {opponents!r}")
        p = len(bots) + 1
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < p:
            raise ValueError(f"seat must be 0..{p - 1} for {p} players, got {seat!r}")
        self.num_envs, self.players, self.seat = num_envs, p, seat
        self.rules = make_rules(rules, match=True, match_format=match_format)
        # The agent's seat needs a bot for the tables' samplers; its own are never drawn from.
        self.bots = bots[:seat] + [bots[0]] + bots[seat:]
        self.table: MatchTable = match_table(self.rules, self.bots)
        self.turn = CompiledTurn(self.rules)
        self.fields = match_fields(p)
        self.observation_width = sum(width for _, width in self.fields)
        self._order = (seat + np.arange(p)) % p
        fmt = self.rules.format
        self._format = np.array([FORMAT_CODES.index(fmt.kind), fmt.n or 0], dtype=np.int64)
        self._context = np.zeros((0, 3), dtype=np.int64)  # per match node: the agent's contest
        self._role = np.zeros(0, dtype=np.int8)  # per match node: what is due there
        self.node = np.zeros(num_envs, dtype=np.int64)  # the agent's turn node
        self.match_node = np.zeros(num_envs, dtype=np.int64)
        #: Per table, the match's record as the step tables keep it (:func:`~shipcaptaincrew.sim.steps.fast.new_record`):
        #: the totals, the sips and the round wins by seat, the rounds of the match's own
        #: and the scores of the round being played; :attr:`totals`, :attr:`wins` and
        #: :attr:`own` are views of it.
        self.record = new_record(num_envs, p)
        rec = self.table.rec
        self.totals = self.record[rec.totals].T
        self.wins = self.record[rec.wins].T
        self.own = self.record[rec.count]
        self._rng = np.random.default_rng()
        self._reward = np.zeros(num_envs)
        self._terminated = np.zeros(num_envs, dtype=bool)
        self._ended: list[np.ndarray] = []
        self._ended_tables: list[np.ndarray] = []

    # -- the match between the agent's decisions ---------------------------------------------
    def _new_matches(self, rows: np.ndarray) -> None:
        self.match_node[rows] = self.table.start
        self.record[:, rows] = 0

    def _finish(self, rows: np.ndarray, winners: np.ndarray) -> None:
        """Matches ended at ``rows``: the first ending of a table this step is its reward; a
        second (a match without one decision of the agent) goes to ``undecided_rewards``."""
        won = (winners == self.seat).astype(np.float64)
        first = ~self._terminated[rows]
        self._reward[rows[first]] = won[first]
        self._terminated[rows[first]] = True
        self._ended.append(won[~first])
        self._ended_tables.append(rows[~first])
        self._new_matches(rows)

    def _roles(self, nd: np.ndarray) -> np.ndarray:
        """What is due at match nodes, one code each: the agent's turn, a bot's turn, dice, or
        the end of the match (read off the step tables' nodes, as they grow)."""
        t = self.table
        if len(self._role) < len(t.nodes.states):
            word = t.nodes.word[: len(t.nodes.states)]
            kind, seat = due_at(word), seat_at(word)
            role = np.where(kind == _TURN, np.where(seat == self.seat, _MINE, _BOT), kind)
            self._role = role.astype(np.int8)
        roles: np.ndarray = self._role[nd]
        return roles

    def _play_on(self, rows: np.ndarray, outcome: np.ndarray | None) -> None:
        """Post ``outcome`` (the agent's score) at ``rows``' match nodes, if given, and play
        each match on until the agent has a decision."""
        t = self.table
        turn, rng = self.turn, self._rng
        while rows.size:
            if outcome is not None:
                nd, _ = follow(t, self.match_node[rows], outcome, self.record, rows)
                self.match_node[rows] = nd
            else:
                nd = self.match_node[rows]
            role = self._roles(nd)
            over = np.flatnonzero(role == _OVER)
            if over.size:  # a new match at once, played on in this same pass
                self._finish(rows[over], t.nodes.winner[nd[over]])
                nd[over] = t.start
                role[over] = self._roles(nd[over])
            outcome = np.empty(rows.size, dtype=np.int64)
            keep = np.ones(rows.size, dtype=bool)
            mine = np.flatnonzero(role == _MINE)
            if mine.size:
                at = rows[mine]
                turn.open(self.node, at, rng)  # a new turn, rolled to its first decision
                turn_node = self.node[at]
                keep[mine] = turn.final[turn_node]  # played out without a decision
                outcome[mine] = turn.node_score[turn_node]
            other = np.flatnonzero(role != _MINE)
            if other.size:
                # One uniform each: dice at a roll-off, a bot's turn drawn from its table.
                bot = role[other] == _BOT
                outcome[other], _ = draw_outcomes(
                    t, nd[other], bot, rng.random(other.size), self.record, rows[other], False
                )
            rows, outcome = rows[keep], outcome[keep]

    # -- observations -------------------------------------------------------------------------
    def _contexts(self, nodes: np.ndarray) -> np.ndarray:
        """The agent's contest (best posted, tied, seats after) at match nodes, read once per
        node from the engine's state through the solver's view."""
        t = self.table
        if len(self._context) < len(t.nodes.states):
            grown = np.full((len(t.nodes.states), 3), -1, dtype=np.int64)
            grown[: len(self._context)] = self._context
            self._context = grown
        for i in np.unique(nodes[self._context[nodes, 0] < 0]).tolist():
            view = contest_view(t.nodes.states[i])
            self._context[i] = (view.posted_max, view.tied, view.players_after)
        ctx: np.ndarray = self._context[nodes]
        return ctx

    def _obs(self) -> dict[str, np.ndarray]:
        n = self.num_envs
        observation = np.hstack(
            [
                self.turn.features[self.node],
                self._contexts(self.match_node),
                self.totals[:, self._order],
                self.wins[:, self._order],
                self.own[:, None],
                np.broadcast_to(self._format, (n, 2)),
            ]
        )
        return {
            "node": self.node.copy(),
            "match_node": self.match_node.copy(),
            "observation": observation,
            "action_mask": self.turn.masks[self.node],
        }

    def _begin_step(self) -> None:
        self._reward = np.zeros(self.num_envs)
        self._terminated = np.zeros(self.num_envs, dtype=bool)
        self._ended = []
        self._ended_tables = []

    def _info(self) -> dict[str, Any]:
        undecided = np.concatenate(self._ended) if self._ended else np.zeros(0)
        tables = np.concatenate(self._ended_tables) if self._ended_tables else np.zeros(0, np.int64)
        return {"undecided_rewards": undecided, "undecided_tables": tables}

    # -- the vector API ---------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new match at every table, each played to the agent's first decision."""
        self._rng = np.random.default_rng(seed)
        self._begin_step()
        self._terminated[:] = True  # a match ended before any decision is an undecided one
        rows = np.arange(self.num_envs)
        self._new_matches(rows)
        self._play_on(rows, None)
        self._terminated[:] = False
        return self._obs(), self._info()

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One decision at every table (one id each); a finished match is replaced anew."""
        child = self.turn.moves(self.node, actions)
        self._begin_step()
        self.node[:] = child
        self.turn.roll(self.node, np.flatnonzero(self.turn.chance[child]), self._rng)
        ended = np.flatnonzero(self.turn.final[self.node])
        self._play_on(ended, self.turn.node_score[self.node[ended]].astype(np.int64))
        truncated = np.zeros(self.num_envs, dtype=bool)
        return self._obs(), self._reward, self._terminated, truncated, self._info()

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal id at every table (from the environment's generator)."""
        return self.turn.sample(self.node, self._rng)
