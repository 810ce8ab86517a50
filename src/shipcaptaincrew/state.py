"""Frozen, hashable game states: one player's turn, and a whole match.

States are values: the engine (:mod:`shipcaptaincrew.engine`) never changes one, it returns a
new one.  That is what lets solvers memoise on states, servers keep a history, and a replay of
the event log arrive at an identical state.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum, StrEnum
from typing import Any, TypeVar

from .facts import ROLES
from .formats import FormatKind
from .rules import Rules

__all__ = [
    "evolve",
    "CHANCE",
    "ROLE_NAMES",
    "TERMINAL",
    "Contest",
    "MatchState",
    "Method",
    "Phase",
    "Purpose",
    "RoundResult",
    "Stage",
    "TurnPhase",
    "TurnState",
]

#: :func:`~shipcaptaincrew.engine.current_player` when the dice are to be rolled.
CHANCE = -1
#: :func:`~shipcaptaincrew.engine.current_player` when the match is over.
TERMINAL = -2

#: The three roles, in the order they must be collected (all sheets; :data:`.facts.ROLES`).
ROLE_NAMES = ROLES
_ROLE_COUNT = len(ROLES)  # read at every step of every turn


class TurnPhase(str, Enum):
    """Where a turn stands."""

    ROLL = "roll"  #: dice must be rolled (chance)
    ASSIGN = "assign"  #: wild captain: the player picks which dice fill the roles
    DECIDE = "decide"  #: crew complete with rolls left: stand or reroll the cargo
    DONE = "done"  #: the turn's score is final


@dataclass(frozen=True)
class TurnState:
    """One player's turn.

    ``held`` are the faces set aside for ship, captain and crew in that order (a wild face can
    stand in); ``cargo`` the cargo's faces once the crew is complete (the dice in the cup less
    the three roles: :attr:`.rules.Rules.cargo_dice`).  ``last_roll`` is shown
    to players but is not part of the state's identity (equal states may differ in it).
    """

    rules: Rules
    held: tuple[int, ...] = ()
    cargo: tuple[int, ...] = ()
    rolls_used: int = 0
    cargo_rerolls: int = 0
    phase: TurnPhase = TurnPhase.ROLL
    #: Half cargo: the face kept while the other cargo dice are rerolled (phase ROLL).
    keep: int | None = None
    #: Wild captain: the sorted faces of the roll awaiting a :class:`~.actions.Take`.
    pending: tuple[int, ...] = ()
    #: Same-roll bonus earned by this turn (001 house rule).
    bonus: int = 0
    #: Faces of the most recent roll, as rolled (display only).
    last_roll: tuple[int, ...] = field(default=(), compare=False)

    @property
    def complete(self) -> bool:
        """Ship, captain and crew are all held."""
        return len(self.held) == _ROLE_COUNT

    @property
    def score(self) -> int:
        """Cargo plus bonus once the crew is complete, else 0 (all sheets)."""
        return sum(self.cargo) + self.bonus if len(self.held) == _ROLE_COUNT else 0

    @property
    def rolls_left(self) -> int:
        """Rolls still available this turn (:attr:`.rules.Rules.rolls` in all)."""
        return self.rules.rolls - self.rolls_used

    @property
    def held_roles(self) -> tuple[str, ...]:
        """Names of the roles held, in the order taken."""
        return ROLE_NAMES[: len(self.held)]

    @property
    def free_dice(self) -> int:
        """How many dice are not set aside as ship, captain or crew."""
        return self.rules.dice - len(self.held)


class Phase(str, Enum):
    """Where a match stands."""

    ROLL_OFF = "roll_off"  #: chance: a contender rolls one die to decide who starts
    TURN = "turn"  #: a player's turn (see the turn's own phase)
    CARGO_ROLL_OFF = "cargo_roll_off"  #: chance: a tied player rolls the cargo's dice (002)
    HAND_OUT_ROLL = "hand_out_roll"  #: chance: the winner rolls one die (000/003 captain)
    HAND_OUT = "hand_out"  #: the winner hands out sips
    ANOTHER_ROUND = "another_round"  #: a session between rounds: another round, or stop
    MATCH_OVER = "match_over"


class Purpose(str, Enum):
    """What a contest decides."""

    STARTER = "starter"  #: who starts the first round (roll-off)
    ROUND = "round"  #: a round: everyone who anted plays one turn
    ROUND_TIE = "round_tie"  #: tie for the round's top score
    MATCH_TIE = "match_tie"  #: tie for the match win (totals, or chips of a broke table)
    FINAL_PLACES = "final_places"  #: tie for a place in the tournament final (002)


class Method(str, Enum):
    """How each seat of a contest produces its number."""

    TURN = "turn"  #: a full turn; its score
    CARGO = "cargo"  #: the cargo's dice; their sum (002 tie-break)
    DIE = "die"  #: one die (roll-off)


@dataclass(frozen=True)
class Contest:
    """Seats producing a number each, in play order; the best ``slots`` go through.

    Rounds, tie-breaks, the starter roll-off and the tournament's final places are all
    contests, so one resolution rule (groups by number, a tied group that straddles the last
    slot plays again) serves every tie the sheets mention.
    """

    purpose: Purpose
    method: Method
    seats: tuple[int, ...]
    scores: tuple[int, ...] = ()
    slots: int = 1
    #: Seats already through from earlier contests of the same purpose.
    selected: tuple[int, ...] = ()
    #: How many times this purpose has been contested again after a tie.
    depth: int = 0

    @property
    def seat(self) -> int | None:
        """The seat whose number comes next, or None if everyone has posted."""
        i = len(self.scores)
        return self.seats[i] if i < len(self.seats) else None

    @property
    def posted(self) -> dict[int, int]:
        """Seat -> number posted so far."""
        return dict(zip(self.seats, self.scores))


class Stage(StrEnum):
    """Which part of a match a round is."""

    ROUND = "round"  #: a round of any format but the tournament
    PRELIM = "prelim"  #: one of the tournament's two preliminary rounds (002.29)
    FINAL = "final"  #: the tournament's final (002.29)


@dataclass(frozen=True)
class RoundResult:
    """What a finished round left behind (for transcripts, summaries and statistics)."""

    round_no: int
    starter: int
    seats: tuple[int, ...]
    #: Per seat: the round's turn score, or None for a seat that sat out.
    scores: tuple[int | None, ...]
    winner: int | None
    #: Per seat: sips drunk this round.
    sips: tuple[int, ...]
    #: Chips the winner took (0 when the pot stays on the table).
    pot_won: int
    #: True when every player scored 0 (002.20: nobody can win such a round).
    all_failed: bool
    #: How many tie-break contests the round needed.
    tie_breaks: int
    #: A round of a match, or a preliminary round or the final of the tournament (002.29).
    stage: Stage = Stage.ROUND
    #: A round played among the players tied at the top of the round before (tie_break=round).
    tie_round: bool = False


@dataclass(frozen=True)
class MatchState:
    """A whole match: rounds, tie-breaks, stakes and the match format."""

    rules: Rules
    players: int
    phase: Phase
    contest: Contest | None = None
    turn: TurnState | None = None
    round_no: int = 0
    starter: int = 0
    #: Seats playing the current round (those who anted), in play order.
    round_seats: tuple[int, ...] = ()
    #: Per seat: this round's turn score (None: not posted or sat out).
    round_scores: tuple[int | None, ...] = ()
    totals: tuple[int, ...] = ()
    chips: tuple[int, ...] = ()
    sips: tuple[int, ...] = ()
    wins: tuple[int, ...] = ()
    pot: int = 0
    round_winner: int | None = None
    round_sips: tuple[int, ...] = ()
    round_tie_breaks: int = 0
    #: Chips the round winner took from the pot this round.
    round_pot_won: int = 0
    #: Rounds replayed because everyone failed (all_fail=replay), in the current round.
    replays: int = 0
    hand_out_left: int = 0
    finalists: tuple[int, ...] = ()
    #: tie_break=round: the seats tied at the top of the round just played, who play a round
    #: of their own next (001.17).
    tied: tuple[int, ...] = ()
    #: The current round is such a round among tied players.
    tie_round: bool = False
    winner: int | None = None
    #: Chips the match winner took from the pot when the match ended (pot_to=match, the
    #: tournament, or a pot left on the table).
    match_pot_won: int = 0
    #: Solo practice: the score to reach.
    target: int | None = None
    results: tuple[RoundResult, ...] = ()
    #: Seats that leave the match when the round being played (or, between rounds, the
    #: next one) ends (:class:`~.actions.Leave`).
    leaving: tuple[int, ...] = ()
    #: Seats that have left the match: they play no more rounds and cannot win it.
    departed: tuple[int, ...] = ()

    @property
    def is_over(self) -> bool:
        """The match has ended."""
        return self.phase is Phase.MATCH_OVER

    @property
    def stage(self) -> Stage:
        """The final or a preliminary round in a tournament, else a plain round."""
        if self.rules.format.kind is not FormatKind.TOURNAMENT:
            return Stage.ROUND
        return Stage.FINAL if self.finalists else Stage.PRELIM

    @property
    def staying(self) -> tuple[int, ...]:
        """The seats still in the match (every seat unless some have left)."""
        return tuple(s for s in range(self.players) if s not in self.departed)

    @property
    def posted_scores(self) -> dict[int, int]:
        """Seat -> score posted so far in the contest being played."""
        return self.contest.posted if self.contest else {}

    @property
    def players_after(self) -> int:
        """Players still to play in the current contest after the one at the table."""
        if self.contest is None:
            return 0
        return max(0, len(self.contest.seats) - len(self.contest.scores) - 1)


_T = TypeVar("_T", "TurnState", "MatchState", "Contest")


def evolve(value: _T, **changes: Any) -> _T:
    """A copy of a state value with some fields changed: ``dataclasses.replace`` without its cost.

    The engine makes a new state for every step, and ``dataclasses.replace`` (which re-runs
    ``__init__`` through field introspection) was two thirds of a simulated match's time.
    These values have no ``__post_init__`` to re-run, so copying the field dictionary is
    equivalent; unknown field names are still refused.

    >>> t = TurnState(Rules())
    >>> evolve(t, rolls_used=2).rolls_used, t.rolls_used
    (2, 0)
    >>> evolve(t, colour="red")
    Traceback (most recent call last):
    ...
    TypeError: TurnState has no field colour
    """
    # One copy of the field dictionary, set in place of the new value's own (a match state has
    # some thirty fields: copying them as a block beats filling an empty dictionary).  Every
    # value holds each of its fields in that dictionary (``__init__`` sets them all), so a
    # name that is no field shows as a key more, without a look at the field names.
    fields_now = value.__dict__.copy()
    size = len(fields_now)
    fields_now.update(changes)
    if len(fields_now) != size:
        cls = type(value)
        names = {f.name for f in fields(cls)}
        raise TypeError(f"{cls.__name__} has no field {sorted(set(changes) - names)[0]}")
    new = _new(type(value))
    _set(new, "__dict__", fields_now)
    return new


_new = object.__new__
_set = object.__setattr__
