"""PettingZoo AEC environment ``shipcaptaincrew_v0``: one agent per seat at one table.

Follows the classic environments (``tictactoe_v3``, ``connect_four_v3``): :func:`env` wraps
:class:`raw_env` in ``TerminateIllegalWrapper`` (an illegal action ends the game with reward
-1 for the offender), ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``; each
observation is ``{"observation": int64 vector, "action_mask": int8 vector}`` with the action
ids of :mod:`~shipcaptaincrew.envs.encoding`.

``agent_selection`` is the agent with a decision; a turn's start is none (every roll is
chance, see :mod:`~shipcaptaincrew.envs.common`).  A game in which nobody has anything to
decide is played out inside ``reset`` and the next dealt (``infos[agent]["undecided_episodes"]``
and ``["undecided_reward"]`` report them).
Dice are rolled inside ``step`` from the generator seeded by ``reset(seed=...)``.  Rewards come at the end: 1 to the match winner
(``reward="pot"``: chips won or lost; ``reward="sips"``: minus the sips drunk).

>>> from shipcaptaincrew.envs.pettingzoo_env import env
>>> e = env(players=3, rules="classic")
>>> e.reset(seed=1)
>>> e.agents
['player_0', 'player_1', 'player_2']
>>> sorted(e.observe(e.agent_selection))
['action_mask', 'observation']
"""

from __future__ import annotations

import random
import sys
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle

try:
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:
    raise ImportError(
        "the PettingZoo environment needs the rl extra: pip install 'shipcaptaincrew[rl]' "
        f"({error})"
    ) from error

from ..engine import apply
from ..facts import MIN_PLAYERS
from ..formats import MatchFormat
from ..rules import Rules
from ..state import MatchState
from .common import (
    SESSION_ROUNDS,
    Reward,
    advance,
    check_action,
    check_id,
    check_max_steps,
    check_reward,
    check_session_rounds,
    deal,
    make_rules,
    new_match,
    player_count,
    render_text,
    reward_of,
    stop_mask,
    stopped_seat,
)
from .encoding import NUM_ACTIONS, flat_observation, observation_bounds
from .table_play import NO_NODE, TablePlay
from .views import FastObserver, View, check_view, view_bounds, view_vector

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """The environment with the classic environments' standard wrappers."""
    aec: AECEnv = raw_env(**kwargs)
    aec = wrappers.TerminateIllegalWrapper(aec, illegal_reward=-1)
    aec = wrappers.AssertOutOfBoundsWrapper(aec)
    aec = wrappers.OrderEnforcingWrapper(aec)
    return aec


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]
    """Every seat is an agent ``player_<seat>``.

    :param players: the seats; :func:`~shipcaptaincrew.engine.check_players` says how many a
        table can have under ``rules``.
    :param rules: a :class:`~shipcaptaincrew.rules.Rules` or its text.
    :param match: play the rule set's match format instead of one round.
    :param format: play this match format instead (``"rounds:3"``, ``"first_to:21"``,
        ``"tournament"``, ... or a :class:`~shipcaptaincrew.formats.MatchFormat`); it implies
        ``match``.  The observation carries the totals, round, seats to come and the format.
    :param reward: ``win`` (1 for winning the match), ``pot`` (the chips won or lost, under
        stakes=pot) or ``sips`` (a drinking rule set).
    :param starter: the first seat under starter=chosen (default 0).
    :param session_rounds: under ``format=session`` with ``match=True``, the table stops after
        this many rounds unless an agent stops it earlier (see
        :mod:`~shipcaptaincrew.envs.common`).
    :param view: the layout of ``observation``: ``raw`` and ``relative`` (int64), ``onehot``
        (float32); see :mod:`~shipcaptaincrew.envs.views`.
    :param max_steps: truncate the game after this many steps of all agents together (None:
        no limit): every agent is then truncated, with reward 0.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "shipcaptaincrew_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        players: int = MIN_PLAYERS,
        rules: Rules | str = "classic",
        match: bool = False,
        reward: Reward | str = Reward.WIN,
        starter: int | None = None,
        render_mode: str | None = None,
        session_rounds: int = SESSION_ROUNDS,
        view: View | str = View.RAW,
        max_steps: int | None = None,
        format: MatchFormat | str | None = None,  # the rule option's own name
    ) -> None:
        EzPickle.__init__(
            self,
            players,
            rules,
            match,
            reward,
            starter,
            render_mode,
            session_rounds,
            view,
            max_steps,
            format,
        )
        super().__init__()
        self.max_steps = check_max_steps(max_steps)
        self._steps = 0
        self.view = check_view(view)
        self.session_rounds = check_session_rounds(session_rounds)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        self.rules = make_rules(rules, match, format)
        self.players = players = player_count(self.rules, players)
        self.reward_kind = check_reward(reward, self.rules)
        self.starter = starter
        self.render_mode = render_mode
        # Validate the set-up now; every game starts from it (a state is immutable).
        self._new_match = new_match(self.rules, players, starter)
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents = self.possible_agents[:]
        low, high = view_bounds(self.view, players, self.rules)
        self._dtype = np.float32 if self.view is View.ONEHOT else np.int64
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    np.array(low, dtype=self._dtype),
                    np.array(high, dtype=self._dtype),
                    dtype=self._dtype,
                ),
                "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._state: MatchState | None = None
        self._start: MatchState | None = None
        self._rng = random.Random(0)
        self._all_seats = frozenset(range(players))
        try:  # every seat's turn on the compiled turn (see table_play)
            self._table: TablePlay | None = TablePlay(
                self.rules, players, self._all_seats, {}, {}, self.session_rounds
            )
        except ValueError:  # no decision in a turn: the engine plays the turns
            self._table = None
        self._node = NO_NODE
        names = list(observation_bounds(players))
        self._observers = (
            None
            if self.view is View.ONEHOT
            else [FastObserver(players, s, self.view, dict.fromkeys(names, False))
                  for s in range(players)]
        )  # fmt: skip

    # -- spaces and observations ------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same ``Dict`` space for every agent."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(NUM_ACTIONS)``: the action ids."""
        return self.action_spaces[agent]

    @property
    def state_value(self) -> MatchState:
        """The engine's match state (frozen)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The table from ``agent``'s seat, and its mask (zeros unless it is to act)."""
        state = self.state_value
        seat = self._seat(agent)
        acts = agent == self.agent_selection and not state.is_over and not self.truncations[agent]
        table = self._table
        if not acts:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        elif self._node != NO_NODE and table is not None:
            mask = table.turn.masks[self._node].copy()
        else:
            mask = stop_mask(state, seat)
        if self._observers is None:
            vector = np.array(view_vector(state, seat, self.view), dtype=self._dtype)
        elif self._node != NO_NODE and table is not None:
            # In a turn only the turn changes: the rest is the turn start's, built once.
            start = table.turn_start
            assert start is not None
            part = start.extra.get(("observation", seat))
            if part is None:
                part = start.extra["observation", seat] = flat_observation(start.state, seat)
            flat = self._observers[seat].with_turn(part, table.turn.features[self._node])
            vector = self._observers[seat].vector(flat)
        else:
            vector = self._observers[seat].vector(flat_observation(state, seat))
        return {"observation": vector, "action_mask": mask}

    # -- the AEC API ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new round (or match); dice roll up to the first agent's stop."""
        if seed is not None or self._state is None:
            self._rng = random.Random(seed)
        self._node = NO_NODE
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        start, state, undecided = deal(
            self.rules, self.players, self.starter, self._advance, "no seat", self._new_match
        )
        self._start, self._state = start, state
        self._steps = 0
        # A game nobody decides anything in is played out and another dealt (the AEC checker
        # wants an agent to act after reset); those games are reported, for evaluations.
        self.infos: dict[str, dict[str, Any]] = {
            a: {
                "undecided_episodes": len(undecided),
                "undecided_reward": sum(
                    reward_of(end, s, self.reward_kind, start) for end in undecided
                ),
            }
            for s, a in enumerate(self.agents)
        }
        self._select()
        if self.render_mode == "human":
            self.render()

    def _advance(self, state: MatchState) -> MatchState:
        if self._table is None:
            return advance(state, self._rng, self._all_seats, {}, self.session_rounds)
        state, self._node = self._table.advance(state, self._rng)
        return state

    def _select(self) -> None:
        state = self.state_value
        if state.is_over:
            assert self._start is not None
            for agent in self.agents:
                seat = self._seat(agent)
                self.rewards[agent] = reward_of(state, seat, self.reward_kind, self._start)
                self.terminations[agent] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        at = stopped_seat(state, self._all_seats)
        assert at is not None
        self.agent_selection = self.possible_agents[at]

    def step(self, action: Any) -> None:
        """The selected agent acts; the dice roll on to the next stop."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state_value
        seat = self._seat(agent)
        table = self._table
        if self._node != NO_NODE and table is not None:
            index = check_id(action)
            if not table.turn.masks[self._node][index]:
                check_action(state, seat, index)  # raises, naming the legal ids
            self._cumulative_rewards[agent] = 0.0
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._state, self._node = table.move(self._node, index, self._rng)
        else:
            chosen = check_action(state, seat, action)
            self._cumulative_rewards[agent] = 0.0
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._state = self._advance(apply(state, chosen))
        self._steps += 1
        if not self._state.is_over and self._steps == self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        else:
            self._select()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text from the selected agent's seat: returned (``render_mode="ansi"``)
        or printed (``"human"``, which ``reset`` and ``step`` also do, as the classic
        environments do in that mode)."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() was called without render_mode='ansi' or 'human'")
            return None
        seat = None if self.state_value.is_over else self._seat(self.agent_selection)
        text = render_text(self.state_value, seat)
        if self.render_mode == "human":
            sys.stdout.write(text + "\n")
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
