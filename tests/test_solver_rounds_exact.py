"""The round model of :mod:`shipcaptaincrew.solver.rounds` against the engine's own matches.

:func:`~shipcaptaincrew.solver.equilibrium` does not play rounds: it is an analytic model of
how the engine resolves one (ties, everyone failing, the carried pot, the rotated next round).
Here the engine itself is enumerated instead -- a match of ``format=single`` from
``initial_state(rules, n, starter=0)`` under ``starter=chosen``, every chance outcome of
``chance_outcomes`` followed through ``apply`` with its probability, every decision taken as
the policy takes it -- and each seat's exact chance of winning the match (which in a single
match is the chance of winning the round and every replay, tie-break and carried round that
follows it) must equal ``equilibrium(rules, n, policy).seat_win_probability`` to 1e-9.

How the walk is organised
    *Turns.*  A turn inside a match is the engine's standalone turn (the match starts each
    seat's turn with the same new turn and applies rolls and choices to it), and the match
    reads nothing of a finished turn but its score.  So each turn is enumerated once per
    policy and table -- ``initial_turn`` walked through ``chance_outcomes`` / ``apply``, the
    decision at each choice taken by the policy (for ``optimal``: the action the solver's
    equilibrium tables give for what the seat sees, :func:`~shipcaptaincrew.solver.contest_view`
    of the match state) -- into a distribution of final scores; and in the match each score is
    posted by playing one engine path that ends a turn with it.  Every other chance node of the
    match (the cargo roll-off of ``tie_break=cargo_rolloff``) is walked outcome by outcome.

    *Rounds that start again.*  Everyone failing under ``all_fail=replay``, a tie replayed
    among the same players, a tied cargo roll-off, and carried rounds whose starter has come
    round again under ``all_fail=carry_pot`` all bring back a state the walk has already met,
    up to the match's record: the round number, the finished rounds, the replay and tie-break
    counters, a contest's depth, and the round's scores and totals.  The engine writes these
    and never reads them to decide what happens next in a single match, so such a state has
    the same future as the earlier one: the walk keys states by the engine's own
    :func:`~shipcaptaincrew.engine.match_position`.  Chips and the pot are kept: under
    ``stakes=pot`` each carried round is a new state, down to the broke table.
    The walk therefore stops at every *contest start* (a contest with nothing posted yet) and
    treats it as an unknown: the win vector ``V(c)`` of contest start ``c`` is what the walk
    from ``c`` reaches directly (matches won) plus, for every contest start ``c'`` it reaches
    with probability ``p(c, c')``, ``p(c, c') * V(c')``.  With one contest that only repeats
    itself this is ``V = p_repeat * V + rest``, i.e. ``V = rest / (1 - p_repeat)``; in general
    it is the linear system ``(I - P) V = R`` over every contest start the walk meets, solved
    at once (``P`` is substochastic with spectral radius below 1 whenever some round can end,
    so the solution is unique).  Nothing here iterates to a tolerance.

The stake ``stakes=pot`` with ``all_fail=carry_pot`` is the one place the model and the engine
part: the model carries the pot for as long as everyone keeps failing, while in the engine
every seat antes each carried round, so after ``starting_chips // ante`` rounds in a row with
no winner nobody can ante and the match goes to the broke table (a tie of everyone's chips).
That happens with probability ``p_all_fail ** (starting_chips // ante)``, and the seats' odds
there differ from the model's by at most that much: checked as a bound, and to 1e-9 with
chips enough to make it negligible.

Runtime: each turn is enumerated once per table the optimal player can meet (about 40 tables
for three seats), and each score is posted by a short engine path; the file takes about 25 s.
Wild captain, with about ten times the turn states, costs about 2 s per policy with three
seats.  The carried pot under ``stakes=pot`` re-walks every carried round (the chips differ),
so it is checked with 15 chips for two seats and the preset's 10 for three (either way the
bound is about 8e-11), not with more.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
import pytest

from shipcaptaincrew.actions import Action
from shipcaptaincrew.engine import (
    apply,
    chance_outcomes,
    initial_state,
    initial_turn,
    is_chance,
    is_terminal,
    legal_actions,
)
from shipcaptaincrew.rules import AllFail, Drinking, Rules, Stakes, find_rules
from shipcaptaincrew.solver import (
    ContestView,
    contest_view,
    equilibrium,
    optimal_action,
    policy_action,
)
from shipcaptaincrew.solver.walk import Walk
from shipcaptaincrew.state import MatchState, TurnState

CLASSIC = find_rules("classic").replace(starter="chosen")

#: (rules, seat counts) where the round model should hold exactly.
CASES: list[tuple[Rules, tuple[int, ...]]] = [
    (CLASSIC, (2, 3)),
    (CLASSIC.replace(tie_break="cargo_rolloff"), (2, 3)),
    (CLASSIC.replace(all_fail="carry_pot", rotation="left"), (2, 3)),
    (CLASSIC.replace(all_fail="carry_pot", rotation="right"), (2, 3)),
    (CLASSIC.replace(all_fail="carry_pot", rotation="none"), (2, 3)),
    (CLASSIC.replace(all_fail="carry_pot", tie_break="cargo_rolloff", rotation="right"), (3,)),
    (CLASSIC.replace(stakes="pot"), (2, 3)),
    # The pot carried, with chips enough that the broke table (see the module docstring) has a
    # chance below 1e-10 (two seats: 0.212**15, three: 0.097**10, both about 8e-11).
    (find_rules("ship-captain-crew").replace(starter="chosen", starting_chips=15), (2,)),
    (find_rules("ship-captain-crew").replace(starter="chosen"), (3,)),
    (CLASSIC.replace(half_cargo=True), (2, 3)),
    (CLASSIC.replace(wild_captain=True, tie_break="cargo_rolloff"), (2, 3)),
    # The readings of tie_break, rotation and all_fail beyond the sheets' defaults.
    (CLASSIC.replace(tie_break="no_winner"), (2, 3)),
    (CLASSIC.replace(tie_break="no_winner", all_fail="carry_pot", rotation="previous"), (2, 3)),
    (CLASSIC.replace(tie_break="no_winner", rotation="loser"), (2,)),
    (CLASSIC.replace(tie_break="round"), (2, 3)),
    (CLASSIC.replace(tie_break="round", all_fail="carry_pot", rotation="none"), (2,)),
    (CLASSIC.replace(all_fail="carry_pot", rotation="loser"), (2, 3)),
]
POLICIES = ("ev", "threshold:7", "optimal")


# -- the engine's turn, enumerated ----------------------------------------------------------


@cache
def _children(turn: TurnState) -> tuple[tuple[TurnState, float], ...]:
    """The engine's chance outcomes of a turn state, merged by the state they lead to."""
    merged: dict[TurnState, float] = {}
    for roll, p in chance_outcomes(turn):
        after = apply(turn, roll)
        merged[after] = merged.get(after, 0.0) + float(p)
    return tuple(merged.items())


def _turn_distribution(rules: Rules, decide: Callable[[TurnState], Action]) -> dict[int, float]:
    """P(final score) of one turn played through the engine with ``decide`` at every choice."""
    memo: dict[TurnState, dict[int, float]] = {}

    def walk(t: TurnState) -> dict[int, float]:
        hit = memo.get(t)
        if hit is not None:
            return hit
        if is_terminal(t):
            out = {t.score: 1.0}
        elif is_chance(t):
            out = {}
            for child, p in _children(t):
                for x, q in walk(child).items():
                    out[x] = out.get(x, 0.0) + p * q
        else:
            out = walk(apply(t, decide(t)))
        memo[t] = out
        return out

    return walk(initial_turn(rules))


@cache
def _turn_odds(rules: Rules, policy: str, view: ContestView | None) -> dict[int, float]:
    """The score distribution of a turn under a fixed policy, or under ``optimal`` at a table."""
    if view is None:
        return _turn_distribution(rules, lambda t: policy_action(rules, policy, t))
    return _turn_distribution(rules, lambda t: optimal_action(rules, view, t))


@cache
def _score_paths(rules: Rules) -> dict[int, tuple[Action, ...]]:
    """One engine path (rolls and choices) from a new turn to a finished one, per final score."""
    paths: dict[int, tuple[Action, ...]] = {}
    seen: set[TurnState] = set()
    frontier: list[tuple[TurnState, tuple[Action, ...]]] = [(initial_turn(rules), ())]
    while frontier:  # breadth first: the shortest path to each score
        later: list[tuple[TurnState, tuple[Action, ...]]] = []
        for t, path in frontier:
            if is_terminal(t):
                paths.setdefault(t.score, path)
                continue
            moves = [r for r, _ in chance_outcomes(t)] if is_chance(t) else legal_actions(t)
            for a in moves:
                after = apply(t, a)
                if after not in seen:
                    seen.add(after)
                    later.append((after, (*path, a)))
        frontier = later
    return paths


# -- the engine's match, enumerated -----------------------------------------------------------


class MatchWalk(Walk):
    """Each seat's exact chance of winning a single match, walked through the engine (the
    contest starts solved as they close: :class:`shipcaptaincrew.solver.walk.Walk`)."""

    def __init__(self, rules: Rules, players: int, policy: str) -> None:
        assert str(rules.format) == "single" and rules.drinking is Drinking.NONE
        super().__init__(rules, players)
        self.policy = policy

    def _turn_moves(self, state: MatchState) -> list[tuple[MatchState, float]]:
        """Whole turns at a time: the turn's exact score distribution, each score posted."""
        assert state.turn == initial_turn(self.rules), "the walk only meets new turns"
        view = contest_view(state) if self.policy == "optimal" else None
        odds = _turn_odds(self.rules, self.policy, view)
        return [(self._post(state, x), p) for x, p in odds.items() if p]

    def _post(self, state: MatchState, score: int) -> MatchState:
        for action in _score_paths(self.rules)[score]:
            state = apply(state, action)
        return state

    def seat_win_probability(self, start: MatchState | None = None) -> np.ndarray:
        if start is None:
            start = initial_state(self.rules, self.n, starter=0)
        assert self.is_start(start)
        return super().seat_win_probability(start)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(
    ("rules", "players"),
    [(r, n) for r, counts in CASES for n in counts],
    ids=lambda x: str(x),
)
def test_equilibrium_is_the_engines_exact_seat_odds(
    rules: Rules, players: int, policy: str
) -> None:
    walk = MatchWalk(rules, players, policy)
    engine = walk.seat_win_probability()
    model = np.array(equilibrium(rules, players, policy, use_disk=False).seat_win_probability)
    assert abs(engine.sum() - 1) < 1e-12
    assert np.abs(engine - model).max() < 1e-9, (engine, model)


@pytest.mark.parametrize("players", [2, 3])
def test_a_carried_pot_ends_at_the_broke_table_as_rarely_as_everyone_fails(players: int) -> None:
    """With stakes=pot and all_fail=carry_pot the engine's odds differ from the model's by at
    most P(nobody wins starting_chips // ante rounds in a row); with few chips, that is seen."""
    rules = find_rules("ship-captain-crew").replace(starter="chosen", starting_chips=3)
    assert rules.stakes is Stakes.POT and rules.all_fail is AllFail.CARRY_POT
    eq = equilibrium(rules, players, "optimal", use_disk=False)
    broke = eq.p_all_fail_per_round ** (rules.starting_chips // rules.ante)
    engine = MatchWalk(rules, players, "optimal").seat_win_probability()
    gap = np.abs(engine - np.array(eq.seat_win_probability)).max()
    assert 1e-12 < gap <= broke
