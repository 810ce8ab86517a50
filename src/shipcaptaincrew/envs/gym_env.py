"""Gymnasium environment ``ShipCaptainCrew-v0``: one agent at a table of bots.

The agent sits at ``seat`` among ``bots`` (heuristic or solver-backed, see
:func:`~shipcaptaincrew.envs.common.resolve_bot`) and plays one round, or a whole match with
``match=True``, under any rule set.  ``step`` takes an action id (see
:mod:`~shipcaptaincrew.envs.encoding`), applies it through the engine, then rolls the dice
and lets the bots play from the seeded generator until the agent's next decision or the end
of the match.  Every roll of the agent's dice is chance, rolled inside ``step``: a turn's
start is no decision (see :mod:`~shipcaptaincrew.envs.common`).

An illegal action ends the episode with reward -1 (``illegal="lose"``, the default, as
PettingZoo's ``env()`` does), or raises :class:`~shipcaptaincrew.engine.IllegalActionError`
naming the legal ids and leaves the match untouched (``illegal="raise"``).
``action_space.sample()`` draws among the legal ids of the current state (a mask given
explicitly still wins), so random agents only ever send legal actions.

>>> import gymnasium as gym
>>> from shipcaptaincrew.envs import NUM_ACTIONS      # importing also registers the env
>>> env = gym.make("ShipCaptainCrew-v0", rules="classic", bots=["tip"])
>>> obs, info = env.reset(seed=7)
>>> int(obs["phase"]), [str(a) for a in info["legal_actions"]]   # the agent's first decision
(2, ['0=stand', '1=reroll'])
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..bots import Bot
from ..engine import IllegalActionError, apply
from ..formats import MatchFormat
from ..rules import Rules
from ..state import MatchState
from .common import (
    ILLEGAL_REWARD,
    SESSION_ROUNDS,
    Illegal,
    Reward,
    advance,
    check_action,
    check_id,
    check_illegal,
    check_max_steps,
    check_reward,
    check_session_rounds,
    deal,
    make_rules,
    new_match,
    player_count,
    render_text,
    resolve_bot,
    reward_of,
    stop_mask,
)
from .encoding import NUM_ACTIONS, action_label, flat_observation
from .gym_spaces import LegalDiscrete, flat_space, observation_space
from .table_play import NO_NODE, TablePlay
from .views import (
    FastObserver,
    View,
    check_view,
    view_fields,
    view_pieces,
    view_vector,
)

__all__ = ["LegalDiscrete", "ShipCaptainCrewEnv", "flat_space", "observation_space"]


class ShipCaptainCrewEnv(gym.Env[dict[str, Any], np.int64]):
    """One agent against bots; reward at the end of the round or match.

    :param rules: a :class:`~shipcaptaincrew.rules.Rules` or its text (``"classic"``,
        ``"classic(half_cargo=true)"``).
    :param bots: the other seats, in seat order skipping the agent's (bots or specs); with
        the agent they make a table the engine seats
        (:func:`~shipcaptaincrew.engine.check_players`).
    :param seat: the agent's seat, 0..len(bots).
    :param match: play the rule set's whole match format instead of one round.
    :param format: play this match format instead (``"rounds:3"``, ``"first_to:21"``,
        ``"wins:2"``, ``"tournament"``, ``"session"``, ``"single"``, or a
        :class:`~shipcaptaincrew.formats.MatchFormat`); it implies ``match``.  The observation
        carries the match: totals, round, seats still to come, format kind and N.
    :param reward: ``win`` (1 for winning the match, else 0), ``pot`` (the chips won or lost,
        under stakes=pot) or ``sips`` (minus the sips drunk).
    :param starter: the first seat under starter=chosen (default 0); ignored for the roll-off.
    :param session_rounds: under ``format=session`` with ``match=True``, the table stops after
        this many rounds (see :mod:`~shipcaptaincrew.envs.common`); the agent, when it is the
        one to call, may stop earlier, and the bots always call another round.
    :param view: ``raw`` (integers, absolute seats), ``relative`` (integers, seats counted
        from the agent's) or ``onehot`` (seat-relative, categories one-hot, float32); see
        :mod:`~shipcaptaincrew.envs.views`.
    :param illegal: an id that is not legal now ends the episode with reward -1 (``lose``,
        as PettingZoo's ``env()`` does), or raises and leaves the match untouched (``raise``).
    :param max_steps: truncate an episode after this many of the agent's steps (None: no
        limit): the last step returns ``truncated=True`` with the state as it is, its mask
        included, for bootstrapping; then the episode is over.
    :param flatten: the observation is the view's fields as one flat ``Box`` vector without
        the mask (a ``FlattenObservation`` of the ``Dict`` would put the mask among the
        features); the mask is then :meth:`action_masks` and ``info["action_mask"]``.
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
        view: View | str = View.RAW,
        illegal: Illegal | str = Illegal.LOSE,
        max_steps: int | None = None,
        format: MatchFormat | str | None = None,  # the rule option's own name
        flatten: bool = False,
    ) -> None:
        self.rules = make_rules(rules, match, format)
        self.max_steps = check_max_steps(max_steps)
        self.view = check_view(view)
        self.illegal = check_illegal(illegal)
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
        if not isinstance(flatten, (bool, np.bool_)):
            raise TypeError(f"flatten must be True or False, got {flatten!r}")
        self.flatten = bool(flatten)
        self._dict_space = observation_space(self.players, self.rules, self.view)
        self.observation_space: spaces.Space[Any] = (
            flat_space(self.players, self.rules, self.view) if self.flatten else self._dict_space
        )
        self.action_space = LegalDiscrete(NUM_ACTIONS, self)
        self._observer = (
            None
            if self.view is View.ONEHOT
            else FastObserver(
                self.players,
                seat,
                self.view,
                {k: isinstance(v, spaces.Discrete) for k, v in self._dict_space.spaces.items()},
            )
        )
        specs = {s: b for s, b in zip(others, bots) if isinstance(b, str)}
        #: Each other seat's bot by name, in seat order (None: a bot given as an object).
        self.bot_specs: list[str | None] = [specs.get(s) for s in others]
        try:
            self._table: TablePlay | None = TablePlay(
                self.rules, self.players, frozenset({seat}), self.bots, specs,
                self.session_rounds,
            )  # fmt: skip
        except ValueError:
            # The turn offers no decision under these rules (the agent decides only between
            # turns): the match is played through the engine alone.
            self._table = None
        #: The agent's turn's node on the compiled turn while it decides in a turn.
        self._node = NO_NODE
        # Validate the set-up once (the starter seat); every episode starts from it.
        self._new_match = new_match(self.rules, self.players, starter)
        self._state: MatchState | None = None
        #: The episode is over: the match ended, an illegal action ended it (illegal="lose"),
        #: or it was truncated at ``max_steps``.
        self._done = False
        #: The episode ended at ``max_steps`` with the match still going.
        self._truncated = False
        self._steps = 0
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
        """The agent is at a decision (reset done and the episode not over)."""
        return self._state is not None and not self._done

    def action_mask(self) -> np.ndarray:
        """The current 0/1 mask over the action ids: all zeros once the episode has ended,
        except after a truncation, where it is the mask of the state the episode stopped in."""
        if self._done and not self._truncated:
            return np.zeros(NUM_ACTIONS, dtype=np.int8)
        if self._node != NO_NODE and self._table is not None:
            return self._table.turn.masks[self._node].copy()
        return stop_mask(self.state, self.seat)

    def action_masks(self) -> np.ndarray:
        """:meth:`action_mask` as booleans, under the name sb3-contrib's ``MaskablePPO`` calls
        (``sb3_contrib.common.maskable.utils.get_action_masks``)."""
        return self.action_mask().astype(bool)

    def _obs(self) -> Any:
        table = self._table
        if self._node == NO_NODE or table is None or self._observer is None:
            return self._observe(self.state, self.action_mask(), None)
        # In a turn only the turn changes: the rest of the observation is the turn start's,
        # built once per turn.
        start = table.turn_start
        assert start is not None
        part = start.extra.get(("observation", self.seat))
        if part is None:
            part = start.extra["observation", self.seat] = flat_observation(start.state, self.seat)
        flat = self._observer.with_turn(part, table.turn.features[self._node])
        vector = self._observer.vector(flat)
        if self.flatten:
            return vector
        return {**self._observer.pieces(vector), "action_mask": self.action_mask()}

    def observe(self, state: MatchState, mask: np.ndarray | None = None) -> Any:
        """The observation this environment gives its seat at ``state`` (any state of a match
        of its rules), with ``mask`` or the legal ids there: what an exact walk of a learned
        policy asks it for the states an episode never reached."""
        return self._observe(state, stop_mask(state, self.seat) if mask is None else mask, None)

    def _observe(self, state: MatchState, mask: np.ndarray, turn_row: list[int] | None) -> Any:
        if self._observer is None:
            vector = np.array(view_vector(state, self.seat, self.view), dtype=np.float32)
            if self.flatten:
                return vector
            fields = view_fields(self.view, self.players, self.rules)
            return {**view_pieces(vector, fields), "action_mask": mask}
        vector = self._observer.vector(flat_observation(state, self.seat, turn_row))
        if self.flatten:
            return vector
        return {**self._observer.pieces(vector), "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        state = self.state
        mask = self.action_mask()
        if self._node != NO_NODE and self._table is not None and not self._done:
            labels = self._table.turn.labels(self._node)
        else:
            labels = [f"{i}={action_label(state, int(i))}" for i in np.flatnonzero(mask)]
        info = {
            "legal_actions": labels,
            "round_no": state.round_no,
            "winner": -1 if state.winner is None else state.winner,
        }
        if self.flatten:
            info["action_mask"] = mask
        return info

    def _advance(self, state: MatchState) -> MatchState:
        if self._table is None:
            return advance(state, self._rng, frozenset({self.seat}), self.bots, self.session_rounds)
        state, self._node = self._table.advance(state, self._rng)
        return state

    # -- the Gymnasium API ------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new round (or match) and play to the agent's first decision.

        An episode that ends before the agent has anything to decide (no crew in all the rolls,
        or a crew on the last roll, and nothing else to choose) is played out here and the
        next one dealt; ``info["undecided_episodes"]`` counts them and
        ``info["undecided_reward"]`` sums their rewards, so an evaluation over episodes can
        add them back.  Under rules that give the agent no decision at all (classic with
        ``cargo_rerolls=0``), :data:`~.common.UNDECIDED_LIMIT` such episodes in a row raise.
        """
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(0, 2**63 - 1)))
        self._node = NO_NODE
        start, state, undecided = deal(
            self.rules, self.players, self.starter, self._advance, f"seat {self.seat}",
            self._new_match,
        )  # fmt: skip
        self._start, self._state = start, state
        self._done = self._truncated = False
        self._steps = 0
        if self.render_mode == "human":
            self.render()
        info = self._info()
        info["undecided_episodes"] = len(undecided)
        info["undecided_reward"] = sum(
            reward_of(end, self.seat, self.reward_kind, start) for end in undecided
        )
        return self._obs(), info

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Apply the agent's action, then play on to its next decision or the end."""
        state = self.state
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        try:
            if self._node != NO_NODE and self._table is not None:
                index = check_id(action)
                if not self._table.turn.masks[self._node][index]:
                    check_action(state, self.seat, index)  # raises, naming the legal ids
                state, self._node = self._table.move(self._node, index, self._rng)
                self._state = state
            else:
                chosen = check_action(state, self.seat, action)
                state = self._state = self._advance(apply(state, chosen))
        except IllegalActionError as error:
            if self.illegal is Illegal.RAISE:
                raise
            self._done = True
            info = {**self._info(), "illegal": str(error)}
            return self._obs(), ILLEGAL_REWARD, True, False, info
        self._steps += 1
        self._truncated = not state.is_over and self._steps == self.max_steps
        self._done = state.is_over or self._truncated
        assert self._start is not None
        reward = reward_of(state, self.seat, self.reward_kind, self._start)
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, state.is_over, self._truncated, self._info()

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
