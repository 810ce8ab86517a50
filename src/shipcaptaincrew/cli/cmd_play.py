"""``scc play``: a match in the terminal, people passing the keyboard and bots of any level."""

from __future__ import annotations

import secrets
from typing import Annotated

import typer

from .app import app
from .common import LangOpt
from .tui_options import LogOpt, ResultJsonOpt, ScriptOpt, TableFlags, table_options


@app.command()
@table_options
def play(
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player",
            "-p",
            help="A seat, in play order: NAME for a person, bot:LEVEL or NAME=bot:LEVEL for a bot "
            "(easy, medium, hard, perfect, or random, timid, tip, threshold:T, ev, optimal). "
            "Repeat for each seat; without it the game asks.",
        ),
    ] = None,
    *,
    table: TableFlags,
    target: Annotated[
        int | None, typer.Option(help="Solo practice (one player): the score to reach.")
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(help="Seed for the dice: the same seed and choices give the same match."),
    ] = None,
    fair: Annotated[
        bool,
        typer.Option(help="Provably fair dice: the seed is committed before and revealed after."),
    ] = False,
    fast: Annotated[
        bool,
        typer.Option(help="No waiting: bots act at once and people's dice roll without an Enter."),
    ] = False,
    lang: LangOpt = None,
    log: LogOpt = None,
    script: ScriptOpt = None,
    as_json: ResultJsonOpt = False,
) -> None:
    """Play a match in the terminal: two to eight seats, any mix of people and bots.

    Missing flags are asked in a short set-up dialogue.  A person rolls with Enter.  At a
    decision type the number of your choice or its notation (stand, reroll, reroll:keep6,
    sip:2, next_round), ? for the solver's advice, q (or Ctrl-D) to end the match; the
    captain may hand out several sips at once, e.g. Bo 2, Cy 1.  The event log is written as
    you play, and scc replay LOG plays it back.
    """
    from ..fair import FairDice, SeededDice
    from .tui_setup import play_table, script_answers, set_up_table

    answers = script_answers(script)
    t = set_up_table(table, player, companion=False, answers=answers, stderr=as_json)
    if seed is None:
        seed = secrets.randbelow(10**9)
    dice = FairDice(client_seeds=[str(seed)]) if fair else SeededDice(seed)
    play_table(
        t,
        as_json=as_json,
        log=log,
        kind="play",
        dice=dice,
        target=target,
        delay=0.0 if fast else 0.8,
        roll_key=not fast,
        seed=seed,
    )
