"""``scc rules``: the complete rules of a rule set, in English, German or Norwegian."""

from __future__ import annotations

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
    from rich.segment import Segments

    console = make_console()
    console.print(Segments(unpadded(console, Markdown(text))))


def unpadded(console: Any, renderable: Any) -> list[Any]:
    """``renderable`` as the console draws it, each line without the spaces Rich pads it with
    to the console's width (a copied or piped rules text was full of trailing blanks)."""
    from rich.segment import Segment

    out: list[Segment] = []
    for line in console.render_lines(renderable, pad=False):
        while line and not line[-1].control and not line[-1].text.strip():
            line.pop()
        if line and not line[-1].control:
            last = line[-1]
            line[-1] = Segment(last.text.rstrip(), last.style)
        out += [*line, Segment.line()]
    return out
