"""The command-line contract of the solver: odds, strategy, advise, equilibrium, report."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from .cli_run import ok_json, scc


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("scc-cache")


def bad(cache: Path, *args: str, match: str) -> None:
    r = scc(cache, *args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and match in lines[0], r.stderr


def test_odds_json_and_exact(cache: Path) -> None:
    d = ok_json(cache, "odds", "--policy", "never")
    assert set(d) >= {"p_complete_by_roll", "p_complete", "distribution", "expected_score"}
    assert len(d["p_complete_by_roll"]) == 3
    assert abs(d["p_complete"] - 0.53998) < 1e-5
    assert "1" not in d["distribution"] and abs(sum(d["distribution"].values()) - 1) < 1e-12
    e = ok_json(cache, "odds", "--policy", "never", "--exact")
    assert Fraction(e["p_complete"]) == Fraction(42314697971, 78364164096)
    assert all(isinstance(v, str) and "/" in v for v in e["distribution"].values())
    b = ok_json(cache, "odds", "--set", "same_roll_bonus=3", "--policy", "threshold:8")
    assert "15" in b["distribution"]
    r = scc(cache, "odds", "--rules", "schiff")
    assert r.returncode == 0 and "within 3 rolls" in r.stdout


def test_equilibrium_json(cache: Path) -> None:
    d = ok_json(cache, "equilibrium", "--players", "4")
    w = d["seat_win_probability"]
    assert len(w) == 4 and abs(sum(w) - 1) < 1e-9 and w[-1] > w[0]
    assert 0 < d["p_all_fail_per_round"] < 0.1
    e = ok_json(
        cache,
        "equilibrium",
        "--players",
        "3",
        "--policy",
        "threshold:7",
        "--rules",
        "ship-captain-crew",
    )
    assert all(abs(p - 1 / 3) < 1e-9 for p in e["seat_win_probability"])


def test_advise_json(cache: Path) -> None:
    d = ok_json(
        cache,
        "advise",
        "--held",
        "none",
        "--roll",
        "65444",
        "--rolls-used",
        "1",
        "--posted",
        "9,0",
        "--players-after",
        "1",
    )
    assert d["best"] == d["choices"][0]["action"]
    assert {c["action"] for c in d["choices"]} == {"stand", "reroll"}
    for c in d["choices"]:
        assert set(c) == {
            "action",
            "win_probability",
            "match_win_probability",
            "round_win_probability",
            "expected_score",
        }
        # One round: there is no match beyond it, and the win is the round's.
        assert c["match_win_probability"] is None
        assert c["win_probability"] == c["round_win_probability"]
    probs = [c["win_probability"] for c in d["choices"]]
    assert probs == sorted(probs, reverse=True)
    # The cargo dice after a complete crew, under half cargo: keep choices appear.
    h = ok_json(
        cache,
        "advise",
        "--held",
        "ship,captain,crew",
        "--roll",
        "62",
        "--rolls-used",
        "2",
        "--set",
        "half_cargo=true",
    )
    assert {"reroll:keep6", "reroll:keep2"} <= {c["action"] for c in h["choices"]}
    # Nothing to decide: the crew is not complete.
    n = ok_json(cache, "advise", "--held", "ship", "--roll", "1111", "--rolls-used", "2")
    assert n["best"] is None and n["choices"] == []
    r = scc(
        cache,
        "advise",
        "--held",
        "ship,captain",
        "--roll",
        "432",
        "--rolls-used",
        "2",
        "--posted",
        "7",
    )
    assert r.returncode == 0 and "win probability" in r.stdout


def test_strategy_table_json_and_plot(cache: Path, tmp_path: Path) -> None:
    d = ok_json(cache, "strategy", "--objective", "ev")
    rows = {r["rolls_left"]: r for r in d["rows"]}
    assert rows[1]["stand_from"] == 7 and rows[2]["stand_from"] == 8
    png = tmp_path / "s.png"
    w = ok_json(cache, "strategy", "--players", "3", "--plot", str(png))
    assert png.read_bytes()[:4] == b"\x89PNG"
    last = [r for r in w["rows"] if r["players_after"] == 0 and r["score_to_beat"] == 9]
    # The last player stands on a tie (a two-player replay, about 1/2) and rerolls below it.
    assert last and all(r["stand_from"] == 9 and r["decisions"]["8"] == "reroll" for r in last)


def test_bad_input_exits_2_with_one_line(cache: Path) -> None:
    bad(cache, "odds", "--policy", "greedy", match="unknown policy 'greedy'")
    bad(cache, "odds", "--rules", "yahtzee", match="unknown preset")
    bad(cache, "odds", "--policy", "optimal", match="needs a round to win")
    bad(cache, "equilibrium", "--players", "9", match="--players must be 2..8")
    bad(cache, "equilibrium", "--players", "3", "--policy", "never!", match="unknown policy")
    bad(
        cache,
        "advise",
        "--held",
        "ship",
        "--roll",
        "5432",
        "--rolls-used",
        "1",
        match="nothing can be held before the first roll",
    )
    bad(
        cache,
        "advise",
        "--held",
        "captain",
        "--roll",
        "543",
        "--rolls-used",
        "2",
        match="roles are held in order",
    )
    bad(
        cache,
        "advise",
        "--held",
        "none",
        "--roll",
        "6543",
        "--rolls-used",
        "1",
        match="needs 5 dice",
    )
    bad(
        cache,
        "advise",
        "--held",
        "none",
        "--roll",
        "65432",
        "--rolls-used",
        "4",
        match="rolls used must be 1..3",
    )
    bad(
        cache,
        "advise",
        "--held",
        "none",
        "--roll",
        "65432",
        "--rolls-used",
        "1",
        "--posted",
        "13",
        match="13 is impossible",
    )
    bad(cache, "strategy", "--objective", "fame", match="unknown objective")
    bad(
        cache,
        "strategy",
        "--set",
        "cargo_rerolls=0",
        "--plot",
        "never-written.png",
        match="nothing to plot",
    )
    bad(cache, "equilibrium", "--players", "3", "--policy", "threshold:200", match="out of range")


def test_report_regenerates_the_document(cache: Path, tmp_path: Path) -> None:
    r = scc(cache, "report", "strategy", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    md = (tmp_path / "strategy.md").read_text()
    assert "42314697971/78364164096" in md
    # The published document is this command's output, never edited by hand.
    published = Path(__file__).resolve().parent.parent / "docs" / "strategy.md"
    assert md == published.read_text(), "docs/strategy.md is stale: run scc report strategy"
    for name in ("completion", "distribution", "seats", "threshold", "variants"):
        assert f"img/strategy_{name}.png" in md
        assert (tmp_path / "img" / f"strategy_{name}.png").stat().st_size > 1000


def test_tables_speak_the_language_and_json_does_not(cache: Path) -> None:
    de = scc(cache, "odds", "--lang", "de")
    assert de.returncode == 0, de.stderr
    assert "Verteilung der Punkte" in de.stdout and "Crew in höchstens 3 Würfen" in de.stdout
    assert re.search(r"\b0,\d{6}\b", de.stdout) and not re.search(r"\b0\.\d{6}\b", de.stdout)
    nb = scc(cache, "equilibrium", "--players", "3", "--lang", "nb")
    assert nb.returncode == 0 and "sjanse til å vinne partiet" in nb.stdout
    assert re.search(r"\b0,\d{6}\b", nb.stdout)
    advice = scc(
        cache, "advise", "--held", "ship,captain", "--roll", "432", "--rolls-used", "2",
        "--lang", "de",
    )  # fmt: skip
    words = " ".join(advice.stdout.split())
    assert "Nach Wurf 2: beiseite Schiff, Kapitän, Crew, Ladung 2 + 3" in words
    assert "niemand spielt danach" in words
    assert "stehen bleiben (5 Punkte)" in words and "(stand)" in words
    for args in (["odds"], ["equilibrium", "--players", "3"]):
        assert ok_json(cache, *args) == ok_json(cache, *args, "--lang", "nb")
    bad(cache, "strategy", "--objective", "fame", "--lang", "de", match="unbekanntes Ziel „fame“")
