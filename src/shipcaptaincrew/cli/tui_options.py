"""The options ``scc play``, ``scc companion`` and ``scc rules`` share (kept light to import)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Annotated, Any, TypeVar, get_type_hints

import typer

from .common import SetOpt

__all__ = [
    "DrinkingOpt",
    "FormatOpt",
    "LangOpt",
    "LogOpt",
    "RulesOrAsk",
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
        "--rules", "-r", help="Preset name or alias, or a canonical rules text (default: ask)."
    ),
]
FormatOpt = Annotated[
    str | None,
    typer.Option("--format", help="Match format: single, rounds:N, first_to:N or tournament."),
]
StakesOpt = Annotated[str | None, typer.Option("--stakes", help="points or pot.")]
DrinkingOpt = Annotated[
    str | None,
    typer.Option("--drinking", help="none, all_but_winner, last_drinks or captain_hands_out."),
]
TieBreakOpt = Annotated[
    str | None,
    typer.Option("--tie-break", help="replay (tied players play again) or cargo_rolloff (002)."),
]
StarterOpt = Annotated[
    str | None,
    typer.Option(
        "--starter", help="Who starts (seat number from 1, or name); sets starter=chosen."
    ),
]
LangOpt = Annotated[
    str | None,
    typer.Option("--lang", help="Language: en, de or nb (default: from LANG / LC_ALL / LANGUAGE)."),
]
LogOpt = Annotated[Path | None, typer.Option("--log", help="Where to write the event log.")]


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
