"""``scc presets``: the rule sets on offer and every option they are made of, from the table.

Each preset is shown with its name for people, what it follows and the options in which it
differs from ``classic``; each option with its label, kind, choices or bounds, default and the
sheet sentences it comes from.  Everything is read from the option table
(:mod:`shipcaptaincrew.options`), the format kinds and the presets, so nothing here can drift
from the rules the engine plays by.  ``--json`` gives the same in English message ids.
"""

from __future__ import annotations

import json
import os
from typing import Annotated, Any

import typer

from ...facts import house_rule_where
from ...formats import FORMAT_KINDS
from ...i18n import Translator
from ...messages import N_
from ...options import OPTIONS, Option, OptionType
from ...rules import ALIASES, OPTION_DOCS, PRESET_DESCRIPTIONS, PRESET_TITLES, PRESETS, Rules
from ..app import app
from ..common import LangOpt
from ..terminal.option_words import (
    KIND_WORDS,
    bounds_words,
    differences,
    format_spellings,
    value_words,
)

__all__ = ["option_json", "presets", "presets_json"]

#: Every preset is described by what it changes from this one.
BASE = "classic"


def option_json(option: Option) -> dict[str, Any]:
    """One option as ``scc presets --json`` lists it."""
    data: dict[str, Any] = {
        "name": option.name,
        "kind": option.kind.value,
        "group": option.group.value,
        "default": Rules().options()[option.name],
        "choices": None,
        "bounds": None,
        "sources": list(option.sources),
        "label": option.label,
        "help": option.help,
        "doc": OPTION_DOCS[option.name],
    }
    if option.kind is OptionType.CHOICE:
        data["choices"] = [c.value for c in option.choices]
    elif option.kind is OptionType.NUMBER:
        data["bounds"] = list(option.bounds)
        data["unlimited"] = option.unlimited
    elif option.kind is OptionType.FORMAT:
        data["choices"] = format_spellings()
        data["kinds"] = [
            {
                "kind": spec.kind.value,
                "label": spec.label,
                "help": spec.help,
                "bounds": list(spec.bounds) if spec.bounds else None,
                "default_n": spec.default_n if spec.bounds else None,
                "sources": list(spec.sources),
            }
            for spec in FORMAT_KINDS.values()
        ]
    return data


def presets_json() -> dict[str, Any]:
    """The presets and the options, as ``scc presets --json`` prints them."""
    base = PRESETS[BASE]
    return {
        "presets": [
            {
                "name": name,
                "title": PRESET_TITLES[name],
                "description": PRESET_DESCRIPTIONS[name],
                "aliases": sorted(a for a, n in ALIASES.items() if n == name and a != name),
                "options": rules.changed_from(base),
                "rules": str(rules),
            }
            for name, rules in PRESETS.items()
        ],
        "options": [option_json(o) for o in OPTIONS.values()],
    }


def _values(option: Option, tr: Translator) -> str:
    """The choices of an option (label and canonical value) or its bounds, one per line."""
    if option.kind is OptionType.CHOICE:
        return "\n".join(f"{tr(c.label)} ({c.value})" for c in option.choices)
    if option.kind is OptionType.FORMAT:
        specs = FORMAT_KINDS.values()
        return "\n".join(
            f"{tr(s.label)} ({text})" for s, text in zip(specs, format_spellings(), strict=True)
        )
    if option.kind is OptionType.NUMBER:
        return bounds_words(option, tr)
    return f"{tr('yes')} / {tr('no')}"


def source_words(source: str, tr: Translator) -> str:
    """An option's source for a reader: a sheet's sentence number as it is, a house rule in
    the reader's language (where tables play it is a catalogue message, see ``house_rule``)."""
    where = house_rule_where(source)
    return source if where is None else tr("house rule: {where}").format(where=tr(where))


@app.command(
    help=N_(
        "List the presets (what each changes from classic) and every option of the rules, with "
        "its choices or bounds, its default and the sheet sentences it comes from."
    )
)
def presets(
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help=N_("Print one JSON object (English message ids, for programs).")
        ),
    ] = False,
    lang: LangOpt = None,
) -> None:
    """The presets and the option table, as people read them or as JSON."""
    if as_json:
        typer.echo(json.dumps(presets_json(), indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    from ...i18n import _, active_lang, translator

    tr = translator(active_lang())
    con = Console(highlight=False)
    if not con.is_terminal and "COLUMNS" not in os.environ:
        con = Console(highlight=False, width=120)  # piped: do not squeeze into 80 columns
    t = Table(title=_("Presets"), show_lines=True)
    for col in (_("preset"), _("aliases"), _("changes from classic"), _("description")):
        t.add_column(col, overflow="fold")
    base = PRESETS[BASE]
    for name, rules in PRESETS.items():
        aliases = sorted(a for a, n in ALIASES.items() if n == name and a != name)
        t.add_row(
            f"{tr(PRESET_TITLES[name])}\n({name})",
            ", ".join(aliases),
            "\n".join(differences(rules, base, tr)) or "-",
            tr(PRESET_DESCRIPTIONS[name]),
        )
    con.print(t)
    o = Table(title=_("Options (--set KEY=VALUE)"), show_lines=True)
    for col in (_("option"), _("values"), _("default"), _("source")):
        o.add_column(col, overflow="fold")
    for option in OPTIONS.values():
        o.add_row(
            f"{tr(option.label)} ({option.name})\n{tr(option.help)}",
            f"{tr(KIND_WORDS[option.kind])}:\n{_values(option, tr)}",
            value_words(option, option.default, tr),
            ", ".join(source_words(s, tr) for s in option.sources),
        )
    con.print(o)
