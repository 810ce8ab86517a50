"""``scc rules``: the complete rules of a rule set, in English, German or Norwegian."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ..messages import N_
from .app import app
from .common import LangOpt, SetOpt, load_rules


def solver_notes(rules: Any) -> Any:
    """What the solver's best-expected-score player rerolls (None if the solver is missing).

    The positions are reached through the engine (a first roll holding ship and captain, then
    a roll completing the crew with the given cargo), so nothing about the rules is assumed.
    Under a same-roll bonus the two-rolls-left position necessarily carries the bonus; it is
    still the cargo the solver decides on, so such positions count too (skipping them made
    the text claim the solver "never" rerolls there).
    """
    from ..actions import RerollCargo, Roll
    from ..engine import apply, initial_turn
    from ..i18n.rules_text import SolverNotes
    from ..state import TurnPhase

    try:
        from ..solver.decisions import ev_action
    except ImportError:
        return None
    ship, captain, crew = rules.required_faces
    wild = rules.wild_face if rules.wild_captain else None
    plain = [f for f in range(1, 7) if f not in rules.required_faces and f != wild]
    highest: dict[int, int | None] = {1: None, 2: None}
    for a in range(1, 7):
        for b in range(a, 7):
            if wild in (a, b):
                continue
            for left in (1, 2):
                t = initial_turn(rules)
                try:
                    if left == 2:
                        t = apply(t, Roll((ship, captain, crew, a, b)))
                    else:
                        t = apply(t, Roll((ship, captain, plain[0], plain[0], plain[-1])))
                        t = apply(t, Roll((crew, a, b)))
                except ValueError:
                    continue
                if t.phase is not TurnPhase.DECIDE or t.rolls_left != left:
                    continue
                if isinstance(ev_action(rules, t), RerollCargo):
                    cur = highest[left]
                    highest[left] = a + b if cur is None else max(cur, a + b)
    return SolverNotes(highest[1], highest[2])


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
    """The rules text of :mod:`..i18n.rules_text`, with the solver's notes where it can."""
    from ..i18n import active_lang, translator
    from ..i18n.rules_text import rules_text
    from .tui_setup import make_console

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

    make_console().print(Markdown(text))
