"""``scc simulate`` and ``scc sweep``: bot tournaments at scale, with statistics and plots.

Heavy libraries (NumPy, pandas, matplotlib, Dask) are imported inside the commands so that
``scc --help`` stays quick.  The tables speak the chosen language (``--lang``), numbers with
its decimal sign; ``--json`` and the written tables are the same in every language.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer

from ...i18n import _, active_lang, translator
from ...messages import N_, NP_
from ..app import app
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
from ..terminal.options import FORMAT_HELP

FormatOpt = Annotated[
    str | None, typer.Option("--format", "-f", metavar=N_("FORMAT"), help=FORMAT_HELP)
]
StakesOpt = Annotated[
    str | None,
    typer.Option(
        "--stakes",
        metavar=N_("STAKES"),
        help=N_(
            "What a round is played for: points or pot, and a drinking mode joined by +, for "
            "example pot+last_drinks (drinks, last_drinks, captain_hands_out, failed_double)."
        ),
    ),
]
SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        metavar=N_("N"),
        help=N_(
            "The seed (0 or more): the same seed gives the same result however the work is "
            "split; without it a random seed is chosen and reported."
        ),
    ),
]
WorkersOpt = Annotated[
    int,
    typer.Option("--workers", "-w", metavar=N_("N"), help=N_("Worker processes on this machine.")),
]
DaskOpt = Annotated[
    str | None,
    typer.Option(
        "--dask",
        metavar=N_("ADDRESS"),
        help=N_(
            "A Dask scheduler's address (tcp://host:8786), or local to start a cluster of two "
            "processes here (needs the sim extra)."
        ),
    ),
]
DpiOpt = Annotated[
    int,
    typer.Option(
        "--dpi",
        metavar=N_("N"),
        help=N_("The resolution of a --plot picture in dots per inch (a .png; 30 to 2400)."),
    ),
]
#: The pictures --plot writes (the provenance of the run goes into each).
PLOT_SUFFIXES = (".png", ".svg", ".pdf")
JsonOpt = Annotated[
    bool,
    typer.Option(
        "--json", help=N_("Print one JSON object on stdout (the same in every language).")
    ),
]


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
            rate = translator(active_lang()).number(speed, 0) if speed else ""
            bar.update(task, rate=_("{n} matches/s").format(n=rate) if rate else "")

        yield advance


def _check_backend(workers: int, dask: str | None) -> None:
    if workers < 1:
        fail(_("--workers must be at least 1, got {n}").format(n=workers))
    if dask is not None and workers != 1:
        fail(_("choose either --workers or --dask, not both"))


def _check_out(path: str | None, suffixes: tuple[str, ...], flag: str) -> None:
    """Refuse an output file that cannot be written *before* the simulation runs."""
    import os
    from pathlib import Path

    if path is None:
        return
    if not path.lower().endswith(suffixes):
        fail(
            _("{flag} {path}: the file must end in {suffixes}").format(
                flag=flag, path=path, suffixes=", ".join(suffixes)
            )
        )
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        fail(_("{flag} {path}: is a directory, not a file").format(flag=flag, path=path))
    if not parent.is_dir():
        fail(
            _("{flag} {path}: the directory {parent} does not exist").format(
                flag=flag, path=path, parent=parent
            )
        )
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        fail(_("{flag} {path}: not writable").format(flag=flag, path=path))


def _write(what: str, flag: str, path: str, write: Callable[[], None]) -> None:
    """Write an output file; an OS error (disk full, permissions) becomes one clear line."""
    try:
        write()
    except OSError as e:
        fail(
            _("{flag} {path}: cannot write it: {reason}").format(
                flag=flag, path=path, reason=os_reason(e)
            )
        )


@app.command(
    help=N_(
        "Play many matches between bots and report each bot's and each seat's win rate with "
        "its confidence interval at 95 percent."
    )
)
def simulate(
    players: Annotated[
        str,
        typer.Option(
            "--players",
            "-p",
            metavar=N_("BOT,BOT,..."),
            help=N_(
                "One bot per seat, comma-separated: random, timid, tip, threshold:T, ev, "
                "optimal, or the levels easy, medium, hard, perfect."
            ),
        ),
    ],
    matches: Annotated[
        int, typer.Option("--matches", "-n", metavar=N_("N"), help=N_("Matches to play."))
    ],
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
            metavar=N_("FILE"),
            help=N_(
                "Write one row per match and seat to FILE.csv, FILE.json or FILE.parquet "
                "(needs the sim extra)."
            ),
        ),
    ] = None,
    plot: Annotated[
        str | None,
        typer.Option(
            "--plot",
            metavar=N_("FILE"),
            help=N_(
                "Save the win rates and score distributions as a picture: FILE.png, FILE.svg or "
                "FILE.pdf (needs the plot extra)."
            ),
        ),
    ] = None,
    dpi: DpiOpt = 300,
    exact: Annotated[
        bool,
        typer.Option(
            "--exact/--no-exact",
            help=N_(
                "Print each seat's exact chance and the sample's z beside the win rate where "
                "the solver reaches the line-up (the default), or skip the solver."
            ),
        ),
    ] = True,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """Bots at one table, many matches, on the simulator's tables or its engine loop."""
    from ...sim.options import apply_options, parse_players

    r = load_rules(rules, settings)
    _check_backend(workers, dask)
    _check_out(out, (".csv", ".json", ".parquet"), "--out")
    _check_out(plot, PLOT_SUFFIXES, "--plot")
    _check_dpi(dpi)
    _check_counts(matches, seed)
    try:
        r = apply_options(r, fmt, stakes)
        bots = parse_players(players)
        from ...sim.run import check_setup

        check_setup(r, bots)
    except ValueError as e:
        fail(e)
    from ...sim.run import simulate as run_simulation

    try:
        with _progress(matches, _("simulating")) as advance:
            result = run_simulation(
                r, bots, matches, seed=seed, workers=workers, dask=dask, progress=advance,
                command=_command(),
            )  # fmt: skip
    except ValueError as e:
        fail(e)
    summary = result.summary()
    if exact:
        _add_exact(summary, r, bots)
    prov = result.provenance()
    if out is not None:
        from ...sim.plot import write_table

        _write("table", "--out", out, lambda: write_table(result.table(), out, prov))
    if plot is not None:
        from ...sim.plot import plot_result

        _write("plot", "--plot", plot, lambda: plot_result(result, plot, prov, dpi))
    if as_json:
        typer.echo(json.dumps({**summary, "provenance": prov}))
        return
    _print_summary(summary)


def _command() -> str:
    """The command line as typed (for the provenance of what it writes)."""
    from ...provenance import command_line

    return command_line()


def _add_exact(summary: dict[str, Any], rules: Any, bots: list[str]) -> None:
    """Each seat's (and bot's) exact chance and the sample's z, where the solver reaches them;
    else the solver's reason under ``exact_reason``."""
    import math

    from ...sim.exact import exact_seat_chances

    found = exact_seat_chances(rules, bots)
    if isinstance(found, str):
        summary["exact_reason"] = found
        return
    n = summary["matches"]
    rows = [*summary["seats"], *summary["bots"].values()]
    chances = [*found, *(sum(found[s] for s in b["seats"]) for b in summary["bots"].values())]
    for row, p in zip(rows, chances):
        se = math.sqrt(p * (1 - p) / n) if 0 < p < 1 else 0.0
        row["exact_win_rate"] = p
        row["z"] = (row["win_rate"] - p) / se if se else 0.0


def _check_dpi(dpi: int) -> None:
    if not 30 <= dpi <= 2400:
        fail(_("--dpi must be 30 to 2400, got {n}").format(n=dpi))


def _check_counts(matches: int, seed: int | None) -> None:
    if matches < 1:
        fail(_("--matches must be at least 1, got {n}").format(n=matches))
    if seed is not None and seed < 0:
        fail(_("--seed must be a non-negative integer, got {n}").format(n=seed))


def _count(text: str) -> int:
    """One player count of ``--players 2,3,4``."""
    try:
        return int(text)
    except ValueError:
        raise ValueError(
            _("--players: '{text}' is not a count (use numbers like 2,3,4)").format(text=text)
        ) from None


def _print_summary(summary: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from ...rules import Rules

    tr = translator(active_lang())
    con = Console(highlight=False)
    if not con.is_terminal:
        con = Console(highlight=False, width=120)  # piped: do not squeeze into 80 columns
    head = plural(
        NP_(
            "one match, seed {seed}, {rounds} rounds per match",
            "{n} matches, seed {seed}, {rounds} rounds per match",
        ),
        summary["matches"],
        seed=summary["seed"],
        rounds=tr.number(summary["mean_rounds"], 2),
    )
    title = rules_name(Rules.from_str(summary["rules"]))
    con.print(f"[bold]{escape(title)}[/]: {escape(head)}")
    for heading, rows in (
        (_("Per bot"), [{"name": k, **v} for k, v in summary["bots"].items()]),
        (_("Per seat"), [{"name": f"{s['seat']}: {s['bot']}", **s} for s in summary["seats"]]),
        (_("Per place in the first round's play order"), summary["play_order"]),
    ):
        t = Table(title=heading)
        exact = bool(rows) and "exact_win_rate" in rows[0]
        # Per match and seat; crews = turns with a full crew.
        columns = ["", _("win rate"), _("95% CI")]
        if exact:
            # The solver's exact chance, and how many standard errors the sample is from it.
            columns += [_("exact"), "z"]
        columns += [_("mean score"), _("crews"), _("chips/match"), _("sips/match")]
        for col in columns:
            t.add_column(col, justify="right" if col else "left")
        for row in rows:
            lo, hi = row["ci95"]
            chips = tr.number(row["chips_per_match"], 3)
            cells = [row["name"], tr.number(row["win_rate"], 4)]
            cells.append(f"{tr.number(lo, 4)}-{tr.number(hi, 4)}")
            if exact:
                z = tr.number(row["z"], 1)
                cells += [tr.number(row["exact_win_rate"], 4), z if z.startswith("-") else "+" + z]
            cells += [
                tr.number(row["mean_score"], 3),
                tr.percent(row["crew_rate"]),
                chips if chips.startswith("-") else "+" + chips,
                tr.number(row["sips_per_match"], 3),
            ]
            t.add_row(*cells)
        con.print(t)
