"""Random numbers keyed by what they are for, so that runs can share them (common random numbers).

A number here is a pure function of ``(seed, match, seat, draw)``: the ``draw``-th uniform a
seat uses in a match (its roll-off die, then its turns, one number each).  Nothing about the
bots, the rule set or how the matches are split into chunks enters the key, so two runs with
the same seed that differ only in a bot feed every seat the same numbers, and a turn that is
sampled by inverse transform from the same score distribution comes out the same.  The hash
is SplitMix64's finaliser applied along the key (vectorised in NumPy's wrapping ``uint64``).

>>> import numpy as np
>>> a = uniforms(7, np.arange(3), np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64))
>>> bool(((0 <= a) & (a < 1)).all()), len(set(a.tolist()))
(True, 3)
>>> float(uniforms(7, np.array([2]), np.array([0]), np.array([0]))[0]) == float(a[2])
True
"""

from __future__ import annotations

import numpy as np

__all__ = ["uniforms"]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_MASK = (1 << 64) - 1


def _mix(x: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser: a bijection of 64-bit words that spreads every input bit."""
    x = x + _GOLDEN
    x = (x ^ (x >> np.uint64(30))) * _M1
    x = (x ^ (x >> np.uint64(27))) * _M2
    result: np.ndarray = x ^ (x >> np.uint64(31))
    return result


def uniforms(seed: int, match: np.ndarray, seat: np.ndarray, draw: np.ndarray) -> np.ndarray:
    """Uniform floats in [0, 1), one per element of the (broadcast) key arrays."""
    with np.errstate(over="ignore"):
        h = _mix(np.full(np.shape(match), np.uint64(seed & _MASK), dtype=np.uint64))
        h = _mix(h ^ np.asarray(match, dtype=np.uint64))
        h = _mix(
            h ^ ((np.asarray(seat, dtype=np.uint64) << np.uint64(40)) | draw.astype(np.uint64))
        )
    out: np.ndarray = (h >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))
    return out
