"""``scc sweep``: a grid of rule sets, bots and player counts as one tidy table.

A shell over :mod:`...sim.sweep`, sharing ``scc simulate``'s options and checks
(:mod:`.simulate`) so that both commands refuse the same input with the same words.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ...i18n import _, active_lang, translator
from ...messages import N_, NP_
from ..app import app
from ..common import LangOpt, SetOpt, fail, load_rules, plural
from .simulate import (
    PLOT_SUFFIXES,
    DaskOpt,
    DpiOpt,
    FormatOpt,
    JsonOpt,
    StakesOpt,
    WorkersOpt,
    _check_backend,
    _check_counts,
    _check_dpi,
    _check_out,
    _command,
    _count,
    _progress,
    _write,
)


@app.command(
    help=N_(
        "Run a grid of rule sets, bots and player counts, and print or write one tidy table "
        "(needs the sim extra)."
    )
)
def sweep(
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            metavar=N_("BOT,BOT,..."),
            help=N_("The bots to test, comma-separated; each sits at seat 0 of its own cells."),
        ),
    ],
    players: Annotated[
        str,
        typer.Option(
            "--players",
            "-p",
            metavar=N_("N,N,..."),
            help=N_("Player counts, comma-separated, for example 2,3,4."),
        ),
    ],
    matches: Annotated[
        int, typer.Option("--matches", "-n", metavar=N_("N"), help=N_("Matches per cell."))
    ],
    rules: Annotated[
        list[str] | None,
        typer.Option(
            "--rules",
            "-r",
            metavar=N_("PRESET"),
            help=N_(
                "A rule set: a preset's name or alias, or a canonical rules text; repeat it for "
                "more."
            ),
        ),
    ] = None,
    settings: SetOpt = None,
    fmt: FormatOpt = None,
    stakes: StakesOpt = None,
    field: Annotated[
        str | None,
        typer.Option(
            "--field",
            metavar=N_("BOT"),
            help=N_("The bot at the other seats (without it: the tested bot itself)."),
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", metavar=N_("N"), help=N_("The seed every cell shares."))
    ] = 0,
    workers: WorkersOpt = 1,
    dask: DaskOpt = None,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            "-o",
            metavar=N_("FILE"),
            help=N_("Write the table to FILE.csv, FILE.json or FILE.parquet."),
        ),
    ] = None,
    plot: Annotated[
        str | None,
        typer.Option(
            "--plot",
            metavar=N_("FILE"),
            help=N_(
                "Save seat 0's win rate against the player count as a picture: FILE.png, "
                "FILE.svg or FILE.pdf (needs the plot extra)."
            ),
        ),
    ] = None,
    dpi: DpiOpt = 300,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """A grid of cells, each a simulation with the tested bot at seat 0."""
    from ...sim.options import apply_options

    _check_backend(workers, dask)
    _check_out(out, (".csv", ".json", ".parquet"), "--out")
    _check_out(plot, PLOT_SUFFIXES, "--plot")
    _check_dpi(dpi)
    _check_counts(matches, seed)
    try:
        rule_sets = [
            apply_options(load_rules(x, settings), fmt, stakes) for x in (rules or ["classic"])
        ]
        bot_list = [b.strip() for b in bots.split(",")]
        if any(not b for b in bot_list):
            raise ValueError(_("--bots '{bots}': an empty bot name").format(bots=bots))
        counts = [_count(x) for x in players.split(",")]
    except ValueError as e:
        fail(e)
    from ...sim.sweep import sweep as run_sweep
    from ...sim.sweep import sweep_cells

    try:
        cells = sweep_cells(rule_sets, bot_list, counts, field)
        with _progress(len(cells) * matches, _("sweeping")) as advance:
            frame = run_sweep(
                rule_sets,
                bot_list,
                counts,
                matches,
                field=field,
                seed=seed,
                workers=workers,
                dask=dask,
                progress=advance,
            )
    except ValueError as e:
        fail(e)
    from ...sim.sweep import sweep_provenance

    prov = sweep_provenance(
        rule_sets, bot_list, counts, matches, field=field, seed=seed, command=_command()
    )
    if out is not None:
        from ...sim.plot import write_table

        _write("table", "--out", out, lambda: write_table(frame, out, prov))
    if plot is not None:
        from ...sim.plot import plot_sweep

        _write("plot", "--plot", plot, lambda: plot_sweep(frame, plot, prov, dpi))
    if as_json:
        typer.echo(json.dumps({"provenance": prov, "rows": frame.to_dict(orient="records")}))
        return
    from rich.console import Console
    from rich.table import Table

    tr = translator(active_lang())
    cells_text = plural(NP_("one cell", "{n} cells"), len(cells))
    matches_text = plural(NP_("one match", "{n} matches"), matches)
    t = Table(title=_("Sweep: {cells} x {matches}").format(cells=cells_text, matches=matches_text))
    # The columns of the written table, under headings in the chosen language.
    cols = {
        "rules": _("rules"),
        "players": _("players"),
        "bot": _("bot"),
        "field": _("field"),
        "seat": _("seat"),
        "win_rate": _("win rate"),
        "ci95_low": _("95% CI low"),
        "ci95_high": _("95% CI high"),
        "mean_score": _("mean score"),
    }
    for heading in cols.values():
        t.add_column(heading)
    for row in frame.itertuples(index=False):
        t.add_row(
            *(
                tr.number(getattr(row, c), 4)
                if isinstance(getattr(row, c), float)
                else str(getattr(row, c))
                for c in cols
            )
        )
    con = Console()
    if not con.is_terminal:
        con = Console(width=140)
    con.print(t)
