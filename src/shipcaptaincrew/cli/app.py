"""The Typer application behind ``scc``, speaking the chosen language from the first word.

Each module of :mod:`.commands` registers its commands on :data:`app`; they are
found automatically so that command groups stay in small modules of their own.  Modules must
import heavy libraries (NumPy, matplotlib, FastAPI, ...) inside their command functions, so
that ``scc --help`` stays quick.

Typer parses and dispatches; everything a person reads is ours.  The language is settled
before parsing starts (``--lang`` anywhere on the command line, else the locale), so that
``--help`` (:mod:`.helptext`) and a usage error (:mod:`.parser_errors`) are in that language
too, whatever the order of the options: the help is drawn from the catalogue as paragraphs
the terminal wraps, and a usage error is one line on stderr with status 2, as every other
refusal of the command line.
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
import sys
from collections.abc import Callable, Sequence
from typing import Annotated, Any

import typer
from typer import _click
from typer.core import TyperCommand, TyperGroup

from ..i18n import _
from ..messages import N_
from .common import LANG_HELP, fail, start_language
from .extras import missing_extra_text
from .helptext import render_help
from .parser_errors import UnexpectedArgumentsError, UnknownCommandError, usage_text

#: The order of the command list in ``scc --help``: playing first, then the analysis, then
#: the tools.  A command missing here is listed after these.
COMMAND_ORDER = (
    "play", "companion", "serve", "rules", "presets", "turn", "odds", "strategy", "advise",
    "equilibrium", "evaluate", "export", "simulate", "sweep", "demo", "replay", "verify",
    "report", "backup", "restore",
)  # fmt: skip


def command_words(args: Sequence[str]) -> list[str]:
    """The command (and sub-command) named on a command line, without its options.

    >>> command_words(["--lang", "de", "report", "strategy", "--out", "x"])
    ['report', 'strategy']
    """
    words: list[str] = []
    skip = False
    for a in args:
        if skip:
            skip = False
        elif a == "--lang":
            skip = True
        elif a.startswith("-"):
            break
        else:
            words.append(a)
            if a != "report":
                break
    return words


def language_from_argv(args: Sequence[str]) -> str | None:
    """The value of the first ``--lang`` on a command line, wherever it stands (or None).

    >>> language_from_argv(["play", "--help", "--lang", "de"]), language_from_argv(["--lang=nb"])
    ('de', 'nb')
    """
    for i, a in enumerate(args):
        if a == "--":
            break
        if a == "--lang" and i + 1 < len(args):
            return args[i + 1]
        if a.startswith("--lang="):
            return a.split("=", 1)[1]
    return None


class SccCommand(TyperCommand):
    """A command whose help and usage errors are ours (see the module's docstring)."""

    def format_help(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        formatter.write(render_help(self, ctx))

    def parse_args(self, ctx: _click.Context, args: list[str]) -> list[str]:
        # Extra words are collected and refused in words of our own (naming them).
        allowed, ctx.allow_extra_args = ctx.allow_extra_args, True
        rest = super().parse_args(ctx, args)
        ctx.allow_extra_args = allowed
        if rest and not allowed:
            raise UnexpectedArgumentsError(rest, ctx)
        return rest


class SccGroup(TyperGroup):
    """``scc`` itself: its help, its command list in :data:`COMMAND_ORDER`, one-line errors."""

    def format_help(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        formatter.write(render_help(self, ctx))

    def list_commands(self, ctx: _click.Context) -> list[str]:
        names = super().list_commands(ctx)
        rank = {n: i for i, n in enumerate(COMMAND_ORDER)}
        return sorted(names, key=lambda n: rank.get(n, len(rank)))

    def resolve_command(
        self, ctx: _click.Context, args: list[str]
    ) -> tuple[str | None, _click.Command | None, list[str]]:
        name = args[0]
        if self.get_command(ctx, name) is None and not name.startswith("-"):
            close = difflib.get_close_matches(name, self.list_commands(ctx))
            raise UnknownCommandError(name, close, ctx)
        return super().resolve_command(ctx, args)

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        # The locale's language first, so that an unknown --lang is refused in it, before
        # anything runs.
        start_language(None)
        wanted = language_from_argv(argv)
        if wanted is not None:
            start_language(wanted)
        try:
            rv = super().main(
                args=argv,
                prog_name=prog_name or "scc",
                complete_var=complete_var,
                standalone_mode=False,
                **extra,
            )
        except _click.exceptions.NoArgsIsHelpError as e:
            typer.echo(e.ctx.get_help())
            rv = 2
        except _click.exceptions.UsageError as e:
            fail(usage_text(e))
        except typer.Abort:
            fail(_("stopped"), code=1)
        except ImportError as e:
            # A library of an extra that is not installed: one line saying what to install.
            text = missing_extra_text(e, " ".join(["scc", *command_words(argv)]))
            if text is None:
                raise
            fail(text)
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


class SccTyper(typer.Typer):
    """A Typer whose commands are :class:`SccCommand` unless they say otherwise."""

    def command(self, *args: Any, **kwargs: Any) -> Callable[[Any], Any]:
        kwargs.setdefault("cls", SccCommand)
        return super().command(*args, **kwargs)


app = SccTyper(
    name="scc",
    cls=SccGroup,
    help=N_("Ship, Captain and Crew (6-5-4): play, analyse and solve the pub dice game."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from ..version import version  # asks git: only when the version is printed

        typer.echo(f"scc (shipcaptaincrew) {version()}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_version,
            is_eager=True,
            help=N_("Print the version and exit."),
        ),
    ] = False,
    lang: Annotated[str | None, typer.Option("--lang", metavar=N_("LANG"), help=LANG_HELP)] = None,
) -> None:
    """The options before the command (the language is already chosen: see ``main``)."""
    if lang is not None:
        start_language(lang)


def _load_commands() -> None:
    from . import commands

    for mod in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"{commands.__name__}.{mod.name}")


_load_commands()
