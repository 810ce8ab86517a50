"""The command-line contract of the simulator: ``scc simulate`` and ``scc sweep``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shipcaptaincrew.cli.app import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def summary(out: str) -> dict[str, object]:
    """A ``--json`` summary without its provenance record (which names the run's clock)."""
    doc = json.loads(out)
    assert isinstance(doc, dict) and isinstance(doc.pop("provenance"), dict)
    return doc


def test_simulate_json_contract() -> None:
    code, out, _ = run(
        "simulate", "--players", "tip,timid,tip", "--matches", "600", "--seed", "4", "--json"
    )
    assert code == 0
    d = json.loads(out)  # exactly one JSON object on stdout
    assert d["matches"] == 600
    assert set(d["bots"]) == {"tip", "timid"}
    for b in d["bots"].values():
        assert {"win_rate", "ci95", "mean_score"} <= set(b)
        lo, hi = b["ci95"]
        assert 0 <= lo <= b["win_rate"] <= hi <= 1
    assert [s["seat"] for s in d["seats"]] == [0, 1, 2]
    assert [s["bot"] for s in d["seats"]] == ["tip", "timid", "tip"]
    assert sum(s["wins"] for s in d["seats"]) == 600


def test_simulate_same_seed_same_json_and_workers() -> None:
    args = (
        "simulate",
        "-p",
        "ev,tip",
        "-n",
        "700",
        "--seed",
        "8",
        "--json",
        "--rules",
        "ship-captain-crew",
        "--stakes",
        "pot+last_drinks",
    )
    a = json.loads(run(*args)[1])
    b = json.loads(run(*args, "--workers", "2")[1])
    # The record of where it comes from names the run's clock (and the command as typed).
    pa, pb = a.pop("provenance"), b.pop("provenance")
    assert a == b
    assert pa["seed"] == pb["seed"] == 8 and pa["bots"] == ["ev", "tip"]
    assert pa["version"] == pb["version"] == a["version"]
    assert a["rules"] == "ship-captain-crew(drinking=last_drinks)"
    # last_drinks: the loser of every round drinks; chips are conserved between the two seats.
    assert a["bots"]["ev"]["sips_per_match"] + a["bots"]["tip"]["sips_per_match"] >= 1
    assert abs(a["bots"]["ev"]["chips_per_match"] + a["bots"]["tip"]["chips_per_match"]) < 1e-9


def test_format_and_stakes_map_onto_rules() -> None:
    d = json.loads(
        run(
            "simulate",
            "-p",
            "tip,tip,tip",
            "-n",
            "50",
            "--seed",
            "1",
            "--format",
            "tournament",
            "--stakes",
            "points+drinks+failed_double",
            "--json",
        )[1]
    )
    assert d["rules"] == ("classic(drinking=all_but_winner,failed_double=true,format=tournament)")
    assert d["mean_rounds"] >= 3


def test_out_and_plot_files(tmp_path: Path) -> None:
    import pandas as pd

    csv, parquet, png = tmp_path / "m.csv", tmp_path / "m.parquet", tmp_path / "p.png"
    code, _, _ = run(
        "simulate",
        "-p",
        "tip,timid",
        "-n",
        "120",
        "--seed",
        "2",
        "--json",
        "--out",
        str(csv),
        "--plot",
        str(png),
    )
    assert code == 0
    frame = pd.read_csv(csv, comment="#")
    assert len(frame) == 240 and frame.groupby("match")["won"].sum().eq(1).all()
    head = [line for line in csv.read_text().splitlines() if line.startswith("# ")]
    prov = {k: json.loads(v) for k, v in (line[2:].split(": ", 1) for line in head)}
    assert prov["seed"] == 2 and prov["bots"] == ["tip", "timid"] and prov["rules"] == "classic"
    assert prov["command"].startswith("scc") and prov["version"]
    # Play order is recoverable: the starter plays first, the others follow in its order.
    first = frame[frame["position"] == 0]
    assert (first["seat"] == first["starter"]).all() and set(frame["position"]) == {0, 1}
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (
        run(
            "simulate",
            "-p",
            "tip,timid",
            "-n",
            "120",
            "--seed",
            "2",
            "--json",
            "--out",
            str(parquet),
        )[0]
        == 0
    )
    assert pd.read_parquet(parquet).equals(frame)
    import pyarrow.parquet as pq

    meta = json.loads(pq.read_schema(parquet).metadata[b"shipcaptaincrew"])
    assert meta["seed"] == 2 and meta["path"] == "tables"


def test_sweep_writes_one_tidy_table(tmp_path: Path) -> None:
    import pandas as pd

    out = tmp_path / "sweep.csv"
    code, stdout, _ = run(
        "sweep",
        "--bots",
        "tip,timid",
        "--players",
        "2,3",
        "-n",
        "100",
        "--rules",
        "classic",
        "--rules",
        "ship-captain-crew(wild_captain=true)",
        "--out",
        str(out),
        "--json",
    )
    assert code == 0
    frame = pd.read_csv(out, comment="#")
    assert "# seed: 0" in out.read_text().splitlines()
    # 2 rule sets x 2 bots x (2 + 3 seats) rows.
    assert len(frame) == 2 * 2 * 5 == len(json.loads(stdout)["rows"])
    assert set(frame["rules"]) == {"classic", "ship-captain-crew(wild_captain=true)"}
    cell = frame[(frame.rules == "classic") & (frame.players == 3) & (frame.bot == "tip")]
    assert cell["win_rate"].sum() == pytest.approx(1.0)
    assert cell["place_win_rate"].sum() == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["-p", "tip,grandmaster", "-n", "10"], "grandmaster"),
        (["-p", "tip", "-n", "10"], "2..8"),
        (["-p", "tip,tip", "-n", "0"], "--matches"),
        (["-p", "tip,tip", "-n", "10", "--format", "best_of:3"], "format"),
        (["-p", "tip,tip", "-n", "10", "--stakes", "beer"], "beer"),
        (["-p", "tip,tip", "-n", "10", "--format", "tournament"], "3 players"),
        (["-p", "tip,tip", "-n", "10", "--workers", "0"], "--workers"),
        (["-p", "tip,tip", "-n", "10", "--workers", "2", "--dask", "local"], "either"),
        (["-p", "tip,tip", "-n", "10", "--out", "x.xlsx"], ".csv"),
        (["-p", "tip,tip", "-n", "10", "--rules", "yahtzee"], "yahtzee"),
        (["-p", "tip,tip", "-n", "10", "--seed", "-1"], "--seed"),
        (["-p", "tip,tip", "-n", "10", "--out", "/nonexistent/dir/x.csv"], "does not exist"),
        (["-p", "tip,tip", "-n", "10", "--plot", "/nonexistent/x.png"], "does not exist"),
        (["-p", "tip,tip", "-n", "10", "--dask", "nonsense"], "nonsense"),
    ],
)
def test_bad_input_exits_2_with_one_line(args: list[str], needle: str) -> None:
    code, out, err = run("simulate", *args)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and needle in lines[0], err


def test_sweep_bad_input_exits_2() -> None:
    code, _, err = run("sweep", "--bots", "tip", "--players", "two", "-n", "5")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "--players" in err


def test_real_process_keeps_stdout_clean() -> None:
    """Through the installed entry point: stdout is one JSON object, errors one line."""
    cmd = [
        sys.executable,
        "-m",
        "shipcaptaincrew",
        "simulate",
        "-p",
        "tip,ev",
        "-n",
        "200",
        "--seed",
        "3",
        "--json",
    ]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["matches"] == 200
    bad = subprocess.run(
        [*cmd[:4], "-p", "tip,nobody", "-n", "5"], capture_output=True, text=True, timeout=120
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_dask_local_process_cluster_matches_single_process() -> None:
    """``--dask local`` (a two-process LocalCluster) prints the very same summary."""
    args = (
        "simulate",
        "-p",
        "optimal,tip,ev",
        "-n",
        "1100",
        "--seed",
        "7",
        "--json",
        "--rules",
        "ship-captain-crew",
    )
    code, one, _ = run(*args)
    code_d, dask, _ = run(*args, "--dask", "local")
    assert code == code_d == 0
    assert summary(one) == summary(dask)


@pytest.mark.parametrize(
    "settings",
    [
        [
            "--set",
            "wild_captain=true",
            "--set",
            "half_cargo=true",
            "--set",
            "bow_to_stern=true",
            "--set",
            "wild_face=4",
        ],
        ["--set", "cargo_rerolls=0", "--set", "same_roll_bonus=3"],
        ["--set", "tie_break=cargo_rolloff", "--set", "all_fail=carry_pot", "--stakes", "pot"],
    ],
)
def test_edge_rule_sets_run(settings: list[str]) -> None:
    code, out, err = run(
        "simulate", "-p", "optimal,random,tip", "-n", "60", "--seed", "1", "--json", *settings
    )
    assert code == 0, err
    d = json.loads(out)
    assert sum(s["wins"] for s in d["seats"]) == 60


def test_output_directory_checked_before_running(tmp_path: Path) -> None:
    """A --out naming a directory, or a sweep into a missing one: one line, nothing run."""
    code, out, err = run(
        "simulate",
        "-p",
        "tip,tip",
        "-n",
        "10",
        "--out",
        str(tmp_path / "d.csv"),
        "--plot",
        str(tmp_path),
    )
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "d.csv").exists()
    (tmp_path / "d.csv").mkdir()
    code, _, err = run("simulate", "-p", "tip,tip", "-n", "10", "--out", str(tmp_path / "d.csv"))
    assert code == 2 and "directory" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(
        "sweep",
        "--bots",
        "tip",
        "--players",
        "2",
        "-n",
        "5",
        "--out",
        str(tmp_path / "no" / "s.csv"),
    )
    assert code == 2 and "does not exist" in err and len(err.strip().splitlines()) == 1
