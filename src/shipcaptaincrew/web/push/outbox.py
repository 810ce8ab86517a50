"""The outbox: one row per turn and subscription, written before anything is sent.

The row's key is the turn (room, the version it began at, seat) and the subscription, under a
unique constraint, and every writer inserts with ``ON CONFLICT DO NOTHING``: the worker that
made the move, a worker looking again after a restart, two workers at once -- one row, so
one notification.  A row is sent by the worker that claims it: an ``UPDATE`` that sets the
worker's name and a lease only where the row is still pending, due and unleased (on
PostgreSQL the second of two such updates waits for the first and then matches nothing; on
SQLite there is one writer at a time).  The result is written under the same claim.  A worker
that dies holding a claim leaves it to the others once its lease runs out: the one case a
notification can go twice (the push service took it, the worker died before writing so), and
the notification's ``Topic`` and ``tag`` then make the phone show one.

Times: ``due_at`` is on the notifier's clock (a test sets it; quiet hours and retries are
read on it), a lease on the real one (it is about processes).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, and_, delete, exists, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, sessionmaker

from ..crews.models import CrewSeat
from ..storage.models import Room, RoomStatus, Seat
from .models import PushMute, PushOutbox, PushState, PushSubscription

#: Seconds a claim holds a row: far beyond one sending (its timeout is 10 s).
LEASE = timedelta(seconds=60)
#: Rows asked for at each look.
BATCH = 20


@dataclass(frozen=True)
class Subscriber:
    """A subscription that wants a seat's turns: its row and the language to write in."""

    id: int
    lang: str


@dataclass(frozen=True)
class Claimed:
    """A row a worker claimed, with what sending it needs."""

    id: int
    room_id: int
    code: str
    turn: int
    seat: int
    attempts: int
    payload: dict[str, Any]
    subscription_id: int
    endpoint: str
    p256dh: str
    auth: str
    time_zone: str
    quiet_start: int | None
    quiet_end: int | None
    muted: bool


class Outbox:
    """The outbox's rows (every call one transaction; called off the event loop)."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions
        self.dialect = sessions.kw["bind"].dialect.name

    def subscribers(self, room_id: int, seat: int) -> list[Subscriber]:
        """The subscriptions of the person in ``seat`` at the room that have not muted it."""
        muted = exists().where(
            PushMute.subscription_id == PushSubscription.id, PushMute.room_id == room_id
        )
        # The seat's own, and (a crew's table) those of the crew member sitting in it.
        the_seat = and_(Seat.room_id == room_id, Seat.position == seat)
        members = (
            select(CrewSeat.member_id)
            .join(
                Seat, and_(Seat.room_id == CrewSeat.room_id, Seat.token_hash == CrewSeat.token_hash)
            )
            .where(CrewSeat.room_id == room_id, the_seat)
        )
        seated = select(Seat.id).where(the_seat)
        with self.sessions() as db:
            rows = db.execute(
                select(PushSubscription.id, PushSubscription.lang)
                .where(
                    or_(
                        PushSubscription.seat_id.in_(seated),
                        PushSubscription.member_id.in_(members),
                    ),
                    ~muted,
                )
                .order_by(PushSubscription.id)
            ).all()
        return [Subscriber(i, lang) for i, lang in rows]

    def write(
        self,
        room_id: int,
        turn: int,
        seat: int,
        rows: Iterable[tuple[int, dict[str, Any]]],
        due: datetime,
    ) -> int:
        """Write a turn's rows (subscription id, payload) unless they are written already;
        returns how many were new."""
        values = [
            {
                "room_id": room_id,
                "turn": turn,
                "seat": seat,
                "subscription_id": sub,
                "state": PushState.PENDING.value,
                "payload": payload,
                "due_at": due,
                "attempts": 0,
                "created_at": datetime.now(UTC),
            }
            for sub, payload in rows
        ]
        if not values:
            return 0
        with self.sessions() as db:  # (a sweep finds them written, mostly: no write then)
            there = set(
                db.scalars(
                    select(PushOutbox.subscription_id).where(
                        PushOutbox.room_id == room_id,
                        PushOutbox.turn == turn,
                        PushOutbox.seat == seat,
                    )
                )
            )
        values = [v for v in values if v["subscription_id"] not in there]
        if not values:
            return 0
        dialect = postgresql if self.dialect == "postgresql" else sqlite
        statement = dialect.insert(PushOutbox).on_conflict_do_nothing(
            index_elements=["room_id", "turn", "seat", "subscription_id"]
        )
        new = 0
        with self.sessions.kw["bind"].begin() as conn:
            for value in values:  # (a seat has a few subscriptions: one statement each)
                new += max(0, conn.execute(statement, value).rowcount)
        return new

    def due(self, now: datetime, limit: int = BATCH) -> list[int]:
        """Pending rows due by ``now`` that nobody holds, the longest due first."""
        real = datetime.now(UTC)
        with self.sessions() as db:
            return list(
                db.scalars(
                    select(PushOutbox.id)
                    .where(
                        PushOutbox.state == PushState.PENDING.value,
                        PushOutbox.due_at <= now,
                        or_(PushOutbox.lease_until.is_(None), PushOutbox.lease_until < real),
                    )
                    .order_by(PushOutbox.due_at, PushOutbox.id)
                    .limit(limit)
                )
            )

    def claim(self, row_id: int, worker: str, now: datetime) -> Claimed | None:
        """Take a row for ``worker`` (None: another worker has it, or it is no longer due)."""
        real = datetime.now(UTC)
        with self.sessions() as db, db.begin():
            took = db.execute(
                update(PushOutbox)
                .where(
                    PushOutbox.id == row_id,
                    PushOutbox.state == PushState.PENDING.value,
                    PushOutbox.due_at <= now,
                    or_(PushOutbox.lease_until.is_(None), PushOutbox.lease_until < real),
                )
                .values(claimed_by=worker, lease_until=real + LEASE)
            )
            if cast(CursorResult[Any], took).rowcount != 1:
                return None
            muted = exists().where(
                PushMute.subscription_id == PushOutbox.subscription_id,
                PushMute.room_id == PushOutbox.room_id,
            )
            row = db.execute(
                select(PushOutbox, PushSubscription, Room.code, muted)
                .join(PushSubscription, PushSubscription.id == PushOutbox.subscription_id)
                .join(Room, Room.id == PushOutbox.room_id)
                .where(PushOutbox.id == row_id)
            ).one()
        box, sub, code, is_muted = row
        return Claimed(
            box.id,
            box.room_id,
            code,
            box.turn,
            box.seat,
            box.attempts,
            dict(box.payload),
            sub.id,
            sub.endpoint,
            sub.p256dh,
            sub.auth,
            sub.time_zone,
            sub.quiet_start,
            sub.quiet_end,
            bool(is_muted),
        )

    def settle(
        self,
        row: Claimed,
        worker: str,
        state: PushState,
        outcome: str,
        due: datetime | None = None,
        attempts: int | None = None,
    ) -> bool:
        """Write what became of a claimed row and let it go (``due``: pending again from
        then); returns False if the claim was lost meanwhile (its lease ran out)."""
        values: dict[str, Any] = {
            "state": state.value,
            "outcome": outcome[:200],
            "claimed_by": None,
            "lease_until": None,
        }
        if due is not None:
            values["due_at"] = due
        if attempts is not None:
            values["attempts"] = attempts
        if state is PushState.SENT:
            values["sent_at"] = datetime.now(UTC)
        with self.sessions() as db, db.begin():
            done = db.execute(
                update(PushOutbox)
                .where(PushOutbox.id == row.id, PushOutbox.claimed_by == worker)
                .values(**values)
            )
            return cast(CursorResult[Any], done).rowcount == 1

    def drop(self, subscription_id: int) -> None:
        """Forget a subscription its push service says is gone (404, 410), with its rows."""
        with self.sessions() as db, db.begin():
            db.execute(delete(PushSubscription).where(PushSubscription.id == subscription_id))

    def rooms_with_subscribers(self) -> list[str]:
        """The codes of the matches under way at which someone subscribed."""
        with self.sessions() as db:
            return list(
                db.scalars(
                    select(Room.code)
                    .where(
                        Room.status == RoomStatus.PLAYING.value,
                        or_(
                            exists().where(
                                Seat.room_id == Room.id, PushSubscription.seat_id == Seat.id
                            ),
                            exists().where(
                                CrewSeat.room_id == Room.id,
                                PushSubscription.member_id == CrewSeat.member_id,
                            ),
                        ),
                    )
                    .order_by(Room.id)
                )
            )

    def prune(self, before: datetime) -> int:
        """Forget the settled rows of matches over before ``before`` (a turn of a match under
        way keeps its row: it is what says the turn was told)."""
        over = select(Room.id).where(
            Room.status == RoomStatus.OVER.value, Room.finished_at < before
        )
        with self.sessions() as db, db.begin():
            done = db.execute(
                delete(PushOutbox).where(
                    and_(
                        PushOutbox.state != PushState.PENDING.value,
                        PushOutbox.room_id.in_(over),
                    )
                )
            )
            return cast(CursorResult[Any], done).rowcount

    def states(self, room_id: int) -> list[tuple[int, int, str, str | None]]:
        """A room's rows as (turn, seat, state, outcome), in order: what a test or an
        operator reads."""
        with self.sessions() as db:
            return [
                (t, s, st, o)
                for t, s, st, o in db.execute(
                    select(PushOutbox.turn, PushOutbox.seat, PushOutbox.state, PushOutbox.outcome)
                    .where(PushOutbox.room_id == room_id)
                    .order_by(PushOutbox.turn, PushOutbox.seat, PushOutbox.id)
                ).all()
            ]
