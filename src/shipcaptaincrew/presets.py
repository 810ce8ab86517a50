"""The named presets: the rule sets of the four sheets, their names for people, their aliases.

Each preset is a set of option values (those that differ from the defaults of the option
table) that says which sheet it follows and how; :mod:`.rules` builds a :class:`~.rules.Rules`
value of each (``rules.PRESETS``) and finds one by name or alias (``rules.find_rules``, case,
spaces and underscores aside).  A preset's title and description are message ids, translated
by each front end.  This module holds only the data, below :mod:`.rules`, so that the two
never import each other.
"""

from __future__ import annotations

from typing import Any

from .formats import FormatKind, MatchFormat
from .messages import N_
from .options import AllFail, Drinking, Rotation, Stakes, TieBreak

__all__ = ["ALIASES", "PRESET_DESCRIPTIONS", "PRESET_OPTIONS", "PRESET_TITLES"]

#: Preset -> the option values it sets (the others keep the option table's defaults), in the
#: order the presets are listed.
PRESET_OPTIONS: dict[str, dict[str, Any]] = {}
#: Preset -> its name for people (a message id: what the lobby, the table and headers show).
PRESET_TITLES: dict[str, str] = {}
#: Preset -> one sentence saying which sheet it follows and how (a message id).
PRESET_DESCRIPTIONS: dict[str, str] = {}


def _register(name: str, options: dict[str, Any], title: str, description: str) -> None:
    PRESET_OPTIONS[name] = options
    PRESET_TITLES[name] = title
    PRESET_DESCRIPTIONS[name] = description


_register(
    "classic",
    {},
    N_("Classic 6-5-4"),
    N_(
        "What all four sheets agree on: five dice, three rolls, 6-5-4 in order, cargo 2-12, "
        "free cargo rerolls, ties replayed, one round for points."
    ),
)
_register(
    # 000.17 speaks of the next round, so the table plays on until it stops.
    "schiff-kapitaen-crew",
    {
        "rotation": Rotation.PREVIOUS,
        "drinking": Drinking.ALL_BUT_WINNER,
        "format": MatchFormat(FormatKind.SESSION),
    },
    N_("Schiff, Kapitän & Crew"),
    N_(
        "The German sheet 000 and its English translation 003: a roll-off decides who starts, "
        "tied players roll again, every loser sips, the start passes to the right-hand "
        "neighbour, and rounds go on until the table stops."
    ),
)
_register(
    # 001.2 offers points or chips: the preset writes points down; stakes=pot plays for chips.
    "skip-kaptein-mannskap",
    {"format": MatchFormat(FormatKind.FIRST_TO, 50)},
    N_("Skip, kaptein og mannskap"),
    N_(
        "The Norwegian sheet 001: two to eight players, points written down (or chips into a "
        "pot every round with stakes=pot), ties replayed among the tied, first to 50 points."
    ),
)
_register(
    "ship-captain-crew",
    {
        "tie_break": TieBreak.CARGO_ROLLOFF,
        "stakes": Stakes.POT,
        "all_fail": AllFail.CARRY_POT,
    },
    N_("Ship Captain Crew"),
    N_(
        "The English sheet 002: a chip from everyone into the pot, the best cargo takes it, "
        "ties settled by rolling both cargo dice, and a round nobody completes leaves the pot "
        "for the next."
    ),
)

ALIASES: dict[str, str] = {
    "classic": "classic",
    "6-5-4": "classic",
    "654": "classic",
    "destroyer": "classic",
    "clickety-clack": "classic",
    "schiff-kapitaen-crew": "schiff-kapitaen-crew",
    "schiff-kapitän-crew": "schiff-kapitaen-crew",
    "schiff": "schiff-kapitaen-crew",
    "skip-kaptein-mannskap": "skip-kaptein-mannskap",
    "skip": "skip-kaptein-mannskap",
    "ship-captain-crew": "ship-captain-crew",
    "ship-captain-and-crew": "ship-captain-crew",
    "ship-of-fools": "ship-captain-crew",
    "captain-cook": "ship-captain-crew",
}
