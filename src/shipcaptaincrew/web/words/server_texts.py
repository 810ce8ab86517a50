"""Words the server itself writes for the table (``web`` catalogue): labels, moments, podium.

Everything else a page shows comes from the core in the ``scc`` catalogue (rule names, option
labels, narration, the engine's refusals) or from the pages' own strings
(:mod:`.page_strings`); refusals are in :mod:`.refusals`, a table of the same shape, listed and said in
a language the same way (:mod:`.catalogue`).
"""

from __future__ import annotations

from ...options import Group
from ..storage.models import DiceSource
from .catalogue import N_, NP_

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
#: A turn that ends with a full crew that leads the contest, one level with the best posted,
#: one behind it, and one that ends without a crew.
TURN_SCORED = N_("{name}: {score}!")
TURN_LEVEL = N_("{name}: {score}, level with {names}")
TURN_BEHIND = N_("{name}: {score}; {leader} leads with {best}")
TURN_NO_CREW = N_("{name}: no crew, 0")
#: A tie-break turn's end: its score decides the tie and is no round's score.
TURN_TIE_BREAK = N_("{name}: {score} in the tie-break (it decides the tie only)")
#: A player asked to leave the match after the round (see ``actions.Leave``).
LEAVES = N_("{name} leaves the match once this round is over.")
#: ... and is back before it was over: the leave is undone (``actions.Stay``).
STAYS = N_("{name} is back and stays in the match.")
#: The tie being broken, and how (``how``: one of the two sentences after them).
TIE_ROUND = N_("{names} tied with {score}: {how}")
TIE_MATCH = NP_(
    "{names} tied for the match with {n} point: {how}",
    "{names} tied for the match with {n} points: {how}",
)
TIE_MATCH_CHIPS = NP_(
    "{names} tied for the match with {n} chip: {how}",
    "{names} tied for the match with {n} chips: {how}",
)
TIE_FINAL = NP_(
    "{names} tied with {n} point for a place in the final: {how}",
    "{names} tied with {n} points for a place in the final: {how}",
)
TIE_AGAIN = N_("{names} tied again: {how}")
TIE_BY_TURN = N_("a tie-break turn each decides.")
TIE_BY_CARGO = N_("the cargo dice decide.")
TIE_BY_CARGO_DIE = N_("the cargo die decides.")
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
WHY_TIE_TOTALS = NP_(
    "{names} tied with {n} point; the tie-break by {method} went to {name}.",
    "{names} tied with {n} points; the tie-break by {method} went to {name}.",
)
WHY_TIE_CHIPS = NP_(
    "{names} tied with {n} chip; the tie-break by {method} went to {name}.",
    "{names} tied with {n} chips; the tie-break by {method} went to {name}.",
)
WHY_LAST_WITH_CHIPS = N_("{name} won: nobody else had the chips to ante.")
WHY_MOST_CHIPS = N_("{name} won with the most chips once nobody could ante: {chips}.")
WHY_ROUND = N_("{name} won the round.")
WHY_FINAL = N_("{name} won the final.")
WHY_NO_WINNER = N_("The match ended without a winner.")
WHY_OTHERS_LEFT = N_("{name} won: everyone else left the match.")
#: How a match ended by leaving is counted (see ``models.MatchEnd``).
WHY_WALKOVER = N_(
    "{name} won by walkover: everyone else left the match while away. It counts apart from wins."
)
WHY_REMOVED = N_(
    "Nobody won: the host had everyone else leave the match while they were at the table."
)

# -- what decides the match, shown from the first round ----------------------------------------
DECIDES_ROUND = N_("One round: its winner wins the match.")
DECIDES_ROUNDS = NP_(
    "After {n} round the most points win.", "After {n} rounds the most points win."
)
DECIDES_FIRST_TO = NP_("The first to {n} point wins.", "The first to {n} points wins.")
DECIDES_TOURNAMENT = N_("Two rounds, then the two best totals play the final.")
DECIDES_WINS = NP_("The first to win {n} round wins.", "The first to win {n} rounds wins.")
DECIDES_SESSION = N_("Round after round until the table stops; then the most points win.")
#: Beside a match over points played for a pot.
POINTS_NOT_CHIPS = N_("Points decide, not chips: the chips are the stake.")

# -- a bot plays a person's turn (the narration's line before its first move) --------------
PLAYED_BY_TIMER = N_("Time is up for {name}: a bot plays this turn for them.")
PLAYED_AWAY = N_("{name} is away: a bot plays their turn.")
PLAYED_ASKED = N_("A bot plays for {name}, as the table asked.")
PLAYED_ASKED_BY = N_("A bot plays for {name}, as {askers} asked.")
PLAYED_SILENT = N_("{name} has been silent a long while: a bot plays this turn, as {askers} asked.")

# -- the table's say: who asked a bot to play for someone, or for them to leave -------------
ASKED_PLAY_FOR = N_("{asker} asks a bot to play for {name} while they are away.")
ASKED_REMOVE = N_("{asker} asks for {name} to leave the match after this round.")
ASKED_SILENT = N_("{asker} asks a bot to play {name}'s turn.")
TOOK_TURN_BACK = N_("{name} takes the turn back from the bot.")

# -- a choice in words, where a refusal names it ----------------------------------------------
CHOICE_SIP = N_("a sip for {name}")
CHOICE_SIPS = N_("{n} sips for {name}")
CHOICE_REROLL = N_("rerolling the cargo")
CHOICE_KEEP = N_("keeping {face} and rerolling the rest of the cargo")
CHOICE_TAKE = N_("setting aside {faces}")
CHOICE_LEAVE = N_("{name} leaving the match")
CHOICE_STAY = N_("{name} staying in the match")
CHOICE_STAND = N_("standing")
CHOICE_STOP_SIPS = N_("stopping the hand-out")
CHOICE_NEXT_ROUND = N_("another round")
CHOICE_STOP = N_("stopping the match")
CHOICE_ROLL = N_("a roll")

#: Names listed in a sentence: "Anna, Bo and Cy".
AND_LIST = N_("{names} and {last}")

# Advice.
HAND_OUT_ADVICE = N_(
    "Whoever gets this sip, nobody's chance of winning changes: hand it to whom you like."
)
