"""A few options at their extremes through every shell (``scripts/extremes.py --quick``).

The whole matrix -- every option at each bound, choice and format kind, through every command,
the web service and every environment's checker -- is ``scripts/extremes.py``, which CI runs
(``scripts/test.sh``).  Here a few of its cases run in the suite: every shell plays each rule
set or refuses it in one line with exit status 2, without a traceback or a hang.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from .need import need_module

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "extremes.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("extremes", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["extremes"] = module  # the worker pool pickles its functions by module name
    spec.loader.exec_module(module)
    return module


extremes = _script()


def test_the_cases_come_from_the_option_table() -> None:
    from shipcaptaincrew.options import OPTIONS

    labels = " ".join(c.label for c in extremes.cases())
    for name, option in OPTIONS.items():
        assert f"{name}=" in labels, name
        if option.requires is not None:  # with what it needs
            other, needed = option.requires
            assert f"{other}={needed} {name}=" in labels, name
    # A refusal the rule set makes is a case too, run as a refusal.
    assert any(not extremes._valid(list(c.settings)) for c in extremes.cases())


# The script times each shell with SIGALRM; pytest-timeout keeps its watch on a thread.
@pytest.mark.timeout(600, method="thread")
@pytest.mark.parametrize("case", extremes.cases(quick=True), ids=lambda c: c.label)
def test_every_shell_plays_or_refuses_in_one_line(
    case: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCC_CACHE_DIR", str(tmp_path))
    need_module("gymnasium")

    need_module("pettingzoo")
    need_module("pyspiel")
    need_module("fastapi")
    run = extremes.run_case if extremes._valid(list(case.settings)) else extremes.run_refused
    outcomes = run(case)
    assert {o.kind for o in outcomes} <= {"ok", "refused"}, [
        (o.shell, o.detail) for o in outcomes if o.kind == "failed"
    ]
    assert len(outcomes) >= 18 or not extremes._valid(list(case.settings))
