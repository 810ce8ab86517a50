"""The crew page of a crew with 1,000 matches and 12 members, beside the plain history page.

Builds a SQLite database with one crew of 12 members whose 1,000 matches were played by the
engine (each a classic match of 4 to 8 seats: members, now and then a guest and a bot, every
choice a bot's), recorded for the crew as the server records them (the same replay, the
same solver for the decision quality), over 120 evenings in a year.  Then, in one run, it
times each answer on the app in this process (no network): the crew's page (its HTML) and
its answer for the newest month and for every match (``season=all``), first when it must be
computed (``cold``: the crew changed since it was last asked) and then when it is current
(``warm``), beside the history page (its HTML) and its list of finished matches, and prints
the bytes of each (as JSON or HTML, and as sent), the median server time of each, and the
ratios to the history list's.

    .venv/bin/python benchmarks/bench_crews.py               # 1,000 matches, 12 members
    .venv/bin/python benchmarks/bench_crews.py -m 200 -r 5   # smaller, fewer repeats

Prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import update

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from shipcaptaincrew.bots import make_bot  # noqa: E402
from shipcaptaincrew.engine import apply, initial_state, is_chance, sample_chance  # noqa: E402
from shipcaptaincrew.notation import event_for  # noqa: E402
from shipcaptaincrew.rules import find_rules  # noqa: E402
from shipcaptaincrew.web.crews import record  # noqa: E402
from shipcaptaincrew.web.crews.identity import hash_secret, new_id, new_secret  # noqa: E402
from shipcaptaincrew.web.crews.models import (  # noqa: E402
    Crew,
    CrewKey,
    CrewMember,
    CrewRoom,
    CrewSeat,
)
from shipcaptaincrew.web.display.moments import Story  # noqa: E402
from shipcaptaincrew.web.storage.db import open_database  # noqa: E402
from shipcaptaincrew.web.storage.models import Event, Room, RoomStatus, Seat  # noqa: E402

NAMES = ("Anna", "Bo", "Cy", "Dora", "Eik", "Finn", "Gro", "Hal", "Ida", "Jon", "Kai", "Liv")


def build(url: str, matches: int, seed: int) -> tuple[str, str]:
    """The crew and its matches; returns (crew id, a member's key)."""
    sessions = open_database(url, "normal")
    rng = random.Random(seed)
    rules = find_rules("classic")
    bot = make_bot("medium")
    key = new_secret()
    start = datetime(2025, 1, 3, 20, tzinfo=UTC)
    with sessions() as db, db.begin():
        crew = Crew(public_id=new_id(), name="Friday Club", invite=new_secret(), version=0)
        crew.created_at = start
        db.add(crew)
        db.flush()
        members = []
        for i, name in enumerate(NAMES):
            m = CrewMember(
                crew_id=crew.id,
                public_id=new_id(),
                name=name,
                color=i % 8,
                avatar=None,
                admin=i == 0,
                joined_at=start,
            )
            db.add(m)
            members.append(m)
        db.flush()
        db.add(CrewKey(member_id=members[0].id, key_hash=hash_secret(key), created_at=start))
        crew_id = crew.public_id
    per_evening = max(1, matches // 120)
    for k in range(matches):
        evening, slot = divmod(k, per_evening)
        when = start + timedelta(days=3 * evening, minutes=25 * slot)
        seated = rng.sample(range(len(NAMES)), rng.randint(3, 6))
        seats = [(NAMES[i], "human", secrets.token_hex(32), members[i].id) for i in seated]
        if rng.random() < 0.3:
            seats.append(("Gus", "human", secrets.token_hex(32), None))
        if rng.random() < 0.3:
            seats.append(("Bot 1", "medium", None, None))
        state = initial_state(rules, len(seats))
        events = []
        story = Story()
        names = [s[0] for s in seats]
        while not state.is_over:
            action = sample_chance(state, rng) if is_chance(state) else bot.choose(state, rng)
            after = apply(state, action)
            events.append(event_for(state, action))
            story, _ = story.step(state, action, after, names)
            state = after
        assert story.podium is not None
        places = {r["seat"]: r["place"] for r in story.podium["ranking"]}
        with sessions() as db, db.begin():
            room = Room(
                code=new_id()[:8].upper(),
                rules=str(rules),
                lang="en",
                hints=True,
                status=RoomStatus.OVER.value,
                server_seed="0" * 64,
                commitment="0" * 64,
                client_seeds=[],
                revealed=True,
                winner=state.winner,
                host=0,
                dice="fair",
                finished_at=when,
                created_at=when,
                published=True,
            )
            for i, (name, kind, token, _) in enumerate(seats):
                room.seats.append(Seat(position=i, name=name, kind=kind, token_hash=token))
            db.add(room)
            db.flush()
            for i, e in enumerate(events):
                db.add(Event(room_id=room.id, seq=i, payload=e, created_at=when))
            crew_row = db.query(Crew.id).filter(Crew.public_id == crew_id).scalar()
            db.add(CrewRoom(room_id=room.id, crew_id=crew_row, kept=False))
            for _, _, token, member in seats:
                if member is not None and token is not None:
                    db.add(CrewSeat(room_id=room.id, token_hash=token, member_id=member))
            db.flush()
            finished = record.Finished(
                room.id,
                room.code,
                rules,
                tuple((n, kd, t) for n, kd, t, _ in seats),
                None,
                tuple(events),
                tuple(places[i] for i in range(len(seats))),
            )
            lines, decisions = record.analyse(finished)
            record.write(db, finished, lines, decisions, when)
            db.execute(update(CrewRoom).where(CrewRoom.room_id == room.id).values(played_at=when))
    sessions.kw["bind"].dispose()
    return crew_id, key


def timed(
    client: Any, path: str, headers: dict[str, str], repeat: int, before: Any = None
) -> tuple[float, int, int]:
    """Median milliseconds of ``repeat`` requests (``before()`` run ahead of each), the bytes
    of the answer, and the bytes sent (compressed as the client accepts: gzip, or brotli for
    the pages)."""
    times = []
    body = b""
    sent = 0
    for _ in range(repeat):
        if before is not None:
            before()
        t0 = time.perf_counter()
        r = client.get(path, headers={**headers, "Accept-Encoding": "br, gzip"})
        times.append(1000 * (time.perf_counter() - t0))
        assert r.status_code == 200, (path, r.status_code, r.text[:200])
        body, sent = r.content, r.num_bytes_downloaded
    return statistics.median(times), len(body), sent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-m", "--matches", type=int, default=1000)
    ap.add_argument("-r", "--repeat", type=int, default=15)
    args = ap.parse_args()
    from fastapi.testclient import TestClient
    from sqlalchemy import create_engine

    from shipcaptaincrew.web import Settings, create_app

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        t0 = time.perf_counter()
        crew, key = build(url, args.matches, 1)
        print(
            f"built {args.matches} matches of a crew of {len(NAMES)} in {time.perf_counter() - t0:.1f} s"
        )
        engine = create_engine(url)

        def changed() -> None:  # the crew changes: its answer must be computed again
            with engine.begin() as c:
                c.execute(
                    update(Crew).where(Crew.public_id == crew).values(version=Crew.version + 1)
                )

        settings = Settings(db_url=url, open_lists=True, bot_delay=0)
        with TestClient(create_app(settings)) as client:
            me = {"X-Member-Key": key}
            rows = {
                "crew page (HTML)": timed(client, f"/c/{crew}", {}, args.repeat),
                "crew answer, newest month, cold": timed(
                    client, f"/api/crews/{crew}", me, args.repeat, changed
                ),
                "crew answer, newest month, warm": timed(
                    client, f"/api/crews/{crew}", me, args.repeat
                ),
                "crew answer, all 1,000, cold": timed(
                    client, f"/api/crews/{crew}?season=all", me, args.repeat, changed
                ),
                "crew answer, all 1,000, warm": timed(
                    client, f"/api/crews/{crew}?season=all", me, args.repeat
                ),
                "crew matches (50)": timed(
                    client, f"/api/crews/{crew}/matches?season=all", me, args.repeat
                ),
                "history page (HTML)": timed(client, "/history", {}, args.repeat),
                "history list (50)": timed(client, "/api/matches", {}, args.repeat),
            }
        engine.dispose()
    base = rows["history list (50)"][0]
    print(f"{'':34} {'median ms':>10} {'bytes':>9} {'sent':>8} {'x history list':>15}")
    for name, (ms, raw, sent) in rows.items():
        print(f"{name:34} {ms:10.1f} {raw:9d} {sent:8d} {ms / base:15.1f}")


if __name__ == "__main__":
    main()
