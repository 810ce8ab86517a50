"""Who starts the next round: the rotation of the start (000.17, 003.17) or the last loser.

:mod:`.match` moves the start on after every round of the match's own through :func:`rotate`;
:func:`rotation_step` is the one place the fixed rotations are decided, which the solver's
round model and the web's next match ask too.
"""

from __future__ import annotations

from .errors import InvalidRulesError
from .messages import N_
from .rules import Rotation, Rules
from .state import MatchState, evolve

__all__ = ["rotate", "rotation_step"]


def rotation_step(rules: Rules) -> int:
    """How many seats (in play order) the start moves on after a round under ``rules.rotation``.

    The one place the rotation is decided; the solver's round model asks here too.

    >>> from shipcaptaincrew.rules import find_rules
    >>> rotation_step(find_rules("schiff-kapitaen-crew")), rotation_step(find_rules("classic"))
    (-1, 1)
    >>> rotation_step(find_rules("classic").replace(rotation="loser"))
    Traceback (most recent call last):
    ...
    shipcaptaincrew.errors.InvalidRulesError: rotation=loser has no fixed step: each round's loser starts the next
    """
    if rules.rotation is Rotation.LOSER:
        raise InvalidRulesError(
            N_("rotation=loser has no fixed step: each round's loser starts the next")
        )
    return {Rotation.PREVIOUS: -1, Rotation.NEXT: 1, Rotation.NONE: 0}[rules.rotation]


def rotate(state: MatchState) -> MatchState:
    """The start moved on after a round: by the fixed step, or to the round's loser."""
    if state.rules.rotation is Rotation.LOSER:
        return evolve(state, starter=_loser(state))
    step = rotation_step(state.rules)
    return evolve(state, starter=(state.starter + step) % state.players)


def _loser(state: MatchState) -> int:
    """The lowest score of the last round of the match's own (not a round among the tied).

    Of several tied for lowest, the one who played first in that round; seats that sat the
    round out are no losers.  The round opens with the next playing seat after the loser
    when the loser cannot play it.
    """
    r = next(r for r in reversed(state.results) if not r.tie_round)
    low = min(r.scores[s] or 0 for s in r.seats)
    return next(s for s in r.seats if (r.scores[s] or 0) == low)
