"""``scc equilibrium``: each seat's chance to win the match, one policy per seat.

A shell over :func:`~...solver.evaluate.evaluate`: the round equilibrium for a single round
played alike, the exact match solver for everything else.  ``seat_win_probability[i]`` is the
chance of the player who plays i-th in the first round (as if ``starter=chosen``).
:func:`lineup` and :func:`figures` are shared with ``scc evaluate`` and ``scc export``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ...facts import MAX_PLAYERS, MIN_PLAYERS
from ...i18n import _, active_lang, translator
from ...messages import N_, NP_
from ...options import OPTIONS
from ..app import app
from ..common import LangOpt, RulesOpt, SetOpt, fail, load_rules, plural, rules_name
from ..helptext import composed
from .simulate import FormatOpt
from .solver import JsonOpt, check_players

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from ...rules import Rules
    from ...solver.policies import Policy

_PLAYERS_HELP = composed(
    lambda tr: tr("Players at the table ({low}..{high}).").format(low=MIN_PLAYERS, high=MAX_PLAYERS)
)
_POLICY_HELP = N_(
    "optimal (to win the match), optimal:round (to win each round), ev or threshold:T: one "
    "for every seat, or a comma-separated list, one per seat in the first round's play order."
)
#: ``--players`` and ``--policy`` as the line-up commands (equilibrium, evaluate, export) take them.
PlayersOpt = Annotated[int, typer.Option("--players", metavar=N_("N"), help=_PLAYERS_HELP)]
PolicyOpt = Annotated[str, typer.Option("--policy", metavar=N_("POLICY,..."), help=_POLICY_HELP)]


def lineup(policy: str, players: int) -> tuple[Policy, ...]:
    """The policies of ``--policy``: one for every seat, or one per seat in play order.

    The one reading of ``--policy`` for ``scc equilibrium``, ``scc evaluate`` and
    ``scc export``; a wrong count exits with a message, an unknown name raises
    :class:`~...solver.UnknownPolicyError`.
    """
    from ...solver.policies import SEAT_KINDS, parse_policy

    pols = tuple(parse_policy(p.strip(), allow=SEAT_KINDS) for p in policy.split(","))
    if len(pols) == 1:
        return pols * players
    if len(pols) != players:
        fail(
            _("--policy names {k} policies for {n} players: give one, or one per seat").format(
                k=len(pols), n=players
            )
        )
    return pols


def figures(rules: Rules, pols: tuple[Policy, ...]) -> dict[str, Any]:
    """The JSON object of a line-up: the format, the objective and every seat's chances."""
    from ...solver.evaluate import evaluate

    e = evaluate(rules, pols)
    alike = len(set(pols)) == 1
    return {
        "rules": str(rules),
        "players": len(pols),
        "policy": str(pols[0]) if alike else ",".join(map(str, pols)),
        "seat_win_probability": list(e.seat_win_probability),
        "round_win_probability": list(e.round_win_probability),
        "p_all_fail_per_round": e.p_all_fail_per_round,
        "policies": [str(p) for p in pols],
        "format": str(rules.format),
        "objective": "match",
    }


@app.command(
    help=N_(
        "Each seat's chance of winning the match when every seat plays its policy."
        "\n\n"
        "optimal seats play for the match and best-respond to the others; without --format "
        "the rule set's own format is played (--format single: one round)."
    )
)
def equilibrium(
    players: PlayersOpt,
    rules: RulesOpt = "classic",
    settings: SetOpt = None,
    fmt: FormatOpt = None,
    policy: PolicyOpt = "optimal",
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """The line-up's exact chances, from :func:`figures`."""
    from ...sim.options import apply_options
    from ...solver import SolverError, UnknownPolicyError

    check_players(players)
    try:
        r = apply_options(load_rules(rules, settings), fmt, None)
        data = figures(r, lineup(policy, players))
    except (UnknownPolicyError, SolverError, ValueError) as e:
        fail(e)
    con = show_seats(r, data, players, as_json=as_json, first_round=False)
    if con is not None:
        tr = translator(active_lang())
        con.print(
            _("Chance that everyone fails in one round: {p}").format(
                p=tr.percent(data["p_all_fail_per_round"], 4)
            )
        )


def show_seats(
    r: Rules, data: dict[str, Any], players: int, *, as_json: bool, first_round: bool
) -> Console | None:
    """Print :func:`figures`' ``data``: as one JSON object (then None), or as the seat table
    (:func:`seat_table`), returning the console for what a command prints after it."""
    if as_json:
        typer.echo(json.dumps(data))
        return None
    from rich.console import Console

    con = Console()
    table = seat_table(r, data, players, first_round=first_round)
    # The title on a line of its own: a table as narrow as its numbers would fold it.
    con.print(table.title, markup=False, soft_wrap=True)
    table.title = None
    con.print(table)
    return con


def seat_table(r: Rules, data: dict[str, Any], players: int, *, first_round: bool) -> Table:
    """The seats of :func:`figures`' line-up with their chances (to win the match and, with
    ``first_round``, the first round), as ``scc equilibrium`` and ``scc evaluate`` print it."""
    from rich.table import Table

    tr = translator(active_lang())
    title = NP_(
        "one player, policies {policy}, under {rules}",
        "{n} players, policies {policy}, under {rules}",
    )
    # The rules' name says the format where it is not the preset's own; say it always.
    name = rules_name(r)
    fmt = OPTIONS["format"].title_message(r.format).render(tr)
    if fmt not in name:
        name = f"{name} · {fmt}"
    t = Table(title=plural(title, players, policy=data["policy"], rules=name))
    t.add_column(_("seat (play order)"), justify="right")
    t.add_column(_("policy"))
    t.add_column(_("chance to win the match"), justify="right")
    if first_round:
        t.add_column(_("chance to win the first round"), justify="right")
    rows = zip(data["policies"], data["seat_win_probability"], data["round_win_probability"])
    for i, (pol, p, q) in enumerate(rows, 1):
        chances = [tr.number(p, 6)] + ([tr.number(q, 6)] if first_round else [])
        t.add_row(str(i), pol, *chances)
    return t
