"""What the solver's own models state about the rules, and so what each refuses.

Single turns are the engine's own (the turn graph walks it), but three parts of the solver
state rules themselves, over equations or arrays, because walking whole rounds and matches
through the engine would be too slow: the round model (:mod:`.rounds`), the match model
(:mod:`.match.model`, with the tournament and the session) and the match estimate
(:mod:`.estimate_rounds`).  Each declares here, in one :class:`~..options.modelled.Modelled`,
the rules it was written for and is checked against the engine with; each refuses every other
rule set with :class:`~.rounds.NotModelledError`, naming the option.  Every turn option is
played by all three: they ask the engine for the turn.
"""

from __future__ import annotations

from ..formats import FormatKind
from ..messages import N_
from ..options import Group
from ..options.modelled import EVERY_VALUE, Modelled
from ..rules import AllFail, Rotation, Stakes, Starter, TieBreak

__all__ = ["ESTIMATED_FORMATS", "ESTIMATE", "MATCH", "MODEL_FORMATS", "ROUND"]

#: The round model.  The tie-breaks, all-fail rules and rotations are its own equations, each
#: value written for and checked against the engine's rounds in
#: ``tests/test_solver_rounds_exact.py``; a new value is refused until it is.  Who starts the
#: first round, the stakes, the drinking and the match format decide nothing of who wins a
#: round (the broke table aside, see :mod:`.rounds`, *Where it stops*): every value is played.
ROUND = Modelled(
    N_("the round solver"),
    (Group.TURN,),
    {
        "tie_break": (TieBreak.REPLAY, TieBreak.CARGO_ROLLOFF, TieBreak.ROUND, TieBreak.NO_WINNER),
        "all_fail": (AllFail.REPLAY, AllFail.CARRY_POT),
        "rotation": (Rotation.NEXT, Rotation.PREVIOUS, Rotation.NONE, Rotation.LOSER),
        **dict.fromkeys(
            (
                "starter",
                "stakes",
                "ante",
                "starting_chips",
                "pot_to",
                "drinking",
                "hand_out",
                "failed_double",
                "format",
            ),
            EVERY_VALUE,
        ),
    },
)

#: The formats whose positions :class:`.match.model.MatchModel` itself describes.
MODEL_FORMATS = (FormatKind.SINGLE, FormatKind.ROUNDS, FormatKind.FIRST_TO, FormatKind.WINS)

#: The match model: the round model's rules, but no tie round (its rounds count towards the
#: totals), points only (the chips decide who can ante), the starters whose first round it
#: opens, and the formats whose positions it knows (:data:`MODEL_FORMATS`, the tournament and
#: the session in their subclasses).  Each is checked against the engine's own matches, walked
#: exactly, in ``tests/test_solver_match_exact.py``; the drinking decides nothing of who wins.
MATCH = Modelled(
    N_("the match solver"),
    ROUND.groups,
    {
        **ROUND.values,
        "tie_break": (TieBreak.REPLAY, TieBreak.CARGO_ROLLOFF, TieBreak.NO_WINNER),
        "starter": (Starter.ROLLOFF, Starter.CHOSEN),
        "stakes": (Stakes.POINTS,),
        "format": (*MODEL_FORMATS, FormatKind.TOURNAMENT, FormatKind.SESSION),
    },
)

#: The formats the match estimate covers (the others have no match positions, or one round).
ESTIMATED_FORMATS = (FormatKind.ROUNDS, FormatKind.FIRST_TO, FormatKind.WINS, FormatKind.TOURNAMENT)

#: The match estimate: the match model's rules (it plays where that model's table would be too
#: large), in its own formats.
ESTIMATE = Modelled(
    N_("the match estimate"),
    MATCH.groups,
    {**MATCH.values, "format": ESTIMATED_FORMATS},
)
