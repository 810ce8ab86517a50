"""``scc evaluate``: the exact chances of any line-up of policies, and a best response's value.

The line-up is read and solved as ``scc equilibrium`` does it (:func:`.equilibrium.lineup`,
:func:`.equilibrium.figures`, both over :func:`~...solver.evaluate.evaluate`); the best
response is :func:`~...solver.evaluate.best_response`.  Everything is exact: where the solver's
bound or a rule it does not follow stops it, the command says so (the solver's own words)
and prints nothing else -- never a sampled figure in place of an exact one.
"""

from __future__ import annotations

from typing import Annotated

import typer

from ...i18n import _, active_lang, translator
from ...messages import N_
from ..app import app
from ..common import LangOpt, RulesOpt, SetOpt, fail, load_rules
from .equilibrium import PlayersOpt, PolicyOpt, figures, lineup, show_seats
from .simulate import FormatOpt
from .solver import JsonOpt, check_players

_BEST_HELP = N_(
    "Also the value of the best response (optimal) at this seat, 1 being the first to play."
)


@app.command(
    help=N_(
        "Each seat's exact chance to win the match and the first round, one policy per seat, "
        "and the value of a best response."
    )
)
def evaluate(
    players: PlayersOpt,
    policy: PolicyOpt,
    rules: RulesOpt = "classic",
    settings: SetOpt = None,
    fmt: FormatOpt = None,
    best: Annotated[
        int | None, typer.Option("--best-response", metavar=N_("SEAT"), help=_BEST_HELP)
    ] = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """The line-up solved as ``scc equilibrium`` solves it, and a best response's value."""
    from ...sim.options import apply_options
    from ...solver import SolverError, UnknownPolicyError
    from ...solver.evaluate import best_response

    check_players(players)
    if best is not None and not 1 <= best <= players:
        fail(_("--best-response must be a seat 1..{n}, got {seat}").format(n=players, seat=best))
    try:
        r = apply_options(load_rules(rules, settings), fmt, None)
        pols = lineup(policy, players)
        data = figures(r, pols)
        if best is not None:
            br = best_response(r, pols, best - 1)
            data["best_response"] = {
                "seat": best,
                "value": br.seat_win_probability[best - 1],
                "round_value": br.round_win_probability[best - 1],
            }
    except (UnknownPolicyError, SolverError, ValueError) as e:
        fail(e)
    con = show_seats(r, data, players, as_json=as_json, first_round=True)
    if con is not None and best is not None:
        tr = translator(active_lang())
        con.print(
            _(
                "Best response at seat {seat} (optimal, the others as given): {p} to win the match"
            ).format(seat=best, p=tr.number(data["best_response"]["value"], 6))
        )
