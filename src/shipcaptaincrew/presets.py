"""The named presets: the rule sets of the four sheets, their names for people, their aliases.

Each preset is a :class:`~.rules.Rules` value that says which sheet it follows and how, found
by name or alias with :func:`find_rules` (case, spaces and underscores aside).  A preset's
title and description are message ids, translated by each front end.  They live apart from
:mod:`.rules`, which builds rule sets, because they are rule sets themselves; ``rules`` names
them too.
"""

from __future__ import annotations

import re

from .formats import FormatKind, MatchFormat
from .messages import N_
from .rules import AllFail, Drinking, Rotation, Rules, Stakes, TieBreak, _unknown_preset

__all__ = ["ALIASES", "PRESETS", "PRESET_DESCRIPTIONS", "PRESET_TITLES", "find_rules"]

PRESETS: dict[str, Rules] = {}
#: Preset -> its name for people (a message id: what the lobby, the table and headers show).
PRESET_TITLES: dict[str, str] = {}
#: Preset -> one sentence saying which sheet it follows and how (a message id).
PRESET_DESCRIPTIONS: dict[str, str] = {}


def _register(rules: Rules, title: str, description: str) -> None:
    PRESETS[rules.name] = rules
    PRESET_TITLES[rules.name] = title
    PRESET_DESCRIPTIONS[rules.name] = description


_register(
    Rules(),
    N_("Classic 6-5-4"),
    N_(
        "What all four sheets agree on: five dice, three rolls, 6-5-4 in order, cargo 2-12, "
        "free cargo rerolls, ties replayed, one round for points."
    ),
)
_register(
    # 000.17 speaks of the next round, so the table plays on until it stops.
    Rules(
        name="schiff-kapitaen-crew",
        rotation=Rotation.PREVIOUS,
        drinking=Drinking.ALL_BUT_WINNER,
        format=MatchFormat(FormatKind.SESSION),
    ),
    N_("Schiff, Kapitän & Crew"),
    N_(
        "The German sheet 000 and its English translation 003: a roll-off decides who starts, "
        "tied players roll again, every loser sips, the start passes to the right-hand "
        "neighbour, and rounds go on until the table stops."
    ),
)
_register(
    # 001.2 offers points or chips: the preset writes points down; stakes=pot plays for chips.
    Rules(name="skip-kaptein-mannskap", format=MatchFormat(FormatKind.FIRST_TO, 50)),
    N_("Skip, kaptein og mannskap"),
    N_(
        "The Norwegian sheet 001: two to eight players, points written down (or chips into a "
        "pot every round with stakes=pot), ties replayed among the tied, first to 50 points."
    ),
)
_register(
    Rules(
        name="ship-captain-crew",
        tie_break=TieBreak.CARGO_ROLLOFF,
        stakes=Stakes.POT,
        all_fail=AllFail.CARRY_POT,
    ),
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


def find_rules(name: str) -> Rules:
    """Find a preset by name or alias (case and ``_``/space insensitive).

    >>> find_rules("Ship of Fools").name
    'ship-captain-crew'
    >>> find_rules("yahtzee")
    Traceback (most recent call last):
    ...
    shipcaptaincrew.errors.InvalidRulesError: unknown preset 'yahtzee'; known: classic, schiff-kapitaen-crew, skip-kaptein-mannskap, ship-captain-crew
    """
    key = re.sub(r"[\s_]+", "-", name.strip().lower())
    if key in ALIASES:
        return PRESETS[ALIASES[key]]
    if "(" in name:
        return Rules.from_str(name)
    raise _unknown_preset(name)
