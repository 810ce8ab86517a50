"""``scc companion``: the app keeps the table while real dice roll in a real cup."""

from __future__ import annotations

from typing import Annotated

import typer

from ...messages import N_
from ..app import app
from ..common import LangOpt
from ..terminal.options import LogOpt, ResultJsonOpt, ScriptOpt, TableFlags, table_options


@app.command(
    help=N_(
        "Keep the table for a game with real dice: type the faces you roll."
        "\n\n"
        "The app sets the qualifying dice aside, says how many dice to roll next, keeps "
        "scores, pot, chips and sips, runs tie-breaks, says who drinks, and advises on request "
        "(?). A wrong count of faces or an impossible face is answered with the same question "
        "again. At a decision type the number of a choice or its notation (stand, reroll, "
        "sip:2, next_round); a captain may hand out several sips at once, for example Bo 2, "
        "Cy 1."
    )
)
@table_options
def companion(
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player",
            "-p",
            metavar=N_("NAME"),
            help=N_("A player's name, in play order; repeat it for each; without it the app asks."),
        ),
    ] = None,
    *,
    table: TableFlags,
    lang: LangOpt = None,
    log: LogOpt = None,
    script: ScriptOpt = None,
    as_json: ResultJsonOpt = False,
) -> None:
    """The companion: the table set up as ``scc play`` does it, the dice typed in."""
    from ..terminal.setup import play_table, script_answers, set_up_table

    answers = script_answers(script)
    t = set_up_table(table, player, companion=True, answers=answers, stderr=as_json)
    play_table(t, as_json=as_json, log=log, kind="companion", dice=None, delay=0.0, companion=True)
