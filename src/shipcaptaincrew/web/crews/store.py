"""A crew's rows as its members change them: the crew, members, keys, links, seasons, guests.

Every change is one transaction that first bumps the crew's :attr:`~.models.Crew.version`
(:func:`bump`): on PostgreSQL that locks the crew's row, on SQLite the database, so two
workers changing one crew at once take turns, and whatever was computed from the crew's
rows is known to be stale.  The rooms a crew plays in are :mod:`.tables`'.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session, sessionmaker

from ..table.store import guarded
from ..words import refusals as E
from ..words.names import skeleton
from ..words.refusals import ErrorCode, RoomError
from .identity import Member, hash_secret, new_id, new_secret, no_crew
from .models import Crew, CrewKey, CrewLine, CrewLink, CrewMember, CrewSeason
from .schemas import AddSeason, LinkKind

#: How long a one-time link lives.
LINK_LIFETIME = timedelta(minutes=30)


@dataclass(frozen=True)
class Looks:
    """A member's name and look."""

    name: str
    color: int | None = None
    avatar: str | None = None


@dataclass(frozen=True)
class Entry:
    """A device let into a crew: its new key and the member it is."""

    crew: str
    member: str
    key: str


def secret_of(link: str, name: str) -> str:
    """The secret of an invite or a one-time link, given as the link (``...#name=SECRET``)
    or alone.

    >>> secret_of("https://pub.example/c/abc#invite=s3cr3t", "invite"), secret_of("s3cr3t", "x")
    ('s3cr3t', 's3cr3t')
    """
    marker = f"{name}="
    if marker in link:
        return link.rsplit(marker, 1)[1].split("&", 1)[0]
    return link


def bump(db: Session, crew_row: int) -> None:
    """The crew changes: its version goes up (and its row is locked till the commit)."""
    db.execute(update(Crew).where(Crew.id == crew_row).values(version=Crew.version + 1))


def check_member_name(db: Session, crew_row: int, name: str, but: int | None = None) -> None:
    """Refuse a name that is, or looks like, another member's in the crew."""
    mine = skeleton(name)
    others = db.scalars(
        select(CrewMember.name).where(
            CrewMember.crew_id == crew_row,
            CrewMember.removed_at.is_(None),
            CrewMember.id != (but if but is not None else -1),
        )
    )
    for other in others:
        if other.casefold() == name.casefold():
            raise RoomError(ErrorCode.NAME_TAKEN, E.CREW_NAME_TAKEN, 409, name=name)
        if skeleton(other) == mine:
            raise RoomError(
                ErrorCode.NAME_TAKEN, E.CREW_NAME_LOOKALIKE, 409, name=name, other=other
            )


class CrewStore:
    """The crews' rows (the routes and the service call it off the event loop)."""

    def __init__(self, sessions: sessionmaker[Session], now: Callable[[], datetime]) -> None:
        self.sessions = sessions
        #: The server's clock (see ..clock).
        self.now = now

    @contextmanager
    def change(self) -> Iterator[Session]:
        """One transaction; database trouble becomes a clear refusal."""
        with guarded(), self.sessions() as db, db.begin():
            yield db

    # -- crews and members ----------------------------------------------------------------
    def create(self, db: Session, name: str, first: Looks) -> tuple[Crew, CrewMember, str]:
        """A new crew with its first member, an admin (in ``db``'s transaction); returns the
        crew, the member and the member's key."""
        crew = Crew(public_id=new_id(), name=name, invite=new_secret(), version=0)
        crew.created_at = self.now()
        db.add(crew)
        db.flush()
        member, key = self.add_member(db, crew.id, first, admin=True)
        return crew, member, key

    def add_member(
        self, db: Session, crew_row: int, looks: Looks, admin: bool = False
    ) -> tuple[CrewMember, str]:
        """A new member with a key for the device that asked (the caller bumped the crew)."""
        check_member_name(db, crew_row, looks.name)
        member = CrewMember(
            crew_id=crew_row,
            public_id=new_id(),
            name=looks.name,
            color=looks.color,
            avatar=looks.avatar,
            admin=admin,
            joined_at=self.now(),
        )
        db.add(member)
        db.flush()
        return member, self.new_key(db, member.id)

    def new_key(self, db: Session, member_row: int) -> str:
        """A new device key for a member."""
        key = new_secret()
        db.add(CrewKey(member_id=member_row, key_hash=hash_secret(key), created_at=self.now()))
        return key

    def crew_by_invite(self, db: Session, crew: str, invite: str) -> Crew:
        """The crew whose invite this is (else the one 404)."""
        row = db.scalar(select(Crew).where(Crew.public_id == crew))
        if row is None or row.invite != secret_of(invite, "invite"):
            raise no_crew()
        return row

    def crew_row(self, db: Session, crew: str) -> Crew:
        """A crew by its id (the caller has checked who may see it)."""
        row = db.scalar(select(Crew).where(Crew.public_id == crew))
        if row is None:
            raise no_crew()
        return row

    def member_row(self, db: Session, crew_row: int, member: str) -> CrewMember:
        """A current member of the crew by their id."""
        row = db.scalar(
            select(CrewMember).where(
                CrewMember.crew_id == crew_row,
                CrewMember.public_id == member,
                CrewMember.removed_at.is_(None),
            )
        )
        if row is None:
            raise RoomError(ErrorCode.CREW, E.NO_MEMBER, 404)
        return row

    def update_me(self, me: Member, looks: Looks) -> None:
        """A member's own name and look."""
        with self.change() as db:
            bump(db, me.crew_row)
            check_member_name(db, me.crew_row, looks.name, but=me.row)
            db.execute(
                update(CrewMember)
                .where(CrewMember.id == me.row)
                .values(name=looks.name, color=looks.color, avatar=looks.avatar)
            )

    def forget_key(self, key: str) -> None:
        """This device leaves the membership (the member and their other devices stay)."""
        with self.change() as db:
            db.execute(delete(CrewKey).where(CrewKey.key_hash == hash_secret(key)))

    def set_admin(self, admin: Member, member: str, value: bool) -> None:
        """An admin makes a member an admin, or not (a crew keeps at least one)."""
        with self.change() as db:
            bump(db, admin.crew_row)
            row = self.member_row(db, admin.crew_row, member)
            if not value:
                self._keeps_an_admin(db, admin.crew_row, row.id)
            row.admin = value

    def remove(self, admin: Member, member: str) -> None:
        """An admin removes a member: their devices lose access at once; their matches stay
        in the crew's history under their name."""
        with self.change() as db:
            bump(db, admin.crew_row)
            row = self.member_row(db, admin.crew_row, member)
            self._keeps_an_admin(db, admin.crew_row, row.id)
            row.removed_at, row.admin = self.now(), False
            db.execute(delete(CrewKey).where(CrewKey.member_id == row.id))
            db.execute(delete(CrewLink).where(CrewLink.member_id == row.id))

    def _keeps_an_admin(self, db: Session, crew_row: int, losing: int) -> None:
        admins = db.scalars(
            select(CrewMember.id).where(
                CrewMember.crew_id == crew_row,
                CrewMember.admin.is_(True),
                CrewMember.removed_at.is_(None),
            )
        ).all()
        if set(admins) <= {losing}:
            raise RoomError(ErrorCode.CREW, E.LAST_ADMIN, 409)

    def rename(self, admin: Member, name: str) -> None:
        """An admin renames the crew."""
        with self.change() as db:
            bump(db, admin.crew_row)
            db.execute(update(Crew).where(Crew.id == admin.crew_row).values(name=name))

    def renew_invite(self, admin: Member) -> str:
        """An admin renews the invite: the old link lets nobody in any more."""
        invite = new_secret()
        with self.change() as db:
            bump(db, admin.crew_row)
            db.execute(update(Crew).where(Crew.id == admin.crew_row).values(invite=invite))
        return invite

    # -- one-time links ---------------------------------------------------------------------
    def make_link(self, member_row: int, kind: LinkKind) -> tuple[str, datetime]:
        """A one-time link to this membership; returns its secret and when it expires."""
        secret = new_secret()
        expires = self.now() + LINK_LIFETIME
        with self.change() as db:
            db.add(
                CrewLink(
                    member_id=member_row,
                    link_hash=hash_secret(secret),
                    kind=kind.value,
                    expires_at=expires,
                )
            )
        return secret, expires

    def claim(self, crew: str, link: str) -> Entry:
        """A new device opens a one-time link: it gets a key of its own; moving (or an
        admin's new invite) ends the member's other keys.  A link works once."""
        wanted = hash_secret(secret_of(link, "link"))
        with self.change() as db:
            found = db.execute(
                select(CrewLink, CrewMember, Crew)
                .join(CrewMember, CrewMember.id == CrewLink.member_id)
                .join(Crew, Crew.id == CrewMember.crew_id)
                .where(CrewLink.link_hash == wanted, CrewMember.removed_at.is_(None))
            ).first()
            if found is None or found[2].public_id != crew:
                raise RoomError(ErrorCode.NO_CREW, E.LINK_USED, 404)
            row, member, crew_row = found
            db.delete(row)
            expires = row.expires_at
            if expires.tzinfo is None:  # (SQLite gives naive UTC times back)
                expires = expires.replace(tzinfo=self.now().tzinfo)
            if expires < self.now():
                raise RoomError(ErrorCode.NO_CREW, E.LINK_USED, 404)
            if row.kind != LinkKind.SCREEN.value:
                db.execute(delete(CrewKey).where(CrewKey.member_id == member.id))
            key = self.new_key(db, member.id)
            return Entry(crew_row.public_id, member.public_id, key)

    def invite_link_of(self, crew_row: int) -> str:
        """The crew's invite secret (every member may show it)."""
        with self.sessions() as db:
            invite = db.scalar(select(Crew.invite).where(Crew.id == crew_row))
            if invite is None:
                raise no_crew()
            return invite

    # -- seasons and guests ------------------------------------------------------------------
    def add_season(self, admin: Member, req: AddSeason) -> int:
        """An admin adds a season of the crew's own; returns its number."""
        if req.ends < req.starts:
            raise RoomError(ErrorCode.CREW, E.SEASON_DATES, 422)
        with self.change() as db:
            bump(db, admin.crew_row)
            season = CrewSeason(
                crew_id=admin.crew_row, name=req.season, starts=req.starts, ends=req.ends
            )
            db.add(season)
            db.flush()
            return season.id

    def remove_season(self, admin: Member, season: int) -> None:
        """An admin removes one of the crew's own seasons (its matches stay)."""
        with self.change() as db:
            bump(db, admin.crew_row)
            gone = db.execute(
                delete(CrewSeason).where(
                    CrewSeason.id == season, CrewSeason.crew_id == admin.crew_row
                )
            )
            if not gone.rowcount:  # type: ignore[attr-defined]
                raise RoomError(ErrorCode.CREW, E.NO_SEASON, 404, season=season)

    def match_guest(self, admin: Member, guest: str, member: str) -> int:
        """An admin says a guest was a member: the guest's recorded seats become the
        member's; returns how many."""
        from .models import CrewRoom

        with self.change() as db:
            bump(db, admin.crew_row)
            target = self.member_row(db, admin.crew_row, member)
            rooms = select(CrewRoom.room_id).where(CrewRoom.crew_id == admin.crew_row)
            lines = db.scalars(
                select(CrewLine).where(
                    CrewLine.room_id.in_(rooms),
                    CrewLine.member_id.is_(None),
                    CrewLine.kind == "human",
                )
            ).all()
            mine = [line for line in lines if skeleton(line.name) == skeleton(guest)]
            if not mine:
                raise RoomError(ErrorCode.CREW, E.NO_GUEST, 404, name=guest)
            for line in mine:
                line.member_id = target.id
            return len(mine)
