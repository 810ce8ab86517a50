"""``scc play``: a match in the terminal, people passing the keyboard and bots of any level."""

from __future__ import annotations

import secrets
from typing import Annotated

import typer

from .app import app
from .common import LangOpt
from .tui_options import LogOpt, TableFlags, table_options


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
    fast: Annotated[bool, typer.Option(help="Bots act at once, without a pause.")] = False,
    lang: LangOpt = None,
    log: LogOpt = None,
) -> None:
    """Play a match in the terminal: two to eight seats, any mix of people and bots.

    Missing flags are asked in a short set-up dialogue.  At a decision type the number of
    your choice, ? for the solver's advice, q (or Ctrl-D) to end the match; the event log is
    written as you play, and scc replay LOG plays it back.
    """
    from ..fair import FairDice, SeededDice
    from .tui_setup import set_up_table

    t = set_up_table(table, player, companion=False)
    if seed is None:
        seed = secrets.randbelow(10**9)
    dice = FairDice(client_seeds=[str(seed)]) if fair else SeededDice(seed)
    t.play(log=log, kind="play", dice=dice, target=target, delay=0.0 if fast else 0.8, seed=seed)
