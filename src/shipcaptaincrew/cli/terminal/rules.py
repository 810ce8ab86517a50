"""The rules part of the set-up dialogue: a preset, then any option of the table, by menu.

Nothing here knows an option.  The menus are drawn from the option table
(:data:`~shipcaptaincrew.options.OPTIONS`, group by group) and the format kinds
(:data:`~shipcaptaincrew.formats.FORMAT_KINDS`): every option is listed with its value in
words, the player picks any of them to change (yes/no for a flag, the choices' labels for a
choice, a number within the option's bounds, a format kind and then its N), and Enter starts.
An option that means something only under another's value (who takes the pot, under a pot;
the captain's sips, when the captain hands out) is listed once that value is chosen, and
goes back to its default when it is chosen away.  Each question first says the option's help
text, so where the next round's starter is chosen the seating convention is stated.
Every answer is checked by :class:`~shipcaptaincrew.rules.Rules` itself and by
:func:`~shipcaptaincrew.engine.check_players`, so a combination that cannot work is refused
in the player's language and the question is asked again.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from ...engine import check_players
from ...errors import GameError
from ...facts import SOLO_PLAYERS
from ...formats import FORMAT_KINDS, MatchFormat
from ...i18n import Translator, _, active_lang, translator
from ...i18n.rules_text import rules_title
from ...options import (
    NONE_WORDS,
    OPTIONS,
    Group,
    Option,
    OptionType,
    options_in,
)
from ...rules import PRESET_DESCRIPTIONS, PRESET_TITLES, PRESETS, Rules
from .option_words import GROUP_TITLES, bounds_words, format_spellings, option_line, value_words
from .prompt import Prompter, parse_int, yes_no_words

__all__ = ["ask_option", "ask_preset", "ask_rules", "edit_options"]


def ask_rules(prompt: Prompter, players: int, fixed: Mapping[str, Any] | None = None) -> Rules:
    """The preset, then the option menu until Enter.

    ``fixed`` holds options a flag has decided (``--starter`` decides ``starter=chosen``):
    they are set on the preset and neither listed nor asked.
    """
    rules = ask_preset(prompt).replace(**(fixed or {}))
    return edit_options(prompt, rules, players, fixed or {})


def ask_preset(prompt: Prompter) -> Rules:
    """A menu of the presets by their names for people, each with what it follows."""
    names = list(PRESETS)
    prompt.console.print(_("Which rules?"))
    menu = [f"{_(PRESET_TITLES[n])} ({n}): {_(PRESET_DESCRIPTIONS[n])}" for n in names]
    return PRESETS[names[prompt.choose(_("Preset"), menu, default=0)]]


def edit_options(
    prompt: Prompter, rules: Rules, players: int, fixed: Collection[str] = ()
) -> Rules:
    """Every option with its value, under its group's heading; pick one to change, Enter starts.

    Only the options that apply to what was chosen are listed: not those that mean nothing
    under the current rules (``Rules.says``: the ante and the starting chips when playing for
    points, the wild face without a wild captain).
    """
    tr = translator(active_lang())
    while True:
        options = [
            o
            for group in Group
            for o in options_in(group)
            if o.name not in fixed and rules.says(o.name)
        ]
        headings = {
            i: tr(GROUP_TITLES[o.group])
            for i, o in enumerate(options)
            if i == 0 or options[i - 1].group is not o.group
        }
        title = rules_title(rules, tr)
        prompt.console.print(_("Rules: {rules}").format(rules=title), markup=False, soft_wrap=True)
        lines = [option_line(o, getattr(rules, o.name), tr) for o in options]
        k = prompt.pick(_("Option to change"), lines, enter=_("start"), headings=headings)
        if k is None:
            return rules
        rules = ask_option(prompt, rules, options[k], players)


def ask_option(prompt: Prompter, rules: Rules, option: Option, players: int) -> Rules:
    """One option's question, asked until the rule set and the table accept the answer.

    An answer the rule set refuses alone but that brings options into play (a wild captain
    under bow to stern needs a wild face other than 1) asks those at once, so the two are
    accepted together.
    """
    tr = translator(active_lang())
    prompt.console.print(f"{tr(option.label)}: {tr(option.help)}", markup=False, style="dim")
    while True:
        value = _ASK[option.kind](prompt, option, getattr(rules, option.name), tr)
        changes = {option.name: value, **_dependents(option, value)}
        try:
            return _checked(rules.replace(**changes), players)
        except GameError as e:
            newly = _newly_applying(option, value)
            if not newly:
                prompt.complain(e)
                continue
        for other in newly:
            prompt.console.print(f"{tr(other.label)}: {tr(other.help)}", markup=False, style="dim")
            changes[other.name] = _ASK[other.kind](prompt, other, getattr(rules, other.name), tr)
        try:
            return _checked(rules.replace(**changes), players)
        except GameError as e:
            prompt.complain(e)


def _checked(rules: Rules, players: int) -> Rules:
    check_players(rules, players, solo=players == SOLO_PLAYERS)
    return rules


def _newly_applying(option: Option, value: Any) -> list[Option]:
    """The options that mean something once ``option`` has ``value`` (their ``requires``)."""
    text = option.text(value)
    return [o for o in OPTIONS.values() if o.requires == (option.name, text)]


def _dependents(option: Option, value: Any) -> dict[str, Any]:
    """Options that mean something only under another value of ``option``: back to default."""
    text = option.text(value)
    return {
        o.name: o.default
        for o in OPTIONS.values()
        if o.requires is not None and o.requires[0] == option.name and o.requires[1] != text
    }


def _ask_flag(prompt: Prompter, option: Option, current: Any, tr: Translator) -> bool:
    menu = [tr("yes"), tr("no")]
    k = prompt.choose(tr(option.label), menu, default=0 if current else 1, words=yes_no_words())
    return k == 0


def _ask_choice(prompt: Prompter, option: Option, current: Any, tr: Translator) -> str:
    menu = [f"{tr(c.label)} ({c.value})" for c in option.choices]
    now = option.choice(current)
    k = prompt.choose(tr(option.label), menu, default=option.choices.index(now))
    return option.choices[k].value


def _ask_number(prompt: Prompter, option: Option, current: Any, tr: Translator) -> int | None:
    lo, hi = option.bounds

    def parse(text: str) -> int | None:
        if text == "":
            return current  # type: ignore[no-any-return]
        if option.unlimited and text.lower() in (*NONE_WORDS, tr("no limit").lower()):
            return None
        return parse_int(text, lo, hi)

    enter = _("Enter = {n}").format(n=value_words(option, current, tr))
    return prompt.ask(f"{tr(option.label)} [{bounds_words(option, tr)}, {enter}]", parse)


def _ask_format(prompt: Prompter, option: Option, current: Any, tr: Translator) -> MatchFormat:
    specs = list(FORMAT_KINDS.values())
    menu = [f"{tr(s.label)} ({text})" for s, text in zip(specs, format_spellings(), strict=True)]
    kinds = [s.kind for s in specs]
    spec = specs[prompt.choose(tr(option.label), menu, default=kinds.index(current.kind))]
    if spec.bounds is None:
        return MatchFormat(spec.kind)
    lo, hi = spec.bounds
    default = current.n if current.kind is spec.kind else spec.default_n
    return MatchFormat(spec.kind, prompt.integer(f"{tr(spec.label)}: N", lo, hi, default))


_ASK: dict[OptionType, Callable[[Prompter, Option, Any, Translator], Any]] = {
    OptionType.FLAG: _ask_flag,
    OptionType.NUMBER: _ask_number,
    OptionType.CHOICE: _ask_choice,
    OptionType.FORMAT: _ask_format,
}
