"""Rule options in words: what the set-up dialogue and ``scc presets`` show a player.

Everything comes from the option table (:mod:`shipcaptaincrew.options`) and the format kinds
(:data:`~shipcaptaincrew.formats.FORMAT_KINDS`): an option's label, its value as its choice's
label or a number, its bounds.  Only the group headings and the names of the kinds of value
are the terminal's own words.

>>> from shipcaptaincrew.i18n import translator
>>> from shipcaptaincrew.options import OPTIONS
>>> from shipcaptaincrew.rules import find_rules
>>> tr = translator("en")
>>> option_line(OPTIONS["ante"], 2, tr), option_line(OPTIONS["half_cargo"], False, tr)
('Ante: 2 (1-1000)', 'Half cargo: no')
>>> option_line(OPTIONS["cargo_rerolls"], None, tr).split(" (")[0]
'Cargo rerolls: no limit'
>>> option_line(OPTIONS["cargo_rerolls"], None, translator("de")).split(" (")[0]
'Ladung neu werfen: unbegrenzt'
>>> differences(find_rules("skip"), find_rules("classic"), translator("de"))  # 001: points
['Partieform: wer zuerst 50 hat']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...formats import FORMAT_KINDS
from ...messages import N_
from ...options import OPTIONS, Group, Option, OptionType
from ...rules import Rules

__all__ = [
    "GROUP_TITLES",
    "KIND_WORDS",
    "bounds_words",
    "differences",
    "format_spellings",
    "option_line",
    "value_words",
]

Translate = Callable[[str], str]

#: The heading of each option group in menus, in the table's group order.
GROUP_TITLES: dict[Group, str] = {
    Group.MATCH: N_("The match"),
    Group.STAKES: N_("Stakes and drinking"),
    Group.TURN: N_("The turn"),
    Group.ROUND: N_("The round"),
}

#: What kind of value an option takes, in words.
KIND_WORDS: dict[OptionType, str] = {
    OptionType.FLAG: N_("yes or no"),
    OptionType.NUMBER: N_("a whole number"),
    OptionType.CHOICE: N_("one of a list"),
    OptionType.FORMAT: N_("a match format"),
}


def format_spellings() -> list[str]:
    """How each format kind is written (``rounds:N`` for a kind that takes a number)."""
    return [f"{k.value}:N" if spec.bounds else k.value for k, spec in FORMAT_KINDS.items()]


def value_words(option: Option, value: Any, tr: Translate) -> str:
    """An option's value as a player reads it: yes or no, a number, a choice's label."""
    if option.kind is OptionType.FLAG:
        return tr("yes") if value else tr("no")
    if option.kind is OptionType.NUMBER:
        return tr("no limit") if value is None else str(value)
    if option.kind is OptionType.CHOICE:
        return tr(option.choice(value).label)
    return option.title_message(value).render(tr)


def bounds_words(option: Option, tr: Translate) -> str:
    """A number option's bounds ("0-2 or no limit"); empty for the other kinds.

    "No limit" is said, and typed in the set-up dialogue, in the reader's language.
    """
    if option.kind is not OptionType.NUMBER:
        return ""
    lo, hi = option.bounds
    if not option.unlimited:
        return f"{lo}-{hi}"
    return tr("{low}-{high} or {none}").format(low=lo, high=hi, none=tr("no limit"))


def option_line(option: Option, value: Any, tr: Translate) -> str:
    """ "Label: value", with a number's bounds in brackets."""
    line = f"{tr(option.label)}: {value_words(option, value, tr)}"
    bounds = bounds_words(option, tr)
    return f"{line} ({bounds})" if bounds else line


def differences(rules: Rules, base: Rules, tr: Translate) -> list[str]:
    """The options in which ``rules`` differs from ``base``, each as an :func:`option_line`."""
    return [
        option_line(OPTIONS[name], getattr(rules, name), tr) for name in rules.changed_from(base)
    ]
