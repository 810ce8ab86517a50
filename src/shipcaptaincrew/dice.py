"""Dice faces, rolls as sorted tuples, and exact roll distributions.

The order of dice in a roll never matters to the rules, so the engine works with *sorted*
tuples (multisets).  The chance of a multiset of ``n`` dice is its multinomial count over
``6**n``; exact probabilities are :class:`fractions.Fraction` so that solvers can be exact.

>>> len(roll_distribution(5))
252
>>> sum(p for _, p in roll_distribution(3)) == 1
True
>>> dict(roll_distribution(2))[(1, 2)]
Fraction(1, 18)
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

from .errors import InvalidDiceError
from .facts import FACES
from .messages import N_

__all__ = [
    "FACES",
    "InvalidDiceError",
    "check_faces",
    "parse_faces",
    "remove_faces",
    "roll_distribution",
]


def check_faces(faces: tuple[int, ...] | list[int], count: int | None = None) -> tuple[int, ...]:
    """Validate faces (and their count) and return them as a sorted tuple.

    >>> check_faces([6, 5, 3, 3, 1], 5)
    (1, 3, 3, 5, 6)
    >>> check_faces([7, 1], 2)
    Traceback (most recent call last):
    ...
    shipcaptaincrew.errors.InvalidDiceError: face 7 is not a die face (1..6)
    >>> check_faces([1, 2], 3)
    Traceback (most recent call last):
    ...
    shipcaptaincrew.errors.InvalidDiceError: this roll needs 3 dice, got 2
    """
    for f in faces:
        # ``type(f) is int`` first: it is every roll's answer, and bools (an int subclass) fail it.
        if type(f) is not int and (isinstance(f, bool) or not isinstance(f, int)):
            raise InvalidDiceError(N_("face {face} is not a die face (1..6)"), face=repr(f))
        if not 1 <= f <= 6:
            raise InvalidDiceError(N_("face {face} is not a die face (1..6)"), face=repr(f))
    if count is not None and len(faces) != count:
        if count == 1:
            raise InvalidDiceError(N_("this roll needs 1 die, got {got}"), got=len(faces))
        raise InvalidDiceError(N_("this roll needs {n} dice, got {got}"), n=count, got=len(faces))
    return tuple(sorted(faces))


def parse_faces(text: str) -> tuple[int, ...]:
    """Read faces typed as digits, with or without separators (``65331``, ``6 5 3``, ``6-5``).

    >>> parse_faces("6-5-3-2-2")
    (6, 5, 3, 2, 2)
    >>> parse_faces("6x")
    Traceback (most recent call last):
    ...
    shipcaptaincrew.errors.InvalidDiceError: 'x' is not a die face (1..6)
    """
    out: list[int] = []
    for ch in text:
        if ch in " ,-/;\t":
            continue
        if ch in "123456":
            out.append(int(ch))
        else:
            raise InvalidDiceError(N_("'{char}' is not a die face (1..6)"), char=ch)
    return tuple(out)


def remove_faces(faces: tuple[int, ...], taken: tuple[int, ...]) -> tuple[int, ...]:
    """The sorted multiset ``faces`` minus ``taken`` (each taken face must be present).

    >>> remove_faces((1, 3, 3, 5, 6), (6, 5))
    (1, 3, 3)
    """
    if not taken:
        return faces
    rest = list(faces)
    for f in taken:
        rest.remove(f)
    return tuple(sorted(rest))


@cache
def roll_distribution(n: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every sorted outcome of rolling ``n`` dice with its exact probability.

    Outcomes come in lexicographic order; the probabilities sum to exactly 1.
    """
    if not 0 <= n <= 8:
        raise InvalidDiceError(N_("cannot roll {n} dice at once (0..8)"), n=n)
    total = 6**n
    out = []
    for combo in combinations_with_replacement(FACES, n):
        ways = factorial(n)
        for c in Counter(combo).values():
            ways //= factorial(c)
        out.append((combo, Fraction(ways, total)))
    return tuple(out)
