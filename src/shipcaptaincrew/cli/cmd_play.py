"""``scc play``: a match in the terminal, people passing the keyboard and bots of any level."""

from __future__ import annotations

import secrets
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
def play(
    player: Annotated[list[str] | None, typer.Option(
        "--player", "-p",
        help="A seat, in play order: NAME for a person, bot:LEVEL or NAME=bot:LEVEL for a bot "
             "(easy, medium, hard, perfect, or random, timid, tip, threshold:T, ev, optimal). "
             "Repeat for each seat; without it the game asks.")] = None,
    rules: RulesOrAsk = None,
    settings: SetOpt = None,
    fmt: FormatOpt = None,
    stakes: StakesOpt = None,
    drinking: DrinkingOpt = None,
    tie_break: TieBreakOpt = None,
    starter: StarterOpt = None,
    target: Annotated[int | None, typer.Option(
        help="Solo practice (one player): the score to reach.")] = None,
    seed: Annotated[int | None, typer.Option(
        help="Seed for the dice: the same seed and choices give the same match.")] = None,
    fair: Annotated[bool, typer.Option(
        help="Provably fair dice: the seed is committed before and revealed after.")] = False,
    fast: Annotated[bool, typer.Option(help="Bots act at once, without a pause.")] = False,
    lang: LangOpt = None,
    log: LogOpt = None,
) -> None:
    """Play a match in the terminal: 2-8 seats, any mix of people and bots.

    Missing flags are asked in a short set-up dialogue.  At a decision type the number of
    your choice, ? for the solver's advice, q (or Ctrl-D) to end the match; the event log is
    written as you play, and scc replay LOG plays it back.
    """
    from ..engine import InvalidSetupError
    from ..fair import FairDice, SeededDice
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
        seats = resolve_seats(player, allow_bots=True) if player else ask_seats(
            prompt, allow_bots=True)
        if r is None:
            r = ask_rules(prompt, len(seats))
            if starter is not None:
                r = r.replace(starter="chosen")
        start = ask_starter(prompt, r, [s.name for s in seats], starter)
    except (QuitMatch, KeyboardInterrupt) as e:
        console.print(_("No match was started."))
        raise typer.Exit(130 if isinstance(e, KeyboardInterrupt) else 0) from None
    if seed is None:
        seed = secrets.randbelow(10**9)
    dice = FairDice(client_seeds=[str(seed)]) if fair else SeededDice(seed)
    path = log or default_log_path("play")
    try:
        runner = MatchRunner(console, r, seats, dice=dice, log_path=path, starter=start,
                             target=target, delay=0.0 if fast else 0.8, seed=seed)
    except (InvalidSetupError, ValueError) as e:
        fail(str(e))
    raise typer.Exit(runner.run())
