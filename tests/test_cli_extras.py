"""A command whose optional library is not installed says so in one line, with the exact
command that installs it; CSV export needs nothing beyond the base package.

The library is made absent for real in a fresh interpreter (``sys.modules[name] = None``:
every ``import name`` there raises ``ImportError``, as on a machine without it), and the
command runs as ``scc`` runs.
"""

from __future__ import annotations

import csv
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from shipcaptaincrew.cli.extras import extra_of, install_command
from shipcaptaincrew.provenance import read as read_provenance

ROOT = Path(__file__).resolve().parents[1]
SETUP = ROOT / "scripts" / "setup.sh"


def scc_without(modules: list[str], *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    code = (
        "import sys\n"
        f"for name in {modules!r}: sys.modules[name] = None\n"
        f"sys.argv = ['scc', *{list(args)!r}]\n"
        "from shipcaptaincrew.cli import main\n"
        "main()\n"
    )
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "COLUMNS": "100"}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, env=env, timeout=300
    )


@pytest.mark.parametrize(
    ("blocked", "args", "extra"),
    [
        (["pyarrow"], ["export", "--out", "t/", "--to", "parquet", "--table", "turn_odds"], "sim"),
        (["matplotlib"], ["strategy", "--plot", "s.png"], "plot"),
        (
            ["pandas"],
            ["simulate", "--players", "tip,tip", "--matches", "20", "--out", "s.csv"],
            "sim",
        ),
        (["pandas"], ["sweep", "--bots", "tip", "--players", "2", "--matches", "20"], "sim"),
        (
            ["dask", "distributed"],
            ["simulate", "--players", "tip,tip", "--matches", "20", "--dask", "local"],
            "sim",
        ),
        (["uvicorn"], ["serve", "--port", "1"], "web"),
    ],
    ids=["parquet", "plot", "simulate-out", "sweep", "dask", "serve"],
)
def test_a_missing_extra_is_one_line_naming_the_install_command(
    tmp_path: Path, blocked: list[str], args: list[str], extra: str
) -> None:
    r = scc_without(blocked, *args, cwd=tmp_path)
    assert r.returncode == 2 and not r.stdout, r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    # outside the clone the script's path is absolute, and it is the script of this clone
    assert r.stderr.strip().endswith(
        f"from the {extra} extra, which is not installed: bash {SETUP} {extra}"
    )
    assert r.stderr.startswith(f"error: scc {args[0]} needs {blocked[0]},")


def test_the_missing_extra_is_said_in_the_language(tmp_path: Path) -> None:
    r = scc_without(["matplotlib"], "strategy", "--plot", "s.png", "--lang", "nb", cwd=ROOT)
    assert r.returncode == 2
    assert r.stderr == (
        "feil: scc strategy trenger matplotlib fra tillegget plot, som ikke er installert: "
        "bash scripts/setup.sh plot\n"
    )


def test_csv_and_json_export_need_no_extra(tmp_path: Path) -> None:
    blocked = ["pyarrow", "pandas", "matplotlib", "dask"]
    r = scc_without(blocked, "export", "--out", "t/", "--table", "turn_odds", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    with (tmp_path / "t" / "turn_odds.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("# ")))
    assert rows[0] == {
        "policy": "never",
        "score": "0",
        "probability": "0.4600248920008591",
        "probability_exact": "36049466125/78364164096",
    }
    meta = read_provenance(tmp_path / "t" / "turn_odds.csv")
    assert meta["table"] == "turn_odds" and meta["command"].startswith("scc export --out t/")
    r = scc_without(
        blocked, "export", "--out", "t/", "--to", "json", "--table", "turn_odds", cwd=tmp_path
    )
    assert r.returncode == 0, r.stderr


def test_every_extra_library_is_known_from_the_package_metadata() -> None:
    """Each optional dependency of pyproject.toml maps to its smallest extra."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert extra_of("pyarrow") == extra_of("pandas") == extra_of("distributed") == "sim"
    assert extra_of("matplotlib") == "plot" and extra_of("pyspiel") == "rl"
    assert extra_of("fastapi") == extra_of("uvicorn") == "web"
    assert extra_of("numpy") is None and extra_of("typer") is None  # the base package's own
    for name in ("plot", "sim", "rl", "web", "i18n"):
        assert name in extras and (ROOT / "requirements" / f"{name}.txt").is_file()
        assert install_command(name).endswith(f"scripts/setup.sh {name}")
