"""Stand-ins that tell the step tables what of a state the engine reads.

A step of a match is played once with totals that can be added to but not compared
(:class:`TotalsProbe`) and finished rounds that can be appended to but not counted
(:class:`CountProbe`): if the engine plays the step through, it never read them, and the step is
the same for every total and every round number; if it reads one, the stand-in raises
(:class:`TotalsRead`, :class:`CountRead`) and :mod:`.steps` resolves the step per order of
the totals or per count.  Asked of the engine rather than assumed, so a rule that starts to
read the totals somewhere new is met, not missed.

The round's own scores are carried the same way: a node holds only which seats have posted
(:class:`PostedMark`, or :class:`DecidedMark` once the round is decided), the values themselves
travel with each match, and a score is posted as a :class:`PostedScore` number.  The engine may
add them to the totals (the :class:`TotalsProbe` then says which seats' scores it added) and keep
them in the round's record.  Asking whether one is 0 raises :class:`ScoresRead`, and the step
is resolved once per pattern of scores and zeros, played with :class:`CarriedScore` scores (known
to be above 0) and zeros; comparing two of them -- as "the lowest score drinks" does -- raises
again, and the step tables keep the exact scores for that rule set instead.
"""

from __future__ import annotations

from typing import NoReturn

from ...state import RoundResult

__all__ = [
    "CARRIED_SCORES",
    "POSTED_MARKS",
    "DECIDED_MARK",
    "CarriedScore",
    "CountProbe",
    "CountRead",
    "TotalsProbe",
    "PostedScore",
    "PostedMark",
    "ScoresRead",
    "TotalsRead",
    "DecidedMark",
    "appended",
]


class TotalsRead(Exception):
    """The engine compared a total: the step depends on what the totals are."""


class TotalsProbe:
    """A total the engine may add to but not compare: playing a step with these tells
    whether the step reads the totals (it raises :class:`TotalsRead` if it does).  What it
    adds is :attr:`value` plus the round's scores of the seats in :attr:`carried`."""

    __slots__ = ("carried", "value")

    def __init__(self, value: int, carried: tuple[int, ...] = ()) -> None:
        self.value = value
        self.carried = carried

    def __add__(self, other: object) -> TotalsProbe:
        if isinstance(
            other, PostedScore | CarriedScore | PostedMark
        ):  # not DecidedMark: that is no score to add
            return TotalsProbe(self.value, self.carried + (other.seat,))
        if isinstance(other, int) and not isinstance(other, bool):
            return TotalsProbe(self.value + other, self.carried)
        raise ScoresRead

    __radd__ = __add__

    def __eq__(self, other: object) -> NoReturn:
        raise TotalsRead

    def __ne__(self, other: object) -> NoReturn:
        raise TotalsRead

    def __lt__(self, other: object) -> NoReturn:
        raise TotalsRead

    def __le__(self, other: object) -> NoReturn:
        raise TotalsRead

    def __gt__(self, other: object) -> NoReturn:
        raise TotalsRead

    def __ge__(self, other: object) -> NoReturn:
        raise TotalsRead

    def __hash__(self) -> NoReturn:
        raise TotalsRead

    def __bool__(self) -> NoReturn:
        raise TotalsRead


class ScoresRead(Exception):
    """The engine read a round's score beyond adding it up or testing it against 0."""


class PostedScore(int):
    """A turn's score as the step tables post it: an int to the engine, whose value decides
    the contest, and that a total it is added to remembers (:class:`TotalsProbe`), so that every
    match adds its own score (its :attr:`seat`'s carried value) whatever value stood in for
    it here (a score that can no longer win the round stands for every other such score)."""

    seat: int

    def __new__(cls, value: int, seat: int) -> PostedScore:
        out = super().__new__(cls, value)
        out.seat = seat
        return out


class _StandIn:
    """A score the engine may keep and add to a total (through :class:`TotalsProbe`) but not read:
    comparing, counting or testing it raises :class:`ScoresRead`.  Two of the same kind and
    seat are equal (the nodes compare them); :attr:`seat` is whose score it is."""

    __slots__ = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def _read(self, *_: object) -> NoReturn:
        raise ScoresRead

    def __bool__(self) -> bool:
        self._read()

    __lt__ = __le__ = __gt__ = __ge__ = __add__ = __radd__ = __int__ = __index__ = _read

    def __eq__(self, other: object) -> bool:
        if type(other) is type(self):
            return other.seat == self.seat
        return self._known(other)

    def _known(self, other: object) -> bool:
        """Equality with anything but its own kind: unknown, unless a kind says otherwise."""
        self._read()

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.seat))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.seat})"


class CarriedScore(_StandIn):
    """A seat's score of the round that is above 0, its value carried by each match: the
    engine may add it to a total, test it (it is true, and not 0) and keep it; any other read
    raises :class:`ScoresRead`.  One per seat (:data:`CARRIED_SCORES`)."""

    __slots__ = ()

    def __bool__(self) -> bool:
        return True

    def _known(self, other: object) -> bool:
        if other is None or (isinstance(other, int) and other == 0):
            return False  # a carried score is above 0
        self._read()


class PostedMark(_StandIn):
    """A seat's score of the round, posted, its value carried by each match: the engine may
    add it to a total and keep it; asking anything of it -- whether it is 0 included --
    raises :class:`ScoresRead`.  One per seat (:data:`POSTED_MARKS`)."""

    __slots__ = ()


class DecidedMark(_StandIn):
    """A score of a round the format has decided already: nothing may read it, nor add it up
    (any use raises :class:`ScoresRead`).  A tie for the match played after the last round
    holds these in place of that round's scores.  One for every seat (:data:`DECIDED_MARK`)."""

    __slots__ = ()


#: The stand-in of each seat's score above 0, and of its score whatever it is (nodes share them).
CARRIED_SCORES = tuple(CarriedScore(s) for s in range(16))
POSTED_MARKS = tuple(PostedMark(s) for s in range(16))
#: The stand-in of a decided round's score.
DECIDED_MARK = DecidedMark(-1)


class CountRead(Exception):
    """The engine counted the finished rounds: the step depends on the round number."""


class CountProbe:
    """The finished rounds of a node, their number unknown: the engine may append to them
    (:attr:`tail` keeps what it appended) but not count or read them (it raises
    :class:`CountRead` if it does)."""

    __slots__ = ("tail",)

    def __init__(self, tail: tuple[RoundResult, ...] = ()) -> None:
        self.tail = tail

    def __add__(self, other: tuple[RoundResult, ...]) -> CountProbe:
        return CountProbe(self.tail + tuple(other))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CountProbe) and self.tail == other.tail

    def __hash__(self) -> int:
        return hash(self.tail)

    def __iter__(self) -> NoReturn:
        raise CountRead

    def __len__(self) -> NoReturn:
        raise CountRead

    def __getitem__(self, index: object) -> NoReturn:
        raise CountRead

    def __bool__(self) -> NoReturn:
        raise CountRead

    def __reversed__(self) -> NoReturn:
        raise CountRead


def appended(before: object, after: object) -> RoundResult | None:
    """The round a step finished (``before``/``after``: the results it was played from and
    led to, a :class:`CountProbe` or the real tuple), or None."""
    if isinstance(after, CountProbe):
        return after.tail[-1] if after.tail else None
    assert isinstance(before, tuple) and isinstance(after, tuple)
    last: RoundResult | None = after[-1] if len(after) > len(before) else None
    return last
