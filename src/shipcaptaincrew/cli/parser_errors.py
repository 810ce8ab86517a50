"""The command line's usage errors in the chosen language, one line each.

Typer (through its Click) raises an exception for every way a command line can be wrong --
an unknown command or option, a missing value, a value of the wrong kind -- with an English
text of its own.  Those texts are not shown: each error is read for what it carries (the
option, the value, the candidates, the bound that was crossed) and said again from the
``scc`` catalogue, followed by where the help is.  :class:`~.app.SccGroup` prints it as
``error: ...`` on stderr and exits with status 2.
"""

from __future__ import annotations

import gettext
from collections.abc import Sequence
from typing import Any

from typer import _click
from typer._click.exceptions import (
    BadOptionUsage,
    BadParameter,
    MissingParameter,
    NoSuchOption,
    UsageError,
)
from typer.core import TyperArgument

from ..i18n import _, active_lang

__all__ = ["UnexpectedArgumentsError", "UnknownCommandError", "usage_text"]

#: Typer's text for a group called without its command (through the standard gettext).
_TYPER_MISSING_COMMAND = "Missing command."


class UnknownCommandError(UsageError):
    """A command name ``scc`` does not have, with the names it resembles."""

    def __init__(self, name: str, close: Sequence[str], ctx: _click.Context) -> None:
        super().__init__(f"no such command {name!r}", ctx)
        self.name = name
        self.close = list(close)


class UnexpectedArgumentsError(UsageError):
    """Words left over after a command's options and arguments."""

    def __init__(self, words: Sequence[str], ctx: _click.Context) -> None:
        super().__init__(f"unexpected {' '.join(words)!r}", ctx)
        self.words = list(words)


def _quoted(words: Sequence[str]) -> str:
    return ", ".join(words)


def _name(param: Any) -> str:
    if isinstance(param, TyperArgument):
        from .helptext import _metavar

        return _metavar(param)
    opts = sorted(param.opts, key=len)
    return opts[-1] if opts else str(param.name)


def _bad_value(e: BadParameter) -> str:
    """A value of the wrong kind or out of bounds, from what the validator recorded."""
    name = _name(e.param) if e.param is not None else "?"
    cause = e.__cause__
    errors = getattr(cause, "errors", None)
    if callable(errors):
        first: dict[str, Any] = errors()[0]
        kind, value = first.get("type", ""), first.get("input", "")
        limits = first.get("ctx") or {}
        if kind in ("int_parsing", "int_from_float", "int_type"):
            return _("{option}: '{value}' is not a whole number").format(option=name, value=value)
        if kind in ("float_parsing", "float_type"):
            return _("{option}: '{value}' is not a number").format(option=name, value=value)
        if kind in ("greater_than_equal", "greater_than"):
            bound = limits.get("ge", limits.get("gt"))
            return _("{option} must be at least {limit}, got {value}").format(
                option=name, limit=bound, value=value
            )
        if kind in ("less_than_equal", "less_than"):
            bound = limits.get("le", limits.get("lt"))
            return _("{option} must be at most {limit}, got {value}").format(
                option=name, limit=bound, value=value
            )
        return _("{option}: '{value}' is not a valid value").format(option=name, value=value)
    return _("{option}: not a valid value").format(option=name)


def _problem(e: UsageError) -> str:
    if isinstance(e, UnknownCommandError):
        if e.close:
            return _("no such command: {name}; did you mean {commands}?").format(
                name=e.name, commands=_quoted(e.close)
            )
        return _("no such command: {name}").format(name=e.name)
    if isinstance(e, UnexpectedArgumentsError):
        return _("unexpected words on the command line: {words}").format(words=" ".join(e.words))
    if isinstance(e, NoSuchOption):
        if e.possibilities:
            return _("no such option: {option}; did you mean {options}?").format(
                option=e.option_name, options=_quoted(sorted(e.possibilities))
            )
        return _("no such option: {option}").format(option=e.option_name)
    if isinstance(e, MissingParameter):
        if isinstance(e.param, TyperArgument):
            return _("missing argument {name}").format(name=_name(e.param))
        return _("missing option {option}").format(option=_name(e.param))
    if isinstance(e, BadParameter):
        return _bad_value(e)
    if isinstance(e, BadOptionUsage):
        if "requires" in e.message:
            return _("option {option} needs a value").format(option=e.option_name)
        return _("option {option} takes no value").format(option=e.option_name)
    if e.message == gettext.gettext(_TYPER_MISSING_COMMAND):
        return _("missing command")
    # Anything else Typer may say: its English detail only where English is spoken.
    if active_lang() == "en":
        return _("the command line cannot be read: {detail}").format(detail=e.format_message())
    return _("the command line cannot be read")


def usage_text(e: UsageError) -> str:
    """The usage error in the active language, with the command whose help explains it."""
    problem = _problem(e)
    if e.ctx is None:
        return problem
    return _("{problem} (see {command} --help)").format(problem=problem, command=e.ctx.command_path)
