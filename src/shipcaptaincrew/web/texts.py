"""Words the server itself writes for the table (``web`` catalogue): labels, moments, podium.

Everything else a page shows comes from the core in the ``scc`` catalogue (rule names, option
labels, narration, the engine's refusals) or from the pages' own strings
(:mod:`.strings`); refusals are in :mod:`.errors`.  :data:`TEXTS` lists every id here for the
catalogue check.
"""

from __future__ import annotations

from ..options import Group
from .errors import N_, message_ids
from .models import DiceSource

#: Bot difficulty -> its name for people (the difficulties themselves are ``bots.DIFFICULTIES``;
#: a test checks that every one has a label).
LEVEL_LABELS: dict[str, str] = {
    "easy": N_("Easy"),
    "medium": N_("Medium"),
    "hard": N_("Hard"),
    "perfect": N_("Perfect"),
}

#: Dice source -> its label on the create form.
DICE_LABELS: dict[DiceSource, str] = {
    DiceSource.FAIR: N_("Fair dice rolled by the server (checkable afterwards)"),
    DiceSource.PHYSICAL: N_("Real dice: type in the faces you roll"),
}

#: What ``/verify`` says of a room played with real dice.
PHYSICAL_VERIFY = N_(
    "This match was played with real dice: the faces were typed in at the table, so there is "
    "no seed to check them against."
)

#: Option group -> its heading on the create form.
GROUP_LABELS: dict[Group, str] = {
    Group.MATCH: N_("The match"),
    Group.STAKES: N_("Stakes"),
    Group.TURN: N_("The turn"),
    Group.ROUND: N_("The round"),
}

# -- moments: the one-liners a page holds on screen after a turn, a round, a match ----------
#: A turn that ends with a full crew, and one that ends without.
TURN_SCORED = N_("{name}: {score}!")
TURN_NO_CREW = N_("{name}: no crew, 0")
#: A round's result.
ROUND_WON = N_("Round {n}: {name} wins with {score}.")
ROUND_ALL_FAILED = N_("Round {n}: nobody completed a crew.")
ROUND_NO_WINNER = N_("Round {n}: no winner.")
#: Why the round went to its winner when the top score was tied (``method``: the core's word
#: for the tie-break, "cargo dice" say).
ROUND_TIE_WHY = N_("{names} tied with {score}; the tie-break by {method} went to {name}.")

# -- the podium: why the winner won ---------------------------------------------------------
WHY_TOTALS = N_("{name} won with the most points: {total}.")
WHY_TOTALS_NOT_CHIPS = N_(
    "{name} won with the most points: {total}. Points decide this match, not chips."
)
WHY_TIE_TOTALS = N_("{names} tied with {total} points; the tie-break by {method} went to {name}.")
WHY_TIE_CHIPS = N_("{names} tied with {chips} chips; the tie-break by {method} went to {name}.")
WHY_LAST_WITH_CHIPS = N_("{name} won: nobody else had the chips to ante.")
WHY_MOST_CHIPS = N_("{name} won with the most chips once nobody could ante: {chips}.")
WHY_ROUND = N_("{name} won the round.")
WHY_FINAL = N_("{name} won the final.")
WHY_NO_WINNER = N_("The match ended without a winner.")

#: The narration's line before a move the turn timer made for an absent person.
TIMER_PLAYED = N_("Time is up for {name}: the turn timer plays for them.")

#: Names listed in a sentence: "Anna, Bo and Cy".
AND_LIST = N_("{names} and {last}")

# Advice.
HAND_OUT_ADVICE = N_(
    "Whoever gets this sip, nobody's chance of winning changes: hand it to whom you like."
)

#: Every message id of this module.
TEXTS: tuple[str, ...] = (
    *LEVEL_LABELS.values(),
    *GROUP_LABELS.values(),
    *DICE_LABELS.values(),
    *message_ids(globals()),
)
