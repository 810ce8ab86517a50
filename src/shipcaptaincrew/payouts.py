"""What a round and a match pay out: the totals, the round won, the pot and the sips.

:mod:`.match` decides who won a round and what the format does next; this module holds the
bookkeeping that follows from it, which the sheets state apart from the play: the scores are
added to the totals (001.3, 002.23), the round's winner takes the pot under ``pot_to=round``
(001.16, 002.22) or the match's winner takes what is left (002.28, 002.30), and the drinking
modes pour the sips (000.18-000.24, 002.24-002.27).  Every function takes a state and returns a
new one, and none decides what comes next.
"""

from __future__ import annotations

from .formats import FormatKind
from .rules import Drinking, PotTo, Stakes
from .state import MatchState, Phase, evolve

__all__ = ["add", "end_match", "settle_round", "sip_amount"]


def add(values: tuple[int, ...], seat: int, amount: int) -> tuple[int, ...]:
    """``values`` with ``amount`` added at ``seat``.

    >>> add((1, 2, 3), 1, 5)
    (1, 7, 3)
    """
    out = list(values)
    out[seat] += amount
    return tuple(out)


def sip_amount(state: MatchState, seat: int) -> int:
    """Sips for one drink: doubled for a failed ship under failed_double (002)."""
    failed = state.round_scores[seat] == 0
    return 2 if state.rules.failed_double and failed else 1


def settle_round(
    state: MatchState, winner: int | None, spared: tuple[int, ...] = ()
) -> tuple[MatchState, bool]:
    """Totals, the pot and the drinks of a finished round; ``spared`` (a tie left undecided
    at the top) drink nothing, as the winner would not.

    Returns the settled state and whether the captain hands out the round's sips instead
    (``drinking=captain_hands_out``: the hand-out roll comes next, and nobody has drunk yet).
    """
    rules = state.rules
    totals = list(state.totals)
    for s in state.round_seats:
        # Everyone of the round has posted by now; a score is added as it is, 0 included
        # (nothing here asks whether it is 0, so a tabulating caller need not know).
        score = state.round_scores[s]
        if score is not None:
            totals[s] += score
    wins = add(state.wins, winner, 1) if winner is not None else state.wins
    state = evolve(state, totals=tuple(totals), wins=wins, round_winner=winner, turn=None)
    # The pot: the round winner takes it under pot_to=round, except in the tournament where
    # the winner of the final takes all (002.30); with no winner it stays on the table.
    if (
        rules.stakes is Stakes.POT
        and rules.pot_to is PotTo.ROUND
        and winner is not None
        and rules.format.kind is not FormatKind.TOURNAMENT
    ):
        state = evolve(
            state, chips=add(state.chips, winner, state.pot), pot=0, round_pot_won=state.pot
        )
    drinkers: tuple[int, ...] = ()
    others = tuple(s for s in state.round_seats if s != winner and s not in spared)
    if rules.drinking is Drinking.ALL_BUT_WINNER:
        drinkers = others
    elif rules.drinking is Drinking.LAST_DRINKS and others:
        low = min(state.round_scores[s] or 0 for s in others)
        drinkers = tuple(s for s in others if (state.round_scores[s] or 0) == low)
    elif rules.drinking is Drinking.CAPTAIN_HANDS_OUT and winner is not None and others:
        return state, True
    sips, round_sips = state.sips, state.round_sips
    for s in drinkers:
        sips = add(sips, s, sip_amount(state, s))
        round_sips = add(round_sips, s, sip_amount(state, s))
    return evolve(state, sips=sips, round_sips=round_sips), False


def end_match(state: MatchState, winner: int | None) -> MatchState:
    """The match is over: ``winner`` takes a pot still on the table."""
    chips, pot, won = state.chips, state.pot, 0
    if winner is not None and state.rules.stakes is Stakes.POT and pot:
        # The tournament's winner takes all (002.30), so does the match winner under
        # pot_to=match (002.28); any pot left on the table goes to the winner too.
        chips, pot, won = add(chips, winner, pot), 0, pot
    return evolve(
        state,
        phase=Phase.MATCH_OVER,
        winner=winner,
        chips=chips,
        pot=pot,
        match_pot_won=won,
        contest=None,
        turn=None,
    )
