"""What the terminal says, word by word: who opens a round, rolls left, the pot, plurals, yes/no.

Real ``scc companion --script`` runs (see ``tests/test_companion_script.py``), read for the
words a player sees.
"""

from __future__ import annotations

from pathlib import Path

from shipcaptaincrew.i18n import translator
from shipcaptaincrew.options import OPTIONS, Group, options_in
from shipcaptaincrew.rules import find_rules

from .test_companion_script import FAIL, players, run, score


def test_a_round_is_opened_once_and_by_the_seat_that_plays_first(tmp_path: Path) -> None:
    # Cy has no chips left for round 3, where the rotation would have Cy start (001.16: a
    # player who cannot ante sits out): Anna, the next seat that plays, opens it, and the
    # terminal does not add a line of its own naming Cy.
    lines = score(8) + score(5) + score(3) + score(9) + score(5) + score(3) + score(8) + score(4)
    args = players("Anna", "Bo", "Cy") + ["--rules", "classic", "--stakes", "pot"]
    args += ["--set", "starting_chips=2", "--format", "rounds:3", "--starter", "Anna"]
    result, told, _log = run(tmp_path, args, lines)
    assert result["rounds"][2] == {"scores": [8, 4, None], "winner": 0}
    assert result["chips"] == [4, 2, 0]
    assert "Cy starts round" not in told
    for n, name in ((1, "Anna"), (2, "Bo"), (3, "Anna")):
        assert told.count(f"starts round {n}.") == 1, n
        assert f"{name} starts round {n}." in told


def test_a_finished_turn_has_no_rolls_left_and_plurals_count(tmp_path: Path) -> None:
    # One cargo reroll allowed (001.20's house rule): after it the turn is over although one
    # of the three rolls is unused.  A single face typed for five dice is counted in the
    # singular.
    lines = ["6", "65411", "reroll", "33", *FAIL]
    args = players("Anna", "Bo") + ["--rules", "classic", "--set", "cargo_rerolls=1"]
    result, told, _log = run(tmp_path, [*args, "--starter", "1"], lines)
    assert result["rounds"] == [{"scores": [6, 0], "winner": 0}]
    assert "You typed one face, but 5 dice are rolled: type exactly 5." in told
    assert "cargo [3] [3] = 6  |  turn over" in told
    assert "= 6  |  rolls left" not in told
    _result, told_de, _log = run(tmp_path, [*args, "--starter", "1"], lines, lang="de")
    assert "Du hast eine Augenzahl eingegeben, geworfen werden aber 5 Würfel" in told_de


def test_ending_early_says_what_is_still_in_the_pot(tmp_path: Path) -> None:
    # 002.20 with carry_pot: nobody completes a crew, the pot stays and round 2's antes join
    # it (002.22); the table stops there.
    lines = FAIL + FAIL
    args = players("Anna", "Bo") + ["--rules", "ship-captain-crew", "--starter", "1"]
    result, told, _log = run(tmp_path, args, lines)
    assert result["chips"] == [8, 8] and result["winner"] is None
    assert "Match ended early" in told and "Still in the pot: 4 chips." in told
    _result, told_nb, _log = run(tmp_path, args, lines, lang="nb")
    assert "Fortsatt i potten: 4 sjetonger." in told_nb


def _menu_number(rules_name: str, option: str) -> str:
    """The number of an option in the set-up menu: the options that mean something, in order."""
    rules = find_rules(rules_name)
    shown = [o.name for g in Group for o in options_in(g) if rules.says(o.name)]
    return str(shown.index(option) + 1)


def test_the_dialogue_answers_yes_in_german_and_states_the_seating(tmp_path: Path) -> None:
    lines = ["2", "Anna", "Bo", "1"]  # two players, the classic preset
    lines += [_menu_number("classic", "half_cargo"), "ja"]  # a switch answered in German
    lines += [_menu_number("classic", "rotation"), "2"]  # the start passes back
    lines += [""]  # start; the script ends at the roll-off
    result, told, _log = run(tmp_path, [], lines, lang="de")
    assert result["rules"] == "classic(half_cargo=true,rotation=previous)"
    # Where the next round's starter is chosen, its help states the seating convention.
    assert translator("de")(OPTIONS["rotation"].help) in " ".join(told.split())


def test_the_final_table_says_who_won_on_a_tie_break(tmp_path: Path) -> None:
    # Anna and Bo both score 8 (classic: tie-break turns); Bo wins them, and the final table,
    # which shows them level on 8, says why Bo is on top -- in Norwegian too.
    lines = score(8) + score(8) + score(3) + score(9)
    args = players("Anna", "Bo") + ["--rules", "classic", "--starter", "Anna"]
    result, told, _log = run(tmp_path, args, lines)
    assert result["totals"] == [8, 8] and result["winner"] == 1
    assert "Bo won the match on a tie-break." in told
    result, told, _log = run(tmp_path, args, lines, lang="nb")
    assert "Bo vant partiet i en omkast." in told
    # A clear winner needs no such line.
    result, told, _log = run(tmp_path, args, score(9) + score(8))
    assert result["winner"] == 0 and "tie-break." not in told


def test_a_bots_reason_never_leaves_the_percent_sign_alone() -> None:
    """Bots explain their choices with a chance ("15,7 %", a no-break space before the sign);
    wrapped at any width, the number and its sign stay on one line."""
    from shipcaptaincrew.cli.terminal.match import wrap_reason

    reason = (
        "Opti: beide Ladungswürfel neu werfen - gewinnt in 15,7\u00a0% der Fälle; stehen "
        "bleiben gewönne in 12,3\u00a0% der Fälle"
    )
    for width in range(20, 121):
        lines = wrap_reason(reason, width)
        assert " ".join(lines) == reason.replace("  ", " ")
        assert not [line for line in lines if line.startswith("%")], (width, lines)
        assert all(len(line) <= width for line in lines), width
