"""Every rule option of the four rule sheets, as one frozen value.

The sheets live in ``shared/seeds/`` and are cited by their number:

* **000** German sheet (Schiff, Kapitän und Crew), **003** its English translation;
* **001** Norwegian sheet (Skip, kaptein og mannskap);
* **002** English sheet (Ship Captain Crew, pot, tournament, wild captain).

Options combine freely, so a rule set is a single frozen dataclass rather than a subclass per
variant (python-chess needs subclasses because its variants change move generation wholesale;
ours are independent switches).  Presets are named rule sets found by name or alias with
:func:`find_rules`, and every rule set has a canonical text form that round-trips:

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
from enum import Enum
from typing import Any

__all__ = [
    "ALIASES",
    "OPTION_DOCS",
    "PRESETS",
    "AllFail",
    "Drinking",
    "InvalidRulesError",
    "MatchFormat",
    "Rotation",
    "Rules",
    "Stakes",
    "Starter",
    "TieBreak",
    "find_rules",
    "option_names",
    "parse_assignment",
]


class InvalidRulesError(ValueError):
    """A rule set or option value that cannot work (unknown option, bad value, conflict)."""


class TieBreak(str, Enum):
    """How a tie for the top score is broken."""

    #: 000/003 "only they roll again until one pulls ahead"; 001 "a new round between them":
    #: the tied players play new full turns until one is ahead.
    REPLAY = "replay"
    #: 002 "tied players re-roll their two cargo dice and the new sum breaks the tie".
    CARGO_ROLLOFF = "cargo_rolloff"


class AllFail(str, Enum):
    """What happens when every player of a round scores 0 (002: "you cannot win")."""

    #: The round is void and played again by the same players (no new ante).
    REPLAY = "replay"
    #: The round has no winner; the pot stays on the table for the next round.
    CARRY_POT = "carry_pot"


class Starter(str, Enum):
    """Who starts the first round."""

    #: 002 "highest single die roll", 000/003 "Wer anfängt, wird ausgewürfelt": everyone rolls
    #: one die, the highest starts, tied players roll again.
    ROLLOFF = "rolloff"
    #: 002 "or youngest player": the table names the starter (seat given when the match starts).
    CHOSEN = "chosen"


class Rotation(str, Enum):
    """Who starts the next round.

    Seats are numbered in play order, which runs clockwise, i.e. each player passes the cup to
    the player on their left.  The *right* neighbour of seat ``i`` is therefore seat ``i - 1``.
    """

    #: 000/003 "In der nächsten Runde beginnt der rechte Nachbar des letzten Startspielers".
    RIGHT = "right"
    #: The cup passes on with play: the left neighbour (seat ``i + 1``) starts the next round.
    LEFT = "left"
    #: The same player starts every round.
    NONE = "none"


class Stakes(str, Enum):
    """What a round is played for (drinking is a separate, combinable option)."""

    #: 003 "works just as well played for points": scores and totals only.
    POINTS = "points"
    #: 001/002: everyone antes each round, the winner takes the pot; a chips ledger per player.
    POT = "pot"


class Drinking(str, Enum):
    """Who drinks after a round (002 allows drinks instead of or in addition to chips)."""

    NONE = "none"
    #: 000/003 "Alle außer dem Sieger trinken einen Schluck".
    ALL_BUT_WINNER = "all_but_winner"
    #: 000/003 "Nur der Letzte trinkt", 002 "lowest cargo drinks": lowest score, all tied drink.
    LAST_DRINKS = "last_drinks"
    #: 000/003 "Der Kapitän verteilt": the winner rolls one die and hands out that many sips
    #: among the others as they choose.
    CAPTAIN_HANDS_OUT = "captain_hands_out"


#: The presets, in the order they are listed (their rule sets are built at the end of the module).
PRESET_NAMES = ("classic", "schiff-kapitaen-crew", "skip-kaptein-mannskap", "ship-captain-crew")

_FORMAT_RE = re.compile(r"^(single|tournament|rounds:(\d+)|first_to:(\d+))$")


@dataclass(frozen=True)
class MatchFormat:
    """A match format: ``single``, ``rounds:N``, ``first_to:N`` or ``tournament``.

    * ``single`` -- one round (003: "everyone gets one turn, and the round ends").
    * ``rounds:N`` -- N rounds, cumulative totals, highest total wins (001 "et fast antall
      runder"; 002 "Rounds Version ... often 3 or 5").
    * ``first_to:N`` -- rounds until a total reaches N; when several pass it in the same round
      the highest total wins (001 "først til 50").
    * ``tournament`` -- 002 "Six-Player Tournament": two preliminary rounds, the two highest
      totals play a final round, the winner takes all.

    >>> MatchFormat.parse("rounds:5")
    MatchFormat(kind='rounds', n=5)
    >>> str(MatchFormat.parse("first_to:50"))
    'first_to:50'
    """

    kind: str
    n: int = 0

    @classmethod
    def parse(cls, text: str) -> MatchFormat:
        """Parse the text form; raises :class:`InvalidRulesError` naming the problem."""
        m = _FORMAT_RE.match(text.strip())
        if not m:
            raise InvalidRulesError(
                f"unknown match format {text!r}: use single, rounds:N, first_to:N or tournament"
            )
        if m.group(2) is not None:
            n = int(m.group(2))
            if not 1 <= n <= 1000:
                raise InvalidRulesError(f"rounds:N needs 1 <= N <= 1000, got {n}")
            return cls("rounds", n)
        if m.group(3) is not None:
            n = int(m.group(3))
            if not 1 <= n <= 10000:
                raise InvalidRulesError(f"first_to:N needs 1 <= N <= 10000, got {n}")
            return cls("first_to", n)
        return cls(m.group(1), 0)

    def __str__(self) -> str:
        return f"{self.kind}:{self.n}" if self.kind in ("rounds", "first_to") else self.kind


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


@dataclass(frozen=True)
class Rules:
    """A complete rule set.  Build one with :func:`find_rules` and :meth:`replace`.

    Every field cites the sheet it comes from (see :data:`OPTION_DOCS` for the full text).

    >>> Rules().required_faces
    (6, 5, 4)
    >>> Rules(bow_to_stern=True).required_faces
    (1, 2, 3)
    >>> Rules(bow_to_stern=True, wild_captain=True)
    Traceback (most recent call last):
    ...
    shipcaptaincrew.rules.InvalidRulesError: wild_face=1 is also a required face under bow_to_stern (1, 2, 3); choose another wild_face
    """

    #: Preset this rule set started from (its options are printed relative to it).
    name: str = field(default="classic", metadata=_doc("preset the options are relative to"))
    # -- the turn ---------------------------------------------------------------------------
    half_cargo: bool = field(
        default=False,
        metadata=_doc(
            "000 'Halbe Ladung' / 003 'Shifting cargo': when rerolling the cargo, the player "
            "may keep one cargo die and reroll only the other"
        ),
    )
    bow_to_stern: bool = field(
        default=False,
        metadata=_doc("000 'Von hinten' / 003 'Bow to stern': collect 1, 2, 3 instead of 6, 5, 4"),
    )
    wild_captain: bool = field(
        default=False,
        metadata=_doc(
            "002 'Wild Captain': a rolled wild_face can stand for any missing required die, "
            "still in order; the player chooses when a roll allows several assignments"
        ),
    )
    wild_face: int = field(
        default=1,
        metadata=_doc(
            "002 'A roll of 1 can be used as any missing required die': the face that is wild "
            "under wild_captain (must not be a required face)"
        ),
    )
    cargo_rerolls: int | None = field(
        default=None,
        metadata=_doc(
            "001 house rule 'lasten bare kan kastes på nytt én gang': the most cargo rerolls "
            "per turn (none = as many as rolls remain)"
        ),
    )
    same_roll_bonus: int = field(
        default=0,
        metadata=_doc(
            "001 house rule 'hele laget må sikres i samme kast for å gi bonus': bonus points "
            "when ship, captain and crew are all set aside from one roll (0 = off)"
        ),
    )
    # -- the round --------------------------------------------------------------------------
    tie_break: TieBreak = field(
        default=TieBreak.REPLAY,
        metadata=_doc(
            "000/003 'only they roll again until one pulls ahead', 001 'en ny runde mellom dem' "
            "(replay: tied players play new turns); 002 'tied players re-roll their two cargo "
            "dice' (cargo_rolloff)"
        ),
    )
    all_fail: AllFail = field(
        default=AllFail.REPLAY,
        metadata=_doc(
            "002 'your score is 0 ... you cannot win': when everyone scores 0, replay the round "
            "(replay) or leave the pot for the next round (carry_pot)"
        ),
    )
    starter: Starter = field(
        default=Starter.ROLLOFF,
        metadata=_doc(
            "000/003 'Roll to see who starts', 002 'highest single die roll, or youngest player': "
            "rolloff, or a chosen seat"
        ),
    )
    rotation: Rotation = field(
        default=Rotation.LEFT,
        metadata=_doc(
            "000/003 'The next round starts with the player to the right of the previous "
            "starter' (right); left passes the start on with play; none keeps the starter"
        ),
    )
    # -- stakes -----------------------------------------------------------------------------
    stakes: Stakes = field(
        default=Stakes.POINTS,
        metadata=_doc(
            "003 'played for points' (points); 001 'sjetonger ... en pott per runde', 002 "
            "'each player antes one chip' (pot)"
        ),
    )
    ante: int = field(
        default=1, metadata=_doc("002 'each player antes one chip/coin/dollar': ante per round")
    )
    starting_chips: int = field(
        default=10,
        metadata=_doc("001 'sjetonger': each player's starting stack under stakes=pot"),
    )
    drinking: Drinking = field(
        default=Drinking.NONE,
        metadata=_doc(
            "000/003 all_but_winner, last_drinks ('Nur der Letzte trinkt', 002 'lowest cargo "
            "drinks'), captain_hands_out ('Der Kapitän verteilt'), or none"
        ),
    )
    failed_double: bool = field(
        default=False,
        metadata=_doc(
            "002 'the player who fails to collect 6-5-4 drinks double': every sip a player "
            "without a full crew drinks that round counts twice"
        ),
    )
    # -- the match --------------------------------------------------------------------------
    format: MatchFormat = field(
        default=MatchFormat("single"),
        metadata=_doc(
            "single round; rounds:N (001, 002 'Rounds Version'); first_to:N (001 'først til "
            "50'); tournament (002 'Six-Player Tournament')"
        ),
    )

    def __post_init__(self) -> None:
        # Accept text for enum fields so `Rules(tie_break="replay")` and --set work alike.
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "format":
                if isinstance(value, MatchFormat):
                    value = str(value)  # re-read, so a hand-built MatchFormat is checked too
                if not isinstance(value, str):
                    raise InvalidRulesError(f"format must be a match format text, got {value!r}")
                object.__setattr__(self, "format", MatchFormat.parse(value))
            elif isinstance(f.type, str) and f.type in _ENUMS:
                enum = _ENUMS[f.type]
                if isinstance(value, enum):
                    continue
                try:
                    if not isinstance(value, str):
                        raise ValueError
                    object.__setattr__(self, f.name, enum(value))
                except ValueError:
                    choices = ", ".join(e.value for e in enum)
                    raise InvalidRulesError(
                        f"{f.name}={value!r} is not one of: {choices}"
                    ) from None
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
        if self.name not in PRESET_NAMES:
            raise InvalidRulesError(
                f"unknown preset {self.name!r}; known: {', '.join(PRESET_NAMES)}"
            )
        for name in ("half_cargo", "bow_to_stern", "wild_captain", "failed_double"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidRulesError(f"{name} must be true or false")
        for name in ("wild_face", "same_roll_bonus", "ante", "starting_chips"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool):
                raise InvalidRulesError(f"{name} must be an integer, got {v!r}")
        if not 1 <= self.wild_face <= 6:
            raise InvalidRulesError(f"wild_face must be a face 1..6, got {self.wild_face}")
        if self.wild_captain and self.wild_face in self.required_faces:
            raise InvalidRulesError(
                f"wild_face={self.wild_face} is also a required face under "
                f"{'bow_to_stern' if self.bow_to_stern else 'the classic order'} "
                f"{self.required_faces}; choose another wild_face"
            )
        if self.cargo_rerolls is not None and (
            not isinstance(self.cargo_rerolls, int)
            or isinstance(self.cargo_rerolls, bool)
            or not 0 <= self.cargo_rerolls <= 2
        ):
            raise InvalidRulesError(
                f"cargo_rerolls must be 0, 1, 2 or none, got {self.cargo_rerolls!r}"
            )
        if not 0 <= self.same_roll_bonus <= 100:
            raise InvalidRulesError(f"same_roll_bonus must be 0..100, got {self.same_roll_bonus}")
        if not 1 <= self.ante <= 1000:
            raise InvalidRulesError(f"ante must be 1..1000, got {self.ante}")
        if not 0 <= self.starting_chips <= 1_000_000:
            raise InvalidRulesError(f"starting_chips must be 0..1000000, got {self.starting_chips}")
        if self.stakes is Stakes.POT and self.starting_chips < self.ante:
            raise InvalidRulesError(
                f"starting_chips={self.starting_chips} is less than ante={self.ante}: "
                "nobody could ante the first round"
            )
        if self.failed_double and self.drinking is Drinking.NONE:
            raise InvalidRulesError("failed_double needs a drinking mode (drinking=none)")

    # -- derived facts ----------------------------------------------------------------------
    @property
    def required_faces(self) -> tuple[int, int, int]:
        """The faces of ship, captain and crew, in the order they must be collected."""
        return (1, 2, 3) if self.bow_to_stern else (6, 5, 4)

    @property
    def max_cargo_rerolls(self) -> int:
        """The most cargo rerolls a turn can have (two: a crew on the first roll, then two)."""
        return 2 if self.cargo_rerolls is None else self.cargo_rerolls

    @property
    def max_score(self) -> int:
        """Highest possible turn score: two sixes of cargo plus the same-roll bonus."""
        return 12 + self.same_roll_bonus

    # -- construction -----------------------------------------------------------------------
    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated); unknown names are refused."""
        unknown = sorted(set(changes) - set(option_names()) - {"name"})
        if unknown:
            raise InvalidRulesError(f"unknown option {unknown[0]!r}")
        return dataclasses.replace(self, **changes)

    def with_settings(self, settings: list[str] | tuple[str, ...]) -> Rules:
        """Apply ``KEY=VALUE`` texts as given to ``--set`` on the command line."""
        changes: dict[str, Any] = {}
        for text in settings:
            key, value = parse_assignment(text)
            changes[key] = value
        return self.replace(**changes)

    def options(self) -> dict[str, Any]:
        """Every option and its value (text values for enums and the format)."""
        return {name: _text(getattr(self, name)) for name in option_names()}

    def changed_options(self) -> dict[str, Any]:
        """Options that differ from this rule set's preset."""
        base = PRESETS[self.name]
        return {
            n: _text(getattr(self, n))
            for n in option_names()
            if getattr(self, n) != getattr(base, n)
        }

    def __str__(self) -> str:
        changed = self.changed_options()
        if not changed:
            return self.name
        inner = ",".join(f"{k}={_fmt(v)}" for k, v in changed.items())
        return f"{self.name}({inner})"

    @classmethod
    def from_str(cls, text: str) -> Rules:
        """Parse the canonical text form (``preset`` or ``preset(key=value,...)``)."""
        text = text.strip()
        m = re.fullmatch(r"([A-Za-z0-9_\-]+)(?:\((.*)\))?", text)
        if not m:
            raise InvalidRulesError(f"cannot read rules {text!r}: expected PRESET(key=value,...)")
        base = find_rules(m.group(1))
        if not m.group(2):
            return base
        return base.with_settings([p for p in m.group(2).split(",") if p.strip()])


_ENUMS: dict[str, type[Enum]] = {
    "TieBreak": TieBreak,
    "AllFail": AllFail,
    "Starter": Starter,
    "Rotation": Rotation,
    "Stakes": Stakes,
    "Drinking": Drinking,
}


def _text(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, MatchFormat):
        return str(value)
    return value


def _fmt(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def option_names() -> tuple[str, ...]:
    """Names of every rule option, in declaration order."""
    return tuple(f.name for f in dataclasses.fields(Rules) if f.name != "name")


#: Option name -> the sentence that cites its sheet.
OPTION_DOCS: dict[str, str] = {
    f.name: f.metadata.get("doc", "") for f in dataclasses.fields(Rules) if f.name != "name"
}

_FIELD_TYPES = {f.name: f for f in dataclasses.fields(Rules)}


def parse_assignment(text: str) -> tuple[str, Any]:
    """Parse one ``KEY=VALUE`` option text into a typed value.

    >>> parse_assignment("cargo_rerolls=1")
    ('cargo_rerolls', 1)
    >>> parse_assignment("half_cargo=yes")
    ('half_cargo', True)
    >>> parse_assignment("colour=red")
    Traceback (most recent call last):
    ...
    shipcaptaincrew.rules.InvalidRulesError: unknown option 'colour'; known: half_cargo, bow_to_stern, wild_captain, wild_face, cargo_rerolls, same_roll_bonus, tie_break, all_fail, starter, rotation, stakes, ante, starting_chips, drinking, failed_double, format
    """
    if "=" not in text:
        raise InvalidRulesError(f"option {text!r} must look like KEY=VALUE")
    key, raw = (s.strip() for s in text.split("=", 1))
    key = key.replace("-", "_")
    if key not in OPTION_DOCS:
        raise InvalidRulesError(f"unknown option {key!r}; known: {', '.join(option_names())}")
    ftype = _FIELD_TYPES[key].type
    low = raw.lower()
    if ftype == "bool":
        if low in ("true", "yes", "on", "1"):
            return key, True
        if low in ("false", "no", "off", "0"):
            return key, False
        raise InvalidRulesError(f"{key} must be true or false, got {raw!r}")
    if ftype == "int | None":
        if low in ("none", "null", "unlimited", ""):
            return key, None
        return key, _int(key, raw)
    if ftype == "int":
        return key, _int(key, raw)
    if ftype == "MatchFormat":
        return key, MatchFormat.parse(raw)
    return key, raw


def _int(key: str, raw: str) -> int:
    try:
        return int(raw)
    except ValueError:
        raise InvalidRulesError(f"{key} must be an integer, got {raw!r}") from None


# -- presets ------------------------------------------------------------------------------------

PRESETS: dict[str, Rules] = {}


def _register(rules: Rules, description: str) -> None:
    PRESETS[rules.name] = rules
    PRESET_DESCRIPTIONS[rules.name] = description


PRESET_DESCRIPTIONS: dict[str, str] = {}

_register(
    Rules(),
    "The core all four sheets share: 5 dice, 3 rolls, 6-5-4 in order, cargo 2-12, free cargo "
    "rerolls, tied players replay, one round for points.",
)
_register(
    Rules(
        name="schiff-kapitaen-crew",
        rotation=Rotation.RIGHT,
        drinking=Drinking.ALL_BUT_WINNER,
    ),
    "Sheets 000 (German) and 003 (English): roll-off to start, tied players roll again, everyone "
    "but the winner sips, the right neighbour of the last starter starts the next round.",
)
_register(
    Rules(
        name="skip-kaptein-mannskap",
        stakes=Stakes.POT,
        format=MatchFormat("first_to", 50),
    ),
    "Sheet 001 (Norwegian): 2-8 players, a pot of chips each round, ties replayed between the "
    "tied players, first to 50 points.",
)
_register(
    Rules(
        name="ship-captain-crew",
        tie_break=TieBreak.CARGO_ROLLOFF,
        stakes=Stakes.POT,
        all_fail=AllFail.CARRY_POT,
    ),
    "Sheet 002 (English): everyone antes a chip, highest cargo takes the pot, tied players "
    "re-roll their two cargo dice, a round where all fail leaves the pot for the next.",
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
    shipcaptaincrew.rules.InvalidRulesError: unknown preset 'yahtzee'; known: classic, schiff-kapitaen-crew, skip-kaptein-mannskap, ship-captain-crew
    """
    key = re.sub(r"[\s_]+", "-", name.strip().lower())
    if key in ALIASES:
        return PRESETS[ALIASES[key]]
    if "(" in name:
        return Rules.from_str(name)
    raise InvalidRulesError(f"unknown preset {name!r}; known: {', '.join(PRESETS)}")
