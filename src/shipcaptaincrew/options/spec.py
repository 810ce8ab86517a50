"""What a rule option is: its type, group, choices, bounds, labels and sources.

:class:`Option` describes one option of :class:`~.rules.Rules` and knows how to read a value
from text, check a value, write its canonical text, and name it in a rule set's human name.
The options themselves are listed once, in the group modules of this package.

Labels and help texts are message ids (English); front ends translate them.  Sources cite the
rule sheets by sheet and sentence number (``docs/rules.md`` numbers them; ``docs/sources.md``
describes the sheets).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any

from ..errors import InvalidRulesError
from ..formats import FORMAT_KINDS, MatchFormat
from ..messages import N_, Message, Plural

__all__ = [
    "FALSE_WORDS",
    "NONE_WORDS",
    "TRUE_WORDS",
    "Choice",
    "Group",
    "Option",
    "OptionType",
]


class OptionType(StrEnum):
    """The kinds of value an option takes."""

    FLAG = "flag"  #: true or false
    NUMBER = "number"  #: a whole number within bounds (or none, where unlimited is allowed)
    CHOICE = "choice"  #: one of a list of named choices
    FORMAT = "format"  #: a match format (kind, and a number for the kinds that take one)


class Group(StrEnum):
    """Where an option belongs, so menus and forms can group them (in this order)."""

    MATCH = "match"  #: how many rounds make a match
    STAKES = "stakes"  #: what a round is played for: points, chips, sips
    TURN = "turn"  #: variants of the turn
    ROUND = "round"  #: starting, ties, a round where everyone fails


#: Spellings of true and false that ``--set`` and the dialogues accept (en, de, nb).
TRUE_WORDS = ("true", "yes", "on", "1", "ja", "y", "j")
FALSE_WORDS = ("false", "no", "off", "0", "nein", "nei", "n")
#: Spellings of "no limit" for numbers that allow it.
NONE_WORDS = ("none", "null", "unlimited", "")


@dataclass(frozen=True)
class Choice:
    """One value of a choice option: its canonical spelling, menu label and name words.

    ``title`` is the few words a rule set's human name uses when this choice differs from
    the preset (e.g. "pot"); ``rule`` the sentence the rules text says for it (a message id,
    or a :func:`~.messages.NP_` pair counted by the option's ``counted_by``, whose parameters
    :func:`~shipcaptaincrew.i18n.rules_text.rules_text` fills); ``aliases`` are other accepted
    spellings.
    """

    value: str
    label: str
    title: str
    rule: str | Plural
    sources: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Option:
    """One rule option (see the module docstring)."""

    name: str
    kind: OptionType
    group: Group
    default: Any
    label: str
    help: str
    sources: tuple[str, ...]
    choices: tuple[Choice, ...] = ()
    enum: type[Enum] | None = None
    #: NUMBER: the smallest and largest value.
    bounds: tuple[int, int] = (0, 0)
    #: NUMBER: None is allowed and means "no limit".
    unlimited: bool = False
    #: The human-name words: FLAG when on; NUMBER with ``{n}`` (or a :func:`~.messages.NP_` pair).
    title: str | Plural = ""
    #: FLAG: the words when off; NUMBER: the words for None (no limit).
    title_other: str = ""
    #: NUMBER: a refusal of an out-of-range value in the option's own words.
    range_error: str = ""
    #: FLAG: the rules text's sentence when the option is on (a message id, or a
    #: :func:`~.messages.NP_` pair counted by ``counted_by``).
    rule: str | Plural = ""
    #: The parameter of the rules text whose number picks the form of a plural ``rule`` (of
    #: the option or of its choices): ``n`` (the format's N), ``cargo`` (the cargo's dice),
    #: ``rerolled`` (the cargo dice a half-cargo reroll rolls), ``dice`` (the dice in the cup).
    counted_by: str = "n"
    #: (option, value): this option only means something while that option has that value;
    #: any other value than the default needs it, and the rules text is silent without it.
    requires: tuple[str, str] | None = None

    # -- reading values -------------------------------------------------------------------
    def parse(self, raw: str) -> Any:
        """The typed value of a text (``--set``, a form field, a game parameter)."""
        low = raw.strip().lower()
        if self.kind is OptionType.FLAG:
            if low in TRUE_WORDS:
                return True
            if low in FALSE_WORDS:
                return False
            raise InvalidRulesError(
                N_("{name} must be true or false, got '{value}'"), name=self.name, value=raw
            )
        if self.kind is OptionType.NUMBER:
            if self.unlimited and low in NONE_WORDS:
                return None
            try:
                n = int(low)
            except ValueError:
                raise InvalidRulesError(
                    N_("{name} must be an integer, got '{value}'"), name=self.name, value=raw
                ) from None
            return self.check(n)
        if self.kind is OptionType.FORMAT:
            return MatchFormat.parse(raw)
        return self.check(low)

    def check(self, value: Any) -> Any:
        """``value`` as this option's type, or a refusal naming the option and the problem."""
        if self.kind is OptionType.FLAG:
            if not isinstance(value, bool):
                raise InvalidRulesError(N_("{name} must be true or false"), name=self.name)
            return value
        if self.kind is OptionType.NUMBER:
            return self._check_number(value)
        if self.kind is OptionType.FORMAT:
            if isinstance(value, MatchFormat):
                return value
            if not isinstance(value, str):
                raise InvalidRulesError(
                    N_("format must be a match format text, got {value}"), value=repr(value)
                )
            return MatchFormat.parse(value)
        assert self.enum is not None
        if isinstance(value, self.enum):
            return value
        if isinstance(value, str):
            for c in self.choices:
                if value == c.value or value in c.aliases:
                    return self.enum(c.value)
        raise InvalidRulesError(
            N_("{name}={value} is not one of: {choices}"),
            name=self.name,
            value=repr(value),
            choices=", ".join(c.value for c in self.choices),
        )

    def _check_number(self, value: Any) -> int | None:
        if value is None and self.unlimited:
            return None
        lo, hi = self.bounds
        if isinstance(value, bool) or not isinstance(value, int):
            if self.unlimited:
                raise self._range_error(value)
            raise InvalidRulesError(
                N_("{name} must be an integer, got {value}"), name=self.name, value=repr(value)
            )
        if not lo <= value <= hi:
            raise self._range_error(value)
        return value

    def _range_error(self, value: Any) -> InvalidRulesError:
        lo, hi = self.bounds
        if self.range_error:
            return InvalidRulesError(self.range_error, name=self.name, value=repr(value))
        if self.unlimited:
            return InvalidRulesError(
                N_("{name} must be {values} or none, got {value}"),
                name=self.name,
                values=", ".join(map(str, range(lo, hi + 1))),
                value=repr(value),
            )
        return InvalidRulesError(
            N_("{name} must be {lo}..{hi}, got {value}"),
            name=self.name,
            lo=lo,
            hi=hi,
            value=repr(value),
        )

    # -- writing values -------------------------------------------------------------------
    def text(self, value: Any) -> str:
        """The canonical text of a value (what ``str(rules)`` and ``--set`` write)."""
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, Enum):
            return str(value.value)
        return str(value)

    def choice(self, value: Any) -> Choice:
        """The :class:`Choice` of a CHOICE option's value."""
        text = self.text(value)
        for c in self.choices:
            if c.value == text:
                return c
        raise InvalidRulesError(N_("{name} has no choice {value}"), name=self.name, value=text)

    def title_message(self, value: Any) -> Message:
        """The words a rule set's human name uses for this option at ``value``."""
        if self.kind is OptionType.FLAG:
            return Message.of(self.title if value else self.title_other)
        if self.kind is OptionType.NUMBER:
            if value is None:
                return Message(self.title_other)
            return Message.of(self.title, n=value)
        if self.kind is OptionType.FORMAT:
            spec = FORMAT_KINDS[value.kind]
            return Message.of(spec.title, n=value.n)
        return Message(self.choice(value).title)
