"""Which set-ups the step tables play, and why the others go through the engine loop."""

from __future__ import annotations

from enum import Enum

from ..formats import FormatKind
from ..rules import Drinking, Rotation, Rules, Stakes
from .match_turns import plays
from .policy import MatchPolicy, make_policy

__all__ = ["FastRefusal", "fast_refusal"]


class FastRefusal(Enum):
    """Why a set-up plays through the engine loop instead of the step tables."""

    POT = "stakes=pot: the chips decide who can ante"
    HAND_OUT = "drinking=captain_hands_out: the winner's bot chooses who drinks"
    SESSION = "format=session: a bot calls another round"
    LOSER = "rotation=loser: the next starter depends on the last round's line"
    MATCH_OPTIMAL = (
        "the match-optimal bot where the exact solver plays it, outside rounds:N, or at more "
        "than six players or scores too high to key its turns: its turn reads the totals"
    )


def fast_refusal(rules: Rules, bots: list[str]) -> FastRefusal | None:
    """None when the step tables can play this set-up, else why not."""
    if rules.stakes is Stakes.POT:
        return FastRefusal.POT
    if rules.drinking is Drinking.CAPTAIN_HANDS_OUT:
        return FastRefusal.HAND_OUT
    if rules.format.kind is FormatKind.SESSION:
        return FastRefusal.SESSION
    if rules.rotation is Rotation.LOSER:
        return FastRefusal.LOSER
    for b in set(bots):
        policy = make_policy(b, rules, len(bots))
        if isinstance(policy, MatchPolicy) and not plays(policy, rules, len(bots)):
            return FastRefusal.MATCH_OPTIMAL
    return None
