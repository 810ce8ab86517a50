"""``scc play``: a match in the terminal, people passing the keyboard and bots of any level."""

from __future__ import annotations

import secrets
from typing import Annotated

import typer

from ...messages import N_
from ..app import app
from ..common import LangOpt
from ..terminal.options import LogOpt, ResultJsonOpt, ScriptOpt, TableFlags, table_options


@app.command(
    help=N_(
        "Play a match in the terminal: two to eight seats, any mix of people and bots."
        "\n\n"
        "Flags you leave out are asked in a short set-up dialogue. A person rolls with Enter. "
        "At a decision type the number of your choice or its notation (stand, reroll, "
        "reroll:keep6, sip:2, next_round), ? for the solver's advice, q or Ctrl-D to end the "
        "match; a captain may hand out several sips at once, for example Bo 2, Cy 1. The event "
        "log is written as you play, and scc replay plays it back."
    )
)
@table_options
def play(
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player",
            "-p",
            metavar=N_("SEAT"),
            help=N_(
                "A seat, in play order: a name for a person, bot:LEVEL or NAME=bot:LEVEL for a "
                "bot (easy, medium, hard, perfect, or random, timid, tip, threshold:T, ev, "
                "optimal). Repeat it for each seat; without it the game asks."
            ),
        ),
    ] = None,
    *,
    table: TableFlags,
    target: Annotated[
        int | None,
        typer.Option(
            help=N_("Solo practice (one person at the table): the score to reach."),
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help=N_("The seed of the dice: the same seed and the same choices, the same match.")
        ),
    ] = None,
    fair: Annotated[
        bool,
        typer.Option(
            help=N_("Provably fair dice: the seed is committed to before and revealed after.")
        ),
    ] = False,
    fast: Annotated[
        bool,
        typer.Option(help=N_("No waiting: bots act at once and people roll without Enter.")),
    ] = False,
    lang: LangOpt = None,
    log: LogOpt = None,
    script: ScriptOpt = None,
    as_json: ResultJsonOpt = False,
) -> None:
    """The terminal match: a table set up from the flags (or the dialogue), then played."""
    from ...fair import FairDice, SeededDice
    from ..terminal.setup import play_table, script_answers, set_up_table

    answers = script_answers(script)
    t = set_up_table(table, player, companion=False, answers=answers, stderr=as_json, target=target)
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
        delay=0.0 if fast or script is not None else 0.8,
        roll_key=not fast,
        seed=seed,
    )
