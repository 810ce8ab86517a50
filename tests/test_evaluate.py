"""``scc evaluate``: exact chances of any line-up, checked against scc equilibrium and by hand."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest

from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.solver import turn_odds

from .cli_run import ok_json, scc

LINEUP = ("--players", "3", "--policy", "ev,threshold:7,optimal:round", "--format", "rounds:2")


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("scc-cache")


def test_evaluate_agrees_with_equilibrium_and_its_best_response(cache: Path) -> None:
    d = ok_json(cache, "evaluate", *LINEUP, "--best-response", "1")
    assert set(d) >= {
        "format",
        "rules",
        "players",
        "policies",
        "seat_win_probability",
        "round_win_probability",
        "best_response",
    }
    assert d["format"] == "rounds:2" and d["players"] == 3
    assert d["policies"] == ["ev", "threshold:7", "optimal:round"]
    e = ok_json(cache, "equilibrium", *LINEUP)
    assert d["seat_win_probability"] == e["seat_win_probability"]
    assert d["round_win_probability"] == e["round_win_probability"]
    assert abs(sum(d["seat_win_probability"]) - 1) < 1e-9
    # The best response at seat 1 is `optimal` there with the others fixed.
    b = ok_json(
        cache,
        "equilibrium",
        "--players",
        "3",
        "--policy",
        "optimal,threshold:7,optimal:round",
        "--format",
        "rounds:2",
    )
    assert d["best_response"]["seat"] == 1
    assert d["best_response"]["value"] == b["seat_win_probability"][0]
    assert d["best_response"]["value"] > d["seat_win_probability"][0]


def _by_hand(policies: tuple[str, ...]) -> list[Fraction]:
    """One classic round of fixed policies under a cargo roll-off, summed over every line of
    scores: the top score wins, a shared top is a fair lottery, everyone failing replays."""
    rules = find_rules("classic").with_settings(["tie_break=cargo_rolloff"])
    dists = [turn_odds(rules, p, exact=True).distribution for p in policies]
    won = [Fraction(0)] * len(policies)
    fail = Fraction(1)
    for d in dists:
        fail *= d[0]
    for line in itertools.product(*(sorted(d.items()) for d in dists)):
        scores = [x for x, _ in line]
        p = Fraction(1)
        for _, q in line:
            p *= q
        top = max(scores)
        if top == 0:
            continue
        tied = [i for i, x in enumerate(scores) if x == top]
        for i in tied:
            won[i] += p / len(tied)
    return [w / (1 - fail) for w in won]


def test_evaluate_agrees_with_a_calculation_by_hand(cache: Path) -> None:
    pols = ("ev", "threshold:7", "never")
    d = ok_json(
        cache,
        "evaluate",
        "--players",
        "3",
        "--policy",
        ",".join(pols),
        "--set",
        "tie_break=cargo_rolloff",
    )
    want = _by_hand(pols)
    assert [round(x, 12) for x in d["seat_win_probability"]] == [round(float(w), 12) for w in want]
    # `never` stands on any cargo: the other two take more than their share.
    assert d["seat_win_probability"][2] < 1 / 3 < d["seat_win_probability"][0]


def test_evaluate_prints_a_table(cache: Path) -> None:
    r = scc(
        cache, "evaluate", "--players", "2", "--policy", "ev,threshold:7", "--best-response", "2"
    )
    assert r.returncode == 0, r.stderr
    assert "threshold:7" in r.stdout and "Best response at seat 2" in r.stdout
    de = scc(cache, "evaluate", "--players", "2", "--policy", "ev", "--lang", "de")
    assert de.returncode == 0 and "Chance auf den Sieg in der ersten Runde" in de.stdout


def test_evaluate_beyond_the_bound_names_it(cache: Path) -> None:
    r = scc(cache, "evaluate", "--players", "6", "--policy", "ev,ev,ev,ev,ev,optimal")
    assert r.returncode == 2 and not r.stdout
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "beyond the exact match solver (at most 6,000,000)" in lines[0]


def test_evaluate_refuses_a_seat_that_is_not_there(cache: Path) -> None:
    r = scc(cache, "evaluate", "--players", "3", "--policy", "ev", "--best-response", "4")
    assert r.returncode == 2 and "--best-response must be a seat 1..3, got 4" in r.stderr
    nb = scc(
        cache,
        "evaluate",
        "--players",
        "3",
        "--policy",
        "ev",
        "--best-response",
        "0",
        "--lang",
        "nb",
    )
    assert nb.returncode == 2 and "--best-response må være en plass 1..3, fikk 0" in nb.stderr
    bad = scc(cache, "evaluate", "--players", "3", "--policy", "ev,ev")
    assert bad.returncode == 2 and "--policy names 2 policies for 3 players" in bad.stderr
