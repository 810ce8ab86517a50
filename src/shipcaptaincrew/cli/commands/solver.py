"""``scc odds``, ``scc strategy`` and ``scc report strategy`` (``scc equilibrium``: :mod:`.equilibrium`).

Thin shells over :mod:`shipcaptaincrew.solver`: they read options, call the solver and print
Rich tables or JSON.  Bad input exits with status 2 and one line on stderr.  The tables speak
the chosen language (``--lang``), numbers with its decimal sign; ``--json`` is the same in
every language.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from ...facts import MAX_PLAYERS, MIN_PLAYERS
from ...i18n import _, active_lang, translator
from ...messages import N_, NP_
from ..app import SccGroup, SccTyper, app
from ..common import (
    LangOpt,
    RulesOpt,
    SetOpt,
    fail,
    load_rules,
    os_reason,
    plural,
    rules_name,
)
from ..helptext import composed
from .simulate import PLOT_SUFFIXES, DpiOpt, _check_dpi, _check_out

report_app = SccTyper(
    cls=SccGroup,
    help=N_("Regenerate the published reports (docs/*.md and their pictures)."),
    no_args_is_help=True,
)
app.add_typer(report_app, name="report")


@report_app.callback()
def _report(lang: LangOpt = None) -> None:
    """The reports share ``--lang`` (read before parsing, see ``app``'s ``main``)."""


JsonOpt = Annotated[
    bool,
    typer.Option("--json", help=N_("Print one JSON object (the same in every language).")),
]
_PLAYERS_HELP = composed(
    lambda tr: tr("Players in the round ({low}..{high}).").format(low=MIN_PLAYERS, high=MAX_PLAYERS)
)


def check_players(players: int) -> None:
    """Exit with a message unless the table has a legal number of players."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        fail(
            _("--players must be {lo}..{hi}, got {n}").format(
                lo=MIN_PLAYERS, hi=MAX_PLAYERS, n=players
            )
        )


@app.command(
    help=N_(
        "The exact odds of one turn: the crew completed by roll, the score distribution and "
        "the expected score."
    )
)
def odds(
    rules: RulesOpt = "classic",
    settings: SetOpt = None,
    policy: Annotated[
        str,
        typer.Option(
            "--policy",
            metavar=N_("POLICY"),
            help=N_(
                "How the cargo is played: never (never reroll), ev (the best expected score) "
                "or threshold:T (reroll a cargo below T)."
            ),
        ),
    ] = "ev",
    exact: Annotated[
        bool, typer.Option("--exact", help=N_("Exact fractions p/q instead of decimals."))
    ] = False,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """One turn's odds from the solver's exact turn model."""
    from ...solver import UnknownPolicyError, turn_odds

    r = load_rules(rules, settings)
    try:
        o = turn_odds(r, policy, exact=exact)
    except UnknownPolicyError as e:
        fail(e)
    data = o.to_json()
    if as_json:
        typer.echo(json.dumps(data))
        return
    from rich.console import Console
    from rich.table import Table

    tr = translator(active_lang())
    show: Callable[[Any], str] = str if exact else (lambda x: tr.number(float(x), 6))
    con = Console()
    t = Table(
        title=_("One turn under {rules}, policy {policy}").format(
            rules=rules_name(r), policy=o.policy
        )
    )
    t.add_column(_("quantity"))
    t.add_column(_("probability / value"), justify="right")
    for i, p in enumerate(data["p_complete_by_roll"], 1):
        t.add_row(_("crew completed on roll {i}").format(i=i), show(p))
    t.add_row(
        plural(NP_("crew completed in one roll", "crew completed within {n} rolls"), r.rolls),
        show(data["p_complete"]),
    )
    t.add_row(_("expected score"), show(data["expected_score"]))
    con.print(t)
    d = Table(title=_("Score distribution"))
    d.add_column(_("score"), justify="right")
    d.add_column(_("probability"), justify="right")
    for k, v in data["distribution"].items():
        d.add_row(k, show(v))
    con.print(d)


@app.command(
    help=N_(
        "The decision table: stand or reroll, by cargo, rolls left, the score to beat and the "
        "players after."
        "\n\n"
        "With --format: the match-optimal tables for two players (the cargo to stand on by the "
        'lead or the totals and the rounds left). --json adds "states": every decision state '
        "with every legal action's chances, one row each (the rows of scc export --table "
        "decisions)."
    )
)
def strategy(
    rules: RulesOpt = "classic",
    settings: SetOpt = None,
    players: Annotated[int, typer.Option("--players", metavar=N_("N"), help=_PLAYERS_HELP)] = 2,
    objective: Annotated[
        str,
        typer.Option(
            "--objective",
            metavar=N_("OBJECTIVE"),
            help=N_("win (the best chance to win the round) or ev (the best expected score)."),
        ),
    ] = "win",
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            metavar=N_("FILE"),
            help=N_(
                "Draw the table as a heat map: FILE.png, FILE.svg or FILE.pdf (needs the plot "
                "extra)."
            ),
        ),
    ] = None,
    dpi: DpiOpt = 300,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            metavar=N_("FORMAT"),
            help=N_(
                "A match format (rounds:N, first_to:N or wins:N): the two-player match tables "
                "instead, the cargo to stand on by the score of the match."
            ),
        ),
    ] = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """The round's decision table, or with ``--format`` the two-player match tables."""
    from ...solver import SolverError
    from ...solver.table import decision_table

    r = load_rules(rules, settings)
    if plot is not None:
        _check_out(str(plot), PLOT_SUFFIXES, "--plot")
        _check_dpi(dpi)
    if fmt is not None:
        _match_strategy(r, fmt, players, plot, dpi, as_json)
        return
    if objective not in ("win", "ev"):
        fail(_("unknown objective '{objective}': use win or ev").format(objective=objective))
    check_players(players)
    try:
        rows = decision_table(r, objective=objective, players=players)
    except SolverError as e:
        fail(e)
    if plot is not None:
        if not rows:
            fail(
                _(
                    "nothing to plot: under {rules} no cargo can be rerolled, so there is no "
                    "decision"
                ).format(rules=rules_name(r))
            )
        from ...plots.strategy import plot_strategy
        from ...provenance import command_line, record

        prov = record(command_line(), rules=r, objective=objective, players=players)
        try:
            plot_strategy(r, rows, objective, players, plot, prov, dpi)
        except OSError as e:
            fail(_("cannot write {path}: {reason}").format(path=plot, reason=os_reason(e)))
    if as_json:
        from ...solver.export_tables import PlanObjective, decision_rows

        states = decision_rows(r, players, (PlanObjective(objective),))
        typer.echo(
            json.dumps(
                {
                    "rules": str(r),
                    "objective": objective,
                    "players": players,
                    "rows": [row.to_json() for row in rows],
                    "states": states,
                }
            )
        )
        return
    from rich import box
    from rich.console import Console
    from rich.table import Table

    if not rows:
        typer.echo(
            _(
                "No decisions under {rules}: no cargo can be rerolled, so every cargo stands."
            ).format(rules=rules_name(r))
        )
        return
    cargos = sorted({c for row in rows for c in row.decisions})
    title = (
        _("Best expected score under {rules}").format(rules=rules_name(r))
        if objective == "ev"
        else plural(
            NP_(
                "Win-maximising play, one player, under {rules}",
                "Win-maximising play, {n} players, under {rules}",
            ),
            players,
            rules=rules_name(r),
        )
    )
    legend = plural(
        NP_(
            "S = stand, R = reroll, Kn = keep n, reroll the other",
            "S = stand, R = reroll, Kn = keep n, reroll the other {n}",
        ),
        r.cargo_dice - 1,
    )
    # Light lines and one space between columns: eleven cargo columns and four headings fit
    # 80 columns; a heading wraps between its words, never inside one ("players" stays whole).
    t = Table(caption=legend, caption_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1, 0, 0))

    def heading(text: str, justify: Literal["center", "right"] = "right") -> None:
        t.add_column(text, justify=justify, min_width=max(map(len, text.split())), overflow="fold")

    heading(_("rolls left"))
    if objective == "win":
        heading(_("players after"))
        heading(_("score to beat"))
    for c in cargos:
        heading(str(c), "center")
    heading(_("stand from"))

    def short(a: str | None) -> str:
        if a is None:
            return ""
        return "/".join(
            "S" if x == "stand" else "R" if x == "reroll" else "K" + x[-1] for x in a.split("/")
        )

    for row in rows:
        cells = [str(row.rolls_left)]
        if objective == "win":
            cells += [str(row.players_after), str(row.score_to_beat or "-")]
        cells += [short(row.decisions.get(c)) for c in cargos]
        cells.append(str(row.stand_from) if row.stand_from is not None else _("never"))
        t.add_row(*cells)
    con = Console()
    con.print(title, markup=False, soft_wrap=True)
    con.print(t)
    if plot is not None:
        Console().print(_("heat map written to {path}").format(path=plot))


def _match_strategy(
    r: Any, fmt: str, players: int, plot: Path | None, dpi: int, as_json: bool
) -> None:
    from ...provenance import command_line, record
    from ...sim.options import apply_options
    from ...solver import SolverError
    from ...solver.match.table import match_table
    from ..strategy_match import plot_match_table, print_match_table

    if players != 2:
        fail(_("--format tables are for two players, got --players {n}").format(n=players))
    try:
        r = apply_options(r, fmt, None)
        rows = match_table(r)
    except (SolverError, ValueError) as e:
        fail(e)
    if plot is not None:
        try:
            prov = record(command_line(), rules=r, objective="match", players=2)
            plot_match_table(r, rows, plot, prov, dpi)
        except OSError as e:
            fail(_("cannot write {path}: {reason}").format(path=plot, reason=os_reason(e)))
    print_match_table(r, rows, as_json)
    if plot is not None and not as_json:
        typer.echo(_("heat map written to {path}").format(path=plot))


@report_app.command(
    "strategy",
    help=N_(
        "Regenerate docs/strategy.md and its pictures from the solver (needs the plot extra)."
        "\n\n"
        "The report itself is the project's documentation and stays English; --lang is the "
        "language of what the command says to you."
    ),
)
def report_strategy(
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            metavar=N_("DIR"),
            help=N_("The directory for strategy.md and img/strategy_*.png."),
        ),
    ] = Path("docs"),
    lang: LangOpt = None,
) -> None:
    """The strategy report, written where ``--out`` says."""
    from ...plots.strategy import write_report
    from ...provenance import command_line

    try:
        path = write_report(out, command_line())
    except OSError as e:
        fail(
            _("cannot write the report into {path}: {reason}").format(path=out, reason=os_reason(e))
        )
    typer.echo(_("wrote {path}").format(path=path))
