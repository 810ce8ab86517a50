"""Between turns and rounds: the captain's hand-out (000.24) and a session's decision.

These are the match's two decision nodes that are no turn: the round's winner handing out
sips, and -- under ``format=session`` -- the next round's first player calling another round
or stop.  :mod:`.match` holds the rounds and formats they lead back into.
"""

from __future__ import annotations

from typing import NamedTuple

from .actions import Action, HandOut, HandOutSplit, NextRound, StopHandOut, StopMatch
from .errors import IllegalActionError
from .match import able, decide_by_totals, in_play_order, round_over, start_round
from .messages import N_, NP_
from .payouts import add, sip_amount
from .rules import HandOutAmount
from .state import MatchState, Phase, evolve

__all__ = ["SplitChoice", "decider", "go_on", "hand_out", "hand_out_actions", "split_choice"]


# -- the captain's hand-out (000.24) -------------------------------------------------------------


def hand_out_actions(state: MatchState) -> tuple[Action, ...]:
    """One sip to any other player of the round, and under ``hand_out=up_to`` a stop.

    A split (:class:`~.actions.HandOutSplit`) is accepted too but not listed, which keeps the
    list as short as the table.
    """
    acts: list[Action] = [HandOut(s) for s in state.round_seats if s != state.round_winner]
    if state.rules.hand_out is HandOutAmount.UP_TO:
        acts.append(StopHandOut())
    return tuple(acts)


class SplitChoice(NamedTuple):
    """The split hand-out the captain may make as one move: every :class:`~.actions.HandOutSplit`
    that names some of ``seats`` (each once, with a sip at least) and hands out at most
    ``most`` sips in all."""

    seats: tuple[int, ...]
    most: int


def split_choice(state: MatchState) -> SplitChoice | None:
    """The split the captain may hand out now (None where there is none to make).

    Under both ``hand_out=exact`` and ``up_to`` a split may hand out any part of the sips left
    (under ``exact`` the rest follows in later steps); it is worth offering only with two
    sips or more, where it saves a step.  The one description of a split that
    :func:`hand_out` accepts, for shells that offer one.
    """
    if state.phase is not Phase.HAND_OUT or state.hand_out_left < 2:
        return None
    seats = tuple(s for s in state.round_seats if s != state.round_winner)
    return SplitChoice(seats, state.hand_out_left) if seats else None


def hand_out(state: MatchState, action: Action) -> MatchState:
    """The captain hands out one sip, a split of several, or (``up_to``) stops."""
    if isinstance(action, StopHandOut):
        if state.rules.hand_out is not HandOutAmount.UP_TO:
            raise IllegalActionError(
                N_("the captain hands out every sip the die shows (hand_out=exact)")
            )
        return round_over(state)
    if isinstance(action, HandOut):
        shares: tuple[tuple[int, int], ...] = ((action.to, 1),)
    elif isinstance(action, HandOutSplit):
        shares = action.shares
    else:
        raise IllegalActionError(
            N_("{action} is not allowed now: the winner hands out sips"), action=str(action)
        )
    seats = [seat for seat, _ in shares]
    if not shares or len(set(seats)) < len(seats) or any(n < 1 for _, n in shares):
        raise IllegalActionError(N_("a split names each player once, with a sip at least"))
    for seat in seats:
        if seat == state.round_winner or seat not in state.round_seats:
            raise IllegalActionError(
                N_("seat {seat} cannot take a sip: hand them to another player of this round"),
                seat=seat,
            )
    given = sum(n for _, n in shares)
    if given > state.hand_out_left:
        raise IllegalActionError(
            NP_(
                "that hands out {given} sips, and only {left} is left to hand out",
                "that hands out {given} sips, and only {left} are left to hand out",
            ),
            count="left",
            given=given,
            left=state.hand_out_left,
        )
    sips, round_sips = state.sips, state.round_sips
    for seat, n in shares:
        # Under failed_double a sip to a failed player is drunk twice: the die counts the
        # sips handed out, not the sips drunk (000.24 with 002.24; docs/rules.md).
        sips = add(sips, seat, n * sip_amount(state, seat))
        round_sips = add(round_sips, seat, n * sip_amount(state, seat))
    left = state.hand_out_left - given
    state = evolve(state, sips=sips, round_sips=round_sips, hand_out_left=left)
    return round_over(state) if left == 0 else state


# -- a session between rounds (format=session) ----------------------------------------------------


def decider(state: MatchState) -> int:
    """Who calls another round or stop in a session: the next round's first player."""
    return in_play_order(state, able(state, tuple(range(state.players))))[0]


def go_on(state: MatchState, action: Action) -> MatchState:
    """Another round, or stop and let the totals decide (like ``rounds:N``)."""
    if isinstance(action, NextRound):
        return start_round(state)
    if isinstance(action, StopMatch):
        return decide_by_totals(evolve(state, phase=Phase.TURN), state.staying)
    raise IllegalActionError(
        N_("{action} is not allowed now: call another round or stop"), action=str(action)
    )
