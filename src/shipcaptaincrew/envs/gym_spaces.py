"""The Gymnasium environment's spaces: the observation (a ``Dict``, or one flat ``Box``) and an
action space whose ``sample()`` draws among the legal ids."""

from __future__ import annotations

import weakref
from typing import Any, Protocol

import numpy as np
from gymnasium import spaces

from ..rules import Rules
from .encoding import NUM_ACTIONS, observation_bounds
from .views import View, view_bounds, view_fields


class _Stops(Protocol):
    """What the action space reads of its environment (the Gymnasium environment)."""

    @property
    def has_stop(self) -> bool: ...

    def action_mask(self) -> np.ndarray: ...


__all__ = ["LegalDiscrete", "flat_space", "observation_space"]


class LegalDiscrete(spaces.Discrete):
    """``Discrete(NUM_ACTIONS)`` whose ``sample()`` without a mask draws among the legal ids."""

    def __init__(self, n: int, env: _Stops) -> None:
        super().__init__(n)
        self._env = weakref.ref(env)

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        """A random legal id (or per ``mask``/``probability`` when one is given)."""
        env = self._env()
        if mask is None and probability is None and env is not None and env.has_stop:
            # Uniform over the legal ids, drawn as Discrete.sample(mask) draws (one choice
            # from this space's generator), without re-checking a mask that is ours.
            legal = np.flatnonzero(env.action_mask())
            return np.int64(legal[self.np_random.integers(len(legal))])
        return super().sample(mask=mask, probability=probability)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (for subprocess vector envs), it is a plain space.
        return (spaces.Discrete, (int(self.n),))

    def __deepcopy__(self, memo: dict[int, Any]) -> spaces.Discrete:
        # A copy is a plain space: it must not keep sampling from this environment.
        copy = spaces.Discrete(self.n)
        copy.np_random.bit_generator.state = self.np_random.bit_generator.state
        return copy


def flat_space(players: int, rules: Rules, view: View = View.RAW) -> spaces.Box:
    """The observation space of ``flatten=True``: the view's fields as one vector, no mask."""
    low, high = view_bounds(view, players, rules)
    dtype = np.float32 if view is View.ONEHOT else np.int64
    return spaces.Box(np.array(low, dtype=dtype), np.array(high, dtype=dtype), dtype=dtype)


def observation_space(players: int, rules: Rules, view: View = View.RAW) -> spaces.Dict:
    """The ``Dict`` observation space for a table of ``players`` seats in ``view``.

    The integer views (raw, relative) keep a field's own space (Discrete, MultiDiscrete or an
    integer Box); the one-hot view has a float Box per field in its shape.
    """
    fields: dict[str, spaces.Space[Any]] = {}
    if view is View.ONEHOT:
        low, high = view_bounds(view, players, rules)
        start = 0
        for name, shape in view_fields(view, players, rules):
            size = int(np.prod(shape))
            lo = np.array(low[start : start + size], dtype=np.float32).reshape(shape)
            hi = np.array(high[start : start + size], dtype=np.float32).reshape(shape)
            fields[name] = spaces.Box(lo, hi, dtype=np.float32)
            start += size
    else:
        for name, (size, lo_, hi_) in observation_bounds(players).items():
            if name in ("held", "cargo", "pending"):
                fields[name] = spaces.MultiDiscrete([hi_ + 1] * size)
            elif size == 1 and lo_ == 0 and hi_ <= 1000:
                fields[name] = spaces.Discrete(hi_ + 1)
            else:
                fields[name] = spaces.Box(lo_, hi_, shape=(size,), dtype=np.int64)
    fields["action_mask"] = spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8)
    return spaces.Dict(fields)
