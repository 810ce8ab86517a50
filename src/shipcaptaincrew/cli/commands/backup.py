"""``scc backup`` and ``scc restore``: checked copies of the web server's database."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ...i18n import _
from ...messages import N_, NP_
from ..app import app
from ..common import LangOpt, error_text, fail, plural

DbOpt = Annotated[
    str | None,
    typer.Option(
        "--db",
        metavar=N_("URL"),
        help=N_(
            "The server's database: sqlite:///FILE or postgresql://USER:PASSWORD@HOST/DB "
            "(without it: env SCC_DB_URL, else SQLite in your user data directory, as scc serve)."
        ),
    ),
]
JsonOpt = Annotated[
    bool,
    typer.Option(
        "--json", help=N_('Print what it holds as one JSON object: {"matches": N, "events": M}.')
    ),
]


def _database(db: str | None) -> str:
    from ...web.settings import Settings

    return db or Settings().db_url


def _holds(matches: int, events: int) -> tuple[str, str]:
    return (
        plural(NP_("{n} match", "{n} matches"), matches),
        plural(NP_("{n} event", "{n} events"), events),
    )


@app.command(
    help=N_(
        "Back up the web server's database into the directory DEST while tables play, check "
        "the copy, and keep the newest ones."
        "\n\n"
        "SQLite is copied with its online backup API, PostgreSQL with pg_dump. Each copy is "
        "checked before it is kept: the database's integrity check, and every match replayed "
        "by the engine as a restarting server replays it. Prints the matches and events it holds."
    )
)
def backup(
    dest: Annotated[Path, typer.Argument(metavar=N_("DEST"), help=N_("The backup directory."))],
    db: DbOpt = None,
    keep: Annotated[
        int,
        typer.Option(
            "--keep", min=1, metavar=N_("N"), help=N_("How many backups to keep in DEST.")
        ),
    ] = 14,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """A checked backup (see :mod:`shipcaptaincrew.web.history.backup`)."""
    from ...web.history import backup as b

    try:
        file, held = b.backup(_database(db), dest, keep)
    except b.BackupError as e:
        fail(_("backup failed: {reason}").format(reason=error_text(e)), code=1)
    if as_json:
        typer.echo(json.dumps(held.json()))
        return
    matches, events = _holds(held.matches, held.events)
    typer.echo(
        _(
            "{file}: {matches}, {events}; checked (integrity, every match replayed); "
            "the newest {keep} kept"
        ).format(file=file, matches=matches, events=events, keep=keep)
    )


@app.command(
    help=N_(
        "Put a backup back in place of the web server's database (stop the server first); "
        "SRC is a backup file or a directory of them (the newest is taken)."
        "\n\n"
        "The backup is checked first, as scc backup checks it; the database's rooms become "
        "the backup's, and unfinished matches resume where they were when the server starts."
    )
)
def restore(
    src: Annotated[Path, typer.Argument(metavar=N_("SRC"), help=N_("A backup file or directory."))],
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """A checked restore (see :mod:`shipcaptaincrew.web.history.backup`)."""
    from ...web.history import backup as b

    try:
        file, held = b.restore(src, _database(db))
    except b.BackupError as e:
        fail(_("restore failed: {reason}").format(reason=error_text(e)), code=1)
    if as_json:
        typer.echo(json.dumps(held.json()))
        return
    matches, events = _holds(held.matches, held.events)
    said = _(
        "restored {file}: {matches}, {events}; unfinished matches resume when the server starts"
    )
    typer.echo(said.format(file=file, matches=matches, events=events))
