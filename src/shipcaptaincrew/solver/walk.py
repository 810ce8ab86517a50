"""Exact chances of any players, walked through the engine's own matches.

Why this exists: the match solver (:mod:`.match.solve`) is fast because its players are its
own policy kinds, whose play depends only on what its positions hold.  A player that reads
something else -- a table learned by an agent, keyed by its own view of the match -- is none
of them, so the solver cannot say how good it is, nor how much a best response would take
from it.  Here the engine itself is walked instead, state by state, and each seat plays as its
:data:`Player` says:

* :class:`Solved`: as a seat of a :class:`~.match.solve.MatchSolution` plays (the solver's
  ``optimal``, ``optimal:round``, ``ev``, ...), read off at the engine's state;
* :class:`Choosing`: by any function of the state (a bot, a learned table); its turn is played
  on the compiled turn (:func:`~.graph.turn_graph`) with that function's choice at every
  decision, once per value of its ``key`` (what it reads of the match besides the turn);
* :data:`BEST`: the best response -- the play that maximises its chance of winning the match
  against everyone else's play, found by policy iteration (below).

A decision between turns (sips to hand out) is taken as the :class:`Choosing` player takes it;
where every choice leads to the same position (sips decide nothing in a game of points) any
is, whoever decides; else the walk refuses it.

Every turn is collapsed to its exact score distribution and posted with
:func:`~shipcaptaincrew.engine.post_score`; every other chance node (a roll-off) is followed
roll by roll.  States are memoised by the engine's :func:`~shipcaptaincrew.engine.match_position`
(what decides the rest of the match), together with every :class:`Choosing` player's key.

Rounds that start again
    A contest with nothing posted yet (a round, a tie-break, a roll-off) can come back: a
    round everyone fails is replayed, a tie replayed among the same seats.  While a contest
    start is being expanded, meeting it again is a reference to its own unknown value; once
    its expansion is done, ``V = A + q V`` is solved for it (``V = A / (1 - q)``), and a
    reference to a start finished earlier is replaced by its solution.  So nothing iterates
    to a tolerance for fixed play.  A best response inside a start that can come back values
    the comeback at a guess; policy iteration plays again from the values the last walk
    found until the best response's play no longer changes
    (:data:`~.match.play.MAX_POLICY_ITERATIONS` bounds it).

Cost: a pure-Python walk of the engine, about 100,000 states a minute; two players of
``rounds:3`` take a minute or two a walk, ``first_to:N`` and more players much more (use the
match solver where its policies will do).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from ..actions import Action
from ..engine import (
    apply,
    chance_outcomes,
    initial_state,
    initial_turn,
    is_chance,
    is_terminal,
    legal_actions,
    match_position,
    post_score,
    seat_to_act,
)
from ..rules import Rules
from ..state import MatchState, Phase
from .batch import best_play
from .graph import DECISION_NODE, turn_graph
from .match.advice import turn_distribution
from .match.play import MAX_POLICY_ITERATIONS
from .match.solve import MatchSolution
from .match.view import match_view
from .rounds import SolverError

__all__ = [
    "BEST",
    "Affine",
    "Best",
    "Choosing",
    "Player",
    "PlayersWalk",
    "Solved",
    "Walk",
    "WalkResult",
    "exact_chances",
]

#: A win vector as an affine expression: (matches won per seat, {contest start: coefficient}).
Affine = tuple[np.ndarray, dict[Hashable, float]]


class Walk:
    """Each seat's exact chance of winning a match, walked through the engine: turns by
    :meth:`_turn_moves` (a subclass says how a seat plays them), every chance node roll by
    roll, decisions between rounds by :meth:`_decision_moves`; contest starts that come back
    solved as they close (see the module's docstring)."""

    def __init__(
        self, rules: Rules, n: int, key: Callable[[MatchState], Hashable] = match_position
    ) -> None:
        self.rules, self.n = rules, n
        self.key = key
        self._memo: dict[Hashable, Affine] = {}
        self._open: set[Hashable] = set()  # contest starts being expanded
        self._closed: set[Hashable] = set()  # contest starts solved (their memo entry)

    def _turn_moves(self, state: MatchState) -> list[tuple[MatchState, float]]:
        """Where a turn of the match leads (a subclass says how the seat plays it)."""
        raise NotImplementedError

    def _decision_moves(self, state: MatchState) -> list[tuple[MatchState, float]]:
        """A decision outside the turns (none, unless a subclass plays one)."""
        raise SolverError(f"the walk plays turns only; a decision in phase {state.phase.value}")

    def _moves(self, state: MatchState) -> list[tuple[MatchState, float]]:
        if state.phase is Phase.TURN:
            return self._turn_moves(state)
        if not is_chance(state):
            return self._decision_moves(state)
        merged: dict[MatchState, float] = {}
        for roll, p in chance_outcomes(state):
            after = apply(state, roll)
            merged[after] = merged.get(after, 0.0) + float(p)
        return list(merged.items())

    def _expand(self, state: MatchState) -> Affine:
        won = np.zeros(self.n)
        refs: dict[Hashable, float] = {}
        for child, p in self._moves(state):
            c_won, c_refs = self._value(child)
            won += p * c_won
            for k, q in c_refs.items():
                refs[k] = refs.get(k, 0.0) + p * q
        return won, refs

    @staticmethod
    def is_start(state: MatchState) -> bool:
        """A contest with nothing posted yet: where a replayed round or tie-break comes back."""
        c = state.contest
        return c is not None and not c.scores and state.turn in (None, initial_turn(state.rules))

    def _value(self, state: MatchState) -> Affine:
        if is_terminal(state):
            won = np.zeros(self.n)
            assert state.winner is not None
            won[state.winner] = 1.0
            return won, {}
        key = self.key(state)
        if self.is_start(state):
            if key in self._open:  # come back while being expanded: its own unknown
                return np.zeros(self.n), {key: 1.0}
            if key not in self._memo:
                self._open.add(key)
                won, refs = self._expand(state)
                self._open.discard(key)
                back = refs.pop(key, 0.0)
                if back >= 1.0:
                    raise SolverError(f"a contest under {self.rules} never ends: everyone fails")
                self._memo[key] = (won / (1 - back), {k: q / (1 - back) for k, q in refs.items()})
                self._closed.add(key)
            return self._substituted(self._memo[key])
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self._expand(state)
        return self._substituted(hit)

    def _substituted(self, value: Affine) -> Affine:
        """``value`` with every reference to a start solved since replaced by its solution
        (what is left refers to starts still being expanded)."""
        won, refs = value
        while any(k in self._closed for k in refs):
            won, left = won.copy(), dict[Hashable, float]()
            for k, q in refs.items():
                if k in self._closed:
                    w2, r2 = self._memo[k]
                    won += q * w2
                    for k2, q2 in r2.items():
                        left[k2] = left.get(k2, 0.0) + q * q2
                else:
                    left[k] = left.get(k, 0.0) + q
            refs = left
        return won, refs

    def seat_win_probability(self, start: MatchState | None = None) -> np.ndarray:
        """Each seat's chance from ``start`` (default: the match's start, its roll-off if the
        rules have one)."""
        if start is None:
            start = initial_state(self.rules, self.n)
        won, refs = self._value(start)
        assert not refs, "a walk from a state leaves no contest start open"
        return won

    def start_values(self) -> dict[Hashable, np.ndarray]:
        """Every contest start met and its value (after :meth:`seat_win_probability`)."""
        out = {}
        for k in self._closed:
            won, refs = self._substituted(self._memo[k])
            assert not refs
            out[k] = won
        return out


@dataclass(frozen=True)
class Solved:
    """Plays as its seat plays in a solution of the match solver (read off at each state)."""

    solution: MatchSolution


@dataclass(frozen=True)
class Choosing:
    """Plays by ``choose`` (an action for any state where its seat decides in a turn).

    ``key(state, seat)`` must say everything ``choose`` reads of the match apart from the turn
    itself (the totals it looks at, the round, the scores to beat...): turns with equal keys
    are played alike and computed once, and the walk keeps states apart by it.

    ``plan(state)``, where given, answers for a whole turn at once: for a turn not yet begun
    at ``state``, the action at every decision node of the compiled turn (``{node: action}``)
    -- one call where ``choose`` would be asked once per node (a policy that decides for many
    observations in one call, as a batched learner does).
    """

    choose: Callable[[MatchState], Action]
    key: Callable[[MatchState, int], Hashable]
    plan: Callable[[MatchState], dict[int, Action]] | None = None


class Best:
    """The best response: the most chance of winning the match against the others' play."""

    def __repr__(self) -> str:
        return "BEST"


#: The best-responding player (one object: a seat plays it or not).
BEST = Best()

#: How a seat of :class:`PlayersWalk` plays.
Player = Solved | Choosing | Best


class PlayersWalk(Walk):
    """A walk in which each seat plays as its :data:`Player` says; a :data:`BEST` seat values
    comebacks of the contest it is in at ``guess`` (start key -> value, default a fair share)."""

    def __init__(
        self,
        rules: Rules,
        players: Sequence[Player],
        guess: dict[Hashable, np.ndarray] | None = None,
    ) -> None:
        self.players = tuple(players)
        self._choosers = [(s, p) for s, p in enumerate(self.players) if isinstance(p, Choosing)]
        super().__init__(rules, len(self.players), self._walk_key)
        self.graph = turn_graph(rules)
        self.scores = tuple(int(x) for x in self.graph.scores)
        self.guess = guess or {}
        self._turns: dict[tuple[int, Hashable], np.ndarray] = {}
        #: The best responder's score distribution at each turn it played (by state key).
        self.best_plays: dict[Hashable, np.ndarray] = {}

    def _walk_key(self, state: MatchState) -> Hashable:
        return (match_position(state), tuple(p.key(state, s) for s, p in self._choosers))

    def _turn_moves(self, state: MatchState) -> list[tuple[MatchState, float]]:
        seat = seat_to_act(state)
        assert seat is not None and state.turn == initial_turn(state.rules)
        player = self.players[seat]
        if isinstance(player, Best):
            return self._best(state, seat)
        if isinstance(player, Solved):
            dist = turn_distribution(player.solution, match_view(state))
        else:
            dist = self._chosen(state, seat, player)
        return [(post_score(state, x), float(q)) for x, q in zip(self.scores, dist) if q > 0]

    def _decision_moves(self, state: MatchState) -> list[tuple[MatchState, float]]:
        """A decision between turns (sips to hand out): where every choice leads to the same
        position it changes nobody's chance, so any is taken; else a :class:`Choosing` player
        chooses, and the others are refused."""
        legal = legal_actions(state)
        after = [apply(state, a) for a in legal]
        if len({self.key(s) for s in after}) == 1:
            return [(after[0], 1.0)]
        seat = seat_to_act(state)
        assert seat is not None
        player = self.players[seat]
        if not isinstance(player, Choosing):
            return super()._decision_moves(state)
        action = player.choose(state)
        if action not in legal:
            raise SolverError(f"seat {seat} chose {action}, which is not legal there")
        return [(after[legal.index(action)], 1.0)]

    def _chosen(self, state: MatchState, seat: int, player: Choosing) -> np.ndarray:
        key = (seat, player.key(state, seat))
        dist = self._turns.get(key)
        if dist is None:
            g = self.graph
            assert state.turn is not None
            choice = [-1] * len(g)
            planned = player.plan(state) if player.plan is not None else None
            for i, acts in enumerate(g.actions):
                if g.kind[i] != DECISION_NODE:
                    continue
                if len(acts) == 1:
                    choice[i] = 0
                    continue
                if planned is not None:
                    action = planned[i]
                    if action not in acts:
                        raise SolverError(f"seat {seat} chose {action}, which is not legal there")
                    choice[i] = acts.index(action)
                    continue
                turn = dataclasses.replace(g.states[i], rules=state.turn.rules)
                action = player.choose(dataclasses.replace(state, turn=turn))
                if action not in acts:
                    raise SolverError(f"seat {seat} chose {action}, which is not legal there")
                choice[i] = acts.index(action)
            reach, total = g.reach_counts(choice)
            dist = np.zeros(len(self.scores))
            for i, r in enumerate(reach):
                if r and g.score_pos[i] >= 0:
                    dist[g.score_pos[i]] += r / total
            self._turns[key] = dist
        return dist

    def _best(self, state: MatchState, seat: int) -> list[tuple[MatchState, float]]:
        """The best response's turn: each score valued by where it leads (a comeback of an
        open contest at its guess), the turn played for the most of that."""
        values = np.empty(len(self.scores))
        fair = np.full(self.n, 1.0 / self.n)
        after = [post_score(state, x) for x in self.scores]
        for j, child in enumerate(after):
            won, refs = self._value(child)
            for k, q in refs.items():
                won = won + q * self.guess.get(k, fair)
            values[j] = won[seat]
        dist: np.ndarray = best_play(self.graph, values[None])[0]
        self.best_plays[self.key(state)] = dist
        return [(child, float(q)) for child, q in zip(after, dist) if q > 0]


@dataclass(frozen=True)
class WalkResult:
    """Each seat's exact chance of winning the match, and what finding it took."""

    seat_win_probability: tuple[float, ...]
    #: Walks of the whole match (1 without a best responder; policy iteration's rounds with).
    walks: int
    seconds: float


def exact_chances(
    rules: Rules, players: Sequence[Player], start: MatchState | None = None
) -> WalkResult:
    """Each seat's exact chance of winning the match from ``start`` (default: the match's
    start) when every seat plays as its :data:`Player` says (at most one :data:`BEST`)."""
    if sum(1 for p in players if isinstance(p, Best)) > 1:
        raise SolverError("one best responder at most (against the others' fixed play)")
    t0 = time.perf_counter()
    guess: dict[Hashable, np.ndarray] = {}
    before: dict[Hashable, np.ndarray] | None = None
    for walks in range(1, MAX_POLICY_ITERATIONS + 1):
        walk = PlayersWalk(rules, players, guess)
        won = walk.seat_win_probability(start)
        plays = walk.best_plays
        settled = (
            before is not None
            and before.keys() == plays.keys()
            and all(np.allclose(plays[k], before[k], atol=1e-12) for k in plays)
        )
        if not plays or settled:
            return WalkResult(tuple(float(x) for x in won), walks, time.perf_counter() - t0)
        before, guess = plays, walk.start_values()
    raise SolverError(f"the best response under {rules} did not settle in {walks} walks")
