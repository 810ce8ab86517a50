"""A crew's season as tidy data: CSV, JSON or Parquet, with its provenance.

Written as ``scc export`` writes its tables (:func:`shipcaptaincrew.solver.export_write.table_bytes`):
typed columns, each with its meaning, and the package's one provenance record
(:func:`shipcaptaincrew.provenance.record`: the command line -- or the request of a download
--, the season's rule sets, the bots that sat at its tables, the version from the git commit,
Python, the libraries, the platform, the time) with the crew, the season and its days (and
the rating model for the ratings), kept where every command keeps it: a CSV file's
``# key: value`` lines above the header, a JSON file's top-level ``provenance``, a Parquet
file's schema metadata key ``shipcaptaincrew``.  So every file is one file, and
:func:`shipcaptaincrew.provenance.read` reads its record back.  Parquet needs pyarrow (the
``sim`` extra).

The tables: ``matches`` (a row per seat per match), ``ratings`` (a row per rated player) and
``decisions`` (a row per judged choice).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import version
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from ...provenance import record
from ...solver.export_schema import Column, ColumnType
from ...solver.export_write import FileFormat, table_bytes
from ..storage.models import Room
from ..words import refusals as E
from ..words.catalogue import Label
from ..words.refusals import ErrorCode, RoomError
from .models import Crew, CrewDecision, CrewLine, CrewMember, CrewRoom
from .ratings import rate
from .season import ALL, Season, aware, chosen, evenings, matches, played, seasons, within

_I, _F, _T, _B = ColumnType.INT, ColumnType.FLOAT, ColumnType.TEXT, ColumnType.BOOL

#: Every table's columns (docs/crews.md documents the same).
EXPORTS: dict[str, tuple[Column, ...]] = {
    "matches": (
        Column("code", _T, "the table's join code (its replay: /replay/CODE)"),
        Column("played_at", _T, "when the match ended (ISO 8601, UTC)"),
        Column("rules", _T, "the rule set, canonical text"),
        Column("seat", _I, "the seat (0 = the first to join)"),
        Column("name", _T, "the name at the table"),
        Column("member", _T, "the member's id (empty: a guest or a bot)"),
        Column("kind", _T, "human, or the bot's level"),
        Column("place", _I, "the place on the podium (equal ones share)"),
        Column("won", _B, "won the match"),
        Column("points", _I, "points at the end"),
        Column("twelves", _I, "turns ending on the best cargo (12)"),
        Column("crews", _I, "crews completed"),
        Column("sips", _I, "sips drunk"),
        Column("sips_out", _I, "sips the others drank in rounds this seat won"),
        Column("pot", _I, "the biggest pot won in one round"),
        Column("behind", _I, "most points behind the leader at a round's end"),
        Column("skill", _F, "sum over its choices of chance taken - best chance"),
        Column("luck", _F, "sum over its rolls of chance after - chance before"),
        Column("judged", _I, "choices with an exact chance"),
        Column("unjudged", _I, "choices the solver does not reach"),
        Column("lowest", _F, "the lowest chance in its own turns (empty: none judged)"),
    ),
    "ratings": (
        Column("key", _T, "m:MEMBER, bot:LEVEL or guest:NAME"),
        Column("name", _T, "the name"),
        Column("mu", _F, "OpenSkill mu (the skill believed)"),
        Column("sigma", _F, "OpenSkill sigma (how unsure)"),
        Column("ordinal", _F, "mu - 3 sigma (what the table sorts by)"),
        Column("matches", _I, "matches rated"),
        Column("wins", _I, "matches won"),
    ),
    "decisions": (
        Column("code", _T, "the table's join code"),
        Column("played_at", _T, "when the match ended (ISO 8601, UTC)"),
        Column("seat", _I, "the seat"),
        Column("name", _T, "the name at the table"),
        Column("member", _T, "the member's id (empty: a guest or a bot)"),
        Column("event", _I, "the event's number in the match's log (0 = the first)"),
        Column("action", _T, "the choice taken"),
        Column("best", _T, "the solver's best choice"),
        Column("chance", _F, "the chance to win the match after the choice taken"),
        Column("best_chance", _F, "the chance after the best choice"),
    ),
}
#: File format -> media type of the download.
FORMATS = {
    "csv": "text/csv; charset=utf-8",
    "json": "application/json",
    "parquet": "application/vnd.apache.parquet",
}


def rows(
    db: Session, crew_row: int, table: str, wanted: str | None
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A table's rows for a season, and what the provenance says of the crew and season."""
    times = played(db, crew_row)
    season = chosen(seasons(db, crew_row, times), wanted, times)
    if season is None:
        raise RoomError(ErrorCode.CREW, E.NO_SEASON, 404, season=(wanted or "")[:32])
    crew = db.get(Crew, crew_row)
    assert crew is not None
    ids = dict(
        db.execute(
            select(CrewMember.id, CrewMember.public_id).where(CrewMember.crew_id == crew_row)
        ).all()
    )
    rules, bots = lineup(db, crew_row, season)
    about = {
        "rules": rules,
        "bots": bots,
        "crew": crew.public_id,
        "crew_name": crew.name,
        "season": season.id,
        "starts": season.starts.isoformat() if season.starts else None,
        "ends": season.ends.isoformat() if season.ends else None,
    }
    if table == "ratings":
        held = matches(db, crew_row, season)
        names = {s.who: s.name for m in held for s in m.seats}
        out = [
            {
                "key": who,
                "name": names.get(who, who),
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": r.ordinal,
                "matches": r.matches,
                "wins": r.wins,
            }
            for who, r in sorted(rate(evenings(held)).items(), key=lambda kv: -kv[1].ordinal)
        ]
        return out, {
            **about,
            "rating_model": f"openskill {version('openskill')} PlackettLuce, library defaults",
        }
    if table == "decisions":
        query = (
            select(CrewDecision, CrewLine.name, CrewLine.member_id, Room.code, CrewRoom.played_at)
            .join(
                CrewLine,
                (CrewLine.room_id == CrewDecision.room_id)
                & (CrewLine.position == CrewDecision.position),
            )
            .join(CrewRoom, CrewRoom.room_id == CrewDecision.room_id)
            .join(Room, Room.id == CrewDecision.room_id)
            .where(CrewRoom.crew_id == crew_row)
            .order_by(CrewRoom.played_at, CrewDecision.room_id, CrewDecision.seq)
        )
        out = [
            {
                "code": code,
                "played_at": aware(when).isoformat(),
                "seat": d.position,
                "name": name,
                "member": None if member is None else ids.get(member),
                "event": d.seq,
                "action": d.action,
                "best": d.best,
                "chance": d.chance,
                "best_chance": d.best_chance,
            }
            for d, name, member, code, when in db.execute(within(query, season))
        ]
        return out, about
    out = []
    for m in matches(db, crew_row, season):
        for seat, s in enumerate(m.seats):
            out.append(
                {
                    "code": m.code,
                    "played_at": m.played_at.isoformat(),
                    "rules": m.rules,
                    "seat": seat,
                    "name": s.name,
                    "member": s.member,
                    "kind": s.kind,
                    "place": s.place,
                    "won": s.won,
                    "points": s.points,
                    "twelves": s.twelves,
                    "crews": s.crews,
                    "sips": s.sips,
                    "sips_out": s.sips_out,
                    "pot": s.pot,
                    "behind": s.behind,
                    "skill": s.skill,
                    "luck": s.luck,
                    "judged": s.judged,
                    "unjudged": s.unjudged,
                    "lowest": s.lowest,
                }
            )
    return out, about


def lineup(db: Session, crew_row: int, season: Season) -> tuple[list[str], list[str]]:
    """The rule sets the season's matches were played under, and the bots that sat at them
    (each once, sorted): the provenance's ``rules`` and ``bots``."""
    query = (
        select(Room.rules, CrewLine.kind)
        .join(CrewRoom, CrewRoom.room_id == CrewLine.room_id)
        .join(Room, Room.id == CrewLine.room_id)
        .where(CrewRoom.crew_id == crew_row, CrewRoom.played_at.is_not(None))
        .distinct()
    )
    found = db.execute(within(query, season)).all()
    rules = sorted({r for r, _ in found})
    return rules, sorted({k for _, k in found if k != "human"})


def export(
    sessions: sessionmaker[Session] | Callable[[], Session],
    crew_row: int,
    table: str,
    to: str,
    season: str | None,
    request: str,
) -> tuple[bytes, str, str]:
    """A table as a download: (bytes, media type, file name); ``request`` is what was asked
    for (the URL), in the provenance."""
    if table not in EXPORTS:
        field = Label(E.FIELD_EXPORT_TABLE)
        raise RoomError(ErrorCode.INVALID, E.ONE_OF, 422, field=field, choices=", ".join(EXPORTS))
    if to not in FORMATS:
        field = Label(E.FIELD_FORMAT)
        raise RoomError(ErrorCode.INVALID, E.ONE_OF, 422, field=field, choices=", ".join(FORMATS))
    with sessions() as db:
        data, about = rows(db, crew_row, table, season)
    name, body = write(table, data, to, provenance(table, about, None, request=request))
    return body, FORMATS[to], f"crew-{about['crew']}-{about['season']}-{name}"


def provenance(
    table: str, about: dict[str, Any], command: str | None, request: str | None = None
) -> dict[str, Any]:
    """Where a table comes from (:func:`shipcaptaincrew.provenance.record`): the command line
    that wrote it, or the ``request`` of a download (``command`` null), the season's rules and
    bots, then the table, the crew and the season."""
    rest: dict[str, Any] = {"table": f"crew_{table}"}
    rest |= {k: v for k, v in about.items() if k not in ("rules", "bots")}
    if request is not None:
        rest["request"] = request
    return record(command, rules=about["rules"], bots=about["bots"], **rest)


def write(
    table: str, data: list[dict[str, Any]], to: str, meta: dict[str, Any]
) -> tuple[str, bytes]:
    """A table's file in a format: (file name, bytes), its provenance inside."""
    try:
        body = table_bytes(EXPORTS[table], data, FileFormat(to), meta)
    except ImportError:  # pyarrow, for Parquet only
        raise RoomError(ErrorCode.INVALID, E.NO_PARQUET, 422) from None
    return f"{table}.{to}", body


__all__ = ["ALL", "EXPORTS", "export", "write"]
