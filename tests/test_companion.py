"""``scc companion`` in a pseudo-terminal: real dice typed in, typos answered, tie-breaks run."""

from __future__ import annotations

from pathlib import Path

from shipcaptaincrew.facts import MAX_PLAYERS, MIN_PLAYERS
from shipcaptaincrew.notation import MatchLog, replay
from shipcaptaincrew.rules import find_rules

from .tui_driver import (
    OPTIONS_MENU,
    PRESET_HINT,
    companion,
    finish,
    format_hint,
    menu_number,
    menu_options,
    options_hint,
    spawn,
)

END = "Replay it with: scc replay"


def test_a_round_with_typos_and_the_pot(tmp_path: Path) -> None:
    log = tmp_path / "table.jsonl"
    child = companion(["Anna", "Bo"], "--rules", "ship-captain-crew", "--starter", "Anna", log=log)
    child.expect("pot: 2 chips")
    child.expect("Anna: roll all 5 dice and type the faces: ")
    child.sendline("6543")
    child.expect("You typed 4 faces, but 5 dice are rolled: type exactly 5.")
    child.sendline("65x32")
    child.expect("'x' is not a die face: faces are 1 to 6.")
    child.sendline("")
    child.expect("Type the 5 faces you rolled, e.g. 65432.")
    child.sendline("6 5 7 3 2")
    child.expect("'7' is not a die face")
    child.sendline("6-5-4-3-2")
    child.expect(r"Anna rolls 6 5 4 3 2 and sets aside ship, captain, crew\.")
    child.expect(r"cargo \[2\] \[3\] = 5  \|  rolls left: 2")
    child.expect(r"stand or reroll the cargo\? \[1-2, \?\] ")
    child.sendline("2")
    child.expect("Anna: roll the 2 cargo dice again, and type the faces: ")
    child.sendline("666")
    child.expect("You typed 3 faces, but 2 dice are rolled")
    child.sendline("66")
    child.expect(r"cargo 6 \+ 6 = 12\.")
    child.expect(r"stand or reroll the cargo\? \[1-2, \?\] ")
    child.sendline("1")
    child.expect("Anna scores 12.")
    child.expect("To beat: 12")
    child.expect("Bo: roll all 5 dice and type the faces: ")
    child.sendline("61111")
    child.expect("Bo: roll the 4 free dice and type the faces: ")
    child.sendline("5111")
    child.expect("Bo: roll the 3 free dice and type the faces: ")
    child.sendline("222")
    child.expect("Bo has no full crew: 0 points.")
    child.expect("Round 1: Anna wins with 12.")
    child.expect("Anna takes the pot of 2 chips.")
    child.expect("Anna wins the match!")
    child.expect(END)
    finish(child)
    final = replay(MatchLog.load(log))
    assert final.winner == 0 and final.chips == (11, 9)
    assert MatchLog.load(log).dice == {"source": "typed"}


def test_cargo_tie_break_and_the_last_drinks(tmp_path: Path) -> None:
    log = tmp_path / "tie.jsonl"
    child = companion(
        ["Anna", "Bo"],
        *("--rules", "ship-captain-crew", "--drinking", "last_drinks", "--starter", "1"),
        log=log,
    )
    child.expect("Anna: roll all 5 dice and type the faces: ")
    child.sendline("65433")
    child.expect(r"\[1-2, \?\] ")
    child.sendline("1")
    child.expect("Bo: roll all 5 dice and type the faces: ")
    child.sendline("64533")
    child.expect(r"\[1-2, \?\] ")
    child.sendline("1")
    # The tie-break says what it decides, and that its roll counts to no total.
    child.expect(
        r"Tie between Anna, Bo at 6: a tie-break by cargo dice decides the round, and counts "
        r"to no total\."
    )
    child.expect("Anna: roll 2 dice for the cargo tie-break, and type the faces: ")
    child.sendline("34")
    child.expect(r"Anna rolls the cargo dice for the tie-break: 3 4 = 7\.")
    child.expect("Bo: roll 2 dice for the cargo tie-break, and type the faces: ")
    child.sendline("16")
    child.expect(r"Anna, Bo tie again: another tie-break by cargo dice, which counts to no total\.")
    child.expect("Anna: roll 2 dice for the cargo tie-break")
    child.sendline("11")
    child.expect("Bo: roll 2 dice for the cargo tie-break")
    child.sendline("12")
    # Bo won the tie-break with 3; the round's 6 is what counts (once "Bo wins with 6").
    child.expect(r"Round 1: Bo wins the tie-break; the round's score of 6 counts\.")
    child.expect(r"Anna drinks a sip\.")
    child.expect(END)
    finish(child)
    final = replay(MatchLog.load(log))
    assert final.winner == 1 and final.sips == (1, 0) and final.results[0].tie_breaks == 2


def test_wild_captain_choice_with_real_dice(tmp_path: Path) -> None:
    log = tmp_path / "wild.jsonl"
    child = companion(
        ["Anna", "Bo"],
        "--rules",
        "classic",
        "--set",
        "wild_captain=true",
        "--starter",
        "1",
        log=log,
    )
    child.expect("Anna: roll all 5 dice and type the faces: ")
    child.sendline("65223")
    child.expect("Anna: roll the 3 free dice and type the faces: ")
    child.sendline("412")
    child.expect(r"Anna rolls 4 1 2: choose which dice to set aside\.")
    child.expect(r"rolled \[1\] \[2\] \[4\]")
    child.expect(r"1  set aside 1 as crew")
    child.expect(r"2  set aside 4 as crew")
    child.expect(r"which dice do you set aside\? \[1-2, \?\] ")
    child.sendline("3")
    child.expect("3 is not on the list")
    child.sendline("1")
    child.expect(r"Anna sets aside 1 as crew\.")
    child.expect(r"Full crew! Cargo 2 \+ 4 = 6\.")
    child.expect(r"stand or reroll the cargo\? \[1-2, \?\] ")  # one roll left
    child.sendline("1")
    child.expect("Anna scores 6.")
    child.expect("Bo: roll all 5 dice")
    child.sendline("q")
    child.expect("Match ended early")
    finish(child)
    assert replay(MatchLog.load(log)).round_scores[0] == 6


def test_norwegian_companion_and_the_set_up_dialogue(tmp_path: Path) -> None:
    log = tmp_path / "nb.jsonl"
    child = spawn(["companion", "--log", str(log)], lang="nb_NO.UTF-8")
    child.expect(rf"Hvor mange spillere\? \[{MIN_PLAYERS}-{MAX_PLAYERS}, Enter = 2\] ")
    child.sendline("")
    child.expect(r"Navn på spiller 1 \(Enter = Spiller 1\): ")
    child.sendline("Kari")
    child.expect(r"Navn på spiller 2 \(Enter = Spiller 2\): ")
    child.sendline("bot:hard")
    child.expect("bordhjelperen er for folk med ekte terninger: ingen boter")
    child.sendline("Ola")
    child.expect(r"Regelsett " + PRESET_HINT)
    child.sendline("3")  # skip-kaptein-mannskap
    child.expect("Regler: Skip, kaptein og mannskap")
    skip = find_rules("skip")
    child.expect(r"Valg som skal endres " + options_hint(skip))
    # 001.2: the preset writes points down (a pot of chips is one option away).
    assert "Partiformat: først til 50" in child.before and "Spilles om: bare poeng" in child.before
    child.sendline(menu_number(child.before, "Partiformat:"))
    child.expect(r"Partiformat " + format_hint(3))  # the preset's first_to:N
    child.sendline(menu_number(child.before, "én runde (single)", whole=True))
    child.expect(r"Regler: Skip, kaptein og mannskap · én runde")
    child.expect(r"Valg som skal endres " + options_hint(skip.replace(format="single")))
    child.sendline("")
    child.expect("Kast om start: høyeste terning starter")
    child.expect("Kari: kast én terning om hvem som starter, og skriv øyetallet: ")
    child.sendline("4")
    child.expect("Ola: kast én terning om hvem som starter")
    child.sendline("4")
    child.expect("Uavgjort om starten mellom Kari, Ola: de kaster igjen.")
    child.expect("Kari: kast én terning")
    child.sendline("2")
    child.expect("Ola: kast én terning")
    child.sendline("5")
    child.expect("Ola starter.")
    child.expect("Ola: kast alle 5 terningene og skriv øyetallene: ")
    child.sendline("12")
    child.expect("Du skrev 2 øyetall, men det kastes 5 terninger: skriv nøyaktig 5.")
    child.sendline("65412")
    child.expect(r"skip \[6\]  kaptein \[5\]  mannskap \[4\]  \|  last \[1\] \[2\] = 3")
    child.expect(r"stå eller kaste lasten på nytt\? \[1-2, \?\] ")
    child.sendeof()
    child.expect("Partiet ble avsluttet tidlig")
    child.expect("Spill den av igjen med: scc replay")
    finish(child)
    m = MatchLog.load(log)
    assert m.lang == "nb" and m.players == ["Kari", "Ola"]
    assert m.rules == "skip-kaptein-mannskap(format=single)"
    assert replay(m).turn is not None


def test_one_die_questions_and_ctrl_c_still_writes_the_log(tmp_path: Path) -> None:
    log = tmp_path / "rolloff.jsonl"
    child = companion(["Anna", "Bo"], "--rules", "classic", log=log)
    child.expect("Anna: roll one die to decide who starts, and type its face: ")
    child.sendline("3 4")
    child.expect("You typed 2 faces, but one die is rolled: type exactly one.")
    child.sendline("")
    child.expect(r"Type the face you rolled, e\.g\. 6\.")
    child.sendline("0")
    child.expect("'0' is not a die face: faces are 1 to 6.")
    child.sendline("5")
    child.expect("Bo: roll one die to decide who starts")
    child.sendintr()  # Ctrl-C: the match ends cleanly, with the summary and the log's path
    child.expect("Match ended early")
    child.expect(END)
    finish(child, 130)
    assert MatchLog.load(log).players == ["Anna", "Bo"]


def test_a_given_starter_is_not_asked_again(tmp_path: Path) -> None:
    log = tmp_path / "starter.jsonl"
    child = companion(["Anna", "Bo"], "--starter", "Bo", log=log)
    child.expect(r"Preset " + PRESET_HINT)
    child.sendline("")
    child.expect("Rules: Classic 6-5-4 · chosen starter")
    child.expect(OPTIONS_MENU)  # who starts is decided by --starter: not on the menu
    shown = menu_options(find_rules("classic").replace(starter="chosen"), fixed=("starter",))
    rotation = shown.index("rotation") + 1
    assert "Who starts:" not in child.before
    assert f"{rotation}  Next round's starter" in child.before
    child.sendline("")
    child.expect("Bo starts round 1.")
    child.expect("Bo: roll all 5 dice and type the faces: ")
    assert "Who starts (002" not in child.before
    child.sendline("q")
    child.expect("Match ended early")
    finish(child)
    assert MatchLog.load(log).rules == "classic(starter=chosen)"
