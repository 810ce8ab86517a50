"""A crew's season: which matches it holds, who sat in them, and its evenings.

Seasons are the calendar's months, or the crew's own (:class:`.models.CrewSeason`, each from
its first to its last day), and ``all``: every match.  A season's numbers count its matches
only, ratings too: a new season starts everyone afresh, as a league's does (``all`` rates
the whole history).  Days and months are the server clock's UTC days.

An *evening* is a run of matches with less than :data:`EVENING_GAP` between one's end and the
next's: a Friday that runs past midnight is one evening, whatever the time zone.

Who sat in a seat is read once per line: a member (``m:`` and the member's id), a bot of
some level (``bot:`` and its spec: each level is rated apart), or a guest (``guest:`` and
the name's confusable skeleton: a guest is known by their name).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from ..storage.models import PERSON_LABEL, Room
from ..words.names import skeleton
from .models import CrewLine, CrewMember, CrewRoom, CrewSeason

#: Matches closer than this belong to one evening.
EVENING_GAP = timedelta(hours=6)
#: The season that holds every match.
ALL = "all"


@dataclass(frozen=True)
class Seat:
    """A seat of a recorded match, as the season reads it (see :class:`.models.CrewLine`)."""

    who: str
    #: The member's id (None: a guest or a bot).
    member: str | None
    name: str
    kind: str
    place: int
    won: bool
    points: int
    twelves: int
    crews: int
    sips: int
    sips_out: int
    pot: int
    behind: int
    skill: float
    luck: float
    judged: int
    unjudged: int
    lowest: float | None
    scores: dict[str, int]


@dataclass(frozen=True)
class Match:
    """A recorded match: when it ended, its room and its seats."""

    room: int
    code: str
    played_at: datetime
    rules: str
    seats: tuple[Seat, ...]


@dataclass(frozen=True)
class Evening:
    """A run of matches on one night (see the module docstring)."""

    index: int
    matches: tuple[Match, ...]

    @property
    def date(self) -> datetime:
        """When the evening's first match ended."""
        return self.matches[0].played_at


@dataclass(frozen=True)
class Season:
    """A season: its id (``YYYY-MM``, ``s`` and a number, or ``all``), name (a month's or
    ``all`` has none: the page names it in its language), days, and how many matches."""

    id: str
    name: str | None
    starts: date | None
    ends: date | None
    matches: int

    def holds(self, when: datetime) -> bool:
        """Whether a match that ended then is in this season."""
        day = when.astimezone(UTC).date()
        return (self.starts is None or day >= self.starts) and (
            self.ends is None or day <= self.ends
        )


def aware(when: datetime | None) -> datetime:
    """A stored time as an aware UTC time (SQLite gives them back naive); never None where
    it is read (the queries keep to recorded matches)."""
    assert when is not None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def who_of(member: str | None, kind: str, name: str) -> str:
    """The key a line's seat is rated and counted under (see the module docstring):
    ``member``, its member's id (None: none)."""
    if member is not None:
        return "m:" + member
    if kind != PERSON_LABEL:
        return "bot:" + kind
    return "guest:" + skeleton(name)


def month_of(when: datetime) -> str:
    """A month season's id.

    >>> month_of(datetime(2025, 11, 7, 21, tzinfo=UTC))
    '2025-11'
    """
    return aware(when).strftime("%Y-%m")


def _month(season: str) -> tuple[date, date] | None:
    try:
        first = datetime.strptime(season, "%Y-%m").date()
    except ValueError:
        return None
    nxt = (first.replace(day=28) + timedelta(days=4)).replace(day=1)
    return first, nxt - timedelta(days=1)


def played(db: Session, crew_row: int) -> list[datetime]:
    """When each of the crew's recorded matches ended, oldest first."""
    return [
        aware(t)
        for t in db.scalars(
            select(CrewRoom.played_at)
            .where(CrewRoom.crew_id == crew_row, CrewRoom.played_at.is_not(None))
            .order_by(CrewRoom.played_at)
        )
        if t is not None
    ]


def seasons(db: Session, crew_row: int, times: list[datetime]) -> list[Season]:
    """The crew's seasons, newest first: its own if it has any, else the months it played
    in; then ``all``."""
    own = db.scalars(
        select(CrewSeason).where(CrewSeason.crew_id == crew_row).order_by(CrewSeason.starts.desc())
    ).all()
    out: list[Season] = []
    if own:
        for s in own:
            season = Season(f"s{s.id}", s.name, s.starts, s.ends, 0)
            out.append(_counted(season, times))
    else:
        months = Counter(month_of(t) for t in times)
        for month in sorted(months, reverse=True):
            first, last = _month(month) or (None, None)
            out.append(Season(month, None, first, last, months[month]))
    out.append(Season(ALL, None, None, None, len(times)))
    return out


def _counted(season: Season, times: list[datetime]) -> Season:
    n = sum(1 for t in times if season.holds(t))
    return Season(season.id, season.name, season.starts, season.ends, n)


def chosen(listed: list[Season], wanted: str | None, times: list[datetime]) -> Season | None:
    """The season asked for (None: no such season), or without a wish the season of the
    crew's newest match (the one a crew wants to see; ``all`` before any match)."""
    if wanted:
        found = next((s for s in listed if s.id == wanted), None)
        if found is None and _month(wanted) is not None:  # a month with no match yet
            first, last = _month(wanted) or (None, None)
            found = Season(wanted, None, first, last, 0)
        return found
    if times:
        newest = times[-1]
        return next((s for s in listed if s.holds(newest)), listed[-1])
    return listed[-1]


def matches(db: Session, crew_row: int, season: Season, newest: int | None = None) -> list[Match]:
    """The season's recorded matches, oldest first, each with its seats (``newest``: only
    that many, the newest)."""
    members = dict(
        db.execute(
            select(CrewMember.id, CrewMember.public_id).where(CrewMember.crew_id == crew_row)
        ).all()
    )
    line = CrewLine
    query = (
        select(
            line.room_id,
            line.member_id,
            line.kind,
            line.name,
            line.place,
            line.won,
            line.points,
            line.twelves,
            line.crews,
            line.sips,
            line.sips_out,
            line.pot,
            line.behind,
            line.skill,
            line.luck,
            line.judged,
            line.unjudged,
            line.lowest,
            line.scores,
            CrewRoom.played_at,
            Room.code,
            Room.rules,
        )
        .join(CrewRoom, CrewRoom.room_id == line.room_id)
        .join(Room, Room.id == line.room_id)
        .where(CrewRoom.crew_id == crew_row, CrewRoom.played_at.is_not(None))
        .order_by(CrewRoom.played_at, line.room_id, line.position)
    )
    if newest is not None:
        last = within(
            select(CrewRoom.room_id)
            .where(CrewRoom.crew_id == crew_row, CrewRoom.played_at.is_not(None))
            .order_by(CrewRoom.played_at.desc(), CrewRoom.room_id.desc())
            .limit(newest),
            season,
        )
        query = query.where(line.room_id.in_(last.scalar_subquery()))
    heads: dict[int, tuple[str, datetime, str]] = {}
    seats: dict[int, list[Seat]] = {}
    whos: dict[tuple[int | None, str, str], tuple[str, str | None]] = {}
    for room, member_row, kind, name, *counts, when, code, rules in db.execute(
        within(query, season)
    ):
        if room not in heads:
            heads[room] = (code, aware(when), rules)
            seats[room] = []
        known = whos.get((member_row, kind, name))
        if known is None:
            member = members.get(member_row) if member_row is not None else None
            known = whos[(member_row, kind, name)] = (who_of(member, kind, name), member)
        seats[room].append(Seat(known[0], known[1], name, kind, *counts))
    return [Match(room, *head, tuple(seats[room])) for room, head in heads.items()]


Q = TypeVar("Q", bound=Select[*tuple[Any, ...]])


def within(query: Q, season: Season) -> Q:
    """``query`` (over :class:`.models.CrewRoom`) kept to the season's days."""
    if season.starts is not None:
        query = query.where(
            CrewRoom.played_at >= datetime.combine(season.starts, datetime.min.time(), UTC)
        )
    if season.ends is not None:
        after = datetime.combine(season.ends + timedelta(days=1), datetime.min.time(), UTC)
        query = query.where(CrewRoom.played_at < after)
    return query


def evenings(matches: list[Match]) -> list[Evening]:
    """The season's matches in evenings (see the module docstring), oldest first."""
    runs: list[list[Match]] = []
    for m in matches:
        if runs and m.played_at - runs[-1][-1].played_at < EVENING_GAP:
            runs[-1].append(m)
        else:
            runs.append([m])
    return [Evening(i, tuple(run)) for i, run in enumerate(runs)]
