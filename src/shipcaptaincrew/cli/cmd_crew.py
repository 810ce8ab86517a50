"""``scc crew``: a crew's season from the server's database, in the terminal.

``scc crew show ID --db URL --json`` prints the very body ``GET /api/crews/ID`` answers
(one function builds both: ``web.crews.view``); without ``--json`` the same numbers as
tables.  ``scc crew list`` names the crews a database holds (for whoever runs the server),
``scc crew export`` writes a season's tables with their provenance.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ..i18n import _
from ..messages import N_
from .app import SccGroup, SccTyper, app
from .common import LangOpt, fail, os_reason

crew_app = SccTyper(
    cls=SccGroup,
    help=N_("A crew's season from the server's database: ratings, records, head-to-head."),
    no_args_is_help=True,
)
app.add_typer(crew_app, name="crew")

DbOpt = Annotated[
    str,
    typer.Option(
        "--db",
        metavar=N_("URL"),
        help=N_("The server's database: sqlite:///FILE or postgresql://USER:PASSWORD@HOST/DB."),
    ),
]
SeasonOpt = Annotated[
    str | None,
    typer.Option(
        "--season",
        metavar=N_("SEASON"),
        help=N_("A season: YYYY-MM, one of the crew's own (sN), or all (without it: the newest)."),
    ),
]
CrewArg = Annotated[str, typer.Argument(metavar=N_("ID"), help=N_("The crew's id."))]


@crew_app.callback()
def _crew(lang: LangOpt = None) -> None:
    """The crew commands share ``--lang``."""


def _sessions(db: str) -> Any:
    """The database's sessions (migrated to the newest schema, as the server does)."""
    from ..web.db import open_database
    from ..web.settings import Settings

    if not db.startswith(("sqlite:", "postgresql:", "postgres:")):
        fail(_("--db must be a sqlite:/// or postgresql:// URL, got '{url}'").format(url=db))
    return open_database(Settings(db_url=db).sqlalchemy_url())


def _crew_row(sessions: Any, crew: str) -> int:
    from sqlalchemy import select

    from ..web.crews.models import Crew

    with sessions() as s:
        row = s.scalar(select(Crew.id).where(Crew.public_id == crew))
    if row is None:
        fail(_("no crew '{id}' in this database").format(id=crew))
    return int(row)


@crew_app.command("list", help=N_("The crews in the database: id, name, members and matches."))
def list_crews(db: DbOpt, lang: LangOpt = None) -> None:
    """Every crew, oldest first."""
    from rich.console import Console
    from rich.table import Table
    from sqlalchemy import func, select

    from ..web.crews.models import Crew, CrewMember, CrewRoom

    sessions = _sessions(db)
    table = Table(_("id"), _("name"), _("members"), _("matches"))
    with sessions() as s:
        for crew in s.scalars(select(Crew).order_by(Crew.created_at)):
            members = s.scalar(
                select(func.count())
                .select_from(CrewMember)
                .where(CrewMember.crew_id == crew.id, CrewMember.removed_at.is_(None))
            )
            played = s.scalar(
                select(func.count())
                .select_from(CrewRoom)
                .where(CrewRoom.crew_id == crew.id, CrewRoom.recorded_at.is_not(None))
            )
            table.add_row(crew.public_id, crew.name, str(members), str(played))
    Console().print(table)


@crew_app.command(
    help=N_(
        "A crew's season: its ratings, records, head-to-head and decision quality."
        "\n\n"
        "--json prints the body the server's GET /api/crews/ID answers."
    )
)
def show(
    crew: CrewArg,
    db: DbOpt,
    season: SeasonOpt = None,
    json_out: Annotated[
        bool,
        typer.Option("--json", help=N_("Print one JSON object (the same in every language).")),
    ] = False,
    lang: LangOpt = None,
) -> None:
    """The crew's answer, as JSON or as tables."""
    import orjson

    from ..web.crews.view import crew_view
    from ..web.errors import RoomError

    sessions = _sessions(db)
    row = _crew_row(sessions, crew)
    try:
        with sessions() as s:
            body = crew_view(s, row, season)
    except RoomError as e:
        fail(e.render(_lang()))
    if json_out:
        typer.echo(orjson.dumps(body).decode())
        return
    from .crew_view import print_crew

    print_crew(body)


def _lang() -> str:
    from ..i18n import active_lang

    return active_lang()


@crew_app.command(
    help=N_(
        "Write a crew's season as tidy data with its provenance: matches, ratings or "
        "decisions.\n\nCSV writes a .meta.json beside it; Parquet needs the sim extra."
    )
)
def export(
    crew: CrewArg,
    db: DbOpt,
    out: Annotated[
        Path,
        typer.Option("--out", "-o", metavar=N_("DIR"), help=N_("The directory to write into.")),
    ],
    table: Annotated[
        str,
        typer.Option("--table", metavar=N_("TABLE"), help=N_("matches, ratings or decisions.")),
    ] = "matches",
    to: Annotated[
        str,
        typer.Option(
            "--to", metavar=N_("FORMAT"), help=N_("The file format: csv, json or parquet.")
        ),
    ] = "csv",
    season: SeasonOpt = None,
    lang: LangOpt = None,
) -> None:
    """The season's table, written next to its provenance."""
    from ..web.crews.export import EXPORTS, FORMATS, provenance, rows, write
    from ..web.errors import RoomError

    if table not in EXPORTS:
        fail(_("unknown table '{name}': use {names}").format(name=table, names=", ".join(EXPORTS)))
    if to not in FORMATS:
        fail(
            _("unknown file format '{name}': use {names}").format(name=to, names=", ".join(FORMATS))
        )
    sessions = _sessions(db)
    row = _crew_row(sessions, crew)
    try:
        with sessions() as s:
            data, about = rows(s, row, table, season)
        files = write(table, data, to, provenance(table, about, shlex.join(["scc", *sys.argv[1:]])))
    except RoomError as e:
        fail(e.render(_lang()))
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, body in files.items():
            (out / name).write_bytes(body)
            typer.echo(_("wrote {path}").format(path=out / name))
    except OSError as e:
        fail(_("cannot write {path}: {reason}").format(path=out, reason=os_reason(e)))
