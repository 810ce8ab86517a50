"""A few options at their extremes through every shell (``scripts/extremes.py --quick``).

The whole matrix -- every option at each bound, choice and format kind, the cup's extremes
crossed with every option that reads the cargo, through every command, the web service and
every environment's checker -- is ``scripts/extremes.py``, which CI runs (``scripts/test.sh``).
Here a few of its cases run in the suite: every shell plays each rule set with its numbers and
words read, or refuses it as listed, without a traceback or a hang.  And the reading itself is
tested: a wrong cargo, a wrong count, a wrong chance and an unlisted refusal are each caught.
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
check = importlib.import_module("extremes_checks")  # the script put its folder on the path


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
    assert len(outcomes) >= 22 or not extremes._valid(list(case.settings))


def test_the_cup_is_crossed_with_what_reads_the_cargo() -> None:
    labels = {c.label for c in extremes.cases()}
    for crossed in ("dice=4 half_cargo=true", "dice=6 half_cargo=true"):
        assert crossed in labels
    assert "dice=4 tie_break=cargo_rolloff" in labels and "dice=6 tie_break=cargo_rolloff" in labels
    assert not extremes._valid(["dice=4", "half_cargo=true"])  # refused, with the reason


def test_the_roll_is_one_the_turn_allows() -> None:
    from shipcaptaincrew.rules import Rules

    assert extremes.full_roll(Rules()) == "65466"
    assert extremes.full_roll(Rules(dice=6)) == "654666"
    assert extremes.full_roll(Rules(dice=4, bow_to_stern=True)) == "1236"
    assert extremes.full_roll(Rules(bow_to_stern=True, wild_captain=True, wild_face=6)) == "12355"


@pytest.mark.parametrize(
    "line",
    [
        "Anna rolls 6 5 4 1 2 6 and sets aside ship, captain, crew. Full crew! Cargo 1 + 2 = 6.",
        "Anna rerolls the cargo: 1 2; cargo 1 + 2 = 3.",
        "Anna rerolls both cargo dice.",
        "Anna keeps a 6 and rerolls the other cargo die.",
        "Anna rolls the cargo dice for the tie-break: 3 4 = 7.",
        "Full crew! Cargo 2 + 6 + 1 = 10.",
    ],
)
def test_a_wrong_story_is_caught(line: str) -> None:
    """Lines a shell that wrote two cargo dice (or added wrongly) would tell of six dice."""
    from shipcaptaincrew.rules import Rules

    with pytest.raises(check.Wrong):
        check.story([line], Rules(dice=6))


def test_a_right_story_is_read() -> None:
    from shipcaptaincrew.rules import Rules

    lines = [
        "Anna rolls 6 5 4 1 2 6 and sets aside ship, captain, crew.",
        "Full crew! Cargo 1 + 2 + 6 = 9.",
        "Anna rerolls all 3 cargo dice.",
        "Anna rerolls the cargo: 3 3 3; cargo 3 + 3 + 3 = 9.",
        "Anna keeps a 6 and rerolls the other 2 cargo dice.",
        "Bo rolls the cargo dice for the tie-break: 1 2 3 = 6.",
    ]
    assert check.story(lines, Rules(dice=6)) == 5
    assert check.story(["Full crew! Cargo 4.", "Bo rerolls the cargo die."], Rules(dice=4)) == 2


def test_a_wrong_number_is_caught() -> None:
    import json

    from shipcaptaincrew.rules import Rules

    rules = Rules(dice=6)
    exact = check.completion(rules)
    assert exact is not None and 0 < exact < 1
    check.odds(rules, json.dumps({"p_complete": str(exact), "distribution": {"18": "1"}}), "")
    with pytest.raises(check.Wrong):  # the five dice's chance told of six
        five = check.completion(Rules())
        check.odds(rules, json.dumps({"p_complete": str(five), "distribution": {"18": "1"}}), "")
    with pytest.raises(check.Wrong):
        check.turn_json(rules, json.dumps({"cargo": [1, 2], "score": 3, "bonus": 0}), "")
    with pytest.raises(check.Wrong):
        check.rules_words("de")(rules, "5 gewöhnliche Würfel ... von 2 bis 12, 3", "")


def test_only_a_listed_refusal_passes() -> None:
    case = extremes.Case("dice=6", ("dice=6",))
    said = "the step tables cannot play this set-up: stakes=pot: the chips decide"
    listed = extremes._timed(case, "batched match env", lambda: ("refused", said))
    assert listed.kind == "refused" and "step tables" in listed.detail
    unlisted = extremes._timed(case, "odds", lambda: ("refused", "error: something else"))
    assert unlisted.kind == "failed" and "nobody listed" in unlisted.detail
