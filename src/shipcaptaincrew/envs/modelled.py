"""What the learning environments' encoding models, and so what the environments refuse.

The action ids and the observation of :mod:`.encoding` are one fixed numbering for every rule
set; :data:`ENCODED` says which rules that numbering was written for, and every environment
refuses any other rule set when it is made (:func:`check_encoded`), naming the option, rather
than meet a decision it has no id for in the middle of an episode.
"""

from __future__ import annotations

from ..errors import UnmodelledRulesError
from ..formats import FormatKind
from ..messages import N_
from ..options import Group
from ..options.modelled import EVERY_VALUE, Modelled
from ..rules import Drinking, HandOutAmount, Rules

__all__ = ["ENCODED", "check_encoded"]

#: What the ids and the observation take for granted.  The turn's decisions are the engine's
#: (stand, reroll, keep a face, a wild assignment by pattern) and its shape is read from
#: ``Rules`` at its widest (:data:`~shipcaptaincrew.rules.TURN_LIMITS`), so every turn option
#: is played.  The decisions between turns have ids of their own: the captain's sips (one per
#: seat, and the stop under ``hand_out=up_to``) and a session's call; so the drinking modes,
#: the hand-out amounts and the format kinds are listed, and a new one is refused until it has
#: its ids.  The other options change what the engine does, never what an agent is asked.
ENCODED = Modelled(
    N_("the learning environments' encoding"),
    (Group.TURN,),
    {
        **dict.fromkeys(
            (
                "tie_break",
                "all_fail",
                "starter",
                "rotation",
                "stakes",
                "ante",
                "starting_chips",
                "pot_to",
                "failed_double",
            ),
            EVERY_VALUE,
        ),
        "drinking": (
            Drinking.NONE,
            Drinking.ALL_BUT_WINNER,
            Drinking.LAST_DRINKS,
            Drinking.CAPTAIN_HANDS_OUT,
        ),
        "hand_out": (HandOutAmount.EXACT, HandOutAmount.UP_TO),
        "format": (
            FormatKind.SINGLE,
            FormatKind.ROUNDS,
            FormatKind.FIRST_TO,
            FormatKind.TOURNAMENT,
            FormatKind.WINS,
            FormatKind.SESSION,
        ),
    },
)


def check_encoded(rules: Rules) -> Rules:
    """``rules`` if the encoding plays it (:data:`ENCODED`), else its refusal naming the option."""
    ENCODED.check(rules, UnmodelledRulesError)
    return rules
