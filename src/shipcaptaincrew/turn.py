"""The rules of one turn: setting aside ship, captain and crew, and the cargo.

This is the one place the turn's rules live.  Sheets are cited by number (000 German, 001
Norwegian, 002 English, 003 the English translation of 000; see ``docs/sources.md``).

The worked example of 000/003: ``6 5 3 3 1`` keeps ship and captain, then ``4 2 6`` completes
the crew with cargo 2 + 6 = 8 and one roll left to gamble.

>>> from shipcaptaincrew.rules import Rules
>>> from shipcaptaincrew.actions import Roll
>>> t = new_turn(Rules())
>>> t = apply(t, Roll((6, 5, 3, 3, 1)))
>>> t.held, t.phase.value, dice_to_roll(t)
((6, 5), 'roll', 3)
>>> t = apply(t, Roll((4, 2, 6)))
>>> t.held, t.cargo, t.score, t.rolls_left, t.phase.value
((6, 5, 4), (2, 6), 8, 1, 'decide')
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from .actions import Action, RerollCargo, Roll, Stand, Take
from .dice import check_faces, remove_faces, roll_distribution
from .errors import IllegalActionError
from .facts import ROLES
from .messages import N_
from .rules import Rules
from .state import TurnPhase, TurnState, evolve

__all__ = [
    "IllegalActionError",
    "apply",
    "apply_roll",
    "assignments",
    "can_reroll_cargo",
    "chance_outcomes",
    "dice_to_roll",
    "legal_actions",
    "new_turn",
]

_ROLE_COUNT = len(ROLES)  # read at every step of every turn
# The phases, read as plain names: ``TurnPhase.ROLL`` looks its member up through the enum's
# class each time (ten times the cost of a name), and a turn asks a dozen times.
_ROLL, _ASSIGN, _DECIDING, _DONE = (
    TurnPhase.ROLL,
    TurnPhase.ASSIGN,
    TurnPhase.DECIDE,
    TurnPhase.DONE,
)

#: A roll's ways to set dice aside, each with the dice it leaves (see :func:`assignments`).
_Ways = tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
#: A roll as first seen: its faces sorted, its ways (None once the crew is complete), itself.
_Seen = tuple[tuple[int, ...], _Ways | None, tuple[int, ...]]


@lru_cache(maxsize=256)
def new_turn(rules: Rules) -> TurnState:
    """A fresh turn: the rule set's dice and rolls, nothing held.

    States are frozen values, so every turn under one rule set starts from the same one.
    """
    return TurnState(rules)


def dice_to_roll(turn: TurnState) -> int:
    """How many dice the next roll uses (0 when the turn is not waiting for dice).

    Held dice are never rolled again (002.56, 002.57); a cargo reroll rolls every cargo die, or
    all but one under half cargo (000.25).
    """
    if turn.phase is not _ROLL:
        return 0
    held = len(turn.held)
    if held == _ROLE_COUNT:
        return turn.rules.dice - _ROLE_COUNT - (turn.keep is not None)
    return turn.rules.dice - held


def can_reroll_cargo(turn: TurnState) -> bool:
    """Rolls remain and the cargo reroll limit (001 house rule) is not reached."""
    return _rerolls_left(turn.rules, turn.rolls_used, turn.cargo_rerolls)


def _rerolls_left(rules: Rules, rolls_used: int, cargo_rerolls: int) -> bool:
    limit = rules.cargo_rerolls
    return rolls_used < rules.rolls and (limit is None or cargo_rerolls < limit)


@lru_cache(maxsize=4096)
def assignments(rules: Rules, held: int, faces: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every distinct way to set aside dice from a roll (``faces`` sorted).

    Setting aside is compulsory and strictly in order (002.9; several at once, 000.9): the
    roles are filled as far as the roll allows.  Only under wild captain (002) can there be more than one way, because a
    wild face may fill a missing role in place of the real face; every way that fills the most
    roles is offered.

    >>> assignments(Rules(), 0, (1, 3, 4, 5, 6))
    ((6, 5, 4),)
    >>> assignments(Rules(), 0, (1, 3, 4, 5, 5))
    ((),)
    >>> assignments(Rules(wild_captain=True), 2, (1, 2, 4))
    ((1,), (4,))
    """
    need = rules.required_faces[held:]
    wild = rules.wild_face if rules.wild_captain else None
    results: set[tuple[int, ...]] = set()

    def fill(i: int, rest: tuple[int, ...], taken: tuple[int, ...]) -> None:
        options = []
        if i < len(need) and need[i] in rest:
            options.append(need[i])
        if i < len(need) and wild is not None and wild in rest:
            options.append(wild)
        if not options:
            results.add(taken)
            return
        for face in options:
            fill(i + 1, remove_faces(rest, (face,)), taken + (face,))

    fill(0, faces, ())
    most = max(len(t) for t in results)
    return tuple(sorted(t for t in results if len(t) == most))


def legal_actions(turn: TurnState) -> tuple[Action, ...]:
    """The player's choices: a wild assignment, or stand / reroll the cargo.

    Empty while dice are to be rolled (a chance node) and once the turn is done.
    """
    if turn.phase is _ASSIGN:
        return tuple(Take(t) for t in assignments(turn.rules, len(turn.held), turn.pending))
    if turn.phase is _DECIDING:
        if turn.rules.half_cargo:
            return _DECIDE + tuple(RerollCargo(keep=f) for f in sorted(set(turn.cargo)))
        return _DECIDE
    return ()


#: Stand or reroll the whole cargo: the same two values at every decision (actions are frozen).
_DECIDE: tuple[Action, ...] = (Stand(), RerollCargo())


@lru_cache(maxsize=64)
def _outcomes(n: int) -> tuple[tuple[Roll, Fraction], ...]:
    return tuple((Roll(faces), p) for faces, p in roll_distribution(n))


def chance_outcomes(turn: TurnState) -> tuple[tuple[Roll, Fraction], ...]:
    """Exact (roll, probability) pairs for the next roll; empty if no dice are due."""
    n = dice_to_roll(turn)
    return _outcomes(n) if n else ()


def apply(turn: TurnState, action: Action) -> TurnState:
    """The turn after a roll or a choice; illegal ones raise a clear error.

    >>> t = apply(new_turn(Rules()), Roll((6, 5, 4, 3, 2)))   # 002: all three at once
    >>> t.held, t.cargo
    ((6, 5, 4), (2, 3))
    """
    if isinstance(action, Roll):
        return apply_roll(turn, action)
    if turn.phase is _DECIDING:  # the choice of nearly every turn, first
        if isinstance(action, Stand):
            return evolve(turn, phase=_DONE)
        if isinstance(action, RerollCargo):
            if action.keep is not None:
                if not turn.rules.half_cargo:
                    raise IllegalActionError(N_("keeping one cargo die needs half_cargo (000.25)"))
                if action.keep not in turn.cargo:
                    raise IllegalActionError(
                        N_("cannot keep a {face}: the cargo is {cargo}"),
                        face=action.keep,
                        cargo=str(turn.cargo),
                    )
            return evolve(turn, phase=_ROLL, keep=action.keep)
    if turn.phase is _ROLL:
        raise IllegalActionError(
            N_("{action} is not allowed now: the dice must be rolled"), action=str(action)
        )
    if turn.phase is _DONE:
        raise IllegalActionError(
            N_("{action} is not allowed: the turn is over"), action=str(action)
        )
    if isinstance(action, Take):
        if turn.phase is not _ASSIGN:
            raise IllegalActionError(
                N_("{action}: there is no assignment to choose now"), action=str(action)
            )
        options = assignments(turn.rules, len(turn.held), turn.pending)
        if action.faces not in options:
            raise IllegalActionError(
                N_("{action} is not a way to set aside {faces}: {choices}"),
                action=str(action),
                faces=str(turn.pending),
                choices=", ".join(str(Take(o)) for o in options),
            )
        rest = remove_faces(turn.pending, action.faces)
        return _take(turn, action.faces, rest, turn.rolls_used, turn.last_roll)
    if turn.phase is not _DECIDING:
        raise IllegalActionError(
            N_("{action} is not allowed now: choose which dice to set aside"), action=str(action)
        )
    raise IllegalActionError(N_("{action} is not a turn action"), action=str(action))


def apply_roll(turn: TurnState, roll: Roll) -> TurnState:
    """:func:`apply` for a roll (what :func:`~.engine.apply` calls at once for one).

    This runs at every roll of every turn, so it says :func:`dice_to_roll`,
    :func:`~.dice.check_faces` and the ways to set dice aside once more, looked up per rule
    set and roll as it first came, and makes the one new state whole.
    """
    phase = turn.phase
    if phase is not _ROLL:
        if phase is _DONE:
            raise IllegalActionError(N_("no dice are to be rolled now: the turn is over"))
        raise IllegalActionError(N_("no dice are to be rolled now ({phase})"), phase=phase.value)
    rules, held, keep, raw = turn.rules, turn.held, turn.keep, roll.faces
    complete = len(held) == _ROLE_COUNT
    count = rules.dice - len(held) - (complete and keep is not None)
    table = _TABLES.get(id(rules))
    if table is None or table[0] is not rules:
        table = _table(rules)
    seen = table[1][len(held)]
    hit = None
    # Only a tuple as long as the dice due is looked up (other lengths are another roll's),
    # and a hit counts at once only for the very tuple checked when it was kept (what the
    # engine's drawn rolls hand out again): an equal one may hold a ``True`` or ``1.0``,
    # equal to 1 as a key, so its faces are looked at first.
    if type(raw) is tuple and len(raw) == count:
        try:
            hit = seen.get(raw)
        except TypeError:  # an unhashable face: check_faces says what is wrong
            hit = None
        if hit is not None and hit[2] is not raw:
            for f in raw:
                if type(f) is not int:
                    hit = None
                    break
    if hit is None:
        faces = check_faces(raw, count)  # refuses wrong dice, with the reason
        hit = (faces, None if complete else _ways(rules, len(held), faces), raw)
        if type(raw) is tuple and all(type(f) is int for f in raw):
            seen.setdefault(raw, hit)
    faces, ways, _ = hit
    rolls_used = turn.rolls_used + 1
    if ways is None:
        # A cargo reroll replaces the cargo, lower or not (000.14, 001.13, 003.14).
        cargo = faces if keep is None else tuple(sorted(faces + (keep,)))
        cargo_rerolls = turn.cargo_rerolls + 1
        again = _rerolls_left(rules, rolls_used, cargo_rerolls)
        return _state(
            rules,
            held,
            cargo,
            rolls_used,
            cargo_rerolls,
            _DECIDING if again else _DONE,
            None,
            turn.pending,
            turn.bonus,
            raw,
        )
    if len(ways) > 1:
        return _state(
            rules,
            held,
            turn.cargo,
            rolls_used,
            turn.cargo_rerolls,
            _ASSIGN,
            keep,
            faces,
            turn.bonus,
            raw,
        )
    taken, rest = ways[0]
    return _take(turn, taken, rest, rolls_used, raw)


#: id of a rule set -> (the rule set, per count of dice held: each roll seen, as it came ->
#: its faces sorted, before the crew is complete its ways to set dice aside, and the tuple
#: that was checked).  A table
#: keeps its rule set alive, so an id is never another's while its table is here; the tables
#: are dropped together past :data:`_MOST_TABLES` rule sets (a server sees a few; a sweep many).
_TABLES: dict[
    int,
    tuple[
        Rules,
        tuple[dict[tuple[int, ...], _Seen], ...],
    ],
] = {}
_MOST_TABLES = 64


def _table(rules: Rules) -> tuple[Rules, tuple[dict[tuple[int, ...], _Seen], ...]]:
    if len(_TABLES) >= _MOST_TABLES:
        _TABLES.clear()
    table = _TABLES[id(rules)] = (rules, tuple({} for _ in range(_ROLE_COUNT + 1)))
    return table


_new = object.__new__


def _state(
    rules: Rules,
    held: tuple[int, ...],
    cargo: tuple[int, ...],
    rolls_used: int,
    cargo_rerolls: int,
    phase: TurnPhase,
    keep: int | None,
    pending: tuple[int, ...],
    bonus: int,
    last_roll: tuple[int, ...],
) -> TurnState:
    """A turn state from values this module has already checked, every field given, without
    the dataclass's ``__init__`` (a frozen one sets each field through ``object.__setattr__``):
    the fields are written into the new value's own dictionary, which shares its keys with
    every other turn state's (cheaper to make than a dictionary of its own set in its place)."""
    new = _new(TurnState)
    fields_now = new.__dict__
    fields_now["rules"] = rules
    fields_now["held"] = held
    fields_now["cargo"] = cargo
    fields_now["rolls_used"] = rolls_used
    fields_now["cargo_rerolls"] = cargo_rerolls
    fields_now["phase"] = phase
    fields_now["keep"] = keep
    fields_now["pending"] = pending
    fields_now["bonus"] = bonus
    fields_now["last_roll"] = last_roll
    return new


def _ways(rules: Rules, held: int, faces: tuple[int, ...]) -> _Ways:
    """:func:`assignments` with the dice each leaves (what every roll asks: worked out once)."""
    return tuple((t, remove_faces(faces, t)) for t in assignments(rules, held, faces))


def _take(
    turn: TurnState,
    taken: tuple[int, ...],
    rest: tuple[int, ...],
    rolls_used: int,
    last_roll: tuple[int, ...],
) -> TurnState:
    """Set ``taken`` aside (``rest``: the roll's other dice), as one new state."""
    held = turn.held + taken
    rules = turn.rules
    if len(held) == _ROLE_COUNT:
        # The other dice of the completing roll are the cargo (all sheets).
        bonus = rules.same_roll_bonus if not turn.held and len(taken) == _ROLE_COUNT else 0
        again = _rerolls_left(rules, rolls_used, turn.cargo_rerolls)
        return _state(
            rules,
            held,
            rest,
            rolls_used,
            turn.cargo_rerolls,
            _DECIDING if again else _DONE,
            turn.keep,
            (),
            bonus,
            last_roll,
        )
    # No full crew once the rolls are used up scores 0 (all sheets: after the third).
    phase = _DONE if rolls_used >= rules.rolls else _ROLL
    return _state(
        rules,
        held,
        turn.cargo,
        rolls_used,
        turn.cargo_rerolls,
        phase,
        turn.keep,
        (),
        turn.bonus,
        last_roll,
    )
