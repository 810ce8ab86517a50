"""Gymnasium environment ``ShipCaptainCrew-v0``: one agent at a table of bots.

The agent sits at ``seat`` among ``bots`` (heuristic or solver-backed, see
:func:`~shipcaptaincrew.envs.common.resolve_bot`) and plays one round, or a whole match with
``match=True``, under any rule set.  ``step`` takes an action id (see
:mod:`~shipcaptaincrew.envs.encoding`), applies it through the engine, then rolls the dice
and lets the bots play from the seeded generator until the agent's next stop (a decision or
the start of one of its turns) or the end of the match.

Illegal actions raise :class:`~shipcaptaincrew.engine.IllegalActionError` naming the legal ids
and leave the match untouched.  ``action_space.sample()`` draws among the legal ids of the
current state (a mask given explicitly still wins), so random agents and
``gymnasium.utils.env_checker.check_env`` only ever send legal actions.

>>> import gymnasium as gym
>>> from shipcaptaincrew.envs import NUM_ACTIONS      # importing also registers the env
>>> env = gym.make("ShipCaptainCrew-v0", rules="classic", bots=["tip"])
>>> obs, info = env.reset(seed=7)
>>> int(obs["phase"]), int(obs["action_mask"].sum()) == NUM_ACTIONS  # the agent's turn starts
(0, True)
"""

from __future__ import annotations

import random
import sys
import weakref
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..bots import Bot
from ..engine import apply, sample_chance
from ..rules import Rules
from ..state import MatchState
from .common import (
    SESSION_ROUNDS,
    Reward,
    advance,
    check_action,
    check_reward,
    check_session_rounds,
    make_rules,
    new_match,
    player_count,
    render_text,
    resolve_bot,
    reward_of,
    stop_mask,
)
from .encoding import NUM_ACTIONS, action_label, observation, observation_bounds

__all__ = ["LegalDiscrete", "ShipCaptainCrewEnv", "observation_space"]


class LegalDiscrete(spaces.Discrete):
    """``Discrete(NUM_ACTIONS)`` whose ``sample()`` without a mask draws among the legal ids."""

    def __init__(self, n: int, env: ShipCaptainCrewEnv) -> None:
        super().__init__(n)
        self._env = weakref.ref(env)

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        """A random legal id (or per ``mask``/``probability`` when one is given)."""
        env = self._env()
        if mask is None and probability is None and env is not None and env.has_stop:
            mask = env.action_mask()
        return super().sample(mask=mask, probability=probability)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (for subprocess vector envs), it is a plain space.
        return (spaces.Discrete, (int(self.n),))

    def __deepcopy__(self, memo: dict[int, Any]) -> spaces.Discrete:
        # A copy is a plain space: it must not keep sampling from this environment.
        copy = spaces.Discrete(self.n)
        copy.np_random.bit_generator.state = self.np_random.bit_generator.state
        return copy


def observation_space(players: int) -> spaces.Dict:
    """The ``Dict`` observation space for a table of ``players`` seats."""
    fields: dict[str, spaces.Space[Any]] = {}
    for name, (size, low, high) in observation_bounds(players).items():
        if name in ("held", "cargo", "pending"):
            fields[name] = spaces.MultiDiscrete([high + 1] * size)
        elif size == 1 and low == 0 and high <= 1000:
            fields[name] = spaces.Discrete(high + 1)
        else:
            fields[name] = spaces.Box(low, high, shape=(size,), dtype=np.int64)
    fields["action_mask"] = spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8)
    return spaces.Dict(fields)


class ShipCaptainCrewEnv(gym.Env[dict[str, Any], np.int64]):
    """One agent against bots; reward at the end of the round or match.

    :param rules: a :class:`~shipcaptaincrew.rules.Rules` or its text (``"classic"``,
        ``"classic(half_cargo=true)"``).
    :param bots: the other seats, in seat order skipping the agent's (bots or specs); with
        the agent they make a table the engine seats
        (:func:`~shipcaptaincrew.engine.check_players`).
    :param seat: the agent's seat, 0..len(bots).
    :param match: play the rule set's whole match format instead of one round.
    :param reward: ``win`` (1 for a win, else 0), ``pot`` (chips won or lost) or ``sips``
        (minus the sips drunk).
    :param starter: the first seat under starter=chosen (default 0); ignored for the roll-off.
    :param session_rounds: under ``format=session`` with ``match=True``, the table stops after
        this many rounds (see :mod:`~shipcaptaincrew.envs.common`); the agent, when it is the
        one to call, may stop earlier, and the bots always call another round.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 (gymnasium API)

    def __init__(
        self,
        rules: Rules | str = "classic",
        bots: Sequence[Bot | str] = ("tip",),
        seat: int = 0,
        match: bool = False,
        reward: Reward | str = Reward.WIN,
        starter: int | None = None,
        render_mode: str | None = None,
        session_rounds: int = SESSION_ROUNDS,
    ) -> None:
        self.rules = make_rules(rules, match)
        self.session_rounds = check_session_rounds(session_rounds)
        if isinstance(bots, (str, Bot)) or not isinstance(bots, Sequence):
            raise TypeError("bots must be a sequence of bots or bot specs, one per other seat")
        self.players = player_count(self.rules, len(bots) + 1)
        # numpy integers are welcome (a seat drawn with numpy); bools and floats are not.
        if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)):
            raise ValueError(f"seat must be 0..{self.players - 1}, got {seat!r}")
        seat = int(seat)
        if not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0..{self.players - 1}, got {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        self.seat = seat
        self.reward_kind = check_reward(reward, self.rules)
        self.starter = starter
        others = [s for s in range(self.players) if s != seat]
        self.bots: dict[int, Bot] = {s: resolve_bot(b) for s, b in zip(others, bots)}
        self.render_mode = render_mode
        self._dict_space = observation_space(self.players)
        self.observation_space = self._dict_space
        self.action_space = LegalDiscrete(NUM_ACTIONS, self)
        # Validate the set-up once (the starter seat).
        new_match(self.rules, self.players, starter)
        self._state: MatchState | None = None
        self._start: MatchState | None = None
        self._rng = random.Random(0)

    # -- queries ------------------------------------------------------------------------------
    @property
    def state(self) -> MatchState:
        """The engine's match state (frozen; for solvers, bots and tests)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    @property
    def has_stop(self) -> bool:
        """The agent is at a stop (reset done and the episode not over)."""
        return self._state is not None and not self._state.is_over

    def action_mask(self) -> np.ndarray:
        """The current 0/1 mask over the action ids."""
        return stop_mask(self.state, self.seat)

    def _obs(self) -> dict[str, Any]:
        state = self.state
        raw = observation(state, self.seat)
        obs: dict[str, Any] = {}
        for name, space in self._dict_space.spaces.items():
            if name == "action_mask":
                obs[name] = stop_mask(state, self.seat)
            elif isinstance(space, spaces.Discrete):
                obs[name] = np.int64(raw[name])
            else:
                value = raw[name]
                obs[name] = np.array(value if isinstance(value, list) else [value], dtype=np.int64)
        return obs

    def _info(self) -> dict[str, Any]:
        state = self.state
        mask = stop_mask(state, self.seat)
        return {
            "legal_actions": [f"{i}={action_label(state, int(i))}" for i in np.flatnonzero(mask)]
            if mask.sum() < NUM_ACTIONS
            else ["any=roll"],
            "round_no": state.round_no,
            "winner": -1 if state.winner is None else state.winner,
        }

    def _advance(self, state: MatchState) -> MatchState:
        return advance(state, self._rng, frozenset({self.seat}), self.bots, self.session_rounds)

    # -- the Gymnasium API ------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new round (or match) and play to the agent's first stop."""
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(0, 2**63 - 1)))
        start = new_match(self.rules, self.players, self.starter)
        self._start = start
        self._state = self._advance(start)
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Apply the agent's action, then play on to its next stop or the end."""
        state = self.state
        if state.is_over:
            raise RuntimeError("the episode is over: call reset()")
        chosen = check_action(state, self.seat, action)
        if chosen is None:  # a turn start: the agent rolls its dice
            state = apply(state, sample_chance(state, self._rng))
        else:
            state = apply(state, chosen)
        state = self._state = self._advance(state)
        assert self._start is not None
        reward = reward_of(state, self.seat, self.reward_kind, self._start)
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, state.is_over, False, self._info()

    def render(self) -> str | None:
        """The table as text: returned (``render_mode="ansi"``) or printed (``"human"``).

        In ``human`` mode ``reset`` and ``step`` print the table themselves, as Gymnasium's
        convention for that mode asks, so a person can watch an agent play in a terminal.
        """
        if self.render_mode is None:
            gym.logger.warn("render() was called without render_mode='ansi' or 'human'")
            return None
        text = render_text(self.state, self.seat)
        if self.render_mode == "human":
            sys.stdout.write(text + "\n")
            return None
        return text
