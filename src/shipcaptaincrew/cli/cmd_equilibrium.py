"""``scc equilibrium``: each seat's chance to win the match, one policy per seat.

A shell over :mod:`shipcaptaincrew.solver`: the round equilibrium (:func:`~..solver.equilibrium`)
for a single round played alike, the exact match solver
(:func:`~..solver.match_solve.solve_match`) for everything else.  ``seat_win_probability[i]``
is the chance of the player who plays i-th in the first round (as if ``starter=chosen``).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from ..facts import MAX_PLAYERS, MIN_PLAYERS
from ..i18n import _, active_lang, translator
from ..messages import NP_
from .app import app
from .cmd_simulate import FormatOpt
from .cmd_solver import JsonOpt, check_players
from .common import LangOpt, RulesOpt, SetOpt, fail, load_rules, plural, rules_name

_PLAYERS_HELP = f"Players at the table ({MIN_PLAYERS}..{MAX_PLAYERS})."
_POLICY_HELP = (
    "optimal, optimal:round, ev or threshold:T: one for every seat, or a comma-separated "
    "list, one per seat in the first round's play order."
)


def _figures(rules: Any, players: int, policy: str) -> dict[str, Any]:
    """The JSON object: the round equilibrium's keys, the format and the objective."""
    from ..solver import equilibrium as solve
    from ..solver.match_advice import has_match
    from ..solver.match_solve import solve_match
    from ..solver.policies import SEAT_KINDS, PolicyKind, parse_policy

    names = [p.strip() for p in policy.split(",")]
    pols = tuple(parse_policy(p, allow=SEAT_KINDS) for p in names)
    if len(pols) == 1:
        pols = pols * players
    elif len(pols) != players:
        fail(
            _("--policy names {k} policies for {n} players: give one, or one per seat").format(
                k=len(pols), n=players
            )
        )
    alike = len(set(pols)) == 1
    if not has_match(rules) and alike:
        kind = pols[0].kind
        name = "optimal" if kind is PolicyKind.ROUND else str(pols[0])
        data = solve(rules, players, name).to_json()
        data["policy"] = str(pols[0])
    else:
        sol = solve_match(rules, pols)
        data = {
            "rules": str(rules),
            "players": players,
            "policy": str(pols[0]) if alike else ",".join(map(str, pols)),
            "seat_win_probability": list(sol.seat_win_probability),
            "round_win_probability": list(sol.round_win_probability),
            "p_all_fail_per_round": sol.p_all_fail_per_round,
        }
    data["policies"] = [str(p) for p in pols]
    data["format"] = str(rules.format)
    data["objective"] = "match"
    return data


@app.command()
def equilibrium(
    players: Annotated[int, typer.Option("--players", help=_PLAYERS_HELP)],
    rules: RulesOpt = "classic",
    settings: SetOpt = None,
    fmt: FormatOpt = None,
    policy: Annotated[str, typer.Option("--policy", help=_POLICY_HELP)] = "optimal",
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """Each seat's chance of winning the match when every seat plays its policy.

    ``optimal`` seats play for the match and best-respond to the others; without --format the
    rule set's own format is played (--format single: one round).
    """
    from ..sim.options import apply_options
    from ..solver import SolverError, UnknownPolicyError

    check_players(players)
    try:
        r = apply_options(load_rules(rules, settings), fmt, None)
        data = _figures(r, players, policy)
    except (UnknownPolicyError, SolverError, ValueError) as e:
        fail(e)
    if as_json:
        typer.echo(json.dumps(data))
        return
    from rich.console import Console
    from rich.table import Table

    tr = translator(active_lang())
    title = NP_(
        "one player, policies {policy}, {format}, under {rules}",
        "{n} players, policies {policy}, {format}, under {rules}",
    )
    t = Table(
        title=plural(
            title, players, policy=data["policy"], format=data["format"], rules=rules_name(r)
        )
    )
    t.add_column(_("seat (play order)"), justify="right")
    t.add_column(_("policy"))
    t.add_column(_("chance to win the match"), justify="right")
    for i, (p, pol) in enumerate(zip(data["seat_win_probability"], data["policies"]), 1):
        t.add_row(str(i), pol, tr.number(p, 6))
    con = Console()
    con.print(t)
    con.print(
        _("Chance that everyone fails in one round: {p}").format(
            p=tr.percent(data["p_all_fail_per_round"], 4)
        )
    )
