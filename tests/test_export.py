"""``scc export``: the files read back to the same rows, carry their provenance, hold the
solver's own figures, and every column is documented (and nothing else)."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from shipcaptaincrew import __version__
from shipcaptaincrew.provenance import PROVENANCE_KEY
from shipcaptaincrew.provenance import read as read_provenance
from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.solver import equilibrium
from shipcaptaincrew.solver.export_schema import SCHEMAS, TableKind
from shipcaptaincrew.solver.export_tables import ExportSpec, build_table, decision_rows
from shipcaptaincrew.solver.export_write import arrow_schema
from shipcaptaincrew.solver.graph import DECISION_NODE, turn_graph
from shipcaptaincrew.solver.match.solve import solve_match
from shipcaptaincrew.solver.policies import SEAT_KINDS, parse_policy

from .cli_run import scc

DOC = Path(__file__).resolve().parents[1] / "docs" / "export.md"
RULES = find_rules("classic").with_settings(["half_cargo=true", "format=rounds:2"])
ARGS = ("--set", "half_cargo=true", "--format", "rounds:2", "--players", "2")


def policies(*names: str) -> tuple[Any, ...]:
    return tuple(parse_policy(p, allow=SEAT_KINDS) for p in names)


SPEC = ExportSpec(RULES, policies("optimal", "optimal"), policies("ev", "threshold:7"))


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("scc-cache")


def read_back(path: Path, kind: TableKind) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The rows and provenance of a written file, read with the libraries themselves."""
    if path.suffix == ".json":
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert [c["name"] for c in doc["columns"]] == [c.name for c in SCHEMAS[kind]]
        return doc["rows"], doc["provenance"]
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        t = pq.read_table(path)
        assert t.schema.names == [c.name for c in SCHEMAS[kind]]
        return t.to_pylist(), json.loads(t.schema.metadata[PROVENANCE_KEY.encode()])
    import pyarrow.csv as pcsv

    opts = pcsv.ConvertOptions(
        column_types=arrow_schema(kind), strings_can_be_null=True, quoted_strings_can_be_null=False
    )
    meta = read_provenance(path)  # the '# key: value' lines above the header
    skip = pcsv.ReadOptions(skip_rows=len(meta))
    t = pcsv.read_csv(path, read_options=skip, convert_options=opts)
    assert t.schema.names == [c.name for c in SCHEMAS[kind]]
    return t.to_pylist(), meta


@pytest.mark.parametrize("to", ["csv", "json", "parquet"])
def test_files_read_back_to_the_same_rows_with_provenance(
    cache: Path, tmp_path: Path, to: str
) -> None:
    tables = (TableKind.TURN_ODDS, TableKind.DECISIONS, TableKind.MATCH_EQUILIBRIUM)
    picks = [a for k in tables for a in ("--table", k.value)]
    r = scc(cache, "export", "--out", f"{tmp_path}/run", "--to", to, *ARGS, *picks)
    assert r.returncode == 0, r.stderr
    for kind in tables:
        path = tmp_path / f"run_{kind.value}.{to}"
        assert str(path) in r.stdout
        rows, meta = read_back(path, kind)
        assert rows == build_table(kind, SPEC)
        assert meta["table"] == kind.value and meta["rules"] == str(RULES)
        assert meta["format"] == "rounds:2" and meta["players"] == 2
        assert meta["bots"] == ["optimal", "optimal"] and meta["version"] == __version__
        assert meta["against"] == ["ev", "threshold:7", "optimal:round"] and meta["seed"] is None
        assert (
            meta["command"].startswith("scc export --out") and "half_cargo=true" in meta["command"]
        )
    written = sorted(p.name for p in tmp_path.iterdir())
    assert len(written) == len(tables)  # the provenance is inside each file, no file beside it


def test_a_directory_gets_every_table_and_unsolvable_ones_are_skipped(
    cache: Path, tmp_path: Path
) -> None:
    r = scc(
        cache, "export", "--out", f"{tmp_path}/", "--rules", "ship-captain-crew", "--to", "json"
    )
    assert r.returncode == 0, r.stderr
    names = {p.name for p in tmp_path.iterdir()}
    assert names == {"turn_odds.json", "decisions.json", "round_equilibrium.json"}
    # stakes=pot: the match tables cannot be solved exactly; each is skipped with its reason.
    skipped = r.stderr.strip().splitlines()
    assert len(skipped) == 2 and all("stakes=pot" in line for line in skipped)
    refused = scc(
        cache, "export", "--out", str(tmp_path), "--rules", "ship-captain-crew",
        "--table", "best_response",
    )  # fmt: skip
    assert refused.returncode == 2 and "stakes=pot" in refused.stderr


def test_turn_odds_are_the_exact_distributions() -> None:
    rows = build_table(TableKind.TURN_ODDS, ExportSpec(find_rules("classic"), (), ()))
    never = {r["score"]: r for r in rows if r["policy"] == "never"}
    assert sum(Fraction(r["probability_exact"]) for r in never.values()) == 1
    # The known completion chance: 42314697971/78364164096 (docs/strategy.md).
    assert 1 - Fraction(never[0]["probability_exact"]) == Fraction(42314697971, 78364164096)
    assert 1 not in never and all(
        r["probability"] == float(Fraction(r["probability_exact"])) for r in rows
    )
    assert {r["policy"] for r in rows} == {"never", "ev", *(f"threshold:{t}" for t in range(3, 14))}


def test_equilibria_are_the_solvers() -> None:
    rules = find_rules("classic")
    spec = ExportSpec(rules, policies("optimal", "optimal"), ())
    seats = build_table(TableKind.ROUND_EQUILIBRIUM, spec)
    w = [r["win_probability"] for r in seats]
    assert w == list(equilibrium(rules, 2).seat_win_probability)
    assert abs(sum(w) - 1) < 1e-12 and w[1] > w[0]
    rows = build_table(TableKind.MATCH_EQUILIBRIUM, SPEC)
    sol = solve_match(RULES, SPEC.lineup)
    start = [r for r in rows if r["position"] == 0]
    assert [r["match_win_probability"] for r in start] == list(sol.seat_win_probability)
    # Somebody wins every match: the two places' chances sum to 1 at every position.
    by_position: dict[int, float] = {}
    for r in rows:
        by_position[r["position"]] = (
            by_position.get(r["position"], 0.0) + r["match_win_probability"]
        )
    assert len(by_position) > 20 and all(abs(s - 1) < 1e-9 for s in by_position.values())
    assert {r["rounds_played"] for r in rows} == {0, 1}


def test_best_responses_gain_against_fixed_bots() -> None:
    rows = build_table(TableKind.BEST_RESPONSE, SPEC)
    assert [(r["against"], r["seat"]) for r in rows] == [
        ("ev", 1), ("ev", 2), ("threshold:7", 1), ("threshold:7", 2),
    ]  # fmt: skip
    for r in rows:
        assert abs(r["baseline_match_win_probability"] - 0.5) < 1e-9  # alike: a fair share
        assert r["gain"] == r["match_win_probability"] - r["baseline_match_win_probability"]
        assert r["gain"] > 0
        lineup = [r["against"]] * 2
        lineup[r["seat"] - 1] = "optimal"
        want = solve_match(RULES, policies(*lineup)).seat_win_probability[r["seat"] - 1]
        assert r["match_win_probability"] == want


def _states(rows: list[dict[str, Any]]) -> dict[tuple[Any, ...], list[dict[str, Any]]]:
    out: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for r in rows:
        key = (r["objective"], r["position"], r["posted_best"], r["tied_at_top"], r["state_key"])
        out.setdefault(key, []).append(r)
    return out


def test_every_action_of_every_decision_is_a_row() -> None:
    rows = decision_rows(find_rules("classic").with_settings(["half_cargo=true"]), 2)
    states = _states(rows)
    for acts in states.values():
        assert len(acts) >= 2 and sum(r["planned"] for r in acts) == 1
        assert len({r["action"] for r in acts}) == len(acts)
        best = next(r for r in acts if r["planned"])
        if best["objective"] == "win":
            assert best["win_probability"] >= max(r["win_probability"] for r in acts) - 1e-12
        else:
            exact = [Fraction(r["expected_score_exact"]) for r in acts]
            assert Fraction(best["expected_score_exact"]) == max(exact)
    # One key per distinct state: as many keys as the turn graph has decision nodes.
    graph = turn_graph(find_rules("classic").with_settings(["half_cargo=true"]))
    keys = {r["state_key"] for r in rows if r["objective"] == "ev"}
    assert len(keys) == sum(1 for k in graph.kind if k == DECISION_NODE)
    assert any(r["keep"] is not None and r["action"] == f"reroll:keep{r['keep']}" for r in rows)
    assert not any("/" in r["action"] for r in rows)
    # By hand: on the last roll, standing scores the cargo, rerolling both dice 7 on average
    # and keeping a face k half of the time k + 3.5.
    last = [r for r in rows if r["objective"] == "ev" and r["rolls_left"] == 1 and not r["bonus"]]
    assert last
    for r in last:
        kind, keep, cargo = r["action_kind"], r["keep"], r["cargo_sum"]
        want = cargo if kind == "stand" else 7 if keep is None else Fraction(2 * keep + 7, 2)
        assert Fraction(r["expected_score_exact"]) == want


def test_wild_assignments_and_the_table_are_in_the_rows() -> None:
    wild = decision_rows(find_rules("classic").with_settings(["wild_captain=true"]), 2)
    takes = [r for r in wild if r["action_kind"] == "take"]
    assert takes and all(r["pending"] and r["take"] == r["action"][5:] for r in takes)
    rows = decision_rows(find_rules("classic"), 3)
    assert {(r["position"], r["tied_at_top"]) for r in rows if r["posted_best"] == 7} >= {
        (2, 1), (3, 1), (3, 2),
    }  # fmt: skip
    # The last of three facing a 9: stands on 9 (a tie is about a half), rerolls an 8.
    last = [
        r
        for r in rows
        if r["objective"] == "win" and r["players_after"] == 0 and r["posted_best"] == 9
        and r["tied_at_top"] == 1 and r["planned"] and r["cargo_rerolls"] == 0
    ]  # fmt: skip
    assert {r["cargo_sum"]: r["action"] for r in last if r["cargo_sum"] in (8, 9)} == {
        8: "reroll",
        9: "stand",
    }


def test_strategy_json_shares_the_decision_rows(cache: Path) -> None:
    r = scc(cache, "strategy", "--players", "3", "--set", "half_cargo=true", "--json")
    assert r.returncode == 0, r.stderr
    states = json.loads(r.stdout)["states"]
    rules = find_rules("classic").with_settings(["half_cargo=true"])
    assert states == [x for x in decision_rows(rules, 3) if x["objective"] == "win"]
    ev = scc(cache, "strategy", "--objective", "ev", "--json")
    assert {x["objective"] for x in json.loads(ev.stdout)["states"]} == {"ev"}


def documented() -> dict[str, list[tuple[str, str]]]:
    """Per ``### `table``` section of docs/export.md: its (column, type) rows."""
    out: dict[str, list[tuple[str, str]]] = {}
    table = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        head = re.fullmatch(r"### `(\w+)`", line)
        if head:
            table = out.setdefault(head.group(1), [])
            continue
        row = re.fullmatch(r"\| `(\w+)` \| (\w+) \| .+ \|", line)
        if row and table is not None:
            table.append((row.group(1), row.group(2)))
    return out


def test_every_column_is_documented_and_nothing_else() -> None:
    docs = documented()
    assert set(docs) == {k.value for k in TableKind}
    for kind, columns in SCHEMAS.items():
        assert docs[kind.value] == [(c.name, c.type.value) for c in columns], kind
    # And the code writes exactly the schema's columns, for every table.
    for kind in TableKind:
        rows = build_table(kind, SPEC)
        assert rows and all(list(r) == [c.name for c in SCHEMAS[kind]] for r in rows)


def test_bad_options_exit_2(cache: Path, tmp_path: Path) -> None:
    out = str(tmp_path / "x")
    for args, match in (
        (("--to", "xlsx"), "unknown file format 'xlsx'"),
        (("--table", "odds"), "unknown table 'odds'"),
        (("--policy", "ev,ev,ev"), "--policy names 3 policies for 2 players"),
        (("--against", "greedy"), "unknown policy 'greedy'"),
    ):
        r = scc(cache, "export", "--out", out, *args)
        assert r.returncode == 2 and match in r.stderr, (args, r.stderr)
    de = scc(cache, "export", "--out", out, "--to", "xlsx", "--lang", "de")
    assert de.returncode == 2 and "unbekanntes Dateiformat „xlsx“" in de.stderr
    assert not list(tmp_path.iterdir())


def test_the_help_names_every_table(cache: Path) -> None:
    r = scc(cache, "export", "--help")
    assert r.returncode == 0
    assert all(k.value in r.stdout for k in TableKind)
