"""The terminal says what a later player must do: beat the best score posted, or, when nobody
has a crew yet, just get one ("To beat: 0" read as if 0 had to be beaten)."""

from __future__ import annotations

from .tui_driver import companion


def test_nobody_has_a_crew_yet_then_a_score_to_beat() -> None:
    child = companion(["Anna", "Bo", "Cy"], "--rules", "classic", "--starter", "Anna")
    for _ in range(3):  # Anna: no ship in three rolls
        child.expect("Anna: roll ")
        child.sendline("11223")
    child.expect("Anna has no full crew: 0 points.")
    child.expect("Nobody has a crew yet: anyone with a crew leads.")
    child.expect("Bo: roll all 5 dice and type the faces: ")
    child.sendline("65435")
    child.expect(r"stand or reroll the cargo\? \[1-2, \?\] ")
    child.sendline("1")
    child.expect("Bo scores 8.")
    child.expect("To beat: 8")
    child.close(force=True)
    assert "To beat: 0" not in (child.before or "")
