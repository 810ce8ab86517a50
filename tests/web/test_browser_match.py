"""The "100 %" position on a phone: every choice wins the round, and only the match tells
them apart.  Two friends at a table with real dice (``rounds:3``, the host starts): Anna fails
the first round, Bo scores 12; in the second Bo fails first, then Anna has her crew and a
cargo of 5.  Standing, rerolling: both win the round for sure, but trailing by 12 with one
round to go the match is won far more often by rerolling.  The advice on her buttons must say
so, each chance labelled, with the solver's own numbers, in her language.

Run in its own pytest process: ``pytest tests/web -m browser``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from shipcaptaincrew.actions import Roll
from shipcaptaincrew.engine import apply, initial_state, post_score
from shipcaptaincrew.i18n import translator
from shipcaptaincrew.rules import Rules
from shipcaptaincrew.solver import advise

from .browsing import (
    CHOICE,
    PHONE,
    SMALL_PHONE,
    Pages,
    check,
    create_table,
    join_table,
    shot,
    start_match,
    table_server,
)
from .conftest import LiveServer

pytestmark = pytest.mark.browser

SEED = "100ce17a0000000000000000000000000000000000000000000000000000000f"
RULES = "classic(format=rounds:3,starter=chosen)"
FAIL = [1, 1, 2, 2, 3]  # no ship: three of these and the turn is over with nothing
TWELVE = [6, 5, 4, 6, 6]
FIVE = [6, 5, 4, 2, 3]
#: The decimal sign of each language's numbers on the page.
COMMA = {"en": ".", "de": ",", "nb": ","}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from table_server(tmp_path_factory, "match", SEED)


def _type(page: Any, faces: list[int]) -> None:
    entry = "[data-testid=faces-entry]"
    page.wait_for_selector(entry)
    for f in faces:
        page.click(f"{entry} .keys button >> nth={f - 1}")
    page.click(f"{entry} button[data-action=roll]")


def _expected() -> dict[str, tuple[float, float]]:
    """The solver's (match, round) chance of each choice at Anna's decision."""
    rules = Rules.from_str(RULES)
    state = initial_state(rules, 2, starter=0)
    for score in (0, 12, 0):  # Anna fails, Bo 12; round two: Bo fails
        state = post_score(state, score)
    state = apply(state, Roll(tuple(FIVE)))
    out = {}
    for c in advise(state):
        assert c.match_win_probability is not None and c.round_win_probability is not None
        out[str(c.action)] = (c.match_win_probability, c.round_win_probability)
    return out


def _chances(text: str, label: str, comma: str) -> float:
    number = re.search(rf"{re.escape(label)}\s*([\d{re.escape(comma)}]+)\s*%", text)
    assert number, (label, text)
    return float(number.group(1).replace(comma, ".")) / 100


@pytest.mark.parametrize(("lang", "viewport"), [("en", PHONE), ("de", SMALL_PHONE), ("nb", PHONE)])
def test_the_100_percent_example_on_the_buttons(
    pages: Pages, lang: str, viewport: dict[str, int]
) -> None:
    want = _expected()
    assert all(r == 1.0 for _, r in want.values())  # every choice wins the round
    assert want["reroll"][0] > want["stand"][0] + 0.1  # ... and only one wins the match
    anna = pages.open(f"/?lang={lang}&rules={RULES}", viewport=viewport, lang=lang)
    anna.wait_for_selector("input[name=dice]", state="attached")
    code = create_table(anna, physical=True)
    bo = pages.open(f"/r/{code}?lang=en", viewport=PHONE)
    join_table(bo, "Bo")
    start_match(anna, 2)
    for _ in range(3):
        _type(anna, FAIL)
    _type(bo, TWELVE)
    bo.click(f"{CHOICE}[data-action=stand]")
    for _ in range(3):
        _type(bo, FAIL)
    _type(anna, FIVE)
    anna.wait_for_selector(f"{CHOICE}[data-action=reroll]")
    anna.click("#advice")
    anna.wait_for_selector("[data-testid=advice]")
    tr = translator(lang, "web")
    match_label, round_label, comma = tr("Match chance"), tr("Round chance"), COMMA[lang]
    for action, (match, won) in want.items():
        button = anna.locator(f"{CHOICE}[data-action='{action}']")
        text = button.inner_text()
        assert abs(_chances(text, match_label, comma) - match) <= 0.0005, (action, text)
        assert abs(_chances(text, round_label, comma) - won) <= 0.0005, (action, text)
    # Nothing on a button is cut off: its text fits inside it at this width.
    cut = anna.evaluate(
        "[...document.querySelectorAll('#actions button')]"
        ".filter((b) => b.scrollWidth > b.clientWidth + 1).map((b) => b.dataset.action)"
    )
    assert cut == [], cut
    best = anna.locator(f"{CHOICE}.best")
    assert best.get_attribute("data-action") == "reroll"
    check(anna, f"the 100 % example ({lang})")
    shot(anna, f"match-advice-{lang}")
    assert pages.errors == []
