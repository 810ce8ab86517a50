"""Stand-ins that tell the step tables what of a state the engine reads.

A step of a match is played once with totals that can be added to but not compared
(:class:`Offset`) and finished rounds that can be appended to but not counted
(:class:`Count`): if the engine plays the step through, it never read them, and the step is
the same for every total and every round number; if it reads one, the stand-in raises
(:class:`TotalsRead`, :class:`CountRead`) and :mod:`.steps` resolves the step per order of
the totals or per count.  Asked of the engine rather than assumed, so a rule that starts to
read the totals somewhere new is met, not missed.
"""

from __future__ import annotations

from typing import NoReturn

from ..state import RoundResult

__all__ = ["Count", "CountRead", "Offset", "TotalsRead", "appended"]


class TotalsRead(Exception):
    """The engine compared a total: the step depends on what the totals are."""


class Offset:
    """A total the engine may add to but not compare: playing a step with these tells
    whether the step reads the totals (it raises :class:`TotalsRead` if it does)."""

    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value

    def __add__(self, other: int) -> Offset:
        return Offset(self.value + other)

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


class CountRead(Exception):
    """The engine counted the finished rounds: the step depends on the round number."""


class Count:
    """The finished rounds of a node, their number unknown: the engine may append to them
    (:attr:`tail` keeps what it appended) but not count or read them (it raises
    :class:`CountRead` if it does)."""

    __slots__ = ("tail",)

    def __init__(self, tail: tuple[RoundResult, ...] = ()) -> None:
        self.tail = tail

    def __add__(self, other: tuple[RoundResult, ...]) -> Count:
        return Count(self.tail + tuple(other))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Count) and self.tail == other.tail

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
    led to, a :class:`Count` or the real tuple), or None."""
    if isinstance(after, Count):
        return after.tail[-1] if after.tail else None
    assert isinstance(before, tuple) and isinstance(after, tuple)
    last: RoundResult | None = after[-1] if len(after) > len(before) else None
    return last
