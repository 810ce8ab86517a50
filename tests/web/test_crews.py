"""Crews through the API: the contract, a season's numbers against the library and a count
by hand, play again, guests matched to members, seasons, export, refusals.

Runs on a temporary SQLite file and on PostgreSQL (the ``db_url`` fixture's two variants).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from .conftest import Player
from .crews import (
    counts_by_hand,
    crew_table,
    join,
    openskill_ratings,
    place_of,
    play,
    podium_by_hand,
    recorded,
    set_clock,
    start_crew,
    stored_podiums,
)


def test_the_contract(client: Any) -> None:
    r = client.post("/api/crews", json={"name": "Friday", "member": "Anna"})
    assert r.status_code == 201
    made = r.json()
    assert set(made) >= {"crew", "invite", "member_key"}
    crew = made["crew"]
    assert len(crew) >= 16 and made["invite"].endswith(made["invite"].split("#invite=")[1])
    assert made["invite"].startswith("http://testserver/c/" + crew + "#invite=")
    r = client.post(f"/api/crews/{crew}/members", json={"invite": made["invite"], "member": "Bo"})
    assert r.status_code == 201 and set(r.json()) >= {"member_key"}
    bo = r.json()["member_key"]
    for key in (made["member_key"], bo):
        body = client.get(f"/api/crews/{crew}", headers={"X-Member-Key": key}).json()
        assert body["crew"]["name"] == "Friday"
        assert {m["name"] for m in body["members"]} == {"Anna", "Bo"}
        assert [set(r) >= {"name", "mu", "sigma", "ordinal"} for r in body["ratings"]] == [True] * 2
        assert {r["name"] for r in body["ratings"]} == {"Anna", "Bo"}
        assert body["records"] and body["head_to_head"] == []
    # Without a member's key: 404, as for a crew that does not exist.
    none = client.get(f"/api/crews/{crew}")
    assert none.status_code == 404 and none.json()["code"] == "no_crew"
    # A room for the crew, and a member seated as themself.
    r = client.post("/api/rooms", json={"crew": crew}, headers={"X-Member-Key": made["member_key"]})
    assert r.status_code == 201
    code = r.json()["code"]
    r = client.post(f"/api/rooms/{code}/join", json={}, headers={"X-Member-Key": bo})
    assert r.status_code == 201
    names = [p["name"] for p in client.get(f"/api/rooms/{code}").json()["players"]]
    assert names == ["Anna", "Bo"]


def test_a_season_counts_every_podium(client: Any, db_url: str) -> None:
    """Three members, a guest and a bot play three matches; the ratings are OpenSkill's own
    for the stored podiums, the records and head-to-head what the event logs say."""
    crew = start_crew(client, "Friday", "Anna", "Bo", "Cy")
    codes = []
    for host in ("Anna", "Bo", "Cy"):
        others = [m for m in ("Anna", "Bo", "Cy") if m != host]
        table = crew_table(client, crew, host, others, guests=["Gus"], bots=["easy"])
        final = play(client, table)
        assert final["status"] == "over"
        codes.append(table.code)
    body = recorded(client, crew, "Anna", 3)
    assert body["matches"] == 3
    # Ratings: the library's computation from the podiums as stored, by the test itself.
    podiums = stored_podiums(db_url, crew.id)
    assert len(podiums) == 3
    expected = openskill_ratings(podiums)
    shown = {r["name"]: (r["mu"], r["sigma"]) for r in body["ratings"]}
    assert set(shown) == {"Anna", "Bo", "Cy"}
    for name, (mu, sigma) in shown.items():
        assert (mu, sigma) == pytest.approx(expected[name], abs=1e-9)
    for r in body["ratings"]:
        assert r["ordinal"] == pytest.approx(r["mu"] - 3 * r["sigma"])
    others = {o["key"]: o for o in body["others"]}
    assert others["bot:easy"]["mu"] == pytest.approx(expected["bot:easy"][0])
    guest = next(o for o in body["others"] if o["kind"] == "guest")
    assert guest["name"] == "Gus" and guest["mu"] == pytest.approx(expected["Gus"][0])
    # The podiums stored are the ones the event logs lead to (the test's own ranking).
    by_hand = [podium_by_hand(client, code) for code in codes]
    assert [[(n, p) for n, _, p in match] for match in podiums] == by_hand
    # Head-to-head by hand.
    ids = {v: k for k, v in crew.ids.items()}
    for pair in body["head_to_head"]:
        a, b = ids[pair["a"]], ids[pair["b"]]
        ahead = sum(place_of(m, a) < place_of(m, b) for m in by_hand)
        behind = sum(place_of(m, a) > place_of(m, b) for m in by_hand)
        assert (pair["matches"], pair["a_ahead"], pair["b_ahead"]) == (3, ahead, behind)
        assert pair["even"] == 3 - ahead - behind
    assert len(body["head_to_head"]) == 3
    # Crews completed and 12s by hand, per member (one evening: all three matches).
    counts = counts_by_hand(client, codes)
    records = {r["record"]: r for r in body["records"]}
    for kind in ("crews", "twelves"):
        best = max(counts[m][kind] for m in ("Anna", "Bo", "Cy"))
        assert records[kind]["value"] == (best or None)
        if best:
            assert counts[records[kind]["name"]][kind] == best
    # Everyone's form: three matches each, oldest first.
    form = {ids[f["member"]]: f["matches"] for f in body["form"]}
    assert all([m["code"] for m in rows] == codes for rows in form.values())
    assert len(body["evenings"]) == 1 and body["evenings"][0]["matches"] == codes


def test_play_again_counts_for_the_crew_with_every_member_in_their_seat(client: Any) -> None:
    crew = start_crew(client, "Friday", "Anna", "Bo")
    table = crew_table(client, crew, "Anna", ["Bo"], guests=["Gus"])
    players = {n: Player(client, table.code, t) for n, t in table.tokens.items()}
    try:
        client.post(
            f"/api/rooms/{table.code}/start", headers={"X-Seat-Token": table.tokens["Anna"]}
        )
        a = players["Anna"]
        a.until(lambda r: r["match"] is not None)
        while not a.room["match"]["over"]:
            room = a.room
            p = next(p for p in players.values() if p.seat == room["match"]["actor"])
            choice = room["match"]["legal"][0]
            if choice == "roll":
                p.send(type="roll", version=room["version"])
            else:
                p.send(type="act", action=choice, version=room["version"])
            a.until(lambda r, v=room["version"]: r["version"] > v)
        for p in players.values():
            p.send(type="rematch", version=a.room["version"])
        moved = a.next("moved")
    finally:
        for p in players.values():
            p.close()
    nxt = moved["code"]
    play_table = type(table)(nxt, table.tokens, "Anna")
    final = play(client, play_table, start=False)
    assert final["status"] == "over"
    body = recorded(client, crew, "Anna", 2)
    assert body["matches"] == 2
    assert all(len(f["matches"]) == 2 for f in body["form"])  # Anna and Bo: both matches
    assert {f["member"] for f in body["form"]} == set(crew.ids.values())


def test_a_guest_matched_to_a_member_brings_their_matches(client: Any) -> None:
    crew = start_crew(client, "Friday", "Anna", "Bo")
    final = play(client, crew_table(client, crew, "Anna", ["Bo"], guests=["Cy"]))
    assert final["status"] == "over"
    body = recorded(client, crew, "Anna", 1)
    assert any(o["kind"] == "guest" and o["name"] == "Cy" for o in body["others"])
    join(client, crew, "Cy")
    # Only an admin may say who a guest was.
    r = client.post(
        f"/api/crews/{crew.id}/guests",
        json={"guest": "Cy", "member": crew.ids["Cy"]},
        headers=crew.headers("Bo"),
    )
    assert r.status_code == 403 and r.json()["code"] == "not_admin"
    r = client.post(
        f"/api/crews/{crew.id}/guests",
        json={"guest": "Cy", "member": crew.ids["Cy"]},
        headers=crew.headers("Anna"),
    )
    assert r.status_code == 200 and r.json()["matched"] == 1
    body = recorded(client, crew, "Cy", 1)
    cy = next(r for r in body["ratings"] if r["name"] == "Cy")
    assert cy["matches"] == 1 and not any(o["kind"] == "guest" for o in body["others"])
    assert len(body["head_to_head"]) == 3


def test_seasons_by_month_and_the_crew_s_own(make_client: Any, tmp_path: Path) -> None:
    clock = tmp_path / "clock"
    client = make_client(clock_file=str(clock))
    set_clock(clock, "2025-10-31T21:00:00+00:00")
    crew = start_crew(client, "Friday", "Anna", "Bo")
    play(client, crew_table(client, crew, "Anna", ["Bo"]))
    recorded(client, crew, "Anna", 1)
    set_clock(clock, "2025-11-07T21:00:00+00:00")
    play(client, crew_table(client, crew, "Bo", ["Anna"]))
    play(client, crew_table(client, crew, "Anna", ["Bo"]))
    body = recorded(client, crew, "Anna", 2)
    assert body["season"]["id"] == "2025-11" and body["matches"] == 2
    assert [(s["id"], s["matches"]) for s in body["seasons"]] == [
        ("2025-11", 2),
        ("2025-10", 1),
        ("all", 3),
    ]
    assert all(r["matches"] == 2 for r in body["ratings"])  # a new season starts afresh
    older = client.get(
        f"/api/crews/{crew.id}", params={"season": "2025-10"}, headers=crew.headers("Anna")
    ).json()
    assert older["matches"] == 1 and older["evenings"][0]["date"].startswith("2025-10-31")
    every = recorded(client, crew, "Anna", 3, season="all")
    assert len(every["evenings"]) == 2
    r = client.post(
        f"/api/crews/{crew.id}/seasons",
        json={"season": "Autumn", "starts": "2025-10-01", "ends": "2025-11-30"},
        headers=crew.headers("Anna"),
    )
    assert r.status_code == 201
    body = recorded(client, crew, "Anna", 3)
    assert body["season"]["name"] == "Autumn" and body["matches"] == 3
    bad = client.post(
        f"/api/crews/{crew.id}/seasons",
        json={"season": "Odd", "starts": "2025-12-01", "ends": "2025-11-30"},
        headers={**crew.headers("Anna"), "X-Lang": "de"},
    )
    assert bad.status_code == 422 and "Saison" in bad.json()["detail"]
    missing = client.get(
        f"/api/crews/{crew.id}", params={"season": "s999"}, headers=crew.headers("Anna")
    )
    assert missing.status_code == 404 and "s999" in missing.json()["detail"]


def test_export_carries_its_provenance(client: Any, tmp_path: Path) -> None:
    """Every format is one file with the package's one provenance record where every command
    keeps it (``provenance.read`` reads it back): the request, the season's rules and bots, the
    version, the crew and the season."""
    from shipcaptaincrew import __version__
    from shipcaptaincrew.provenance import read

    crew = start_crew(client, "Friday", "Anna", "Bo")
    table = crew_table(client, crew, "Anna", ["Bo"], bots=["easy"])
    play(client, table)
    recorded(client, crew, "Anna", 1)
    url = f"/api/crews/{crew.id}/export"
    r = client.get(url, params={"table": "matches", "to": "json"}, headers=crew.headers("Bo"))
    doc = r.json()
    prov = doc["provenance"]
    assert prov["crew"] == crew.id and prov["table"] == "crew_matches"
    assert prov["command"] is None and prov["request"].startswith("http://testserver" + url)
    assert prov["version"] == __version__ and prov["python"] and prov["platform"]
    assert prov["rules"] == sorted({row["rules"] for row in doc["rows"]}) and prov["rules"]
    assert (
        prov["bots"] == ["easy"] == [row["kind"] for row in doc["rows"] if row["kind"] != "human"]
    )
    assert [row["code"] for row in doc["rows"]] == [table.code] * 3
    assert {c["name"] for c in doc["columns"]} >= {"skill", "luck", "place"}
    r = client.get(url, params={"table": "ratings", "to": "csv"}, headers=crew.headers("Bo"))
    assert r.headers["content-type"].startswith("text/csv")
    assert r.headers["content-disposition"].endswith('-ratings.csv"')
    (tmp_path / "ratings.csv").write_bytes(r.content)
    meta = read(tmp_path / "ratings.csv")
    assert meta["rating_model"].startswith("openskill ") and meta["season"] == prov["season"]
    assert meta["table"] == "crew_ratings" and meta["bots"] == ["easy"]
    lines = [line for line in r.text.splitlines() if not line.startswith("# ")]
    assert lines[0].startswith('"key","name","mu"') and len(lines) == 4
    pq = pytest.importorskip("pyarrow.parquet")
    r = client.get(url, params={"table": "decisions", "to": "parquet"}, headers=crew.headers("Bo"))
    (tmp_path / "decisions.parquet").write_bytes(r.content)
    assert read(tmp_path / "decisions.parquet")["table"] == "crew_decisions"
    assert set(pq.read_schema(tmp_path / "decisions.parquet").metadata) == {b"shipcaptaincrew"}
    assert client.get(url, params={"to": "xml"}, headers=crew.headers("Bo")).status_code == 422
    assert client.get(url).status_code == 404


def test_refusals_say_what_is_wrong_in_the_asker_s_language(client: Any) -> None:
    r = client.post("/api/crews", json={"name": " ", "member": "Anna"}, headers={"X-Lang": "de"})
    assert r.status_code == 422 and r.json()["detail"].startswith("Name der Crew")
    r = client.post("/api/crews", json={"name": "Friday"}, headers={"X-Lang": "nb"})
    assert r.status_code == 422 and r.json()["detail"].startswith("Navnet ditt")
    crew = start_crew(client, "Friday", "Anna")
    r = client.post(f"/api/crews/{crew.id}/members", json={"invite": crew.invite, "member": "ANNA"})
    assert r.status_code == 409 and "already taken in this crew" in r.json()["detail"]
    r = client.post(f"/api/crews/{crew.id}/members", json={"invite": crew.invite, "member": "Аnna"})
    assert r.status_code == 409 and "looks too much like Anna" in r.json()["detail"]
    r = client.post(f"/api/crews/{crew.id}/members", json={"invite": "x" * 40, "member": "Bo"})
    assert r.status_code == 404 and r.json()["code"] == "no_crew"
    r = client.post("/api/rooms", json={"crew": crew.id})
    assert r.status_code == 404 and r.json()["code"] == "no_crew"
    r = client.post("/api/rooms", json={})
    assert r.status_code == 422 and r.json()["field"] == "name"
    r = client.delete(
        f"/api/crews/{crew.id}/members/{crew.ids['Anna']}", headers=crew.headers("Anna")
    )
    assert r.status_code == 409 and "needs an admin" in r.json()["detail"]
    r = client.post(
        f"/api/crews/{crew.id}/members",
        content=b"\x00\xff",
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 422 and r.json()["code"] == "invalid"


def test_a_crew_id_never_begins_with_a_dash_and_an_old_one_is_shown_after_two(
    client: Any, db_url: str, tmp_path: Path
) -> None:
    """An id that begins with "-" reads as an option after ``scc crew show`` (one in 64 did:
    this suite's own crews now and then); new ids never do, and a crew made before still
    shows, its id given after ``--`` as the help says."""
    from sqlalchemy import create_engine, update

    from shipcaptaincrew.web.crews.identity import new_id
    from shipcaptaincrew.web.crews.models import Crew
    from tests.cli_run import scc

    assert not [made for made in (new_id() for _ in range(5000)) if made.startswith("-")]
    crew = start_crew(client, "Friday", "Anna", "Bo")
    old = "-" + crew.id[1:]
    engine = create_engine(db_url)
    with engine.begin() as db:
        db.execute(update(Crew).where(Crew.public_id == crew.id).values(public_id=old))
    engine.dispose()
    r = scc(tmp_path, "crew", "show", "--db", db_url, "--json", "--", old)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["crew"]["name"] == "Friday"


def test_scc_crew_show_prints_the_same_body(client: Any, db_url: str, tmp_path: Path) -> None:
    from tests.cli_run import scc

    crew = start_crew(client, "Friday", "Anna", "Bo")
    play(client, crew_table(client, crew, "Anna", ["Bo"], bots=["easy"]))
    recorded(client, crew, "Anna", 1)
    api = client.get(f"/api/crews/{crew.id}", headers=crew.headers("Bo"))
    r = scc(tmp_path, "crew", "show", crew.id, "--db", db_url, "--json")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == api.text
    assert json.loads(r.stdout)["ratings"][0]["name"] in {"Anna", "Bo"}
    r = scc(tmp_path, "crew", "show", crew.id, "--db", db_url, "--lang", "de")
    assert r.returncode == 0 and "Bot 1 (Bot)" in r.stdout
    r = scc(tmp_path, "crew", "show", "nope-nope-nope", "--db", db_url)
    assert r.returncode == 2 and "nope-nope-nope" in r.stderr
    # The export: one file, its record inside (a database password hidden), written again
    # from the record's command.
    from shipcaptaincrew.provenance import read

    out, again = tmp_path / "export", tmp_path / "again"
    db_arg = db_url.replace("postgresql://postgres@", "postgresql://postgres:s3cret@")
    r = scc(tmp_path, "crew", "export", crew.id, "--db", db_arg, "--out", str(out), "--to", "csv")
    assert r.returncode == 0, r.stderr
    assert [p.name for p in out.iterdir()] == ["matches.csv"]
    meta = read(out / "matches.csv")
    assert meta["crew"] == crew.id and meta["table"] == "crew_matches"
    assert "s3cret" not in (out / "matches.csv").read_text()
    args = shlex.split(meta["command"])
    assert args[:4] == ["scc", "crew", "export", crew.id]
    args[args.index("--db") + 1], args[args.index("--out") + 1] = db_arg, str(again)
    assert scc(tmp_path, *args[1:]).returncode == 0

    def data(path: Path) -> list[str]:
        return [line for line in path.read_text().splitlines() if not line.startswith("# ")]

    assert (
        data(again / "matches.csv") == data(out / "matches.csv")
        and len(data(out / "matches.csv")) == 4
    )


def test_a_match_is_recorded_once_whoever_records_it(client: Any, monkeypatch: Any) -> None:
    """Two recordings of one match at once (two workers, say): one writes its lines, the
    other finds it done; and again later, nothing changes, nor is the match judged again."""
    from concurrent.futures import ThreadPoolExecutor

    from sqlalchemy import delete, func, select, update

    from shipcaptaincrew.web.crews import record
    from shipcaptaincrew.web.crews.models import CrewDecision, CrewLine, CrewRoom

    crew = start_crew(client, "Friday", "Anna", "Bo")
    table = crew_table(client, crew, "Anna", ["Bo"], guests=["Gus"])
    play(client, table)
    recorded(client, crew, "Anna", 1)
    crews = client.app.state.crews
    room = client.app.state.service.room(table.code)
    finished = record.Finished(
        room.id,
        room.code,
        room.rules,
        tuple((s.name, s.label, s.token_hash) for s in room.seats),
        room.first_seat(),
        tuple(room.events),
        tuple(r["place"] for r in sorted(room.story.podium["ranking"], key=lambda r: r["seat"])),
    )
    # A look at the crew while its match was being recorded asks for it again (this worker's
    # recording done, the next one just started): let that finish before the rows are reset,
    # or it records the match between the reset and the two recordings below.
    client.portal.call(crews.settled)
    with crews.sessions() as db, db.begin():  # as if it had never been recorded
        db.execute(update(CrewRoom).where(CrewRoom.room_id == room.id).values(recorded_at=None))
        db.execute(delete(CrewLine).where(CrewLine.room_id == room.id))
        db.execute(delete(CrewDecision).where(CrewDecision.room_id == room.id))

    def once() -> bool:
        lines, decisions = record.analyse(finished)
        with crews.store.change() as db:
            return record.write(db, finished, lines, decisions, crews.now())

    with ThreadPoolExecutor(2) as pool:
        done = list(pool.map(lambda _: once(), range(2)))
    assert sorted(done) == [False, True]
    assert once() is False
    judged: list[int] = []
    monkeypatch.setattr(record, "analyse", lambda f: judged.append(f.room))
    client.portal.call(lambda: crews.record_soon(table.code))
    client.portal.call(crews.settled)
    assert judged == []  # recorded already: the solver is not asked again
    with crews.sessions() as db:
        n = db.scalar(select(func.count()).select_from(CrewLine).where(CrewLine.room_id == room.id))
    assert n == 3
