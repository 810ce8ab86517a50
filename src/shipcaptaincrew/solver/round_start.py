"""Where the next round starts after a round without a winner, and the fixed point it makes.

The round model (:mod:`.rounds`) knows only the table a player meets (the best score, how many
share it); who opens the next round after one that nobody won is the engine's to say, so
:func:`starter_shift` asks the engine.  A round that can come back with its start moved makes
each seat's chance a fixed point of a small affine map over the seats
(:func:`affine_fixed_point`), solved exactly.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..engine import initial_state, post_score
from ..messages import N_
from ..rules import (
    Drinking,
    FormatKind,
    HandOutAmount,
    MatchFormat,
    PotTo,
    Rotation,
    Rules,
    Stakes,
    Starter,
)
from .errors import SolverError
from .graph import turn_graph

__all__ = ["affine_fixed_point", "starter_shift", "tie_shift"]


def affine_fixed_point(
    new_w: list[float], w: list[float], terms: list[tuple[float, int]]
) -> list[float]:
    """Solve x = a + sum(lam R_step x), where a is what ``new_w`` holds beyond w's terms.

    ``R_step`` moves each seat's value to its place in a round whose start is ``step`` seats
    on (the identity for ``step=0``).
    """
    n = len(w)
    m = np.zeros((n, n))
    for lam, step in terms:
        for i in range(n):
            m[i, (i - step) % n] += lam
    a = np.asarray(new_w) - m @ np.asarray(w)
    x = np.linalg.solve(np.eye(n) - m, a)
    return [float(v) for v in x]


@lru_cache(maxsize=256)
def starter_shift(rules: Rules, scores: tuple[int, ...]) -> int:
    """How many places on in play order the next round starts after a round with ``scores``
    and no winner (everyone failed, or a shared top under no_winner), asked of the engine.

    The engine plays one such round of a single match from seat 0 (``post_score``) and says
    who starts the next; the stakes and drinks, which never move the start, are left out.
    """
    probe = rules.setting_aside(
        format=MatchFormat(FormatKind.SINGLE),
        starter=Starter.CHOSEN,
        stakes=Stakes.POINTS,
        pot_to=PotTo.ROUND,
        drinking=Drinking.NONE,
        hand_out=HandOutAmount.EXACT,
        failed_double=False,
    )
    state = initial_state(probe, len(scores), starter=0)
    for x in scores:
        state = post_score(state, x)
    if state.round_no != 2:
        raise SolverError(f"scores {list(scores)} under {rules} do not leave a round unwon")
    return state.starter


def tie_shift(rules: Rules, n: int) -> int:
    """The shift after a round whose top is shared under no_winner.

    Under ``rotation=loser`` the next start is the lowest score, which the round model (it
    knows only the top score and how many share it) can name for two players only.
    """
    if rules.rotation is Rotation.LOSER and n > 2:
        raise SolverError(
            N_(
                "rotation=loser with tie_break=no_winner: after a shared top score the lowest "
                "score starts the next round, which the round model does not track for {n} "
                "players"
            ),
            n=n,
        )
    top = max(turn_graph(rules).scores)
    return starter_shift(rules, (top,) * n)
