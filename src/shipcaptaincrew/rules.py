"""Every rule option of the four rule sheets, as one frozen value, and the named presets.

The options themselves -- names, types, choices, bounds, defaults, the sheet each comes from --
are described once, in the table of :mod:`.options`; a :class:`Rules` value holds one value
for each and checks every value (and every combination) through that table.  Options combine
freely, so a rule set is a single frozen dataclass rather than a subclass per variant
(python-chess needs subclasses because its variants change move generation wholesale; ours
are independent switches).  Presets are named rule sets (their options listed in
:mod:`.presets`, built here) found by name or alias with :func:`find_rules`, and every rule set
has a canonical text form that round-trips:


>>> r = find_rules("ship-captain-crew").replace(wild_captain=True, cargo_rerolls=1)
>>> str(r)
'ship-captain-crew(wild_captain=true,cargo_rerolls=1)'
>>> Rules.from_str(str(r)) == r
True
>>> find_rules("6-5-4").name
'classic'
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

from .errors import InvalidRulesError
from .facts import FACES, ROLES
from .formats import FormatKind, MatchFormat
from .messages import N_, Message
from .options import (
    OPTIONS,
    TURN_LIMITS,
    AllFail,
    Drinking,
    Group,
    HandOutAmount,
    PotTo,
    Rotation,
    Stakes,
    Starter,
    TieBreak,
    TurnLimits,
    option_names,
    parse_assignment,
    unknown_option,
)
from .presets import ALIASES, PRESET_DESCRIPTIONS, PRESET_OPTIONS, PRESET_TITLES

__all__ = [
    "ALIASES",
    "OPTION_DOCS",
    "PRESETS",
    "PRESET_DESCRIPTIONS",
    "PRESET_NAMES",
    "PRESET_TITLES",
    "AllFail",
    "Drinking",
    "FormatKind",
    "HandOutAmount",
    "InvalidRulesError",
    "MatchFormat",
    "PotTo",
    "Rotation",
    "Rules",
    "Stakes",
    "Starter",
    "TURN_LIMITS",
    "TieBreak",
    "TurnLimits",
    "find_rules",
    "name_parts",
    "option_names",
    "parse_assignment",
]

#: The presets, in the order they are listed (their rule sets are built at the end of the module).
PRESET_NAMES = tuple(PRESET_OPTIONS)


#: The dice set aside as ship, captain and crew; the others are the cargo.
_ROLE_COUNT = len(ROLES)


def _default(name: str) -> Any:
    return OPTIONS[name].default


@dataclass(frozen=True)
class Rules:
    """A complete rule set.  Build one with :func:`find_rules` and :meth:`replace`.

    Each field is one option of the table in :mod:`.options`, which holds its default, its
    choices or bounds and the sheet sentences it comes from.

    >>> Rules().required_faces
    (6, 5, 4)
    >>> Rules(bow_to_stern=True).required_faces
    (1, 2, 3)
    >>> Rules(bow_to_stern=True, wild_captain=True)
    Traceback (most recent call last):
    ...
    shipcaptaincrew.errors.InvalidRulesError: wild_face=1 is also a required face under bow_to_stern (1, 2, 3); choose another wild_face
    """

    #: Preset this rule set started from (its options are printed relative to it).
    name: str = "classic"
    # -- the turn ---------------------------------------------------------------------------
    dice: int = field(default=_default("dice"))
    rolls: int = field(default=_default("rolls"))
    half_cargo: bool = field(default=_default("half_cargo"))
    bow_to_stern: bool = field(default=_default("bow_to_stern"))
    wild_captain: bool = field(default=_default("wild_captain"))
    wild_face: int = field(default=_default("wild_face"))
    cargo_rerolls: int | None = field(default=_default("cargo_rerolls"))
    same_roll_bonus: int = field(default=_default("same_roll_bonus"))
    # -- the round --------------------------------------------------------------------------
    tie_break: TieBreak = field(default=_default("tie_break"))
    all_fail: AllFail = field(default=_default("all_fail"))
    starter: Starter = field(default=_default("starter"))
    rotation: Rotation = field(default=_default("rotation"))
    # -- stakes -----------------------------------------------------------------------------
    stakes: Stakes = field(default=_default("stakes"))
    ante: int = field(default=_default("ante"))
    starting_chips: int = field(default=_default("starting_chips"))
    pot_to: PotTo = field(default=_default("pot_to"))
    drinking: Drinking = field(default=_default("drinking"))
    hand_out: HandOutAmount = field(default=_default("hand_out"))
    failed_double: bool = field(default=_default("failed_double"))
    # -- the match --------------------------------------------------------------------------
    format: MatchFormat = field(default=_default("format"))

    def __post_init__(self) -> None:
        # Every value goes through its option's check, so `Rules(tie_break="replay")`, a JSON
        # body and --set arrive at the same typed value or the same refusal.
        for name, option in OPTIONS.items():
            object.__setattr__(self, name, option.check(getattr(self, name)))
        self._validate()
        object.__setattr__(self, "_hash", hash(self._key()))

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f.name) for f in dataclasses.fields(self))

    def __hash__(self) -> int:
        return self.__dict__["_hash"]  # type: ignore[no-any-return]

    # String hashes differ between processes, so the cached hash must not travel in a pickle
    # (rule sets are sent to simulator workers); it is recomputed on arrival.
    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_hash", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for key, value in state.items():
            object.__setattr__(self, key, value)
        object.__setattr__(self, "_hash", hash(self._key()))

    def _validate(self) -> None:
        """The combinations that cannot work (each value alone was checked by its option)."""
        if self.name not in PRESET_NAMES:
            raise _unknown_preset(self.name)
        if self.wild_captain and self.wild_face in self.required_faces:
            # One whole sentence per order, so that no English word is left in a translation.
            msgid = (
                N_(
                    "wild_face={face} is also a required face under bow_to_stern {faces}; "
                    "choose another wild_face"
                )
                if self.bow_to_stern
                else N_(
                    "wild_face={face} is also a required face in the classic order {faces}; "
                    "choose another wild_face"
                )
            )
            raise InvalidRulesError(msgid, face=self.wild_face, faces=str(self.required_faces))
        if self.stakes is Stakes.POT and self.starting_chips < self.ante:
            raise InvalidRulesError(
                N_(
                    "starting_chips={chips} is less than ante={ante}: nobody could ante the "
                    "first round"
                ),
                chips=self.starting_chips,
                ante=self.ante,
            )
        if self.cargo_rerolls is not None and self.cargo_rerolls >= self.rolls:
            # A crew on the first roll leaves every other roll for the cargo, and no more.
            raise InvalidRulesError(
                N_(
                    "cargo_rerolls={n} is more than a turn of {rolls} rolls allows (at most {most})"
                ),
                n=self.cargo_rerolls,
                rolls=self.rolls,
                most=self.rolls - 1,
            )
        if self.half_cargo and self.cargo_dice < 2:
            # 000.25 leaves one cargo die lying and rolls another: a cargo of one has no other.
            raise InvalidRulesError(
                N_(
                    "half_cargo needs two cargo dice or more: dice={dice} leaves a cargo of one "
                    "die, with no other die to roll while one lies"
                ),
                dice=self.dice,
            )
        if self.failed_double and self.drinking is Drinking.NONE:
            raise InvalidRulesError(N_("failed_double needs a drinking mode (drinking=none)"))
        for name, option in OPTIONS.items():
            value = getattr(self, name)
            if option.requires is None or value == option.default:
                continue
            other, needed = option.requires
            if OPTIONS[other].text(getattr(self, other)) != needed:
                raise InvalidRulesError(
                    N_("{name}={value} needs {other}={needed}"),
                    name=name,
                    value=option.text(value),
                    other=other,
                    needed=needed,
                )

    def says(self, name: str) -> bool:
        """Whether option ``name`` means anything under this rule set (see ``Option.requires``)."""
        requires = OPTIONS[name].requires
        if requires is None:
            return True
        other, needed = requires
        return OPTIONS[other].text(getattr(self, other)) == needed

    # -- the turn's shape: what every shell reads instead of writing a number -----------------
    @property
    def required_faces(self) -> tuple[int, int, int]:
        """The faces of ship, captain and crew, in the order they must be collected."""
        return (1, 2, 3) if self.bow_to_stern else (6, 5, 4)

    @property
    def cargo_dice(self) -> int:
        """The dice left as cargo once the roles are held (000.3, 001.11, 002.13): two of the
        sheets' five, one or three under the house rule ``dice``.

        >>> Rules().cargo_dice, Rules(dice=4).cargo_dice, Rules(dice=6).cargo_dice
        (2, 1, 3)
        """
        return self.dice - _ROLE_COUNT

    @property
    def max_cargo_rerolls(self) -> int:
        """The most cargo rerolls a turn can have: every roll after the first under free
        rerolls (a crew on the first roll, then each roll left), else the limit.

        >>> Rules().max_cargo_rerolls, Rules(cargo_rerolls=1).max_cargo_rerolls
        (2, 1)
        >>> Rules(rolls=5).max_cargo_rerolls, Rules(rolls=2, cargo_rerolls=1).max_cargo_rerolls
        (4, 1)
        """
        return self.rolls - 1 if self.cargo_rerolls is None else self.cargo_rerolls

    @property
    def min_score(self) -> int:
        """Lowest score of a full crew: the cargo all ones (2 of the sheets' five dice).

        >>> Rules().min_score, Rules(dice=4).min_score, Rules(dice=6).min_score
        (2, 1, 3)
        """
        return self.cargo_dice * min(FACES)

    @property
    def max_score(self) -> int:
        """Highest possible turn score: the cargo all sixes plus the same-roll bonus."""
        return self.cargo_dice * max(FACES) + self.same_roll_bonus

    # -- construction -----------------------------------------------------------------------
    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated); unknown names are refused."""
        unknown = sorted(set(changes) - set(OPTIONS) - {"name"})
        if unknown:
            raise unknown_option(unknown[0])
        return dataclasses.replace(self, **changes)

    def setting_aside(self, **changes: Any) -> Rules:
        """A copy with some options changed and the options that need their old values
        (``Option.requires``: the ante and the starting chips under a pot) back at their
        defaults: what a shell asks when it sets the stakes or the drinks aside to probe one
        part of the game, which a plain :meth:`replace` would refuse as an unmet need."""
        unmet = {
            o.name: o.default
            for o in OPTIONS.values()
            if o.requires is not None and o.requires[0] in changes and o.name not in changes
        }
        return self.replace(**changes, **unmet)

    def with_settings(self, settings: list[str] | tuple[str, ...]) -> Rules:
        """Apply ``KEY=VALUE`` texts as given to ``--set`` on the command line."""
        changes: dict[str, Any] = {}
        for text in settings:
            key, value = parse_assignment(text)
            changes[key] = value
        return self.replace(**changes)

    def options(self) -> dict[str, Any]:
        """Every option and its value (text values for choices and the format, as JSON has)."""
        return {name: _json(getattr(self, name)) for name in OPTIONS}

    def changed_from(self, base: Rules) -> dict[str, Any]:
        """Options whose value differs from ``base`` (JSON values, canonical order)."""
        return {n: _json(getattr(self, n)) for n in OPTIONS if getattr(self, n) != getattr(base, n)}

    def changed_options(self) -> dict[str, Any]:
        """Options that differ from this rule set's preset (what the canonical text lists)."""
        return self.changed_from(PRESETS[self.name])

    def __str__(self) -> str:
        changed = self.changed_options()
        if not changed:
            return self.name
        inner = ",".join(f"{k}={OPTIONS[k].text(getattr(self, k))}" for k in changed)
        return f"{self.name}({inner})"

    @classmethod
    def from_str(cls, text: str) -> Rules:
        """Parse the canonical text form (``preset`` or ``preset(key=value,...)``)."""
        text = text.strip()
        m = re.fullmatch(r"([A-Za-z0-9_\-]+)(?:\((.*)\))?", text)
        if not m:
            raise InvalidRulesError(
                N_("cannot read rules '{text}': expected PRESET(key=value,...)"), text=text
            )
        base = find_rules(m.group(1))
        if not m.group(2):
            return base
        return base.with_settings([p for p in m.group(2).split(",") if p.strip()])


def _json(value: Any) -> Any:
    """An option value as JSON carries it: text for choices and formats, else as it is."""
    if isinstance(value, (str, MatchFormat)):  # choices are str enums
        return value.value if hasattr(value, "value") else str(value)
    return value


#: Option name -> where it comes from and what it does (sheet sentences, then the help text).
OPTION_DOCS: dict[str, str] = {
    name: f"{', '.join(o.sources)}: {o.help}" for name, o in OPTIONS.items()
}


def name_parts(rules: Rules) -> tuple[Message, ...]:
    """A rule set's human name, part by part: the preset's title, then what differs from it.

    The differences come in the option table's group order -- the match format, the stakes,
    the turn's variants, the round's rules -- each in the few words its option gives, so a
    lobby can say "Schiff, Kapitän & Crew · 3 Runden · Pott · der Kapitän verteilt" where the
    log says ``schiff-kapitaen-crew(stakes=pot,drinking=captain_hands_out,format=rounds:3)``.
    :func:`shipcaptaincrew.i18n.rules_title` joins them in a language.

    >>> r = find_rules("schiff-kapitaen-crew").replace(
    ...     stakes="pot", drinking="captain_hands_out", format="rounds:3")
    >>> " · ".join(str(m) for m in name_parts(r))
    'Schiff, Kapitän & Crew · 3 rounds · pot · the captain hands out'
    """
    base = PRESETS[rules.name]
    parts = [Message(PRESET_TITLES[rules.name])]
    for group in Group:
        for name, option in OPTIONS.items():
            value = getattr(rules, name)
            if option.group is group and value != getattr(base, name):
                parts.append(option.title_message(value))
    return tuple(parts)


def _unknown_preset(name: str) -> InvalidRulesError:
    return InvalidRulesError(
        N_("unknown preset '{name}'; known: {known}"), name=name, known=", ".join(PRESET_NAMES)
    )


#: Preset -> its rule set, built from the options :mod:`.presets` lists for it.
PRESETS: dict[str, Rules] = {
    name: Rules(name=name, **options) for name, options in PRESET_OPTIONS.items()
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
