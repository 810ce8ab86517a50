"""The Typer application behind ``scc``.

Each ``cmd_*.py`` module in this package registers its commands on :data:`app`; they are
found automatically so that command groups stay in small modules of their own.  Modules must
import heavy libraries (NumPy, matplotlib, FastAPI, ...) inside their command functions, so
that ``scc --help`` stays quick.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Annotated

import typer

from .. import __version__
from .common import LANG_HELP, start_language

app = typer.Typer(
    name="scc",
    help="Ship, Captain and Crew (6-5-4): play, analyse and solve the pub dice game.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"scc (shipcaptaincrew) {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
    lang: Annotated[str | None, typer.Option("--lang", help=LANG_HELP)] = None,
) -> None:
    """Ship, Captain and Crew (6-5-4): play, analyse and solve the pub dice game."""
    start_language(lang)


def _load_commands() -> None:
    from .. import cli

    for mod in sorted(pkgutil.iter_modules(cli.__path__), key=lambda m: m.name):
        if mod.name.startswith("cmd_"):
            importlib.import_module(f"{cli.__name__}.{mod.name}")


_load_commands()
