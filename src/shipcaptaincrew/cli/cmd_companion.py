"""``scc companion``: the app keeps the table while real dice roll in a real cup."""

from __future__ import annotations

from typing import Annotated

import typer

from .app import app
from .common import SetOpt, fail
from .tui_options import (
    DrinkingOpt,
    FormatOpt,
    LangOpt,
    LogOpt,
    RulesOrAsk,
    StakesOpt,
    StarterOpt,
    TieBreakOpt,
)


@app.command()
def companion(
    player: Annotated[list[str] | None, typer.Option(
        "--player", "-p", help="A player's name, in play order (repeat); without it the app asks.")
    ] = None,
    rules: RulesOrAsk = None,
    settings: SetOpt = None,
    fmt: FormatOpt = None,
    stakes: StakesOpt = None,
    drinking: DrinkingOpt = None,
    tie_break: TieBreakOpt = None,
    starter: StarterOpt = None,
    lang: LangOpt = None,
    log: LogOpt = None,
) -> None:
    """Keep the table for a game with real dice: type the faces you roll.

    The app sets the qualifying dice aside, says how many dice to roll next, keeps scores,
    pot, chips and sips, runs tie-breaks, says who drinks, and advises on request (?).  A wrong
    count of faces or an impossible face is answered with the same question again.
    """
    from ..engine import InvalidSetupError
    from ..i18n import _
    from .tui_match import MatchRunner
    from .tui_prompt import Prompter, QuitMatch
    from .tui_setup import (
        ask_rules,
        ask_seats,
        ask_starter,
        default_log_path,
        make_console,
        resolve_seats,
        rules_from_flags,
        setup_language,
    )

    setup_language(lang)
    console = make_console()
    prompt = Prompter(console)
    r = rules_from_flags(rules, settings, fmt=fmt, stakes=stakes, drinking=drinking,
                         tie_break=tie_break)
    if starter is not None and r is not None:
        r = r.replace(starter="chosen")
    try:
        seats = resolve_seats(player, allow_bots=False) if player else ask_seats(
            prompt, allow_bots=False)
        if len(seats) < 2:
            fail(_("the companion needs 2 to 8 players"))
        if r is None:
            r = ask_rules(prompt, len(seats))
            if starter is not None:
                r = r.replace(starter="chosen")
        start = ask_starter(prompt, r, [s.name for s in seats], starter)
    except (QuitMatch, KeyboardInterrupt) as e:
        console.print(_("No match was started."))
        raise typer.Exit(130 if isinstance(e, KeyboardInterrupt) else 0) from None
    path = log or default_log_path("companion")
    try:
        runner = MatchRunner(console, r, seats, dice=None, log_path=path, starter=start,
                             delay=0.0, companion=True)
    except (InvalidSetupError, ValueError) as e:
        fail(str(e))
    raise typer.Exit(runner.run())
