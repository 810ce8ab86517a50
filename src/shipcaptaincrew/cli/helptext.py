"""``--help`` in the chosen language: usage, paragraphs the terminal wraps, the options.

Every help text of the command line is a catalogue message (``N_("...")`` where it is
declared); a help text put together from the option table (a flag's choices, the languages)
is registered with :func:`composed`, which keeps the way to build it again in any language.
The page is drawn here rather than by Typer, so that it has no type labels (``<int>``), no
markup, no box and nothing cut off: a paragraph of the catalogue is one line there, wrapped
here to the terminal's width.
"""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from typer import _click
from typer.core import TyperArgument, TyperOption

from ..i18n import Translator, _, active_lang, translator
from ..messages import N_

__all__ = ["composed", "or_words", "render_help", "say"]

#: Help texts built from pieces, by their English text: how to build each in any language.
_COMPOSED: dict[str, Callable[[Translator], str]] = {}

#: Words Typer puts on the page itself, for the catalogue.
N_("Show this message and exit.")
#: The placeholder of a value when its option names none of its own.
_VALUE_WORDS = {int: N_("N"), float: N_("X"), Path: N_("FILE")}
_TEXT = N_("TEXT")


def composed(render: Callable[[Translator], str]) -> str:
    """A help text made of catalogue pieces: its English text, remembered with ``render``.

    >>> text = composed(lambda tr: tr("ship") + ", " + tr("captain"))
    >>> text, say(text)
    ('ship, captain', 'ship, captain')
    """
    text = render(translator("en"))
    _COMPOSED[text] = render
    return text


def say(text: str | None) -> str:
    """A help text in the active language (a composed one built again in it)."""
    if not text:
        return ""
    tr = translator(active_lang())
    render = _COMPOSED.get(text)
    return render(tr) if render is not None else tr(text)


def or_words(words: Sequence[str], tr: Translator) -> str:
    """``a, b or c`` in the translator's language (the last two joined by its "or").

    >>> or_words(["en", "de", "nb"], translator("de"))
    'en, de oder nb'
    """
    if len(words) < 2:
        return "".join(words)
    return tr("{first} or {last}").format(first=", ".join(words[:-1]), last=words[-1])


def _width() -> int:
    return max(40, min(shutil.get_terminal_size((80, 24)).columns, 100))


def _paragraphs(text: str, width: int, indent: str = "") -> list[str]:
    """``text``'s paragraphs (separated by a blank line), each wrapped to ``width``."""
    out: list[str] = []
    for para in text.split("\n\n"):
        words = " ".join(para.split())
        if words:
            out += textwrap.wrap(
                words,
                width,
                initial_indent=indent,
                subsequent_indent=indent,
                break_long_words=False,
                break_on_hyphens=False,
            )
            out.append("")
    return out


def _metavar(param: Any) -> str:
    if param.metavar:
        return say(param.metavar)
    if isinstance(param, TyperArgument):
        return str(param.name).upper()
    annotation = param.type_descriptor.annotation
    for kind, word in _VALUE_WORDS.items():
        if annotation is kind or (isinstance(annotation, type) and issubclass(annotation, kind)):
            return _(word)
    if param.type_descriptor.is_path:
        return _(_VALUE_WORDS[Path])
    return _(_TEXT)


def _option_names(param: TyperOption) -> str:
    names = sorted(param.opts, key=lambda o: (o.startswith("--"), o))
    text = ", ".join(names)
    if param.secondary_opts:
        text += " / " + ", ".join(param.secondary_opts)
    if not param.is_flag:
        text += " " + _metavar(param)
    return text


def _default(param: TyperOption) -> str | None:
    value = param.default
    if param.is_flag or value is None or value == [] or value == ():
        return None
    return str(value)


def _option_help(param: TyperOption) -> str:
    text = say(param.help)
    extras = []
    if param.required:
        extras.append(_("required"))
    default = _default(param)
    if default is not None:
        extras.append(_("default: {value}").format(value=default))
    if extras:
        text = f"{text} [{'; '.join(extras)}]"
    return text


def _rows(rows: list[tuple[str, str]], width: int) -> list[str]:
    """A two-column list: names on the left, their help wrapped beside them."""
    column = min(max(len(name) for name, _ in rows), 30) + 4
    out = []
    for name, text in rows:
        help_lines = textwrap.wrap(
            " ".join(text.split()),
            max(width - column, 20),
            break_long_words=False,
            break_on_hyphens=False,
        ) or [""]
        if len(name) + 4 > column:
            out.append(f"  {name}")
            out += [" " * column + line for line in help_lines]
        else:
            out.append(f"  {name.ljust(column - 2)}{help_lines[0]}")
            out += [" " * column + line for line in help_lines[1:]]
    return out


def _usage(command: _click.Command, ctx: _click.Context) -> str:
    parts = [ctx.command_path, _("[OPTIONS]")]
    for param in command.get_params(ctx):
        if isinstance(param, TyperArgument):
            name = _metavar(param) + ("..." if param.nargs == -1 else "")
            parts.append(name if param.required else f"[{name}]")
    if hasattr(command, "commands"):
        parts.append(_("COMMAND [ARGS]..."))
    return _("Usage: {usage}").format(usage=" ".join(parts))


def render_help(command: _click.Command, ctx: _click.Context) -> str:
    """The help page of ``command`` in the active language, wrapped to the terminal."""
    width = _width()
    lines = [_usage(command, ctx), ""]
    lines += _paragraphs(say(command.help), width)
    params = [p for p in command.get_params(ctx) if not getattr(p, "hidden", False)]
    arguments = [(_metavar(p), say(p.help)) for p in params if isinstance(p, TyperArgument)]
    options = [(_option_names(p), _option_help(p)) for p in params if isinstance(p, TyperOption)]
    if arguments:
        lines += [_("Arguments:"), *_rows(arguments, width), ""]
    if options:
        lines += [_("Options:"), *_rows(options, width), ""]
    commands = getattr(command, "commands", None)
    if commands:
        listed = command.list_commands(ctx)  # type: ignore[attr-defined]
        rows = [(n, say(commands[n].help).split("\n\n")[0]) for n in listed]
        lines += [_("Commands:"), *_rows(rows, width), ""]
    return "\n".join(lines).rstrip("\n") + "\n"
