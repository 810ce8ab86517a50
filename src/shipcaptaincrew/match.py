"""How a match flows: contests, rounds, tie-breaks, stakes, drinking and the match format.

:mod:`.engine` is the public face (set-up, queries, :func:`~.engine.apply`); this module holds
what happens between turns.  Everything is a :class:`~.state.Contest` -- the starter roll-off,
a round, a tie-break, a tie for the match or for a place in the final -- so one resolution
rule (group by number, a tied group that straddles the last slot plays again) serves every
tie the sheets mention.  Every function takes a state and returns a new one.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from . import turn as _turn
from .errors import IllegalActionError
from .formats import FormatKind
from .messages import N_
from .payouts import end_match, settle_round
from .rotation import rotate, rotation_step
from .rules import AllFail, Rules, Stakes, TieBreak
from .state import Contest, MatchState, Method, Phase, Purpose, RoundResult, evolve

__all__ = [
    "ROUND_END",
    "able",
    "after_round",
    "decide_by_totals",
    "in_play_order",
    "leave",
    "post",
    "rotation_step",
    "round_over",
    "start_round",
]

#: What follows the end of a round: ``None`` for :func:`after_round` (the format decides), or
#: a caller's own function of the finished round (only :func:`.positions.to_round_end` sets it).
ROUND_END: ContextVar[Callable[[MatchState], MatchState] | None] = ContextVar(
    "round_end", default=None
)


# -- contests -----------------------------------------------------------------------------------


def post(state: MatchState, number: int) -> MatchState:
    """A seat of the current contest posts its number; move to the next seat or resolve.

    The turn that made the number (if any) is over: the state after it holds none.  What the
    number changes is gathered and made one new state (at every turn of every match: each
    state more is a copy of some thirty fields).
    """
    c = state.contest
    assert c is not None
    c = evolve(c, scores=c.scores + (number,))
    changes: dict[str, Any] = {"contest": c, "turn": None}
    if c.purpose is Purpose.ROUND:
        rs = list(state.round_scores)
        rs[c.seats[len(c.scores) - 1]] = number
        changes["round_scores"] = tuple(rs)
    if len(c.scores) < len(c.seats):
        changes.update(_seat_changes(state.rules, c))
        return evolve(state, **changes)
    return _resolve(evolve(state, **changes))


def _begin_seat(state: MatchState) -> MatchState:
    assert state.contest is not None
    return evolve(state, **_seat_changes(state.rules, state.contest))


def _seat_changes(rules: Rules, c: Contest) -> dict[str, Any]:
    """The phase and turn of the contest's next seat: a fresh turn, or a roll-off's dice."""
    if c.method is Method.TURN:
        return {"phase": Phase.TURN, "turn": _turn.new_turn(rules)}
    phase = Phase.CARGO_ROLL_OFF if c.method is Method.CARGO else Phase.ROLL_OFF
    return {"phase": phase, "turn": None}


def _groups(seats: tuple[int, ...], numbers: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Seats grouped by equal number, best first; play order kept inside each group."""
    by: dict[int, list[int]] = {}
    for s, n in zip(seats, numbers):
        by.setdefault(n, []).append(s)
    return [tuple(by[n]) for n in sorted(by, reverse=True)]


def _select(
    seats: tuple[int, ...], numbers: tuple[int, ...], slots: int
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """The seats through, the tied group straddling the last slot, and the slots it fights for."""
    through: list[int] = []
    for group in _groups(seats, numbers):
        free = slots - len(through)
        if free == 0:
            break
        if len(group) <= free:
            through.extend(group)
        else:
            return tuple(through), group, free
    return tuple(through), (), 0


def _tie_method(rules: Rules) -> Method:
    # tie_break=round and no_winner speak of a round; ties for the match, a final place or
    # a broke table's chips are broken with tie-break turns.
    return Method.CARGO if rules.tie_break is TieBreak.CARGO_ROLLOFF else Method.TURN


def _contest_again(
    state: MatchState,
    purpose: Purpose,
    group: tuple[int, ...],
    slots: int,
    selected: tuple[int, ...],
    depth: int,
) -> MatchState:
    method = Method.DIE if purpose is Purpose.STARTER else _tie_method(state.rules)
    contest = Contest(purpose, method, in_play_order(state, group), (), slots, selected, depth)
    if purpose is Purpose.ROUND_TIE:
        state = evolve(state, round_tie_breaks=state.round_tie_breaks + 1)
    return _begin_seat(evolve(state, contest=contest, turn=None))


def in_play_order(state: MatchState, seats: tuple[int, ...]) -> tuple[int, ...]:
    n = state.players
    return tuple(sorted(seats, key=lambda s: (s - state.starter) % n))


def _resolve(state: MatchState) -> MatchState:
    c = state.contest
    assert c is not None
    if c.purpose is Purpose.ROUND:
        return _resolve_round(state)
    through, straddle, free = _select(c.seats, c.scores, c.slots)
    chosen = c.selected + through
    if straddle:
        return _contest_again(state, c.purpose, straddle, free, chosen, c.depth + 1)
    if c.purpose is Purpose.STARTER:
        return start_round(evolve(state, starter=chosen[0], contest=None))
    if c.purpose is Purpose.ROUND_TIE:
        return _finish_round(state, chosen[0])
    if c.purpose is Purpose.MATCH_TIE:
        return end_match(state, chosen[0])
    return start_round(rotate(evolve(state, finalists=in_play_order(state, chosen))))


def _resolve_round(state: MatchState) -> MatchState:
    c = state.contest
    assert c is not None
    if state.target is not None:  # solo practice
        return _finish_round(state, c.seats[0] if c.scores[0] >= state.target else None)
    if max(c.scores) == 0:
        # 002.20: a round where nobody has a full crew has no winner.
        if state.rules.all_fail is AllFail.REPLAY:
            replay = Contest(Purpose.ROUND, Method.TURN, c.seats)
            return _begin_seat(
                evolve(
                    state,
                    contest=replay,
                    replays=state.replays + 1,
                    round_scores=(None,) * state.players,
                )
            )
        return _finish_round(state, None)
    top = _groups(c.seats, c.scores)[0]
    if len(top) == 1:
        return _finish_round(state, top[0])
    tie_break = state.rules.tie_break
    if tie_break is TieBreak.NO_WINNER:
        # One tie, all tie: nobody wins; the tied were not beaten, so they do not drink.
        return _finish_round(state, None, spared=top)
    if tie_break is TieBreak.ROUND:
        # 001.17: the tied players play a round of their own next.
        return _finish_round(evolve(state, tied=top), None, spared=top)
    # 000/001/003: the tied players replay; 002: they roll their cargo dice.
    return _contest_again(state, Purpose.ROUND_TIE, top, 1, (), 0)


# -- rounds -------------------------------------------------------------------------------------


def able(state: MatchState, seats: tuple[int, ...]) -> tuple[int, ...]:
    """The seats that can play a round: those still in the match and, under a pot, able to
    ante (002.6, 001.16)."""
    if state.departed:
        seats = tuple(s for s in seats if s not in state.departed)
    if state.rules.stakes is not Stakes.POT:
        return seats
    return tuple(s for s in seats if state.chips[s] >= state.rules.ante)


def leave(state: MatchState, seat: int) -> MatchState:
    """A player leaves the match once the round being played ends (between rounds: the next).

    Not in the sheets: a pub table goes on without someone who went home.  The round under
    way is finished with the seat in it (its turn still counts, its drinks too, and a match
    that ends with that round is decided as if nobody left); from the next round on
    (:func:`start_round`) the seat plays no round and cannot win the match, and a table left
    with one player ends with that player's win.
    """
    if state.is_over:
        raise IllegalActionError(N_("the match is over: nobody can leave it now"))
    if isinstance(seat, bool) or not 0 <= seat < state.players:
        raise IllegalActionError(N_("there is no seat {seat} at this table"), seat=seat)
    if seat in state.leaving or seat in state.departed:
        raise IllegalActionError(N_("seat {seat} is leaving the match already"), seat=seat)
    return evolve(state, leaving=state.leaving + (seat,))


def stay(state: MatchState, seat: int) -> MatchState:
    """A player the table asked to leave stays after all (they came back before the round
    was over): the :func:`leave` is undone, as if it had never been asked.

    Not in the sheets, as :func:`leave`; only a leave not yet in effect can be undone.
    """
    if state.is_over:
        raise IllegalActionError(N_("the match is over: nobody can leave it now"))
    if seat not in state.leaving:
        raise IllegalActionError(N_("seat {seat} is not leaving the match"), seat=seat)
    return evolve(state, leaving=tuple(s for s in state.leaving if s != seat))


def start_round(state: MatchState) -> MatchState:
    """Ante and open a round: of everyone, of the finalists, or of the tied (tie_break=round)."""
    rules = state.rules
    if state.leaving:  # those who asked to leave play no more rounds from this one on
        state = evolve(state, departed=state.departed + state.leaving, leaving=())
    tie_round = bool(state.tied)
    seats = state.tied or state.finalists or tuple(range(state.players))
    chips, pot = list(state.chips), state.pot
    if state.departed:
        seats = tuple(s for s in seats if s not in state.departed)
        if len(seats) < 2 and rules.stakes is not Stakes.POT:
            return end_match(state, seats[0] if seats else None)  # the others left
    if rules.stakes is Stakes.POT:
        # 002.6, 001.16: everyone antes; a player who cannot ante sits this round out.
        seats = able(state, seats)
        if len(seats) < 2:
            return _broke_table(state, seats)
        for s in seats:
            chips[s] -= rules.ante
            pot += rules.ante
    order = in_play_order(state, seats)
    zeros = (0,) * state.players
    state = evolve(
        state,
        round_no=state.round_no + 1,
        round_seats=order,
        round_scores=(None,) * state.players,
        round_winner=None,
        round_sips=zeros,
        round_tie_breaks=0,
        round_pot_won=0,
        replays=0,
        chips=tuple(chips),
        pot=pot,
        tied=(),
        tie_round=tie_round,
        contest=Contest(Purpose.ROUND, Method.TURN, order),
    )
    return _begin_seat(state)


def _broke_table(state: MatchState, seats: tuple[int, ...]) -> MatchState:
    """Fewer than two players can ante: the match ends (the one who still can wins)."""
    if len(seats) == 1:
        return end_match(state, seats[0])
    # Only those still in the match (the finalists of a tournament) can win it.
    contenders = tuple(s for s in state.finalists or state.staying if s not in state.departed)
    if not contenders:
        return end_match(state, None)
    richest = _groups(contenders, tuple(state.chips[s] for s in contenders))[0]
    if len(richest) == 1:
        return end_match(state, richest[0])
    return _contest_again(state, Purpose.MATCH_TIE, richest, 1, (), 0)


def _finish_round(
    state: MatchState, winner: int | None, spared: tuple[int, ...] = ()
) -> MatchState:
    """A round's totals, pot and drinks are settled (:func:`.payouts.settle_round`); then the
    captain rolls for the sips to hand out, or the round is over."""
    state, hands_out = settle_round(state, winner, spared)
    if hands_out:
        return evolve(state, phase=Phase.HAND_OUT_ROLL, contest=None)
    return round_over(state)


def round_over(state: MatchState) -> MatchState:
    """A round has ended (its totals, wins and drinks counted): the format decides what
    follows (:func:`after_round`), unless :data:`ROUND_END` asks for the round's end itself."""
    stop = ROUND_END.get()
    return after_round(state) if stop is None else stop(state)


def after_round(state: MatchState) -> MatchState:
    fmt = state.rules.format
    result = RoundResult(
        round_no=state.round_no,
        starter=state.starter,
        seats=state.round_seats,
        scores=tuple(
            state.round_scores[s] if s in state.round_seats else None for s in range(state.players)
        ),
        winner=state.round_winner,
        sips=state.round_sips,
        pot_won=state.round_pot_won,
        # A round with a winner cannot have failed (002.20: a full crew is needed to win).
        all_failed=state.round_winner is None
        and all((state.round_scores[s] or 0) == 0 for s in state.round_seats),
        tie_breaks=state.round_tie_breaks,
        stage=state.stage,
        tie_round=state.tie_round,
    )
    state = evolve(
        state, results=state.results + (result,), contest=None, phase=Phase.TURN, hand_out_left=0
    )
    if state.tied:
        # 001.17: the tied play their own round before the format looks at the match;
        # with fewer than two of them able to ante, the tie stands and the pot rides on.
        if len(able(state, state.tied)) >= 2:
            return start_round(state)
        state = evolve(state, tied=())
    if state.target is not None:  # solo practice
        if fmt.kind is FormatKind.SINGLE:
            return end_match(state, state.round_winner)
        if state.round_no >= fmt.n:
            return end_match(state, 0 if 2 * state.wins[0] > fmt.n else None)
        return _next_round(state)
    if fmt.kind is FormatKind.SINGLE:
        return (
            end_match(state, state.round_winner)
            if state.round_winner is not None
            else _next_round(state)
        )
    # Rounds among tied players (tie_break=round) come on top of the format's rounds.
    played = sum(1 for r in state.results if not r.tie_round)
    staying = state.staying
    if fmt.last_round is not None and played >= fmt.last_round:
        return decide_by_totals(state, staying)
    winner = state.round_winner
    if fmt.kind is FormatKind.WINS and winner is not None and winner in staying:
        # A round has one winner at most, so only one player can reach N at a time.
        if state.wins[winner] >= fmt.n:
            return end_match(state, winner)
    if fmt.kind is FormatKind.FIRST_TO and max(state.totals[s] for s in staying) >= fmt.n:
        # 001: when several pass the mark in the same round, the highest total wins.
        return decide_by_totals(state, tuple(s for s in staying if state.totals[s] >= fmt.n))
    if fmt.kind is FormatKind.TOURNAMENT:
        if state.finalists:
            if state.round_winner is not None:
                return end_match(state, state.round_winner)
        elif played >= 2:
            # 002.29: after two preliminary rounds the two best totals go to the final.
            seats = staying
            through, straddle, free = _select(seats, tuple(state.totals[s] for s in seats), 2)
            if straddle:
                return _contest_again(state, Purpose.FINAL_PLACES, straddle, free, through, 0)
            return start_round(rotate(evolve(state, finalists=in_play_order(state, through))))
    if fmt.kind is FormatKind.SESSION:
        # 000.17: the next round's first player calls another round or stop; a table
        # where fewer than two can ante ends at once (start_round says how).
        state = rotate(state)
        if len(able(state, staying)) < 2:
            return start_round(state)
        return evolve(state, phase=Phase.ANOTHER_ROUND)
    return _next_round(state)


def decide_by_totals(state: MatchState, seats: tuple[int, ...]) -> MatchState:
    top = _groups(seats, tuple(state.totals[s] for s in seats))[0]
    if len(top) == 1:
        return end_match(state, top[0])
    return _contest_again(state, Purpose.MATCH_TIE, top, 1, (), 0)


def _next_round(state: MatchState) -> MatchState:
    return start_round(rotate(state))
