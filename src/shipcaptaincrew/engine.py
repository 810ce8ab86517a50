"""The pure game engine: rounds, tie-breaks, stakes and match formats over :mod:`.turn`.

Every function takes a state and returns a new one; nothing is mutated and no randomness is
used.  Chance is explicit (OpenSpiel style): at a chance node :func:`chance_outcomes` lists the
exact outcomes with their probabilities and :func:`sample_chance` draws one from a dice source.
The same functions accept a standalone :class:`~.state.TurnState` (one turn, for solvers) or
a :class:`~.state.MatchState`.

>>> from shipcaptaincrew.rules import find_rules
>>> from shipcaptaincrew.actions import Roll, Stand
>>> s = initial_state(find_rules("classic").replace(starter="chosen"), players=2, starter=1)
>>> s.phase.value, seat_to_act(s), current_player(s) == CHANCE
('turn', 1, True)
>>> s = apply(s, Roll((6, 5, 4, 6, 6)))                  # seat 1: full crew, cargo 12
>>> [str(a) for a in legal_actions(s)]
['stand', 'reroll']
>>> s = apply(s, Stand())
>>> s.posted_scores, seat_to_act(s)
({1: 12}, 0)
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Protocol, TypeVar, overload

from . import turn as _turn
from .actions import Action, HandOut, Roll
from .dice import check_faces, roll_distribution
from .rules import AllFail, Drinking, Rotation, Rules, Stakes, Starter, TieBreak
from .state import (
    CHANCE,
    TERMINAL,
    Contest,
    MatchState,
    Method,
    Phase,
    Purpose,
    RoundResult,
    TurnPhase,
    TurnState,
    evolve,
)
from .turn import IllegalActionError

__all__ = [
    "CHANCE",
    "TERMINAL",
    "DiceSource",
    "IllegalActionError",
    "InvalidSetupError",
    "apply",
    "chance_outcomes",
    "current_player",
    "dice_to_roll",
    "initial_state",
    "initial_turn",
    "is_chance",
    "is_terminal",
    "legal_actions",
    "returns",
    "rotation_step",
    "sample_chance",
    "seat_to_act",
]

State = TypeVar("State", TurnState, MatchState)


class InvalidSetupError(ValueError):
    """A match that cannot be set up (player count, solo target, starter seat, stakes)."""


class DiceSource(Protocol):
    """Anything that rolls dice: seeded PRNG, provably fair, or faces typed at a real table."""

    def roll(self, n: int) -> tuple[int, ...]:
        """Roll ``n`` dice and return their faces in the order rolled."""
        ...


# -- set-up -------------------------------------------------------------------------------------


def initial_turn(rules: Rules) -> TurnState:
    """A standalone turn (one player, no round around it)."""
    return _turn.new_turn(rules)


def initial_state(
    rules: Rules, players: int, *, starter: int | None = None, target: int | None = None
) -> MatchState:
    """A new match for ``players`` seats (2..8, 001), or 1 for solo practice with ``target``.

    With ``starter="rolloff"`` (the default) the match opens with the roll-off; with
    ``starter="chosen"`` the given seat (default 0, "the youngest" of 002) starts.
    """
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 8:
        raise InvalidSetupError(f"players must be 1 (solo practice) or 2..8 (001), got {players!r}")
    if players == 1:
        if target is None:
            raise InvalidSetupError("solo practice needs a target score to reach")
        if not 2 <= target <= rules.max_score:
            raise InvalidSetupError(f"target must be 2..{rules.max_score}, got {target}")
        if rules.stakes is not Stakes.POINTS or rules.drinking is not Drinking.NONE:
            raise InvalidSetupError("solo practice is for points: stakes=points, drinking=none")
        if rules.format.kind not in ("single", "rounds"):
            raise InvalidSetupError("solo practice plays format single or rounds:N")
    elif target is not None:
        raise InvalidSetupError("a target score is only for solo practice (players=1)")
    if rules.format.kind == "tournament" and players < 3:
        raise InvalidSetupError("the tournament (002) needs at least 3 players for a final of two")
    if starter is not None:
        if rules.starter is Starter.ROLLOFF and players > 1:
            raise InvalidSetupError(
                "starter is decided by the roll-off; set starter=chosen to name one"
            )
        if isinstance(starter, bool) or not isinstance(starter, int) or not 0 <= starter < players:
            raise InvalidSetupError(f"starter must be a seat 0..{players - 1}, got {starter!r}")
    zeros = (0,) * players
    chips = (rules.starting_chips,) * players if rules.stakes is Stakes.POT else zeros
    state = MatchState(
        rules=rules,
        players=players,
        phase=Phase.TURN,
        totals=zeros,
        chips=chips,
        sips=zeros,
        wins=zeros,
        round_sips=zeros,
        round_scores=(None,) * players,
        target=target,
    )
    if rules.starter is Starter.ROLLOFF and players > 1:
        contest = Contest(Purpose.STARTER, Method.DIE, tuple(range(players)))
        return evolve(state, phase=Phase.ROLL_OFF, contest=contest)
    return _start_round(evolve(state, starter=starter or 0, round_no=0))


# -- queries ------------------------------------------------------------------------------------


def current_player(state: TurnState | MatchState) -> int:
    """The seat to choose, :data:`CHANCE` when dice are due, :data:`TERMINAL` when over.

    A standalone turn's player is seat 0.
    """
    if isinstance(state, TurnState):
        if state.phase is TurnPhase.DONE:
            return TERMINAL
        return CHANCE if state.phase is TurnPhase.ROLL else 0
    if state.phase is Phase.MATCH_OVER:
        return TERMINAL
    if state.phase is Phase.TURN:
        assert state.turn is not None and state.contest is not None
        if state.turn.phase is TurnPhase.ROLL:
            return CHANCE
        return state.contest.seats[len(state.contest.scores)]
    if state.phase is Phase.HAND_OUT:
        assert state.round_winner is not None
        return state.round_winner
    return CHANCE


def seat_to_act(state: MatchState) -> int | None:
    """The seat at the table: whose turn, roll or hand-out it is (None when over)."""
    if state.phase in (Phase.HAND_OUT, Phase.HAND_OUT_ROLL):
        return state.round_winner
    if state.phase is Phase.MATCH_OVER or state.contest is None:
        return None
    return state.contest.seat


def is_chance(state: TurnState | MatchState) -> bool:
    """Dice are due."""
    return current_player(state) == CHANCE


def is_terminal(state: TurnState | MatchState) -> bool:
    """The turn or match is over."""
    return current_player(state) == TERMINAL


def dice_to_roll(state: TurnState | MatchState) -> int:
    """How many dice the next roll uses (0 at a decision or when over)."""
    if isinstance(state, TurnState):
        return _turn.dice_to_roll(state)
    if state.phase is Phase.TURN:
        assert state.turn is not None
        return _turn.dice_to_roll(state.turn)
    return {Phase.ROLL_OFF: 1, Phase.HAND_OUT_ROLL: 1, Phase.CARGO_ROLL_OFF: 2}.get(state.phase, 0)


def legal_actions(state: TurnState | MatchState) -> tuple[Action, ...]:
    """The choices of the player to act; empty at chance nodes and when over."""
    if isinstance(state, TurnState):
        return _turn.legal_actions(state)
    if state.phase is Phase.TURN:
        assert state.turn is not None
        return _turn.legal_actions(state.turn)
    if state.phase is Phase.HAND_OUT:
        return tuple(HandOut(s) for s in state.round_seats if s != state.round_winner)
    return ()


def chance_outcomes(state: TurnState | MatchState) -> tuple[tuple[Roll, Fraction], ...]:
    """Exact (roll, probability) pairs at a chance node (sorted faces); empty elsewhere.

    >>> sum(p for _, p in chance_outcomes(initial_turn(Rules()))) == 1
    True
    """
    if isinstance(state, TurnState) or state.phase is Phase.TURN:
        t = state if isinstance(state, TurnState) else state.turn
        assert t is not None
        return _turn.chance_outcomes(t)
    n = dice_to_roll(state)
    return tuple((Roll(f), p) for f, p in roll_distribution(n)) if n else ()


def sample_chance(state: TurnState | MatchState, source: DiceSource | random.Random) -> Roll:
    """Roll the dice that are due from a dice source (or a ``random.Random``)."""
    n = dice_to_roll(state)
    if n == 0:
        raise IllegalActionError("no dice are due: this is not a chance node")
    if isinstance(source, random.Random):
        return Roll(tuple(source.randint(1, 6) for _ in range(n)))
    return Roll(tuple(source.roll(n)))


def returns(state: MatchState) -> tuple[float, ...]:
    """1 for the match winner, 0 for everyone else (all 0 before the end or without a winner)."""
    return tuple(1.0 if state.winner == s and state.is_over else 0.0 for s in range(state.players))


# -- transitions --------------------------------------------------------------------------------


@overload
def apply(state: TurnState, action: Action) -> TurnState: ...
@overload
def apply(state: MatchState, action: Action) -> MatchState: ...
def apply(state: TurnState | MatchState, action: Action) -> TurnState | MatchState:
    """The state after a roll (at a chance node) or a choice (at a decision).

    Wrong dice raise :class:`~.dice.InvalidDiceError`; an action that is not allowed raises
    :class:`IllegalActionError`; the given state is never changed.
    """
    if isinstance(state, TurnState):
        return _turn.apply(state, action)
    if state.phase is Phase.MATCH_OVER:
        raise IllegalActionError(f"{action}: the match is over")
    if state.phase is Phase.TURN:
        assert state.turn is not None
        t = _turn.apply(state.turn, action)
        if t.phase is TurnPhase.DONE:
            return _post(evolve(state, turn=None), t.score)
        return evolve(state, turn=t)
    if state.phase is Phase.HAND_OUT:
        return _hand_out(state, action)
    # The remaining phases are chance nodes that roll one or two plain dice.
    if not isinstance(action, Roll):
        raise IllegalActionError(f"{action} is not allowed now: {state.phase.value} needs dice")
    faces = check_faces(action.faces, dice_to_roll(state))
    if state.phase is Phase.HAND_OUT_ROLL:
        return evolve(state, phase=Phase.HAND_OUT, hand_out_left=faces[0])
    return _post(state, sum(faces))


def _hand_out(state: MatchState, action: Action) -> MatchState:
    if not isinstance(action, HandOut):
        raise IllegalActionError(f"{action} is not allowed now: the winner hands out sips")
    if action.to == state.round_winner or action.to not in state.round_seats:
        raise IllegalActionError(
            f"seat {action.to} cannot take a sip: hand them to another player of this round"
        )
    amount = _sip(state, action.to)
    sips = _add(state.sips, action.to, amount)
    round_sips = _add(state.round_sips, action.to, amount)
    left = state.hand_out_left - 1
    state = evolve(state, sips=sips, round_sips=round_sips, hand_out_left=left)
    return _after_round(state) if left == 0 else state


# -- contests -----------------------------------------------------------------------------------


def _post(state: MatchState, number: int) -> MatchState:
    """A seat of the current contest posts its number; move to the next seat or resolve."""
    c = state.contest
    assert c is not None
    c = evolve(c, scores=c.scores + (number,))
    state = evolve(state, contest=c)
    if c.purpose is Purpose.ROUND:
        seat = c.seats[len(c.scores) - 1]
        rs = list(state.round_scores)
        rs[seat] = number
        state = evolve(state, round_scores=tuple(rs))
    if len(c.scores) < len(c.seats):
        return _begin_seat(state)
    return _resolve(state)


def _begin_seat(state: MatchState) -> MatchState:
    c = state.contest
    assert c is not None
    if c.method is Method.TURN:
        return evolve(state, phase=Phase.TURN, turn=_turn.new_turn(state.rules))
    phase = Phase.CARGO_ROLL_OFF if c.method is Method.CARGO else Phase.ROLL_OFF
    return evolve(state, phase=phase, turn=None)


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
    return Method.TURN if rules.tie_break is TieBreak.REPLAY else Method.CARGO


def _contest_again(
    state: MatchState,
    purpose: Purpose,
    group: tuple[int, ...],
    slots: int,
    selected: tuple[int, ...],
    depth: int,
) -> MatchState:
    method = Method.DIE if purpose is Purpose.STARTER else _tie_method(state.rules)
    contest = Contest(purpose, method, _in_play_order(state, group), (), slots, selected, depth)
    if purpose is Purpose.ROUND_TIE:
        state = evolve(state, round_tie_breaks=state.round_tie_breaks + 1)
    return _begin_seat(evolve(state, contest=contest, turn=None))


def _in_play_order(state: MatchState, seats: tuple[int, ...]) -> tuple[int, ...]:
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
        return _start_round(evolve(state, starter=chosen[0], contest=None))
    if c.purpose is Purpose.ROUND_TIE:
        return _finish_round(state, chosen[0])
    if c.purpose is Purpose.MATCH_TIE:
        return _end_match(state, chosen[0])
    return _start_round(_rotate(evolve(state, finalists=_in_play_order(state, chosen))))


def _resolve_round(state: MatchState) -> MatchState:
    c = state.contest
    assert c is not None
    if state.target is not None:  # solo practice
        return _finish_round(state, c.seats[0] if c.scores[0] >= state.target else None)
    if max(c.scores) == 0:
        # 002: "If you fail to collect all of 6, 5, and 4 ... you cannot win."
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
    # 000/001/003: the tied players replay; 002: they roll their two cargo dice.
    return _contest_again(state, Purpose.ROUND_TIE, top, 1, (), 0)


# -- rounds -------------------------------------------------------------------------------------


def _start_round(state: MatchState) -> MatchState:
    rules = state.rules
    seats = state.finalists or tuple(range(state.players))
    chips, pot = list(state.chips), state.pot
    if rules.stakes is Stakes.POT:
        # 002 "each player antes"; a player who cannot ante sits this round out.
        seats = tuple(s for s in seats if chips[s] >= rules.ante)
        if len(seats) < 2:
            return _broke_table(state, seats)
        for s in seats:
            chips[s] -= rules.ante
            pot += rules.ante
    order = _in_play_order(state, seats)
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
        contest=Contest(Purpose.ROUND, Method.TURN, order),
    )
    return _begin_seat(state)


def _broke_table(state: MatchState, seats: tuple[int, ...]) -> MatchState:
    """Fewer than two players can ante: the match ends (the one who still can wins)."""
    if len(seats) == 1:
        return _end_match(state, seats[0])
    # Only those still in the match (the finalists of a tournament) can win it.
    contenders = state.finalists or tuple(range(state.players))
    richest = _groups(contenders, tuple(state.chips[s] for s in contenders))[0]
    if len(richest) == 1:
        return _end_match(state, richest[0])
    return _contest_again(state, Purpose.MATCH_TIE, richest, 1, (), 0)


def _sip(state: MatchState, seat: int) -> int:
    """Sips for one drink: doubled for a failed ship under failed_double (002)."""
    failed = state.round_scores[seat] == 0
    return 2 if state.rules.failed_double and failed else 1


def _add(values: tuple[int, ...], seat: int, amount: int) -> tuple[int, ...]:
    out = list(values)
    out[seat] += amount
    return tuple(out)


def _finish_round(state: MatchState, winner: int | None) -> MatchState:
    rules = state.rules
    totals = list(state.totals)
    for s in state.round_seats:
        totals[s] += state.round_scores[s] or 0
    wins = _add(state.wins, winner, 1) if winner is not None else state.wins
    state = evolve(state, totals=tuple(totals), wins=wins, round_winner=winner, turn=None)
    # The pot: the round winner takes it, except in the tournament where the winner of the
    # final takes all (002); with no winner it stays on the table (all_fail=carry_pot).
    if rules.stakes is Stakes.POT and winner is not None and rules.format.kind != "tournament":
        state = evolve(
            state, chips=_add(state.chips, winner, state.pot), pot=0, round_pot_won=state.pot
        )
    drinkers: tuple[int, ...] = ()
    others = tuple(s for s in state.round_seats if s != winner)
    if rules.drinking is Drinking.ALL_BUT_WINNER:
        drinkers = others
    elif rules.drinking is Drinking.LAST_DRINKS and others:
        low = min(state.round_scores[s] or 0 for s in others)
        drinkers = tuple(s for s in others if (state.round_scores[s] or 0) == low)
    elif rules.drinking is Drinking.CAPTAIN_HANDS_OUT and winner is not None and others:
        return evolve(state, phase=Phase.HAND_OUT_ROLL, contest=None)
    sips, round_sips = state.sips, state.round_sips
    for s in drinkers:
        sips = _add(sips, s, _sip(state, s))
        round_sips = _add(round_sips, s, _sip(state, s))
    return _after_round(evolve(state, sips=sips, round_sips=round_sips))


def _after_round(state: MatchState) -> MatchState:
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
        all_failed=all((state.round_scores[s] or 0) == 0 for s in state.round_seats),
        tie_breaks=state.round_tie_breaks,
        stage=state.stage,
    )
    state = evolve(
        state, results=state.results + (result,), contest=None, phase=Phase.TURN, hand_out_left=0
    )
    if state.target is not None:  # solo practice
        if fmt.kind == "single":
            return _end_match(state, state.round_winner)
        if state.round_no >= fmt.n:
            return _end_match(state, 0 if 2 * state.wins[0] > fmt.n else None)
        return _next_round(state)
    if fmt.kind == "single":
        return (
            _end_match(state, state.round_winner)
            if state.round_winner is not None
            else _next_round(state)
        )
    if fmt.kind == "rounds" and state.round_no >= fmt.n:
        return _decide_by_totals(state, tuple(range(state.players)))
    if fmt.kind == "first_to" and max(state.totals) >= fmt.n:
        # 001: when several pass the mark in the same round, the highest total wins.
        return _decide_by_totals(
            state, tuple(s for s in range(state.players) if state.totals[s] >= fmt.n)
        )
    if fmt.kind == "tournament":
        if state.finalists:
            if state.round_winner is not None:
                return _end_match(state, state.round_winner)
        elif state.round_no >= 2:
            # 002: "Two preliminary rounds reduce to the two highest scorers".
            seats = tuple(range(state.players))
            through, straddle, free = _select(seats, state.totals, 2)
            if straddle:
                return _contest_again(state, Purpose.FINAL_PLACES, straddle, free, through, 0)
            return _start_round(_rotate(evolve(state, finalists=_in_play_order(state, through))))
    return _next_round(state)


def _decide_by_totals(state: MatchState, seats: tuple[int, ...]) -> MatchState:
    top = _groups(seats, tuple(state.totals[s] for s in seats))[0]
    if len(top) == 1:
        return _end_match(state, top[0])
    return _contest_again(state, Purpose.MATCH_TIE, top, 1, (), 0)


def rotation_step(rules: Rules) -> int:
    """How many seats (in play order) the start moves on after a round under ``rules.rotation``.

    The one place the rotation is decided; the solver's round model asks here too.

    >>> from shipcaptaincrew.rules import find_rules
    >>> rotation_step(find_rules("schiff-kapitaen-crew")), rotation_step(find_rules("classic"))
    (-1, 1)
    """
    return {Rotation.RIGHT: -1, Rotation.LEFT: 1, Rotation.NONE: 0}[rules.rotation]


def _rotate(state: MatchState) -> MatchState:
    step = rotation_step(state.rules)
    return evolve(state, starter=(state.starter + step) % state.players)


def _next_round(state: MatchState) -> MatchState:
    return _start_round(_rotate(state))


def _end_match(state: MatchState, winner: int | None) -> MatchState:
    chips, pot = state.chips, state.pot
    if winner is not None and state.rules.stakes is Stakes.POT and pot:
        # Tournament: "Winner takes all" (002); any pot left on the table goes to the winner.
        chips, pot = _add(chips, winner, pot), 0
    return evolve(
        state, phase=Phase.MATCH_OVER, winner=winner, chips=chips, pot=pot, contest=None, turn=None
    )
