"""``scc crew``: a crew's season from the server's database, in the terminal.

``scc crew show ID --db URL --json`` prints the very body ``GET /api/crews/ID`` answers
(one function builds both: ``web.crews.view``); without ``--json`` the same numbers as
tables.  ``scc crew list`` names the crews a database holds (for whoever runs the server),
``scc crew export`` writes a season's tables with their provenance.  The tables only draw:
every number comes from the body ``web.crews.view`` builds, so the terminal and the page say
the same.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ...i18n import _, active_lang, translator
from ...messages import N_
from ..app import SccGroup, SccTyper, app
from ..common import LangOpt, fail, os_reason

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
CrewArg = Annotated[
    str,
    typer.Argument(
        metavar=N_("ID"), help=N_('The crew\'s id (one that begins with "-": after --).')
    ),
]


@crew_app.callback()
def _crew(lang: LangOpt = None) -> None:
    """The crew commands share ``--lang``."""


def _sessions(db: str) -> Any:
    """The database's sessions (migrated to the newest schema, as the server does)."""
    from ...web.settings import Settings
    from ...web.storage.db import open_database

    if not db.startswith(("sqlite:", "postgresql:", "postgres:")):
        fail(_("--db must be a sqlite:/// or postgresql:// URL, got '{url}'").format(url=db))
    return open_database(Settings(db_url=db).sqlalchemy_url())


def _crew_row(sessions: Any, crew: str) -> int:
    from sqlalchemy import select

    from ...web.crews.models import Crew

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

    from ...web.crews.models import Crew, CrewMember, CrewRoom

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

    from ...web.crews.view import crew_view, snapshot
    from ...web.words.refusals import RoomError

    sessions = _sessions(db)
    row = _crew_row(sessions, crew)
    try:
        with sessions() as s:
            snapshot(s)
            body = crew_view(s, row, season)
    except RoomError as e:
        fail(e.render(_lang()))
    if json_out:
        typer.echo(orjson.dumps(body).decode())
        return
    print_crew(body)


def _lang() -> str:
    return active_lang()


@crew_app.command(
    help=N_(
        "Write a crew's season as tidy data with its provenance: matches, ratings or "
        "decisions.\n\nThe provenance is inside the file (in a CSV file: '# key: value' lines "
        "above the header); Parquet needs the sim extra."
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
    """The season's table, its provenance inside (the command line with the database's
    password hidden: an exported file is made to be shared)."""
    from ...provenance import command_line
    from ...web.crews.export import EXPORTS, FORMATS, provenance, rows, write
    from ...web.words.refusals import RoomError

    if table not in EXPORTS:
        fail(_("unknown table '{name}': use {names}").format(name=table, names=", ".join(EXPORTS)))
    if to not in FORMATS:
        fail(
            _("unknown file format '{name}': use {names}").format(name=to, names=", ".join(FORMATS))
        )
    sessions = _sessions(db)
    row = _crew_row(sessions, crew)
    command = command_line([_hidden(a) for a in sys.argv[1:]])
    try:
        with sessions() as s:
            data, about = rows(s, row, table, season)
        name, body = write(table, data, to, provenance(table, about, command))
    except RoomError as e:
        fail(e.render(_lang()))
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(body)
        typer.echo(_("wrote {path}").format(path=out / name))
    except OSError as e:
        fail(_("cannot write {path}: {reason}").format(path=out, reason=os_reason(e)))


def _hidden(arg: str) -> str:
    """A command-line argument with a database URL's password replaced by ``***``."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    if "://" not in arg:
        return arg
    try:
        url = make_url(arg)
    except ArgumentError:
        return arg
    return url.render_as_string(hide_password=True) if url.password else arg


#: A record's name, by its kind (``web.crews.records.RECORDS``).
RECORD_NAMES = {
    "twelves": N_("Most 12s in an evening"),
    "crews": N_("Most crews completed in an evening"),
    "streak": N_("Longest winning run"),
    "comeback": N_("Best comeback (a win from the lowest chance)"),
    "comeback_points": N_("Best comeback (a win from the most points behind)"),
    "sips_drunk": N_("Most sips drunk in an evening"),
    "sips_out": N_("Most sips handed out in an evening"),
    "pot": N_("Biggest pot"),
}
#: Who else is rated, by kind (``web.crews.view``'s ``others``).
KIND_NAMES = {"bot": N_("bot"), "guest": N_("guest"), "former": N_("former member")}


def print_crew(body: dict[str, Any]) -> None:
    """The crew's season as tables: ratings, others rated, records, head-to-head, quality."""
    from rich.console import Console
    from rich.table import Table

    tr = translator(active_lang())
    console = Console()
    season = body["season"]
    title = season["name"] or (_("all matches") if season["id"] == "all" else season["id"])
    console.print(
        _("{crew} · season {season} · matches: {n}").format(
            crew=body["crew"]["name"], season=title, n=body["matches"]
        )
    )
    names = {m["id"]: m["name"] for m in body["members"]}
    ratings = Table(_("name"), "mu", "sigma", _("rating"), _("matches"), _("wins"))
    for r in body["ratings"]:
        ratings.add_row(
            r["name"],
            tr.number(r["mu"], 2),
            tr.number(r["sigma"], 2),
            tr.number(r["ordinal"], 2),
            str(r["matches"]),
            str(r["wins"]),
        )
    for o in body["others"]:
        ratings.add_row(
            f"{o['name']} ({_(KIND_NAMES[o['kind']])})",
            tr.number(o["mu"], 2),
            tr.number(o["sigma"], 2),
            tr.number(o["ordinal"], 2),
            str(o["matches"]),
            str(o["wins"]),
        )
    console.print(ratings)
    records = Table(_("record"), _("value"), _("held by"), _("when"))
    for rec in body["records"]:
        if rec["value"] is None:
            continue
        value = rec["value"]
        shown = tr.percent(value) if rec["record"] == "comeback" else str(value)
        records.add_row(_(RECORD_NAMES[rec["record"]]), shown, rec["name"], rec["date"][:10])
    console.print(records)
    h2h = Table(_("member"), _("member"), _("matches"), _("ahead"), _("behind"), _("even"))
    for pair in body["head_to_head"]:
        h2h.add_row(
            names.get(pair["a"], "?"),
            names.get(pair["b"], "?"),
            str(pair["matches"]),
            str(pair["a_ahead"]),
            str(pair["b_ahead"]),
            str(pair["even"]),
        )
    console.print(h2h)
    quality = Table(_("member"), _("skill"), _("luck"), _("judged"), _("not judged"))
    for q in body["quality"]["members"]:
        quality.add_row(
            names.get(q["member"], "?"),
            tr.number(100 * q["skill"], 1),
            tr.number(100 * q["luck"], 1),
            str(q["judged"]),
            str(q["unjudged"]),
        )
    console.print(quality)
    console.print(_("skill and luck in percentage points of the chance to win (see docs/crews.md)"))
