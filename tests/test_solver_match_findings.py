"""The match section's numbers: a best response is never worse than the fair share."""

from __future__ import annotations

import pytest

from shipcaptaincrew.rules import find_rules
from shipcaptaincrew.solver.match.findings import OPPONENTS, _trailing, _worth
from shipcaptaincrew.solver.match.report import match_markdown


@pytest.mark.parametrize("fmt", ["rounds:3", "wins:2"])
@pytest.mark.parametrize("opponent", OPPONENTS)
def test_playing_for_the_match_never_loses_to_a_fixed_table(fmt: str, opponent: str) -> None:
    # Playing the table's own policy is one of the optimal seat's options, and then every
    # seat is alike: averaged over the places, that is the fair share.
    win = _worth(find_rules("classic").replace(format=fmt), 2, opponent)
    assert win >= 0.5 - 1e-12
    if opponent != "optimal:round":
        assert win > 0.5 + 1e-4  # the fixed policies ignore the table: there is a gain


def test_the_trailing_example_loses_the_match_by_standing() -> None:
    stand, reroll, round_stands = _trailing(find_rules("classic").replace(format="rounds:3"))
    assert stand == 0.0 < reroll and round_stands


def test_the_section_states_the_numbers() -> None:
    from shipcaptaincrew.solver.match.findings import MatchFindings, Worth
    from shipcaptaincrew.solver.match.table import match_table

    rules = find_rules("classic").replace(format="rounds:3")
    worth = tuple(Worth(2, "rounds:3", o, _worth(rules, 2, o)) for o in OPPONENTS)
    md = match_markdown(MatchFindings(worth, tuple(match_table(rules)), 0.0, 0.25, True))
    assert "## Playing for the match" in md and "`rounds:3`" in md
    assert f"{100 * worth[1].worth:+.2f}" in md
