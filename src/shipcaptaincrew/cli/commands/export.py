"""``scc export``: the exact tables as tidy data (CSV, JSON or Parquet) with their provenance.

A shell over :mod:`shipcaptaincrew.solver.export_tables` (the rows) and
:mod:`~shipcaptaincrew.solver.export_write` (the files); ``docs/export.md`` documents every
column.  ``--policy`` is read as ``scc equilibrium`` reads it (:func:`.equilibrium.lineup`).
"""

from __future__ import annotations

from typing import Annotated

import typer

from ...i18n import _
from ...messages import N_
from ..app import app
from ..common import LangOpt, RulesOpt, SetOpt, error_text, fail, load_rules, os_reason
from .equilibrium import PlayersOpt, PolicyOpt, lineup
from .simulate import FormatOpt
from .solver import check_players

_TABLE_HELP = N_(
    "A table to write: turn_odds, decisions, round_equilibrium, match_equilibrium or "
    "best_response; repeat it for more (without it: every table)."
)
_AGAINST_HELP = N_("The policies the best responses answer, comma-separated.")


@app.command(
    help=N_(
        "Write the exact tables: turn odds, every decision with every action's chances, the "
        "round and match equilibria, and best responses (their columns: docs/export.md)."
        "\n\n"
        "CSV and JSON need nothing more; Parquet needs the sim extra."
    )
)
def export(
    out: Annotated[
        str,
        typer.Option(
            "--out",
            "-o",
            metavar=N_("PATH"),
            help=N_("A directory (DIR/, or one that exists), or the start of the file names."),
        ),
    ],
    to: Annotated[
        str,
        typer.Option(
            "--to", metavar=N_("FORMAT"), help=N_("The file format: csv, json or parquet.")
        ),
    ] = "csv",
    table: Annotated[
        list[str] | None, typer.Option("--table", metavar=N_("TABLE"), help=_TABLE_HELP)
    ] = None,
    rules: RulesOpt = "classic",
    settings: SetOpt = None,
    fmt: FormatOpt = None,
    players: PlayersOpt = 2,
    policy: PolicyOpt = "optimal",
    against: Annotated[
        str, typer.Option("--against", metavar=N_("POLICY,..."), help=_AGAINST_HELP)
    ] = "ev,threshold:7,optimal:round",
    lang: LangOpt = None,
) -> None:
    """Each table built by the solver and written with its provenance."""
    from ...provenance import command_line
    from ...sim.options import apply_options
    from ...solver import SolverError, UnknownPolicyError
    from ...solver.export_schema import TableKind
    from ...solver.export_tables import ExportSpec, build_table
    from ...solver.export_write import FileFormat, provenance, table_path, write
    from ...solver.policies import SEAT_KINDS, parse_policy

    formats = [f.value for f in FileFormat]
    if to not in formats:
        fail(
            _("unknown file format '{name}': use {names}").format(name=to, names=", ".join(formats))
        )
    names = [k.value for k in TableKind]
    unknown = [t for t in table or () if t not in names]
    if unknown:
        fail(
            _("unknown table '{name}': use {names}").format(name=unknown[0], names=", ".join(names))
        )
    check_players(players)
    try:
        r = apply_options(load_rules(rules, settings), fmt, None)
        spec = ExportSpec(
            r,
            lineup(policy, players),
            tuple(parse_policy(p.strip(), allow=SEAT_KINDS) for p in against.split(",")),
        )
    except (UnknownPolicyError, ValueError) as e:
        fail(e)
    kinds = [TableKind(t) for t in table] if table else list(TableKind)
    command = command_line()
    for kind in kinds:
        try:
            rows = build_table(kind, spec)
        except SolverError as e:
            if table:
                fail(e)
            typer.echo(
                _("skipped {table}: {reason}").format(table=kind.value, reason=error_text(e)),
                err=True,
            )
            continue
        path = table_path(out, kind, FileFormat(to))
        try:
            written = write(kind, rows, path, FileFormat(to), provenance(spec, kind, command))
        except OSError as e:
            fail(_("cannot write {path}: {reason}").format(path=path, reason=os_reason(e)))
        for p in written:
            typer.echo(_("wrote {path}").format(path=p))
