"""The table of rule options: every option's name, type, choices or bounds, default and source.

This table is the one place an option is described.  :class:`~shipcaptaincrew.rules.Rules`
takes its fields' defaults from it and validates every value through it; ``--set KEY=VALUE``
parsing, ``scc presets``, the rules text, a rule set's human name, the terminal set-up
dialogue, the web's create-table form, the simulator's flags and the OpenSpiel game
parameters all read it.  The entries live in one module per :class:`Group` (:mod:`.turn`,
:mod:`.round`, :mod:`.stakes`, :mod:`.match`); the values of the choice options are the enums
of :mod:`.values`.  Adding an option is one entry (and, for a choice, its enum), a field on
``Rules``, its behaviour in the engine, its translations and its tests.

Labels, help texts and rules sentences are message ids (English); front ends translate them.
Sources cite the rule sheets by sheet and sentence number (``docs/rules.md`` numbers them;
``docs/sources.md`` describes the sheets).

>>> OPTIONS["tie_break"].parse("cargo_rolloff")
<TieBreak.CARGO_ROLLOFF: 'cargo_rolloff'>
>>> OPTIONS["cargo_rerolls"].parse("unlimited") is None, OPTIONS["half_cargo"].parse("ja")
(True, True)
>>> [c.value for c in OPTIONS["drinking"].choices]
['none', 'all_but_winner', 'last_drinks', 'captain_hands_out']
>>> [o.name for o in options_in(Group.STAKES)]
['stakes', 'ante', 'starting_chips', 'pot_to', 'drinking', 'hand_out', 'failed_double']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InvalidRulesError
from ..facts import ROLES
from ..messages import N_
from .match import MATCH_OPTIONS
from .round import ROUND_OPTIONS
from .spec import FALSE_WORDS, NONE_WORDS, TRUE_WORDS, Choice, Group, Option, OptionType
from .stakes import STAKES_OPTIONS
from .turn import TURN_OPTIONS
from .values import AllFail, Drinking, HandOutAmount, PotTo, Rotation, Stakes, Starter, TieBreak

__all__ = [
    "FALSE_WORDS",
    "NONE_WORDS",
    "OPTIONS",
    "TRUE_WORDS",
    "TURN_LIMITS",
    "AllFail",
    "Choice",
    "Drinking",
    "Group",
    "HandOutAmount",
    "Option",
    "OptionType",
    "PotTo",
    "Rotation",
    "Stakes",
    "Starter",
    "TieBreak",
    "TurnLimits",
    "option_names",
    "options_in",
    "parse_assignment",
    "unknown_option",
]

_OPTIONS = TURN_OPTIONS + ROUND_OPTIONS + STAKES_OPTIONS + MATCH_OPTIONS

#: Every rule option by name, in the canonical order (the order ``str(rules)`` writes them).
OPTIONS: dict[str, Option] = {o.name: o for o in _OPTIONS}


@dataclass(frozen=True)
class TurnLimits:
    """The most of the turn's shape that any rule set allows.

    For the shells whose encoding must fit every rule set at once: an observation space, the
    columns of an export, a bound on a game's moves.  Each is drawn from the option table, so
    widening an option's bounds widens them too.
    """

    dice: int
    rolls: int
    cargo_dice: int
    cargo_rerolls: int


#: The turn's shape at its widest (see :class:`TurnLimits`).
TURN_LIMITS = TurnLimits(
    dice=OPTIONS["dice"].bounds[1],
    rolls=OPTIONS["rolls"].bounds[1],
    cargo_dice=OPTIONS["dice"].bounds[1] - len(ROLES),
    cargo_rerolls=OPTIONS["cargo_rerolls"].bounds[1],
)


def options_in(group: Group) -> tuple[Option, ...]:
    """The options of one group, in the canonical order."""
    return tuple(o for o in OPTIONS.values() if o.group is group)


def option_names() -> tuple[str, ...]:
    """Names of every rule option, in the canonical order."""
    return tuple(OPTIONS)


def parse_assignment(text: str) -> tuple[str, Any]:
    """Parse one ``KEY=VALUE`` option text into a typed value.

    >>> parse_assignment("half_cargo=yes")
    ('half_cargo', True)
    >>> parse_assignment("colour=red")
    Traceback (most recent call last):
    ...
    shipcaptaincrew.errors.InvalidRulesError: unknown option 'colour'; known: dice, rolls, half_cargo, bow_to_stern, wild_captain, wild_face, cargo_rerolls, same_roll_bonus, tie_break, all_fail, starter, rotation, stakes, ante, starting_chips, pot_to, drinking, hand_out, failed_double, format
    """
    if "=" not in text:
        raise InvalidRulesError(N_("option '{text}' must look like KEY=VALUE"), text=text)
    key, raw = (s.strip() for s in text.split("=", 1))
    key = key.replace("-", "_")
    option = OPTIONS.get(key)
    if option is None:
        raise unknown_option(key)
    return key, option.parse(raw)


def unknown_option(key: str) -> InvalidRulesError:
    """The refusal for a name that is no option."""
    return InvalidRulesError(
        N_("unknown option '{key}'; known: {known}"), key=key, known=", ".join(OPTIONS)
    )
