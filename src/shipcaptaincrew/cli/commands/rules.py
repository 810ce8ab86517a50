"""``scc rules``: the complete rules of a rule set, in English, German or Norwegian."""

from __future__ import annotations

import re
from typing import Annotated, Any

import typer

from ...messages import N_
from ..app import app
from ..common import LangOpt, SetOpt, load_rules


def solver_notes(rules: Any) -> Any:
    """What the solver's best-expected-score player rerolls (None if the solver is missing):
    the turns it decides on are the engine's own, walked by the solver's turn graph."""
    from ...i18n.rules_text import SolverNotes

    try:
        from ...solver.table import ev_reroll_limits
    except ImportError:
        return None
    return SolverNotes(ev_reroll_limits(rules))


@app.command(
    "rules",
    help=N_(
        "The complete rules of a rule set, with its variants, stakes, format and the sheets' tips."
    ),
)
def rules_cmd(
    preset: Annotated[
        str,
        typer.Argument(
            metavar=N_("PRESET"),
            help=N_("A preset's name or alias (without it: classic)."),
        ),
    ] = "classic",
    settings: SetOpt = None,
    lang: LangOpt = None,
    plain: Annotated[
        bool, typer.Option(help=N_("Print the Markdown source instead of the rendered text."))
    ] = False,
) -> None:
    """The rules text of :mod:`...i18n.rules_text`, with the solver's notes where it can."""
    from ...i18n import active_lang, translator
    from ...i18n.rules_text import rules_text
    from ..terminal.setup import make_console

    r = load_rules(preset, settings)
    try:
        notes = solver_notes(r)
    except ValueError:  # a solver that cannot handle this rule set: leave its notes out
        notes = None
    text = rules_text(r, translator(active_lang()), notes)
    if plain:
        typer.echo(text)
        return
    from rich.markdown import Markdown

    console = make_console()
    with console.capture() as captured:
        console.print(Markdown(text))
    # Rich fills every line to the terminal's width with spaces; a reader copying the rules
    # (or a screen reader) gets the words only.
    typer.echo("\n".join(_trimmed(line) for line in captured.get().splitlines()))


#: Spaces at a line's end, with the colour codes that may follow them.
_TRAILING = re.compile(r" +((?:\x1b\[[0-9;]*m)*)$")


def _trimmed(line: str) -> str:
    r"""A rendered line without the spaces that pad it (its colour codes kept).

    >>> _trimmed("Rules  \x1b[0m   "), _trimmed("  centred  ")
    ('Rules\x1b[0m', '  centred')
    """
    while True:
        shorter = _TRAILING.sub(r"\1", line)
        if shorter == line:
            return line
        line = shorter
