"""The command-line contract of the match: scc equilibrium, scc advise and scc simulate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.solver import equilibrium
from shipcaptaincrew.solver.match.solve import solve_match
from shipcaptaincrew.solver.policies import SEAT_KINDS, parse_policy

from .cli_run import ok_json, scc


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("scc-cache")


def test_equilibrium_plays_the_match(cache: Path) -> None:
    data = ok_json(cache, "equilibrium", "--players", "2", "--format", "first_to:21")
    assert data["format"] == "first_to:21" and data["objective"] == "match"
    for key in ("rules", "players", "policy", "seat_win_probability", "p_all_fail_per_round"):
        assert key in data
    rules = find_rules("classic").replace(format="first_to:21")
    opt = parse_policy("optimal", allow=SEAT_KINDS)
    sol = solve_match(rules, (opt, opt))
    assert data["seat_win_probability"] == pytest.approx(sol.seat_win_probability, abs=1e-12)


def test_equilibrium_single_is_the_round(cache: Path) -> None:
    data = ok_json(cache, "equilibrium", "--players", "3", "--format", "single")
    eq = equilibrium(find_rules("classic"), 3)
    assert data["seat_win_probability"] == pytest.approx(eq.seat_win_probability, abs=1e-12)
    assert data["format"] == "single" and data["objective"] == "match"
    own = ok_json(cache, "equilibrium", "--players", "3")  # classic's own format: single
    assert own["seat_win_probability"] == data["seat_win_probability"]


def test_equilibrium_takes_one_policy_per_seat(cache: Path) -> None:
    args = ("equilibrium", "--players", "2", "--format", "rounds:3")
    mixed = ok_json(cache, *args, "--policy", "optimal,threshold:7")
    assert mixed["policies"] == ["optimal", "threshold:7"]
    flipped = ok_json(cache, *args, "--policy", "threshold:7,optimal")
    # The optimal seat best-responds: it wins more than half, from either seat.
    assert mixed["seat_win_probability"][0] > 0.5 and flipped["seat_win_probability"][1] > 0.5
    ok_json(cache, *args, "--policy", "optimal:round")
    r = scc(cache, *args, "--policy", "optimal,ev,ev")
    assert r.returncode == 2 and "--policy" in r.stderr


ADVICE = (
    "advise",
    "--format",
    "rounds:3",
    "--round",
    "2",
    "--totals",
    "16,4",
    "--posted",
    "0",
    "--held",
    "none",
    "--roll",
    "65423",
    "--rolls-used",
    "1",
)


def test_the_100_percent_example_shows_the_match(cache: Path) -> None:
    # Round 2 of rounds:3: the other player failed, so every choice wins the round, but
    # trailing 4 against 16 the match is won far more often by rerolling the 5.
    data = ok_json(cache, *ADVICE)
    assert data["format"] == "rounds:3" and data["best"] == "reroll"
    choices = {c["action"]: c for c in data["choices"]}
    for c in choices.values():
        assert c["round_win_probability"] == 1.0
        assert c["win_probability"] == c["match_win_probability"]
    assert (
        0 < choices["stand"]["match_win_probability"] < choices["reroll"]["match_win_probability"]
    )
    assert choices["reroll"]["match_win_probability"] < 0.5
    text = scc(cache, *ADVICE)
    assert text.returncode == 0, text.stderr
    assert "chance to win the match" in text.stdout and "chance to win the round" in text.stdout
    assert "0.2044" in text.stdout and "0.3266" in text.stdout and "1.0000" in text.stdout
    de = scc(cache, *ADVICE, "--lang", "de")
    assert "Chance auf den Partiesieg" in de.stdout and "0,3266" in de.stdout
    nb = scc(cache, *ADVICE, "--lang", "nb")
    assert "sjanse til å vinne partiet" in nb.stdout


def test_advise_refuses_a_match_context_without_a_match(cache: Path) -> None:
    r = scc(cache, *ADVICE[:1], *ADVICE[5:], "--format", "single")
    assert r.returncode == 2 and "--totals" in r.stderr


def test_advise_refuses_a_round_past_the_formats_end(cache: Path) -> None:
    # rounds:3 has no round 4: a tie after round 3 is a tie-break, which --round does not
    # describe; the advice must not rate it as if it were a round with a dash for the match.
    past = (*ADVICE[:4], "4", *ADVICE[5:])
    r = scc(cache, *past)
    assert r.returncode == 2 and r.stdout == ""
    assert "--round 4" in r.stderr and "rounds:3" in r.stderr and "Traceback" not in r.stderr
    de = scc(cache, *past, "--lang", "de")
    assert de.returncode == 2 and "endet nach Runde 3" in de.stderr
    last = scc(cache, *ADVICE[:4], "3", *ADVICE[5:])
    assert last.returncode == 0, last.stderr


def test_advise_says_why_no_match_chance_is_shown(cache: Path) -> None:
    # tie_break=round is beyond the match solver: every choice is ranked for the round, and
    # the page says so instead of leaving a bare dash in the match column.
    r = scc(cache, *ADVICE, "--set", "tie_break=round")
    assert r.returncode == 0, r.stderr
    assert "No chance to win the match here" in r.stdout
    data = ok_json(cache, *ADVICE, "--set", "tie_break=round")
    assert all(c["match_win_probability"] is None for c in data["choices"])
    nb = scc(cache, *ADVICE, "--set", "tie_break=round", "--lang", "nb")
    assert "Ingen sjanse til å vinne partiet her" in nb.stdout
    plain = scc(cache, *ADVICE)
    assert "No chance to win the match here" not in plain.stdout


def test_simulate_plays_the_match_optimal_bot(cache: Path) -> None:
    data = ok_json(
        cache,
        "simulate",
        "--players",
        "optimal,threshold:7",
        "--format",
        "first_to:21",
        "--matches",
        "400",
        "--seed",
        "1",
    )
    assert "optimal" in json.dumps(data)


def test_strategy_prints_and_plots_the_match_tables(cache: Path, tmp_path: Path) -> None:
    data = ok_json(cache, "strategy", "--format", "rounds:3")
    assert data["objective"] == "match" and data["format"] == "rounds:3"
    last = {
        r["other"]: r["stand_from"]
        for r in data["rows"]
        if r["mine"] == 1 and r["posted"] is None and r["rolls_left"] == 1
    }
    # Twelve behind in the last round the opener needs every point; level, the round's own
    # threshold; far ahead, a small cargo already wins the match.
    assert last[-12] == 12 and last[0] == 8 and last[10] < last[0]
    png = tmp_path / "t.png"
    r = scc(cache, "strategy", "--format", "rounds:3", "--plot", str(png))
    assert r.returncode == 0, r.stderr
    assert png.stat().st_size > 10_000 and "rounds left" in r.stdout
    bad = scc(cache, "strategy", "--format", "rounds:3", "--players", "3")
    assert bad.returncode == 2 and "two players" in bad.stderr


def test_the_match_tables_read_the_faces_the_roles_need(cache: Path) -> None:
    # The table's turns are the engine's own: under bow to stern a crew is 1-2-3, and the rows
    # cover every number of rolls a crew can be completed with (once an IndexError, because
    # the table rolled 6-5-4 itself and found no decision).
    data = ok_json(cache, "strategy", "--format", "rounds:3", "--set", "bow_to_stern=true")
    assert {r["rolls_left"] for r in data["rows"]} == {1, 2}
    last = {
        r["other"]: r["stand_from"]
        for r in data["rows"]
        if r["mine"] == 1 and r["posted"] is None and r["rolls_left"] == 1
    }
    assert last[-12] == 12 and last[10] < last[0]
