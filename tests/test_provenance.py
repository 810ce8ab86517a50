"""One provenance record for every output, read back from each file type, and the run made
again from it (shipcaptaincrew.provenance).

What a researcher does with a file months later: read where it comes from, check the version
and the libraries, and run the stored command again to get the same rows.
"""

from __future__ import annotations

import platform
import shlex
from pathlib import Path

import pytest

from shipcaptaincrew.provenance import read as read_provenance
from shipcaptaincrew.version import revision, version

from .cli_run import scc

#: The keys every record has, in this order, before a command's own.
BASE = [
    "command",
    "rules",
    "seed",
    "bots",
    "version",
    "commit",
    "python",
    "libraries",
    "platform",
    "time",
]


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("scc-cache")


def rows(path: Path) -> list[str]:
    """A table's lines below its provenance (CSV) or its rows (JSON)."""
    import json

    if path.suffix == ".json":
        return [json.dumps(r, sort_keys=True) for r in json.loads(path.read_text())["rows"]]
    return [line for line in path.read_text().splitlines() if not line.startswith("# ")]


def again(cache: Path, command: str, old: Path, new: Path) -> None:
    """Run a recorded command line once more, writing to ``new`` instead of ``old``."""
    args = shlex.split(command)
    assert args[0] == "scc"
    args = [str(new) if a == str(old) else a for a in args[1:]]
    done = scc(cache, *args)
    assert done.returncode == 0, done.stderr


def check_base(prov: dict[str, object]) -> None:
    assert list(prov)[: len(BASE)] == BASE
    rev = revision()
    assert prov["version"] == version() and prov["commit"] == (rev.commit if rev else None)
    assert prov["python"] == platform.python_version()
    assert prov["platform"] == platform.platform()
    libraries = prov["libraries"]
    assert isinstance(libraries, dict) and "numpy" in libraries


@pytest.mark.parametrize("suffix", [".csv", ".json", ".parquet"])
def test_simulate_reads_back_and_runs_again(cache: Path, tmp_path: Path, suffix: str) -> None:
    first, second = tmp_path / f"a{suffix}", tmp_path / f"b{suffix}"
    done = scc(
        cache, "simulate", "--players", "ev,tip,timid", "--matches", "3000", "--seed", "11",
        "--format", "rounds:2", "--out", str(first),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    prov = read_provenance(first)
    check_base(prov)
    assert prov["rules"] == "classic(format=rounds:2)" and prov["seed"] == 11
    assert prov["bots"] == ["ev", "tip", "timid"] and prov["matches"] == 3000
    assert prov["path"] == "tables"
    assert "pandas" in prov["libraries"]  # what wrote the table
    again(cache, prov["command"], first, second)
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        assert pq.read_table(first).equals(pq.read_table(second))
    else:
        assert rows(first) == rows(second) and len(rows(first)) > 3000
    assert read_provenance(second)["command"] != prov["command"]  # it names the new file


def test_export_and_sweep_write_the_same_record(cache: Path, tmp_path: Path) -> None:
    done = scc(
        cache, "export", "--out", f"{tmp_path}/x", "--table", "turn_odds", "--to", "csv",
        "--set", "half_cargo=true",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    table = tmp_path / "x_turn_odds.csv"
    prov = read_provenance(table)
    check_base(prov)
    assert prov["rules"] == "classic(half_cargo=true)" and prov["table"] == "turn_odds"
    again(cache, prov["command"], tmp_path / "x", tmp_path / "y")
    assert rows(table) == rows(tmp_path / "y_turn_odds.csv")

    sweep = tmp_path / "s.json"
    done = scc(
        cache, "sweep", "--bots", "ev,tip", "--players", "2,3", "--matches", "500",
        "--seed", "3", "--out", str(sweep),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    prov = read_provenance(sweep)
    check_base(prov)
    assert prov["rules"] == ["classic"] and prov["players"] == [2, 3] and prov["seed"] == 3
    again(cache, prov["command"], sweep, tmp_path / "t.json")
    assert rows(sweep) == rows(tmp_path / "t.json")


@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_a_figure_carries_the_record(cache: Path, tmp_path: Path, suffix: str) -> None:
    figure = tmp_path / f"f{suffix}"
    done = scc(
        cache, "simulate", "--players", "ev,tip", "--matches", "500", "--seed", "2",
        "--plot", str(figure), "--dpi", "120",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    prov = read_provenance(figure)
    check_base(prov)
    assert prov["seed"] == 2 and prov["bots"] == ["ev", "tip"]
    assert "matplotlib" in prov["libraries"]  # what drew it
    assert shlex.split(prov["command"])[-2:] == ["--dpi", "120"]


def test_a_file_without_a_record_is_refused(tmp_path: Path) -> None:
    plain = tmp_path / "plain.csv"
    plain.write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="no '# key: value' provenance"):
        read_provenance(plain)
    with pytest.raises(ValueError, match=r"no provenance is written to \.txt"):
        read_provenance(tmp_path / "x.txt")


def test_the_match_benchmark_s_csv_carries_the_record(tmp_path: Path) -> None:
    """``benchmarks/match_winrates.py --csv`` writes the same record as the commands, and its
    ``--markdown`` page quotes it under the table (version, commit, seed, command)."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    out = tmp_path / "winrates.csv"
    argv = ["--matches", "10", "--formats", "single", "--players", "2", "--csv", str(out)]
    run = subprocess.run(
        [sys.executable, "benchmarks/match_winrates.py", *argv],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    record = read_provenance(out)
    assert list(record)[: len(BASE)] == BASE
    assert record["seed"] == 15 and record["rules"] == "classic" and record["matches"] == 10
    assert shlex.split(record["command"])[2:] == argv and record["version"] == version()
    page = tmp_path / "page.md"
    run = subprocess.run(
        [sys.executable, "benchmarks/match_winrates.py", "--markdown", str(page), str(out)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    assert f"*seed 15; command: {record['command']}*" in page.read_text()
    assert f"*shipcaptaincrew {version()}" in page.read_text()
