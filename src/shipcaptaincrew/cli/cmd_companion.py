"""``scc companion``: the app keeps the table while real dice roll in a real cup."""

from __future__ import annotations

from typing import Annotated

import typer

from .app import app
from .common import LangOpt
from .tui_options import LogOpt, TableFlags, table_options


@app.command()
@table_options
def companion(
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player",
            "-p",
            help="A player's name, in play order (repeat); without it the app asks.",
        ),
    ] = None,
    *,
    table: TableFlags,
    lang: LangOpt = None,
    log: LogOpt = None,
) -> None:
    """Keep the table for a game with real dice: type the faces you roll.

    The app sets the qualifying dice aside, says how many dice to roll next, keeps scores,
    pot, chips and sips, runs tie-breaks, says who drinks, and advises on request (?).  A wrong
    count of faces or an impossible face is answered with the same question again.
    """
    from .tui_setup import set_up_table

    t = set_up_table(table, player, companion=True)
    t.play(log=log, kind="companion", dice=None, delay=0.0, companion=True)
