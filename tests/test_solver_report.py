"""The strategy report's numbers on their own (no Markdown, no pictures), and the solver's
independence from matplotlib.

The report's text is checked byte for byte against ``docs/strategy.md`` by
``tests/test_cli_solver.py``; here the findings are checked against facts that follow from
the rules without the solver (two dice average 7, the last player only has to beat the
table, a best response is never worse than the tip) and against each other.
"""

from __future__ import annotations

import ast
import dataclasses
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from shipcaptaincrew.solver.findings import VARIANTS, StrategyFindings, strategy_findings
from shipcaptaincrew.solver.report import FIGURES, strategy_markdown

SOLVER = Path(__file__).resolve().parents[1] / "src" / "shipcaptaincrew" / "solver"


@pytest.fixture(scope="module")
def findings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StrategyFindings]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SCC_CACHE_DIR", str(tmp_path_factory.mktemp("scc-cache")))
        yield strategy_findings()


def test_findings_are_frozen(findings: StrategyFindings) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        findings.six_first_8 = 0.5  # type: ignore[misc]


def test_completion_is_the_published_value_and_adds_up(findings: StrategyFindings) -> None:
    assert findings.p_complete == Fraction(42314697971, 78364164096)
    assert sum(findings.p_complete_by_roll) == findings.p_complete
    assert [v.name for v in findings.variants] == [name for name, _ in VARIANTS]
    for v in findings.variants:
        assert sum(v.p_complete_by_roll) == pytest.approx(v.p_complete, abs=1e-12)
    for p in findings.policies:
        assert sum(p.distribution.values()) == pytest.approx(1.0, abs=1e-12)
        assert sum(x * q for x, q in p.distribution.items()) == pytest.approx(p.expected_score)


def test_the_last_reroll_gains_seven_minus_the_cargo(findings: StrategyFindings) -> None:
    """With one roll left a reroll of both cargo dice is worth their mean, 7."""
    assert findings.reroll_gain[1] == pytest.approx({c: 7 - c for c in range(2, 13)}, abs=1e-12)
    assert findings.ev_stand_from[1] == 7  # a 7 is a true tie, and ties stand
    # A second reroll is an option worth having: every cargo gains more with two rolls left.
    assert all(findings.reroll_gain[2][c] > findings.reroll_gain[1][c] for c in range(2, 13))


def test_the_best_play_is_never_worse_than_the_tip(findings: StrategyFindings) -> None:
    rows = findings.weak_tables
    assert len(findings.weak_stand_from) == 2 * len(rows)
    for row in rows:
        assert row.p_win_best >= row.p_win_tip - 1e-12 and row.loss >= -1e-12
        if row.players_after == 0:  # the last player only has to beat the posted score
            assert row.stand_from == {1: row.score_to_beat + 1, 2: row.score_to_beat + 1}


def test_seat_odds_add_up_and_fixed_policies_are_fair(findings: StrategyFindings) -> None:
    assert sorted(findings.seat_odds) == list(range(2, 9))
    for n, w in findings.seat_odds.items():
        assert len(w) == n and sum(w) == pytest.approx(1.0, abs=1e-12)
        assert list(w) == sorted(w)  # going later never hurts
    assert findings.fixed_policy_deviation < 1e-12
    assert findings.no_reroll_deviation < 1e-12
    assert 0 < findings.six_first_8 < findings.six_average_8 < 1
    assert 0 < findings.three_first_9 < 1


def test_the_markdown_links_every_figure_and_nothing_else(findings: StrategyFindings) -> None:
    md = strategy_markdown(findings)
    linked = [line for line in md.splitlines() if line.startswith("![")]
    assert [line.split("img/strategy_")[1].removesuffix(".png)") for line in linked] == [*FIGURES]


def test_the_solver_never_imports_matplotlib() -> None:
    """Not in any solver module's source, and not at run time while the report is written."""
    for path in sorted(SOLVER.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            assert not any(n.split(".")[0] == "matplotlib" for n in names), path.name
    code = (
        "import sys\n"
        "from shipcaptaincrew.solver.findings import strategy_findings\n"
        "from shipcaptaincrew.solver.report import strategy_markdown\n"
        "strategy_markdown(strategy_findings())\n"
        "assert 'matplotlib' not in sys.modules, 'the solver loaded matplotlib'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
