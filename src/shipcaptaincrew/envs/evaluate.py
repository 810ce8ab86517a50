"""How good is a learned policy: its exact value, the exact best response to it, and an
unbiased sample -- one call each, for every environment.

Why this module: the exact walk of a learned match policy (:func:`~shipcaptaincrew.solver.walk.
exact_chances`) was only to be found inside an example, the one-turn environment had no exact
value of a policy table at all, and the obvious sampled evaluation of a batched environment --
step for a while, average the rewards of the matches that ended -- is biased: the matches still
running when it stops are dropped, and those are the long ones, which a policy that stands
early wins less often than its short ones (a time-boxed "always stand" came out 0.025-0.05
below its exact value, z = -4.4).

* :func:`exact_value` -- the policy's exact value and, with ``best_response=True``, the value
  of the best response to it:

  - :class:`~.batched.BatchedTurnEnv` (one turn at a fixed contest): a table of ids by node
    (or a function of the batched observation) is followed through the compiled turn with
    exact integer reach counts; its value is the mean reward per turn dealt (the chance to win
    the round, or the score) and the best response is the optimal plan there;
  - :class:`~.gym_env.ShipCaptainCrewEnv` and :class:`~.batched_match.BatchedMatchEnv` (whole
    matches against bots): the engine's match is walked roll by roll with the policy at its
    seat, asked what the environment would show it there; its value is its chance of winning
    the match from the start (the roll-off included), and the best response -- the most any
    player can win against it at another seat, found by policy iteration -- says how
    exploitable it is (:attr:`ExactValue.exploitability`: the best response's chance above a
    fair share ``1/players``).  The other seats play the policy of their bots' names through
    the match solver (``optimal``, ``optimal:round``, ``ev``, ``threshold:T``, ``timid``,
    ``tip``); the walk costs minutes for ``rounds:3`` and more for longer matches.

* :func:`sampled_value` -- an estimate from the batched environments in which every match (or
  turn) started is finished: each table counts its first ``k`` matches, whatever they take,
  so ``k x num_envs`` matches are counted and none is left out by the stopping; the matches a
  reset or step plays out before the agent's first decision count too
  (``info["undecided_rewards"]``).  It returns the mean, its standard error and 95% interval,
  and the z of an exact value when given one.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..actions import Action
from ..engine import seat_to_act
from ..solver import contest_view
from ..solver.batch import best_play
from ..solver.graph import TurnGraph
from ..solver.match.solve import solve_match
from ..solver.policies import SEAT_KINDS, parse_policy
from ..solver.rounds import SolverError
from ..solver.walk import BEST, Choosing, Player, Solved, exact_chances
from ..state import MatchState, evolve
from .batched import BatchedTurnEnv
from .batched_match import BatchedMatchEnv
from .encoding import FORMAT_CODES, action_index, flat_observation, index_action
from .gym_env import ShipCaptainCrewEnv

__all__ = ["ExactValue", "SampledValue", "exact_value", "sampled_value"]

#: What a policy is: for a Gymnasium environment a function of one observation giving an id;
#: for a batched one a function of the batched observation giving one id per table, or (the
#: turn environment) an array of ids by node.
PolicyLike = Callable[[Any], Any] | np.ndarray


@dataclass(frozen=True)
class ExactValue:
    """A policy's exact value and the best response's (see :func:`exact_value`)."""

    #: The policy's chance of winning the match (the turn environment: its mean reward).
    value: float
    #: The best response's value against it (the turn environment: the optimal plan's).
    best_response: float | None
    #: Match: the best response's chance above a fair share 1/players; turn: best - value.
    exploitability: float | None
    players: int
    seconds: float


@dataclass(frozen=True)
class SampledValue:
    """An unbiased sample: every match (turn) started was finished and counted."""

    mean: float
    count: int
    standard_error: float

    @property
    def ci95(self) -> tuple[float, float]:
        """The normal 95% interval."""
        half = 1.959963984540054 * self.standard_error
        return self.mean - half, self.mean + half

    def z(self, exact: float) -> float:
        """How many standard errors the sample lies from an exact value."""
        return (self.mean - exact) / self.standard_error if self.standard_error else 0.0


def exact_value(
    env: Any,
    policy: PolicyLike,
    *,
    best_response: bool = True,
    key: Callable[[MatchState, int], Hashable] | None = None,
) -> ExactValue:
    """The exact value of ``policy`` in ``env`` (see the module's docstring).

    ``key`` (match environments) says what the policy reads of the match besides its turn;
    by default the whole observation at the turn's start, which is always right and can be
    slow when the observation holds much (a key that says less makes the walk faster).
    """
    t0 = time.perf_counter()
    if isinstance(env, BatchedTurnEnv):
        value, best = _turn_value(env, policy, best_response)
        gap = None if best is None else max(0.0, best - value)  # no plan beats the optimum
        return ExactValue(value, best, gap, 1, time.perf_counter() - t0)
    if isinstance(env, ShipCaptainCrewEnv):
        player = _gym_player(env, policy, key)
        rules, players, seat, specs = env.rules, env.players, env.seat, env.bot_specs
    elif isinstance(env, BatchedMatchEnv):
        player = _batched_player(env, policy, key)
        rules, players, seat = env.rules, env.players, env.seat
        specs = [b for s, b in enumerate(env.bots) if s != seat]
    else:
        raise TypeError(f"no exact evaluation for {type(env).__name__}")
    others = _opponents(rules, players, specs)
    lineup: list[Player] = [others] * players
    lineup[seat] = player
    value = exact_chances(rules, lineup).seat_win_probability[seat]
    best = None
    if best_response:
        rival = (seat + 1) % players
        lineup[rival] = BEST
        best = exact_chances(rules, lineup).seat_win_probability[rival]
    gap = None if best is None else best - 1 / players
    return ExactValue(value, best, gap, players, time.perf_counter() - t0)


def _opponents(rules: Any, players: int, specs: list[str | None]) -> Solved:
    """The other seats' play: one policy of the match solver for all of them."""
    names = set(specs)
    if len(names) != 1 or None in names:
        raise SolverError(
            "the exact walk plays the other seats by one policy name (optimal, optimal:round, "
            f"ev, threshold:T, timid, tip), got {sorted(map(str, names))}"
        )
    name = specs[0]
    assert name is not None
    policy = parse_policy(name, allow=SEAT_KINDS)
    return Solved(solve_match(rules, (policy,) * players))


def _turn_value(env: BatchedTurnEnv, policy: PolicyLike, best: bool) -> tuple[float, float | None]:
    """The mean reward per turn dealt under ``policy``, and the optimal plan's."""
    g: TurnGraph = env.graph
    decisions = np.flatnonzero(env.turn.decision)
    if callable(policy):
        obs = {
            "node": decisions.copy(),
            "observation": env._features[decisions],
            "action_mask": env.masks[decisions],
        }
        ids = np.asarray(policy(obs))
    else:
        ids = np.asarray(policy)[decisions]
    choice = [-1] * len(g)
    for node, wanted in zip(decisions.tolist(), ids.tolist()):
        legal = [action_index(g.states[node], a) for a in g.actions[node]]
        if wanted not in legal:
            raise ValueError(f"node {node}: action id {wanted} is not legal there; legal: {legal}")
        choice[node] = legal.index(wanted)
    reach, total = g.reach_counts(choice)
    value = sum(reach[i] * env.node_reward[i] for i in np.flatnonzero(env.turn.final)) / total
    if not best:
        return float(value), None
    per_score = np.asarray(env.score_reward, dtype=float)
    optimum = float(best_play(g, per_score[None])[0] @ per_score)
    return float(value), optimum


def _gym_player(
    env: ShipCaptainCrewEnv,
    policy: PolicyLike,
    key: Callable[[MatchState, int], Hashable] | None,
) -> Choosing:
    """The policy at the environment's seat, choosing from what ``env.observe`` shows."""
    if not callable(policy):
        raise TypeError("a Gymnasium policy is a function of one observation giving an id")

    def choose(state: MatchState) -> Action:
        chosen = int(policy(env.observe(state)))
        action = index_action(state, chosen)
        if action is None:
            raise SolverError(f"the policy chose id {chosen}, which names nothing there")
        return action

    def whole(state: MatchState, seat: int) -> Hashable:
        return tuple(flat_observation(state, seat))

    return Choosing(choose, key or whole)


def _batched_player(
    env: BatchedMatchEnv,
    policy: PolicyLike,
    key: Callable[[MatchState, int], Hashable] | None,
) -> Choosing:
    """The policy at the agent's seat, asked once per turn for all of its decisions."""
    if not callable(policy):
        raise TypeError("a batched match policy is a function of the batched observation")
    g = env.turn.graph
    decisions = np.flatnonzero(env.turn.decision)
    features = env.turn.features[decisions]
    masks = env.turn.masks[decisions]

    def row(state: MatchState) -> tuple[int, np.ndarray]:
        """The match part of the observation (the contest only where the agent's turn is
        being played: -1 elsewhere), and the step tables' node at its turn's start (-1)."""
        mine = state.turn is not None and seat_to_act(state) == env.seat
        view = contest_view(state) if mine else None
        seats = [(env.seat + k) % env.players for k in range(env.players)]
        own = sum(1 for r in state.results if not r.tie_round)
        fmt = env.rules.format
        match = [-1, -1, -1] if view is None else [view.posted_max, view.tied, view.players_after]
        match += [state.totals[s] for s in seats] + [state.wins[s] for s in seats]
        match += [own, FORMAT_CODES.index(fmt.kind), fmt.n or 0]
        node = env.table.nodes.node(state) if mine and state.turn == g.states[0] else -1
        return node, np.array(match, dtype=np.int64)

    def plan(state: MatchState) -> dict[int, Action]:
        """Every decision of the turn beginning at ``state``, from one call of the policy."""
        match_node, match = row(state)
        n = len(decisions)
        obs = {
            "node": decisions.copy(),
            "match_node": np.full(n, match_node),
            "observation": np.hstack([features, np.broadcast_to(match, (n, len(match)))]),
            "action_mask": masks,
        }
        out: dict[int, Action] = {}
        for node, chosen in zip(decisions.tolist(), np.asarray(policy(obs)).tolist()):
            action = index_action(g.states[node], chosen)
            if action is None:
                raise SolverError(f"the policy chose id {chosen}, which names nothing at {node}")
            out[node] = action
        return out

    def choose(state: MatchState) -> Action:
        assert state.turn is not None
        return plan(_turn_start(state, g))[g.node(state.turn)]

    def whole(state: MatchState, seat: int) -> Hashable:
        match_node, match = row(state)
        return (match_node, match.tobytes())

    return Choosing(choose, key or whole, plan)


def _turn_start(state: MatchState, g: TurnGraph) -> MatchState:
    """The state with its turn not yet begun (what the match part of an observation reads)."""
    return evolve(state, turn=g.states[0])


def sampled_value(env: Any, policy: PolicyLike, count: int, *, seed: int) -> SampledValue:
    """The policy's mean reward over at least ``count`` matches (turns) of a batched
    environment, every one started also finished and counted (see the module's docstring)."""
    if not isinstance(env, (BatchedTurnEnv, BatchedMatchEnv)):
        raise TypeError(f"sampled_value needs a batched environment, got {type(env).__name__}")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"count must be a number of matches from 1, got {count!r}")
    n = env.num_envs
    per_table = math.ceil(count / n)
    counted = np.zeros(n, dtype=np.int64)
    total = np.zeros(n)
    squares = np.zeros(n)

    def credit(tables: np.ndarray, rewards: np.ndarray) -> None:
        # In the order the tables finished them: the first per_table of each table count.
        for table, reward in zip(tables.tolist(), rewards.tolist()):
            if counted[table] < per_table:
                counted[table] += 1
                total[table] += reward
                squares[table] += reward * reward

    def act(obs: dict[str, np.ndarray]) -> np.ndarray:
        if callable(policy):
            return np.asarray(policy(obs))
        ids: np.ndarray = np.asarray(policy)[obs["node"]]
        return ids

    obs, info = env.reset(seed=seed)
    credit(info["undecided_tables"], info["undecided_rewards"])
    while (counted < per_table).any():
        obs, reward, terminated, _, info = env.step(act(obs))
        # A table ends at most one match with a reward per step, and it ended first: those
        # are counted at once; the few played out undecided after it, one by one.
        ended = np.flatnonzero(terminated)
        ended = ended[counted[ended] < per_table]
        counted[ended] += 1
        total[ended] += reward[ended]
        squares[ended] += reward[ended] ** 2
        credit(info["undecided_tables"], info["undecided_rewards"])
    m = int(counted.sum())
    mean = float(total.sum() / m)
    variance = max(float(squares.sum() / m) - mean * mean, 0.0) * m / max(m - 1, 1)
    return SampledValue(mean, m, math.sqrt(variance / m))
