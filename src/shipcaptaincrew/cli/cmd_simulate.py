"""``scc simulate`` and ``scc sweep``: bot tournaments at scale, with statistics and plots.

Heavy libraries (NumPy, pandas, matplotlib, Dask) are imported inside the commands so that
``scc --help`` stays quick.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer

from .app import app
from .common import RulesOpt, SetOpt, error_text, fail, load_rules
from .tui_options import FORMAT_HELP

FormatOpt = Annotated[str | None, typer.Option("--format", "-f", help=FORMAT_HELP)]
StakesOpt = Annotated[
    str | None,
    typer.Option(
        "--stakes",
        help="points or pot, plus a drinking mode joined by +, e.g. "
        "pot+last_drinks (drinks, last_drinks, captain_hands_out, failed_double).",
    ),
]
SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed", help="Seed (non-negative); same seed, same result however the work is split."
    ),
]
WorkersOpt = Annotated[int, typer.Option("--workers", "-w", help="Worker processes.")]
DaskOpt = Annotated[
    str | None,
    typer.Option(
        "--dask",
        help="Dask scheduler address (tcp://host:8786), or 'local' to start a LocalCluster.",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]


@contextmanager
def _progress(total: int, label: str) -> Iterator[Callable[[int], None]]:
    """A Rich progress bar on stderr (rate and ETA), so stdout stays clean for --json."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(
        *columns, console=console, transient=False, disable=not console.is_terminal
    ) as bar:
        task = bar.add_task(label, total=total, rate="")

        def advance(n: int) -> None:
            bar.advance(task, n)
            speed = bar.tasks[task].speed
            bar.update(task, rate=f"{speed:,.0f} matches/s" if speed else "")

        yield advance


def _check_backend(workers: int, dask: str | None) -> None:
    if workers < 1:
        fail(f"--workers must be at least 1, got {workers}")
    if dask is not None and workers != 1:
        fail("choose either --workers or --dask, not both")


def _check_out(path: str | None, suffixes: tuple[str, ...], flag: str) -> None:
    """Refuse an output file that cannot be written *before* the simulation runs."""
    import os
    from pathlib import Path

    if path is None:
        return
    if not path.lower().endswith(suffixes):
        fail(f"{flag} {path}: the file must end in {', '.join(suffixes)}")
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        fail(f"{flag} {path}: is a directory, not a file")
    if not parent.is_dir():
        fail(f"{flag} {path}: the directory {parent} does not exist")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        fail(f"{flag} {path}: not writable")


def _write(what: str, flag: str, path: str, write: Callable[[], None]) -> None:
    """Write an output file; an OS error (disk full, permissions) becomes one clear line."""
    try:
        write()
    except OSError as e:
        fail(f"{flag} {path}: cannot write the {what}: {e.strerror or e}")


@app.command()
def simulate(
    players: Annotated[
        str,
        typer.Option(
            "--players",
            "-p",
            help="One bot per seat: BOT,BOT,... (random, timid, tip, threshold:T, ev, optimal).",
        ),
    ],
    matches: Annotated[int, typer.Option("--matches", "-n", help="Matches to play.")],
    rules: RulesOpt = "classic",
    settings: SetOpt = None,
    fmt: FormatOpt = None,
    stakes: StakesOpt = None,
    seed: SeedOpt = None,
    workers: WorkersOpt = 1,
    dask: DaskOpt = None,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            "-o",
            help="Write one row per match and seat: FILE.csv, FILE.json or FILE.parquet.",
        ),
    ] = None,
    plot: Annotated[
        str | None,
        typer.Option("--plot", help="Save win rates and score distributions as FILE.png."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Play many matches between bots and report win rates with 95% confidence intervals."""
    from ..sim.options import apply_options, parse_players

    r = load_rules(rules, settings)
    _check_backend(workers, dask)
    _check_out(out, (".csv", ".json", ".parquet"), "--out")
    _check_out(plot, (".png",), "--plot")
    if matches < 1:
        fail(f"--matches must be at least 1, got {matches}")
    if seed is not None and seed < 0:
        fail(f"--seed must be a non-negative integer, got {seed}")
    try:
        r = apply_options(r, fmt, stakes)
        bots = parse_players(players)
        from ..sim.run import check_setup

        check_setup(r, bots)
    except ValueError as e:
        fail(e)
    from ..sim.run import simulate as run_simulation

    try:
        with _progress(matches, "simulating") as advance:
            result = run_simulation(
                r, bots, matches, seed=seed, workers=workers, dask=dask, progress=advance
            )
    except ValueError as e:
        fail(e)
    summary = result.summary()
    if out is not None:
        from ..sim.plot import write_table

        _write("table", "--out", out, lambda: write_table(result.table(), out))
    if plot is not None:
        from ..sim.plot import plot_result

        _write("plot", "--plot", plot, lambda: plot_result(result, plot))
    if as_json:
        typer.echo(json.dumps(summary))
        return
    _print_summary(summary)


def _print_summary(summary: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    con = Console()
    if not con.is_terminal:
        con = Console(width=120)  # piped output: do not squeeze the tables into 80 columns
    con.print(
        f"[bold]{summary['rules']}[/]: {summary['matches']:,} matches, seed "
        f"{summary['seed']}, {summary['mean_rounds']:.2f} rounds per match"
    )
    for title, rows in (
        ("Per bot", [{"name": k, **v} for k, v in summary["bots"].items()]),
        ("Per seat", [{"name": f"{s['seat']}: {s['bot']}", **s} for s in summary["seats"]]),
    ):
        t = Table(title=title)
        for col in (
            "",
            "win rate",
            "95% CI",
            "mean score",
            "crews",
            "chips/match",
            "sips/match",
        ):  # per match and seat; crews = turns with a full crew
            t.add_column(col, justify="right" if col else "left")
        for row in rows:
            lo, hi = row["ci95"]
            t.add_row(
                row["name"],
                f"{row['win_rate']:.4f}",
                f"{lo:.4f}-{hi:.4f}",
                f"{row['mean_score']:.3f}",
                f"{row['crew_rate']:.1%}",
                f"{row['chips_per_match']:+.3f}",
                f"{row['sips_per_match']:.3f}",
            )
        con.print(t)


@app.command()
def sweep(
    bots: Annotated[
        str,
        typer.Option("--bots", "-b", help="Bots to test, comma-separated; each sits at seat 0."),
    ],
    players: Annotated[str, typer.Option("--players", "-p", help="Player counts, e.g. 2,3,4.")],
    matches: Annotated[int, typer.Option("--matches", "-n", help="Matches per cell.")],
    rules: Annotated[
        list[str] | None,
        typer.Option(
            "--rules", "-r", help="Rule set (repeatable): preset, alias or canonical text."
        ),
    ] = None,
    settings: SetOpt = None,
    fmt: FormatOpt = None,
    stakes: StakesOpt = None,
    field: Annotated[
        str | None,
        typer.Option("--field", help="Bot at the other seats (default: the tested bot itself)."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed shared by every cell.")] = 0,
    workers: WorkersOpt = 1,
    dask: DaskOpt = None,
    out: Annotated[
        str | None, typer.Option("--out", "-o", help="Write the table: .csv, .json or .parquet.")
    ] = None,
    plot: Annotated[
        str | None,
        typer.Option("--plot", help="Save seat-0 win rates against the player count as FILE.png."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Run a grid (rule sets x bots x player counts) and write one tidy table."""
    from ..sim.options import apply_options

    _check_backend(workers, dask)
    _check_out(out, (".csv", ".json", ".parquet"), "--out")
    _check_out(plot, (".png",), "--plot")
    if matches < 1:
        fail(f"--matches must be at least 1, got {matches}")
    if seed < 0:
        fail(f"--seed must be a non-negative integer, got {seed}")
    try:
        rule_sets = [
            apply_options(load_rules(x, settings), fmt, stakes) for x in (rules or ["classic"])
        ]
        bot_list = [b.strip() for b in bots.split(",")]
        if any(not b for b in bot_list):
            raise ValueError(f"--bots {bots!r}: an empty bot name")
        counts = [int(x) for x in players.split(",")]
    except ValueError as e:
        fail(
            error_text(e).replace(
                "invalid literal for int() with base 10", "--players: not a count"
            )
        )
    from ..sim.sweep import sweep as run_sweep
    from ..sim.sweep import sweep_cells

    try:
        cells = sweep_cells(rule_sets, bot_list, counts, field)
        with _progress(len(cells) * matches, "sweeping") as advance:
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
    if out is not None:
        from ..sim.plot import write_table

        _write("table", "--out", out, lambda: write_table(frame, out))
    if plot is not None:
        from ..sim.plot import plot_sweep

        _write("plot", "--plot", plot, lambda: plot_sweep(frame, plot))
    if as_json:
        typer.echo(json.dumps({"rows": frame.to_dict(orient="records")}))
        return
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"Sweep: {len(cells)} cells x {matches:,} matches")
    cols = (
        "rules",
        "players",
        "bot",
        "field",
        "seat",
        "win_rate",
        "ci95_low",
        "ci95_high",
        "mean_score",
    )
    for c in cols:
        t.add_column(c)
    for row in frame.itertuples(index=False):
        t.add_row(
            *(
                f"{getattr(row, c):.4f}"
                if isinstance(getattr(row, c), float)
                else str(getattr(row, c))
                for c in cols
            )
        )
    con = Console()
    if not con.is_terminal:
        con = Console(width=140)
    con.print(t)
