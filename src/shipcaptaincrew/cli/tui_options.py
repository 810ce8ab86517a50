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

from ..options import OPTIONS, Starter
from .common import SetOpt
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
    "or_list",
    "table_options",
]

F = TypeVar("F", bound=Callable[..., Any])

#: ``--rules`` without a default: when no rule flag is given the set-up dialogue asks.
RulesOrAsk = Annotated[
    str | None,
    typer.Option(
        "--rules", "-r", help="Preset name or alias, or a canonical rules text (default: ask)."
    ),
]


def or_list(words: list[str]) -> str:
    """``a, b or c``: the spellings of a flag's values for its help text."""
    return ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else "".join(words)


def _choices_help(name: str) -> str:
    """``--NAME``'s help: the option's help text and its choices (the option table's words)."""
    option = OPTIONS[name]
    return (
        f"{option.help[:1].upper()}{option.help[1:]}: {or_list([c.value for c in option.choices])}."
    )


#: ``--format``'s help, with every format kind's spelling.
FORMAT_HELP = f"Match format: {or_list(format_spellings())}."
FormatOpt = Annotated[str | None, typer.Option("--format", help=FORMAT_HELP)]
StakesOpt = Annotated[str | None, typer.Option("--stakes", help=_choices_help("stakes"))]
DrinkingOpt = Annotated[str | None, typer.Option("--drinking", help=_choices_help("drinking"))]
TieBreakOpt = Annotated[str | None, typer.Option("--tie-break", help=_choices_help("tie_break"))]
StarterOpt = Annotated[
    str | None,
    typer.Option(
        "--starter",
        help=f"Who starts (seat number from 1, or name); sets starter={Starter.CHOSEN.value}.",
    ),
]
LogOpt = Annotated[Path | None, typer.Option("--log", help="Where to write the event log.")]
ScriptOpt = Annotated[
    Path | None,
    typer.Option(
        "--script",
        help="Read the answers from FILE, one per line, instead of the keyboard (the same "
        "questions and checks; the end of the file ends the match).",
        exists=True,
        dir_okay=False,
        readable=True,
    ),
]
ResultJsonOpt = Annotated[
    bool,
    typer.Option(
        "--json",
        help="At the end print one JSON object (rules, players, rounds, totals, wins, chips, "
        "sips, winner) on stdout; the match is told on stderr.",
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
