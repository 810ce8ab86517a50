"""A crew's answer (``GET /api/crews/{crew}``, and ``scc crew show --json`` prints the same):
the crew, its members, the season's ratings, records, head-to-head, form, decision quality,
score distribution and evenings.

One function builds it from the database for both, and nothing in it depends on who asks
(what a member sees of themselves is ``/me``), so the terminal and the page give the same
numbers.  Times are ISO 8601 in UTC; chances are between 0 and 1 (skill and luck are sums of
changes in chance: 0.05 is five percentage points).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..storage.models import Room, RoomStatus
from ..words import refusals as E
from ..words.refusals import ErrorCode, RoomError
from . import records as R
from .models import Crew, CrewDecision, CrewLine, CrewMember, CrewRoom
from .ratings import Rated, fresh, rate
from .season import (
    Evening,
    Match,
    Season,
    aware,
    chosen,
    evenings,
    matches,
    played,
    seasons,
    within,
)


def _season(s: Season) -> dict[str, Any]:
    return {
        "id": s.id,
        "name": s.name,
        "starts": s.starts.isoformat() if s.starts else None,
        "ends": s.ends.isoformat() if s.ends else None,
        "matches": s.matches,
    }


def _rating(r: Rated) -> dict[str, Any]:
    return {
        "mu": r.mu,
        "sigma": r.sigma,
        "ordinal": r.ordinal,
        "matches": r.matches,
        "wins": r.wins,
        "history": [list(h) for h in r.history],
    }


def snapshot(db: Session) -> None:
    """Let every read of ``db`` from now on see the database as it was at the first: call it
    before the session reads anything.

    The answer is read in many queries, and a match recorded between two of them tore it (the
    seasons listed without the match, the season's matches with it); on SQLite each query
    outside a transaction sees the newest commit, on PostgreSQL each one in READ COMMITTED.
    """
    if db.get_bind().dialect.name == "postgresql":
        db.connection(
            execution_options={"isolation_level": "REPEATABLE READ", "postgresql_readonly": True}
        )
    else:  # SQLite: a read transaction holds its snapshot till it ends (the session's close)
        db.connection().exec_driver_sql("BEGIN")


def crew_view(db: Session, crew_row: int, wanted: str | None = None) -> dict[str, Any]:
    """The crew's answer for a season (``wanted``: its id; None: the newest match's), read in
    one :func:`snapshot` of ``db`` that the caller began."""
    crew = db.get(Crew, crew_row)
    assert crew is not None
    times = played(db, crew_row)
    listed = seasons(db, crew_row, times)
    season = chosen(listed, wanted, times)
    if season is None:
        raise RoomError(ErrorCode.CREW, E.NO_SEASON, 404, season=(wanted or "")[:32])
    held = matches(db, crew_row, season)
    nights = evenings(held)
    rated = rate(nights)
    people = db.scalars(
        select(CrewMember).where(CrewMember.crew_id == crew_row).order_by(CrewMember.joined_at)
    ).all()
    current = [m for m in people if m.removed_at is None]
    ratings = [
        {"member": m.public_id, "name": m.name, **_rating(rated.get("m:" + m.public_id, fresh()))}
        for m in current
    ]
    ratings.sort(key=lambda r: (-r["ordinal"], r["name"]))
    seats = [s for m in held for s in m.seats]
    quality = R.quality(seats)
    return {
        "crew": {
            "id": crew.public_id,
            "name": crew.name,
            "created_at": aware(crew.created_at).isoformat(),
        },
        "season": _season(season),
        "seasons": [_season(s) for s in listed],
        "matches": len(held),
        "pending": _pending(db, crew_row),
        "members": [
            {
                "id": m.public_id,
                "name": m.name,
                "color": m.color,
                "avatar": m.avatar,
                "admin": m.admin,
                "joined_at": aware(m.joined_at).isoformat(),
            }
            for m in current
        ],
        "ratings": ratings,
        "others": _others(rated, held, {m.public_id: m.name for m in people if m.removed_at}),
        "records": R.records(nights),
        "head_to_head": R.head_to_head(held),
        "form": [{"member": m, "matches": rows} for m, rows in R.form(held).items()],
        "quality": {
            "members": [{"member": m, **q} for m, q in quality.items()],
            "worst": _worst(db, crew_row, season, {m.id: m.public_id for m in people}),
        },
        "scores": [{"member": m, "counts": c} for m, c in R.scores(held).items()],
        "evenings": [_evening(e) for e in nights],
    }


def _others(rated: dict[str, Rated], held: list[Match], former: dict[str, str]) -> list[Any]:
    """Everyone rated but the current members: bots by level, guests, former members."""
    names: dict[str, str] = {}
    for match in held:
        for seat in match.seats:
            names[seat.who] = seat.name
    out = []
    for who, r in rated.items():
        kind, _, key = who.partition(":")
        if kind == "m" and key not in former:
            continue
        entry: dict[str, Any] = {"key": who, "kind": {"m": "former", "bot": "bot"}.get(kind, kind)}
        if kind == "bot":
            entry["level"] = key
        entry["name"] = former.get(key, names.get(who, key)) if kind == "m" else names.get(who, key)
        out.append({**entry, **_rating(r)})
    out.sort(key=lambda r: (-r["ordinal"], r["key"]))
    return out


def _evening(e: Evening) -> dict[str, Any]:
    quality = R.quality(s for m in e.matches for s in m.seats)
    return {
        "index": e.index,
        "date": e.date.isoformat(),
        "matches": [m.code for m in e.matches],
        "winners": [next((s.name for s in m.seats if s.won), None) for m in e.matches],
        "quality": [{"member": member, **q} for member, q in quality.items()],
    }


def _pending(db: Session, crew_row: int) -> int:
    """Finished matches of the crew not recorded yet (being worked out)."""
    n = db.scalar(
        select(func.count())
        .select_from(CrewRoom)
        .join(Room, Room.id == CrewRoom.room_id)
        .where(
            CrewRoom.crew_id == crew_row,
            CrewRoom.recorded_at.is_(None),
            Room.status == RoomStatus.OVER.value,
        )
    )
    return int(n or 0)


def _worst(
    db: Session, crew_row: int, season: Season, members: dict[int, str]
) -> list[dict[str, Any]]:
    """The members' costliest choices of the season, costliest first."""
    cost = CrewDecision.best_chance - CrewDecision.chance
    query = (
        select(CrewDecision, CrewLine.member_id, CrewLine.name, Room.code, CrewRoom.played_at)
        .join(
            CrewLine,
            (CrewLine.room_id == CrewDecision.room_id)
            & (CrewLine.position == CrewDecision.position),
        )
        .join(CrewRoom, CrewRoom.room_id == CrewDecision.room_id)
        .join(Room, Room.id == CrewDecision.room_id)
        .where(CrewRoom.crew_id == crew_row, CrewLine.member_id.is_not(None), cost > 1e-9)
        .order_by(cost.desc(), CrewDecision.id)
        .limit(R.WORST)
    )
    out = []
    for d, member, name, code, when in db.execute(within(query, season)):
        out.append(
            {
                "member": None if member is None else members.get(member),
                "name": name,
                "code": code,
                "date": aware(when).isoformat(),
                "event": d.seq,
                "action": d.action,
                "best": d.best,
                "chance": d.chance,
                "best_chance": d.best_chance,
            }
        )
    return out


def match_list(db: Session, crew_row: int, wanted: str | None, limit: int) -> list[dict[str, Any]]:
    """The season's matches, newest first: when, the rules, every seat's place and points."""
    times = played(db, crew_row)
    season = chosen(seasons(db, crew_row, times), wanted, times)
    if season is None:
        raise RoomError(ErrorCode.CREW, E.NO_SEASON, 404, season=(wanted or "")[:32])
    held = matches(db, crew_row, season, newest=limit)
    return [
        {
            "code": m.code,
            "played_at": m.played_at.isoformat(),
            "rules": m.rules,
            "seats": [
                {
                    "name": s.name,
                    "member": s.member,
                    "kind": s.kind,
                    "place": s.place,
                    "points": s.points,
                    "won": s.won,
                }
                for s in m.seats
            ],
        }
        for m in reversed(held)
    ]
