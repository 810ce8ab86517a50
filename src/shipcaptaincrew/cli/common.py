"""Helpers shared by the commands: reading rule options, and failing with one clear line."""

from __future__ import annotations

import sys
from typing import Annotated, NoReturn

import typer

from ..rules import InvalidRulesError, Rules, find_rules

#: ``--rules PRESET`` as every command spells it.
RulesOpt = Annotated[
    str,
    typer.Option("--rules", "-r", help="Preset name or alias, or a canonical rules text."),
]
#: ``--set KEY=VALUE`` (repeatable).
SetOpt = Annotated[
    list[str] | None,
    typer.Option("--set", "-s", help="Change one option, e.g. --set half_cargo=true (repeatable)."),
]


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one line naming the problem to stderr and exit (status 2 = bad input)."""
    typer.echo(f"error: {message}", err=True)
    sys.exit(code)


def load_rules(rules: str, settings: list[str] | None) -> Rules:
    """The rule set from ``--rules`` and ``--set``; bad input exits with status 2."""
    try:
        return find_rules(rules).with_settings(settings or [])
    except InvalidRulesError as e:
        fail(str(e))
