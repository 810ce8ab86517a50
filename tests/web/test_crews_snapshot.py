"""A crew's answer is read at one moment: a match recorded while the answer is being read
shows in all of it or in none of it (the seasons listed, the season's matches, the count).

``test_seasons_by_month_and_the_crew_s_own`` once saw a season listed with one match while
the answer counted two: the recording committed between two of the answer's queries.  Here
that moment is made certain: the test changes the rows between the answer's first query and
the rest.

Runs on a temporary SQLite file and on PostgreSQL (the ``db_url`` fixture's two variants).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import update

from shipcaptaincrew.web.crews import view
from shipcaptaincrew.web.crews.models import CrewRoom
from shipcaptaincrew.web.crews.store import bump

from .crews import crew_table, play, recorded, start_crew


def test_a_match_recorded_mid_answer_does_not_tear_it(client: Any, monkeypatch: Any) -> None:
    crew = start_crew(client, "Friday", "Anna", "Bo")
    play(client, crew_table(client, crew, "Anna", ["Bo"]))
    recorded(client, crew, "Anna", 1)  # (the answer for the newest month, now cached)
    crews = client.app.state.crews
    real = view.played
    changed: list[int] = []

    def played_then_changed(db: Any, crew_row: int) -> list[datetime]:
        times = real(db, crew_row)
        with crews.store.change() as other:  # another worker, between two of the reads
            bump(other, crew_row)
            other.execute(
                update(CrewRoom).where(CrewRoom.crew_id == crew_row).values(played_at=None)
            )
        changed.append(crew_row)
        return times

    monkeypatch.setattr(view, "played", played_then_changed)
    torn = client.get(
        f"/api/crews/{crew.id}", params={"season": "all"}, headers=crew.headers("Bo")
    ).json()
    assert changed  # (the answer for "all" was not cached: it was read, and changed midway)
    assert [s["matches"] for s in torn["seasons"]] == [1, 1]  # a month, and all
    assert torn["matches"] == 1 and len(torn["evenings"]) == 1
    monkeypatch.undo()
    after = client.get(
        f"/api/crews/{crew.id}", params={"season": "all"}, headers=crew.headers("Bo")
    ).json()
    assert after["matches"] == 0 and [s["id"] for s in after["seasons"]] == ["all"]
