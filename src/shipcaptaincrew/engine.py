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

For solvers and simulators the engine also exposes :func:`post_score` (finish a turn not yet
begun with a given score, through the same contest code) and :func:`match_position` (a state
without the match's record, for memoising on positions); see :mod:`.positions`.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Protocol, TypeVar, overload

from . import turn as _turn
from .actions import Action, HandOutSplit, Leave, NextRound, Roll, Stay, StopMatch
from .between import SplitChoice, decider, go_on, hand_out, hand_out_actions, split_choice
from .dice import check_faces, roll_distribution
from .errors import IllegalActionError, InvalidSetupError
from .facts import FACES, MAX_PLAYERS, MIN_PLAYERS, SOLO_PLAYERS, TOURNAMENT_MIN_PLAYERS
from .formats import FormatKind
from .match import leave, post, rotation_step, start_round, stay
from .messages import N_
from .positions import counted_rounds, match_position, post_score, turn_scores
from .rules import Drinking, Rules, Stakes, Starter
from .state import (
    CHANCE,
    TERMINAL,
    Contest,
    MatchState,
    Method,
    Phase,
    Purpose,
    TurnPhase,
    TurnState,
    evolve,
)
from .turn import apply_roll as _apply_roll

__all__ = [
    "CHANCE",
    "TERMINAL",
    "DiceSource",
    "IllegalActionError",
    "InvalidSetupError",
    "SplitChoice",
    "apply",
    "chance_outcomes",
    "check_choice",
    "check_players",
    "counted_rounds",
    "current_player",
    "dice_to_roll",
    "initial_state",
    "initial_turn",
    "is_chance",
    "is_terminal",
    "legal_actions",
    "match_position",
    "opening_chips",
    "post_score",
    "returns",
    "rotation_step",
    "sample_chance",
    "seat_to_act",
    "split_choice",
    "turn_scores",
]

State = TypeVar("State", TurnState, MatchState)

# The phases every step asks about, as plain names (an enum member looked up through its class
# costs ten times a name's lookup, several times a step).
_ROLL, _DONE, _TURN, _OVER = TurnPhase.ROLL, TurnPhase.DONE, Phase.TURN, Phase.MATCH_OVER
_new = object.__new__


class DiceSource(Protocol):
    """Anything that rolls dice: seeded PRNG, provably fair, or faces typed at a real table."""

    def roll(self, n: int) -> tuple[int, ...]:
        """Roll ``n`` dice and return their faces in the order rolled."""
        ...


# -- set-up -------------------------------------------------------------------------------------


def initial_turn(rules: Rules) -> TurnState:
    """A standalone turn (one player, no round around it)."""
    return _turn.new_turn(rules)


def check_players(rules: Rules, players: int, *, solo: bool = False) -> int:
    """``players`` if a match under ``rules`` can seat that many, else a clear refusal.

    Two to eight players (001.1); the tournament needs three for its final of two to mean
    anything (002.29); one seat only for solo practice (``solo=True``).  Every shell asks here
    instead of checking the bound itself.

    >>> check_players(Rules(), 9)
    Traceback (most recent call last):
    ...
    shipcaptaincrew.errors.InvalidSetupError: a table seats 2..8 players (001.1), got 9
    """
    lowest = SOLO_PLAYERS if solo else MIN_PLAYERS
    if (
        isinstance(players, bool)
        or not isinstance(players, int)
        or not lowest <= players <= MAX_PLAYERS
    ):
        if solo:
            raise InvalidSetupError(
                N_("players must be 1 (solo practice) or {lo}..{hi} (001.1), got {players}"),
                lo=MIN_PLAYERS,
                hi=MAX_PLAYERS,
                players=repr(players),
            )
        raise InvalidSetupError(
            N_("a table seats {lo}..{hi} players (001.1), got {players}"),
            lo=MIN_PLAYERS,
            hi=MAX_PLAYERS,
            players=repr(players),
        )
    if (
        rules.format.kind is FormatKind.TOURNAMENT
        and MIN_PLAYERS <= players < TOURNAMENT_MIN_PLAYERS
    ):
        raise InvalidSetupError(
            N_("the tournament (002.29) needs at least {n} players for a final of two"),
            n=TOURNAMENT_MIN_PLAYERS,
        )
    return players


def initial_state(
    rules: Rules, players: int, *, starter: int | None = None, target: int | None = None
) -> MatchState:
    """A new match for ``players`` seats (2..8, 001.1), or 1 for solo practice with ``target``.

    With ``starter="rolloff"`` (the default) the match opens with the roll-off; with
    ``starter="chosen"`` the given seat (default 0; 002.7 suggests the youngest) starts.
    """
    check_players(rules, players, solo=True)
    if players == SOLO_PLAYERS:
        if target is None:
            raise InvalidSetupError(N_("solo practice needs a target score to reach"))
        if not rules.min_score <= target <= rules.max_score:
            raise InvalidSetupError(
                N_("target must be {low}..{top}, got {target}"),
                low=rules.min_score,
                top=rules.max_score,
                target=target,
            )
        if rules.stakes is not Stakes.POINTS or rules.drinking is not Drinking.NONE:
            raise InvalidSetupError(N_("solo practice is for points: stakes=points, drinking=none"))
        if rules.format.kind not in (FormatKind.SINGLE, FormatKind.ROUNDS):
            raise InvalidSetupError(N_("solo practice plays format single or rounds:N"))
    elif target is not None:
        raise InvalidSetupError(N_("a target score is only for solo practice (players=1)"))
    if starter is not None:
        if rules.starter is Starter.ROLLOFF and players > 1:
            raise InvalidSetupError(
                N_("starter is decided by the roll-off; set starter=chosen to name one")
            )
        if isinstance(starter, bool) or not isinstance(starter, int) or not 0 <= starter < players:
            raise InvalidSetupError(
                N_("starter must be a seat 0..{last}, got {starter}"),
                last=players - 1,
                starter=repr(starter),
            )
    zeros = (0,) * players
    state = MatchState(
        rules=rules,
        players=players,
        phase=Phase.TURN,
        totals=zeros,
        chips=opening_chips(rules, players),
        sips=zeros,
        wins=zeros,
        round_sips=zeros,
        round_scores=(None,) * players,
        target=target,
    )
    if rules.starter is Starter.ROLLOFF and players > 1:
        contest = Contest(Purpose.STARTER, Method.DIE, tuple(range(players)))
        return evolve(state, phase=Phase.ROLL_OFF, contest=contest)
    return start_round(evolve(state, starter=starter or 0, round_no=0))


def opening_chips(rules: Rules, players: int) -> tuple[int, ...]:
    """The chips each seat sits down with: the stack of ``stakes=pot``, nothing otherwise.

    One fact for the match's first state and for anyone who counts chips won afterwards (the
    web's statistics): the first state may already hold the first round's ante in the pot, so
    its ``chips`` are not the stacks the seats opened with.
    """
    return (rules.starting_chips if rules.stakes is Stakes.POT else 0,) * players


# -- queries ------------------------------------------------------------------------------------


def current_player(state: TurnState | MatchState) -> int:
    """The seat to choose, :data:`CHANCE` when dice are due, :data:`TERMINAL` when over.

    A standalone turn's player is seat 0.
    """
    if isinstance(state, TurnState):
        phase = state.phase
        return CHANCE if phase is _ROLL else TERMINAL if phase is _DONE else 0
    if state.phase is _OVER:
        return TERMINAL
    if state.phase is _TURN:
        assert state.turn is not None and state.contest is not None
        if state.turn.phase is _ROLL:
            return CHANCE
        return state.contest.seats[len(state.contest.scores)]
    if state.phase is Phase.HAND_OUT:
        assert state.round_winner is not None
        return state.round_winner
    if state.phase is Phase.ANOTHER_ROUND:
        return decider(state)
    return CHANCE


def seat_to_act(state: MatchState) -> int | None:
    """The seat at the table: whose turn, roll, hand-out or call it is (None when over)."""
    if state.phase in (Phase.HAND_OUT, Phase.HAND_OUT_ROLL):
        return state.round_winner
    if state.phase is Phase.ANOTHER_ROUND:
        return decider(state)
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
    if state.phase is Phase.CARGO_ROLL_OFF:
        return state.rules.cargo_dice
    return {Phase.ROLL_OFF: 1, Phase.HAND_OUT_ROLL: 1}.get(state.phase, 0)


def legal_actions(state: TurnState | MatchState) -> tuple[Action, ...]:
    """The choices of the player to act; empty at chance nodes and when over."""
    if isinstance(state, TurnState):
        return _turn.legal_actions(state)
    if state.phase is Phase.TURN:
        assert state.turn is not None
        return _turn.legal_actions(state.turn)
    if state.phase is Phase.HAND_OUT:
        return hand_out_actions(state)
    if state.phase is Phase.ANOTHER_ROUND:
        return (NextRound(), StopMatch())
    return ()


def check_choice(state: MatchState, action: Action) -> None:
    """Refuse (``IllegalActionError``) anything but a choice the player to act may make now.

    A choice is one of :func:`legal_actions`, or a split hand-out (:func:`split_choice`) the
    rules accept as one move, which :func:`legal_actions` does not list (there would be one
    for every way of sharing the sips).  The one question a shell asks before it plays a
    player's choice; dice are not choices.

    >>> from shipcaptaincrew.rules import find_rules
    >>> from shipcaptaincrew.actions import Stand
    >>> s = initial_state(find_rules("classic").replace(starter="chosen"), 2)
    >>> check_choice(s, Stand())
    Traceback (most recent call last):
    ...
    shipcaptaincrew.errors.IllegalActionError: the dice are due: roll them first
    """
    if is_chance(state):
        raise IllegalActionError(N_("the dice are due: roll them first"))
    if action in legal_actions(state):
        return
    if isinstance(action, HandOutSplit) and split_choice(state) is not None:
        hand_out(state, action)  # the rules' own check: raises with its reason
        return
    raise IllegalActionError(N_("{action} is not among the choices now"), action=str(action))


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
    n = _turn.dice_to_roll(state) if isinstance(state, TurnState) else dice_to_roll(state)
    if n == 0:
        raise IllegalActionError(N_("no dice are due: this is not a chance node"))
    if type(source) is random.Random:
        # Each die exactly as ``randint(1, 6)`` draws it -- ``1 + _randbelow(6)``, which takes
        # three random bits and draws again while they make 6 or 7 (CPython's
        # ``_randbelow_with_getrandbits``) -- without the two calls per die that were a
        # quarter of a turn's time, so a seed rolls the same dice as ever.
        bits = source.getrandbits
        code = 0
        for _ in range(n):
            r = bits(3)
            while r > 5:
                r = bits(3)
            code = code * 6 + r
        # Rolls are frozen values: each roll of up to five dice is made once and handed out
        # again (at most 6^5 of them), and the turn knows its faces' very tuple as checked.
        drawn = _DRAWN[n] if n < len(_DRAWN) else None
        roll = None if drawn is None else drawn.get(code)
        if roll is None:
            roll = _drawn(n, code)
            if drawn is not None:
                drawn[code] = roll
        return roll
    if isinstance(source, random.Random):
        # A subclass may draw its own way: ask it for each die as ``randint(1, 6)`` would
        # (``choice`` over the six faces draws the same ``1 + _randbelow(6)``).
        pick = source.choice
        return Roll(tuple([pick(FACES) for _ in range(n)]))
    return Roll(tuple(source.roll(n)))


#: Per count of dice (0 to 5): each roll drawn so far, by its faces as a number in base 6.
_DRAWN: tuple[dict[int, Roll], ...] = tuple({} for _ in range(6))


def _drawn(n: int, code: int) -> Roll:
    """The roll of ``n`` dice whose faces less one are the base-6 digits of ``code``, first die
    first, made whole as the dataclass's own ``__init__`` would (a frozen one sets its field
    through ``object.__setattr__``, a third of a roll's cost again)."""
    faces = []
    for _ in range(n):
        code, r = divmod(code, 6)
        faces.append(r + 1)
    roll = _new(Roll)
    roll.__dict__["faces"] = tuple(reversed(faces))
    return roll


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
        return _apply_roll(state, action) if type(action) is Roll else _turn.apply(state, action)
    if isinstance(action, Leave):  # the table's, at any point of a round: not the actor's
        return leave(state, action.seat)
    if isinstance(action, Stay):  # the table's too: a leave undone before it took effect
        return stay(state, action.seat)
    if state.phase is _OVER:
        raise IllegalActionError(N_("{action}: the match is over"), action=str(action))
    if state.phase is _TURN:
        turn = state.turn
        assert turn is not None
        t = _apply_roll(turn, action) if type(action) is Roll else _turn.apply(turn, action)
        if t.phase is _DONE:
            return post(state, t.score)  # the state after it holds no turn
        return evolve(state, turn=t)
    if state.phase is Phase.HAND_OUT:
        return hand_out(state, action)
    if state.phase is Phase.ANOTHER_ROUND:
        return go_on(state, action)
    # The remaining phases are chance nodes that roll one or two plain dice.
    if not isinstance(action, Roll):
        raise IllegalActionError(
            N_("{action} is not allowed now: {phase} needs dice"),
            action=str(action),
            phase=state.phase.value,
        )
    faces = check_faces(action.faces, dice_to_roll(state))
    if state.phase is Phase.HAND_OUT_ROLL:
        return evolve(state, phase=Phase.HAND_OUT, hand_out_left=faces[0])
    return post(state, sum(faces))
