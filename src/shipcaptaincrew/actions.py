"""Actions: the player's choices and the dice that chance supplies.

Every action is a small frozen value with a text form that :func:`parse_action` reads back
(python-chess's ``Move.uci()``/``Move.from_uci`` in spirit), so event logs and network
messages carry plain strings.

>>> [str(a) for a in (Stand(), RerollCargo(), RerollCargo(keep=5), Take((6, 1)), HandOut(2))]
['stand', 'reroll', 'reroll:keep5', 'take:61', 'sip:2']
>>> [str(a) for a in (HandOutSplit(((2, 1), (1, 2))), StopHandOut(), NextRound(), StopMatch())]
['sip:1x2,2x1', 'sip:stop', 'next_round', 'stop']
>>> parse_action("sip:2x1,1x2") == HandOutSplit(((1, 2), (2, 1)))
True
>>> parse_action("reroll:keep5") == RerollCargo(keep=5)
True
>>> parse_action("leave:2"), parse_action("stay:2")
(Leave(seat=2), Stay(seat=2))
>>> parse_action("roll:65331")
Roll(faces=(6, 5, 3, 3, 1))
"""

from __future__ import annotations

from dataclasses import dataclass

from .dice import parse_faces
from .errors import InvalidActionError, InvalidDiceError
from .messages import N_

__all__ = [
    "Action",
    "HandOut",
    "HandOutSplit",
    "InvalidActionError",
    "Leave",
    "NextRound",
    "RerollCargo",
    "Roll",
    "Stand",
    "Stay",
    "StopHandOut",
    "StopMatch",
    "Take",
    "parse_action",
]


@dataclass(frozen=True, order=True)
class Roll:
    """Dice that chance (or a physical die typed in) supplies; faces in the order rolled."""

    faces: tuple[int, ...]

    def __str__(self) -> str:
        return "roll:" + "".join(map(str, self.faces))

    @property
    def sorted_faces(self) -> tuple[int, ...]:
        """The faces as a multiset (sorted), which is all the rules look at."""
        return tuple(sorted(self.faces))


@dataclass(frozen=True, order=True)
class Take:
    """Set aside these faces for the next missing roles, in role order (wild captain choice).

    ``Take((6, 1))`` with nothing held: the 6 is the ship and the wild 1 the captain.
    """

    faces: tuple[int, ...]

    def __str__(self) -> str:
        return "take:" + "".join(map(str, self.faces))


@dataclass(frozen=True, order=True)
class Stand:
    """Keep the cargo as it is; the turn ends with its score."""

    def __str__(self) -> str:
        return "stand"


@dataclass(frozen=True, order=True)
class RerollCargo:
    """Reroll the cargo; under half cargo ``keep`` names the face of the die kept."""

    keep: int | None = None

    def __str__(self) -> str:
        return "reroll" if self.keep is None else f"reroll:keep{self.keep}"


@dataclass(frozen=True, order=True)
class HandOut:
    """The captain (round winner) hands one sip to the player in seat ``to`` (0-based)."""

    to: int

    def __str__(self) -> str:
        return f"sip:{self.to}"


@dataclass(frozen=True, order=True)
class HandOutSplit:
    """The captain hands out several sips in one step: ``shares`` are (seat, sips) pairs.

    Written ``sip:SEATxSIPS,...`` (``sip:1x2,2x1``: two sips to seat 1, one to seat 2), with
    the seats in order, so "Bo 2, Cy 1" is one action.  The engine accepts any split whose
    seats are other players of the round, each named once, and whose sips fit in what is left
    to hand out; :func:`~shipcaptaincrew.engine.legal_actions` lists only the single sips
    (and :class:`StopHandOut`), so the list stays small.
    """

    shares: tuple[tuple[int, int], ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "shares", tuple(sorted(self.shares)))

    @property
    def total(self) -> int:
        """The sips handed out by this step."""
        return sum(n for _, n in self.shares)

    def __str__(self) -> str:
        return "sip:" + ",".join(f"{seat}x{n}" for seat, n in self.shares)


@dataclass(frozen=True, order=True)
class StopHandOut:
    """The captain hands out no more sips (``hand_out=up_to``, 000.24)."""

    def __str__(self) -> str:
        return "sip:stop"


@dataclass(frozen=True, order=True)
class NextRound:
    """Between the rounds of a session: play another round (``format=session``)."""

    def __str__(self) -> str:
        return "next_round"


@dataclass(frozen=True, order=True)
class StopMatch:
    """Between the rounds of a session: stop; the totals decide the match (``format=session``)."""

    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True, order=True)
class Leave:
    """The player in seat ``seat`` leaves the match once the round being played ends.

    Not a choice of the player to act (no :func:`~shipcaptaincrew.engine.legal_actions`
    lists it): the table makes it for someone who has gone, at any point of a round.  From
    the next round on the seat plays no more and cannot win the match
    (:func:`~shipcaptaincrew.match.leave`).
    """

    seat: int

    def __str__(self) -> str:
        return f"leave:{self.seat}"


@dataclass(frozen=True, order=True)
class Stay:
    """The player in seat ``seat``, whom the table asked to leave after this round, stays.

    The table's step too, the undoing of a :class:`Leave` before it takes effect: the table
    had asked for someone who seemed gone, and they came back before the round was over
    (:func:`~shipcaptaincrew.match.stay`).  Not in the sheets, as :class:`Leave`.
    """

    seat: int

    def __str__(self) -> str:
        return f"stay:{self.seat}"


Action = (
    Roll
    | Take
    | Stand
    | RerollCargo
    | HandOut
    | HandOutSplit
    | StopHandOut
    | NextRound
    | StopMatch
    | Leave
    | Stay
)


def parse_action(text: str) -> Action:
    """Read an action from its text form; raises :class:`InvalidActionError` if it is none.

    >>> parse_action("jump")
    Traceback (most recent call last):
    ...
    shipcaptaincrew.errors.InvalidActionError: 'jump' is not an action (stand, reroll, reroll:keepN, take:FACES, sip:SEAT, sip:SEATxN,..., sip:stop, next_round, stop, roll:FACES)
    """
    t = text.strip().lower()
    try:
        if t == "stand":
            return Stand()
        if t == "next_round":
            return NextRound()
        if t == "stop":
            return StopMatch()
        if t == "sip:stop":
            return StopHandOut()
        if t.startswith("sip:") and "x" in t:
            return _split(t[4:])
        if t == "reroll":
            return RerollCargo()
        if t.startswith("reroll:keep"):
            return RerollCargo(keep=_face(t[len("reroll:keep") :]))
        if t.startswith("take:"):
            faces = parse_faces(t[5:])
            if not faces:
                raise InvalidActionError(N_("take: needs the faces to set aside"))
            return Take(faces)
        if t.startswith("roll:"):
            faces = parse_faces(t[5:])
            if not faces:
                raise InvalidActionError(N_("roll: needs faces"))
            return Roll(faces)
        if t.startswith("sip:"):
            seat = int(t[4:])
            if seat < 0:
                raise ValueError
            return HandOut(seat)
        if t.startswith("leave:"):
            seat = int(t[6:])
            if seat < 0:
                raise ValueError
            return Leave(seat)
        if t.startswith("stay:"):
            seat = int(t[5:])
            if seat < 0:
                raise ValueError
            return Stay(seat)
    except InvalidDiceError as e:
        raise InvalidActionError(N_("'{text}': {problem}"), text=text, problem=str(e)) from None
    except ValueError as e:
        if isinstance(e, InvalidActionError):
            raise
        raise InvalidActionError(N_("'{text}' has a malformed number"), text=text) from None
    raise InvalidActionError(
        N_(
            "'{text}' is not an action (stand, reroll, reroll:keepN, take:FACES, sip:SEAT, "
            "sip:SEATxN,..., sip:stop, next_round, stop, roll:FACES)"
        ),
        text=text,
    )


def _face(text: str) -> int:
    faces = parse_faces(text)
    if len(faces) != 1:
        raise InvalidActionError(N_("keep needs exactly one face, got '{text}'"), text=text)
    return faces[0]


def _split(text: str) -> HandOutSplit:
    shares: list[tuple[int, int]] = []
    for part in text.split(","):
        seat, sep, n = part.strip().partition("x")
        if not sep:
            raise ValueError(part)
        share = (int(seat), int(n))
        if share[0] < 0 or share[1] < 1:
            raise ValueError(part)
        shares.append(share)
    if len({seat for seat, _ in shares}) < len(shares):
        raise InvalidActionError(N_("'{text}' names a seat twice"), text="sip:" + text)
    return HandOutSplit(tuple(shares))
