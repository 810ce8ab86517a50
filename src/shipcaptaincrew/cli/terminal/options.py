"""The flags ``scc play`` and ``scc companion`` share (kept light to import).

Their help texts list the choices of the option table (:mod:`shipcaptaincrew.options`), so a
new choice shows up in ``--help`` without being typed here.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Annotated, Any, TypeVar, get_type_hints

import typer

from ...i18n import Translator
from ...messages import N_
from ...options import OPTIONS, Starter
from ..common import SetOpt
from ..helptext import composed, or_words
from .option_words import format_spellings

__all__ = [
    "FORMAT_HELP",
    "DrinkingOpt",
    "FormatOpt",
    "LogOpt",
    "ResultJsonOpt",
    "RulesOrAsk",
    "ScriptOpt",
    "StakesOpt",
    "StarterOpt",
    "TableFlags",
    "TieBreakOpt",
    "table_options",
]

F = TypeVar("F", bound=Callable[..., Any])

#: ``--rules`` without a default: when no rule flag is given the set-up dialogue asks.
RulesOrAsk = Annotated[
    str | None,
    typer.Option(
        "--rules",
        "-r",
        metavar=N_("PRESET"),
        help=N_(
            "A preset's name or alias (scc presets lists them), or a canonical rules text; "
            "without it the game asks."
        ),
    ),
]


def _choices_help(name: str) -> str:
    """``--NAME``'s help: the option's help text and its choices (the option table's words)."""
    option = OPTIONS[name]

    def render(tr: Translator) -> str:
        text = tr(option.help)
        choices = or_words([c.value for c in option.choices], tr)
        return f"{text[:1].upper()}{text[1:]}: {choices}."

    return composed(render)


#: ``--format``'s help, with every format kind's spelling.
FORMAT_HELP = composed(
    lambda tr: tr("The match format: {formats}.").format(formats=or_words(format_spellings(), tr))
)
FormatOpt = Annotated[str | None, typer.Option("--format", metavar=N_("FORMAT"), help=FORMAT_HELP)]
StakesOpt = Annotated[
    str | None,
    typer.Option("--stakes", metavar=N_("STAKES"), help=_choices_help("stakes")),
]
DrinkingOpt = Annotated[
    str | None,
    typer.Option("--drinking", metavar=N_("MODE"), help=_choices_help("drinking")),
]
TieBreakOpt = Annotated[
    str | None,
    typer.Option("--tie-break", metavar=N_("MODE"), help=_choices_help("tie_break")),
]
StarterOpt = Annotated[
    str | None,
    typer.Option(
        "--starter",
        metavar=N_("SEAT"),
        help=composed(
            lambda tr: tr(
                "Who starts: a seat number from 1, or a name; it sets starter={chosen}."
            ).format(chosen=Starter.CHOSEN.value)
        ),
    ),
]
LogOpt = Annotated[
    Path | None,
    typer.Option(
        "--log",
        metavar=N_("FILE"),
        help=N_("Where to write the event log (without it: logs/ in this directory)."),
    ),
]
ScriptOpt = Annotated[
    Path | None,
    typer.Option(
        "--script",
        metavar=N_("FILE"),
        help=N_(
            "Read the answers from FILE, one a line, instead of the keyboard: the same "
            "questions and checks, no pause for the bots, and the end of the file ends the "
            "match."
        ),
    ),
]
ResultJsonOpt = Annotated[
    bool,
    typer.Option(
        "--json",
        help=N_(
            "At the end print one JSON object (rules, players, rounds, totals, wins, chips, "
            "sips, winner) on stdout; the match is told on stderr."
        ),
    ),
]


@dataclass(frozen=True)
class TableFlags:
    """The rule flags of a table (``scc play`` and ``scc companion``); None = not given."""

    rules: RulesOrAsk = None
    settings: SetOpt = None
    fmt: FormatOpt = None
    stakes: StakesOpt = None
    drinking: DrinkingOpt = None
    tie_break: TieBreakOpt = None
    starter: StarterOpt = None


def table_options(command: F) -> F:
    """Declare the :class:`TableFlags` options on a command in place of its ``table`` parameter.

    ``--help`` lists them where ``table`` stands in the signature (each as the field of the
    same name declares it); the command receives their values as one ``table: TableFlags``.
    """
    signature = inspect.signature(command, eval_str=True)
    types = get_type_hints(TableFlags, include_extras=True)
    flags = [
        inspect.Parameter(
            f.name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=types[f.name]
        )
        for f in fields(TableFlags)
    ]
    params: list[inspect.Parameter] = []
    for param in signature.parameters.values():
        params += flags if param.name == "table" else [param]

    @functools.wraps(command)
    def run(**kwargs: Any) -> Any:
        table = TableFlags(**{f.name: kwargs.pop(f.name) for f in flags})
        return command(table=table, **kwargs)

    run.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
    return run  # type: ignore[return-value]
