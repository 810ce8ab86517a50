"""Which set-ups the step tables play, and why the others go through the engine loop."""

from __future__ import annotations

from enum import Enum

from ...formats import FormatKind
from ...messages import N_
from ...options import Group
from ...options.modelled import EVERY_VALUE, Modelled
from ...rules import AllFail, Drinking, Rotation, Rules, Stakes, Starter, TieBreak
from ..policy import MatchPolicy, make_policy
from .match_turns import plays

__all__ = ["MODELLED", "FastRefusal", "fast_refusal"]


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
    UNMODELLED = "an option the step tables do not model (MODELLED names what they do)"


#: What the step tables take for granted rather than ask.  Every step is the engine's
#: (``post_score``, ``apply``, ``after_round``), and the turn is the turn graph's, so every
#: turn option is played; but the tables key a match by its node, the round's scores, the
#: count of rounds and the order of the totals only, which holds for the rules below and is
#: checked match for match against the engine loop in ``tests/test_sim_fast.py``.  Pots, the
#: hand-out, sessions and the loser's start read more (:class:`FastRefusal`); the ante and
#: the stack mean nothing without a pot.
MODELLED = Modelled(
    N_("the simulator's step tables"),
    (Group.TURN,),
    {
        "tie_break": (TieBreak.REPLAY, TieBreak.CARGO_ROLLOFF, TieBreak.ROUND, TieBreak.NO_WINNER),
        "all_fail": (AllFail.REPLAY, AllFail.CARRY_POT),
        "starter": (Starter.ROLLOFF, Starter.CHOSEN),
        "rotation": (Rotation.NEXT, Rotation.PREVIOUS, Rotation.NONE),
        "stakes": (Stakes.POINTS,),
        "ante": EVERY_VALUE,
        "starting_chips": EVERY_VALUE,
        "pot_to": EVERY_VALUE,
        "drinking": (Drinking.NONE, Drinking.ALL_BUT_WINNER, Drinking.LAST_DRINKS),
        "hand_out": EVERY_VALUE,
        "failed_double": (False, True),
        "format": (
            FormatKind.SINGLE,
            FormatKind.ROUNDS,
            FormatKind.FIRST_TO,
            FormatKind.TOURNAMENT,
            FormatKind.WINS,
        ),
    },
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
    if MODELLED.refusal(rules) is not None:
        return FastRefusal.UNMODELLED
    for b in set(bots):
        policy = make_policy(b, rules, len(bots))
        if isinstance(policy, MatchPolicy) and not plays(policy, rules, len(bots)):
            return FastRefusal.MATCH_OPTIMAL
    return None
