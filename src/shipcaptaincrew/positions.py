"""Match positions and posting a turn's score: the two seams solvers and simulators need.

A :class:`~.state.MatchState` carries a record of the match -- finished rounds, sips, replay and
tie-break counters, the depth of a contest -- next to what decides it.  Two states that differ
only in their records have the same future, so a solver that memoises on states, or a learning
environment that keys positions, wants the record gone: :func:`match_position` blanks every
field the engine never reads to decide the rest of the match (who wins it, and every legal
action on the way).  :func:`post_score` finishes the turn at the table with a given score
through the engine's own contest code, so that a solver or a simulator that knows a turn's
score distribution resolves rounds exactly as a played turn would, without playing its dice.
Two more seams serve simulators that tabulate whole matches: :func:`contest_position` (a
contest without the numbers that can no longer go through it) and :func:`to_round_end` (a
step stopped where its round ends, before the format decides what follows; the engine's
:func:`~.match.after_round` goes on from there).

>>> from shipcaptaincrew.rules import find_rules
>>> from shipcaptaincrew.engine import initial_state
>>> s = initial_state(find_rules("classic").replace(starter="chosen"), 2)
>>> s = post_score(post_score(s, 0), 0)          # everyone fails: the round is replayed
>>> s.replays, match_position(s).replays
(1, 0)
>>> match_position(s) == match_position(initial_state(s.rules, 2))
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache

from . import turn as _turn
from .errors import IllegalActionError
from .facts import FACES
from .formats import FormatKind
from .match import ROUND_END, after_round, post
from .messages import N_
from .rules import Rotation, Rules
from .state import MatchState, Method, Phase, RoundResult, evolve

__all__ = [
    "after_round",
    "beaten",
    "contest_position",
    "counted_rounds",
    "match_position",
    "post_score",
    "to_round_end",
    "turn_scores",
]

#: A finished round as a position keeps it: only its being a round of the match's own counts.
_BLANK_RESULT = RoundResult(
    round_no=0, starter=0, seats=(), scores=(), winner=None, sips=(), pot_won=0,
    all_failed=False, tie_breaks=0,
)  # fmt: skip


@lru_cache(maxsize=256)
def turn_scores(rules: Rules) -> tuple[int, ...]:
    """Every score a turn can end with, ascending: 0 (no full crew), a cargo of two dice, and
    with a same-roll bonus (001.20) that cargo plus the bonus.

    >>> turn_scores(Rules())
    (0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
    >>> turn_scores(Rules(same_roll_bonus=10))[-3:]
    (20, 21, 22)
    """
    cargo = set(range(rules.cargo_dice * min(FACES), rules.cargo_dice * max(FACES) + 1))
    return tuple(sorted({0} | cargo | {c + rules.same_roll_bonus for c in cargo}))


def post_score(state: MatchState, score: int) -> MatchState:
    """The match after the player at the table ends a turn not yet begun with ``score``.

    The match reads nothing of a finished turn but its score (the contest posts it, and the
    round, its tie-breaks and the format follow from there), so this is what any line of play
    ending in that score leads to.  Anything but a fresh turn of a contest played with turns,
    or a score no turn can end with, is refused.
    """
    c = state.contest
    if (
        state.phase is not Phase.TURN
        or state.turn is None
        or state.turn != _turn.new_turn(state.rules)
        or c is None
        or c.method is not Method.TURN
    ):
        raise IllegalActionError(N_("a score can only be posted for a turn not yet begun"))
    if isinstance(score, bool) or score not in turn_scores(state.rules):
        raise IllegalActionError(
            N_("no turn ends with a score of {score} under these rules"), score=repr(score)
        )
    return post(state, score)  # the state after it holds no turn


def match_position(state: MatchState) -> MatchState:
    """``state`` with every field blanked that the engine never reads to decide what follows.

    Kept: the phase, the contest (without its depth), the turn, the starter, who plays this
    round and what they posted, the pot and the chips (who can ante), the round's winner and
    the sips still to hand out (the hand-out), the finalists, the players tied for a round of
    their own and whether this is one, the target of solo practice, and the winner.  By format:

    * the totals only where they decide the match (``rounds:N``, ``first_to:N``, the
      tournament, a session) and the round wins only under ``wins:N`` and in solo practice;
    * the round number only in solo practice (the one place the engine counts it);
    * of the finished rounds, how many were rounds of the match's own (``rounds:N`` and the
      tournament count them), and under ``rotation=loser`` the seats and scores of the last of
      them (its loser starts the next round).

    Blanked: the sips, the replay and tie-break counters, the chips a round or the match paid
    out, every other part of the finished rounds, and the round's scores where neither totals
    nor the loser are read.  The same continuation from a state and from its position leads
    to the same winner (``tests/test_solver_positions.py`` plays it out).
    """
    rules = state.rules
    kind = rules.format.kind
    solo = state.target is not None
    zeros = (0,) * state.players
    keep_totals = not solo and kind in (
        FormatKind.ROUNDS, FormatKind.FIRST_TO, FormatKind.TOURNAMENT, FormatKind.SESSION,
    )  # fmt: skip
    keep_wins = solo or kind is FormatKind.WINS
    loser = rules.rotation is Rotation.LOSER
    contest = None if state.contest is None else evolve(state.contest, depth=0)
    return evolve(
        state,
        contest=contest,
        round_no=state.round_no if solo else 0,
        round_scores=(
            state.round_scores if keep_totals or loser else (None,) * len(state.round_scores)
        ),
        totals=state.totals if keep_totals else zeros,
        sips=zeros,
        wins=state.wins if keep_wins else zeros,
        round_sips=zeros,
        round_tie_breaks=0,
        round_pot_won=0,
        replays=0,
        match_pot_won=0,
        results=_results(state, count=not solo and kind in _COUNTED, loser=loser),
    )


_COUNTED = (FormatKind.ROUNDS, FormatKind.TOURNAMENT)


def _results(state: MatchState, *, count: bool, loser: bool) -> tuple[RoundResult, ...]:
    own = [r for r in state.results if not r.tie_round]
    if not own or not (count or loser):
        return ()
    last = _BLANK_RESULT
    if loser:
        last = replace(_BLANK_RESULT, seats=own[-1].seats, scores=own[-1].scores)
    return counted_rounds(len(own) - 1 if count else 0) + (last,)


def counted_rounds(n: int) -> tuple[RoundResult, ...]:
    """``n`` finished rounds of the match's own as a position keeps them (blank but counted):
    what a caller puts in ``results`` to play a step at a known round count."""
    return (_BLANK_RESULT,) * n


def beaten(numbers: Sequence[int], slots: int, number: int) -> bool:
    """Whether ``number`` can no longer go through a contest of ``slots`` places in which
    ``numbers`` are posted: at least ``slots`` of them are higher.

    The contest's resolution (:func:`~.match._select`) takes the best groups only, so such a number
    decides nothing of it, whatever its value: the contest is the same with a 0 in its place
    (:func:`contest_position`).

    >>> beaten((9, 5), 1, 7), beaten((9, 5), 1, 9), beaten((9, 5), 2, 4), beaten((9, 5), 2, 7)
    (True, False, True, False)
    """
    return sum(1 for x in numbers if x > number) >= slots


def contest_position(state: MatchState) -> MatchState:
    """``state`` with every number of its contest that can no longer go through set to 0.

    A number beaten by at least as many others as the contest has places
    (:func:`beaten`) decides nothing that follows: the contest takes its best groups
    only, the tie-break after it is among the best, and a turn's contest view (the best
    score and how many share it) never sees it.  Its value lives on where the rules read it,
    in the round's scores (``round_scores``: the totals, the drinks, the record), which this
    leaves alone.  So a simulator that keys positions on this meets one position where the
    scores below the best made many.

    >>> from shipcaptaincrew.rules import find_rules
    >>> from shipcaptaincrew.engine import initial_state
    >>> s = initial_state(find_rules("classic").replace(starter="chosen"), 3)
    >>> s = post_score(post_score(s, 9), 7)
    >>> contest_position(s).contest.scores, contest_position(s).round_scores
    ((9, 0), (9, 7, None))
    """
    c = state.contest
    if c is None or not c.scores:
        return state
    kept = tuple(0 if beaten(c.scores, c.slots, x) else x for x in c.scores)
    return state if kept == c.scores else evolve(state, contest=evolve(c, scores=kept))


def to_round_end(step: Callable[[], MatchState]) -> tuple[MatchState, bool]:
    """Play ``step`` (a call of the engine), stopping where a round ends: the state and
    whether a round ended.

    At a round's end its totals, round wins and drinks are counted and the format has not yet
    decided what follows; :func:`after_round` goes on from that state exactly as the step would
    have.  A simulator that tabulates steps so meets the end of a round once per way the round
    can end and the format's decision once per count of rounds or order of the totals, rather
    than the product of the two.

    >>> from shipcaptaincrew.rules import find_rules
    >>> from shipcaptaincrew.engine import initial_state
    >>> s = initial_state(find_rules("classic").replace(starter="chosen", format="rounds:2"), 2)
    >>> s = post_score(s, 8)
    >>> end, ended = to_round_end(lambda: post_score(s, 5))
    >>> ended, end.round_winner, end.totals, end.round_no
    (True, 0, (8, 5), 1)
    >>> after_round(end) == post_score(s, 5)
    True
    """
    ended: list[MatchState] = []

    def stop(state: MatchState) -> MatchState:
        ended.append(state)
        return state

    token = ROUND_END.set(stop)
    try:
        out = step()
    finally:
        ROUND_END.reset(token)
    return out, bool(ended)
