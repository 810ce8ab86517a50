"""``scc play`` driven through a pseudo-terminal with scripted keys and seeded dice.

Each test first plays the same match through the engine (tests/tui_driver.py) to find a seed
that produces the situation under test, then plays it at the terminal and checks both what the
screen said and that the event log replays to the very state the engine reached offline.
"""

from __future__ import annotations

import re
from pathlib import Path

import pexpect
import pytest

from shipcaptaincrew.actions import HandOut, RerollCargo, Take
from shipcaptaincrew.notation import MatchLog, replay
from shipcaptaincrew.rules import Rules, find_rules
from shipcaptaincrew.state import TurnPhase

from .tui_driver import answer_menus, find_seed, human_decisions, play_offline, spawn

END = "Replay it with: scc replay"


def _finish(child: pexpect.spawn) -> None:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before


def _play_args(rules: Rules, names: list[str], seed: int, log: Path) -> list[str]:
    args = ["play", "--rules", str(rules), "--seed", str(seed), "--fast", "--log", str(log)]
    for n in names:
        args += ["-p", n]
    return args


def test_three_round_match_two_people_and_a_bot_with_a_tie_break(tmp_path: Path) -> None:
    rules = find_rules("classic").replace(format="rounds:3")
    seats: list[str | None] = [None, None, "tip"]
    seed = find_seed(rules, seats, lambda g: any(r.tie_breaks for r in g.state.results))
    offline = play_offline(rules, seats, seed)
    log = tmp_path / "match.jsonl"
    child = spawn(_play_args(rules, ["Anna", "Bo", "bot:tip"], seed, log))
    out = answer_menus(child, lambda screen, n: "1", END)
    _finish(child)
    assert "Roll-off: the highest die starts" in out
    assert re.search(r"Tie between \w+, \w+: tie-break by turn\.", out)
    assert "tie-break turn" in out
    for n in (1, 2, 3):
        assert f"Round {n}:" in out
    assert "Bot 3 (tip)" in out
    assert "Final standings" in out and "wins the match!" in out
    assert "[6]" in out and "rolls left:" in out  # the dice are on screen
    # The log on disk replays to the state the engine reached with the same seed and choices.
    final = replay(MatchLog.load(log))
    assert final == offline.state
    winner = ["Anna", "Bo", "Bot 3"][final.winner] if final.winner is not None else None
    assert f"{winner} wins the match!" in out
    assert len(final.results) == 3


def test_nonsense_is_answered_and_ctrl_d_ends_cleanly_with_a_log(tmp_path: Path) -> None:
    rules = find_rules("classic")
    seats: list[str | None] = [None, "timid"]
    seed = find_seed(rules, seats, lambda g: len(human_decisions(g, seats)) >= 1)
    log = tmp_path / "quit.jsonl"
    child = spawn(_play_args(rules, ["Anna", "bot:easy"], seed, log))
    child.expect(r"stand or reroll the cargo\? \[1-2, \?\] ")
    child.sendline("stand please")
    child.expect("'stand please' is not a number: type a number from 1 to 2.")
    child.sendline("")
    child.expect("Please type a number from 1 to 2.")
    child.sendline("7")
    child.expect("7 is not on the list: type a number from 1 to 2.")
    child.sendline("-1")
    child.expect("-1 is not on the list")
    child.sendline("?")
    child.expect(r"Advice|Advice is unavailable")
    child.expect(r"stand or reroll the cargo\? \[1-2, \?\] ")
    child.sendeof()
    child.expect("Match ended early")
    child.expect(END)
    _finish(child)
    assert "Traceback" not in child.before
    m = MatchLog.load(log)
    assert m.events and not replay(m).is_over  # the log so far, and it replays
    assert m.kinds == ["human", "bot:easy"]


def test_advice_lists_every_choice_with_its_chance_to_win(tmp_path: Path) -> None:
    rules = find_rules("classic")
    seats: list[str | None] = [None, "timid"]
    seed = find_seed(rules, seats, lambda g: len(human_decisions(g, seats)) >= 1)
    child = spawn(_play_args(rules, ["Anna", "bot:timid"], seed, tmp_path / "a.jsonl"))
    child.expect(r"stand or reroll the cargo\? \[1-2, \?\] ")
    child.sendline("?")
    i = child.expect([r"chance to win", "Advice is unavailable"])
    child.expect(r"stand or reroll the cargo\? \[1-2, \?\] ")
    if i == 0:  # every choice rated, best first
        rows = re.findall(
            r"│ (stand \(score \d+\)|reroll both cargo dice)\s*│\s+(\d+\.\d) %"
            r"\s*│\s+(\d+\.\d\d)",
            child.before,
        )
        assert sorted(r[0][:5] for r in rows) == ["rerol", "stand"], child.before
        assert float(rows[0][1]) >= float(rows[1][1])
    child.sendline("q")
    child.expect("Match ended early")
    _finish(child)


def _keep_highest(screen: str, n: int) -> str:
    keeps = re.findall(r"^\s+(\d)\s+keep the (\d), reroll the other cargo die", screen, re.M)
    if not keeps:
        return "1"
    return max(keeps, key=lambda k: int(k[1]))[0]


def test_half_cargo_keep_choice(tmp_path: Path) -> None:
    rules = find_rules("classic").replace(half_cargo=True)
    seats: list[str | None] = [None, "timid"]

    def keep_highest(acts: tuple) -> int:  # type: ignore[type-arg]
        keeps = [a for a in acts if isinstance(a, RerollCargo) and a.keep is not None]
        return acts.index(max(keeps, key=lambda a: a.keep)) if keeps else 0

    def kept_and_rolled(g) -> bool:  # type: ignore[no-untyped-def]
        return any(
            isinstance(a, RerollCargo)
            and a.keep is not None
            and len(set(s.turn.cargo)) == 2  # two different faces: a real choice
            for s, a in g.history
            if s.turn is not None
        )

    seed = find_seed(rules, seats, kept_and_rolled, human=keep_highest)
    offline = play_offline(rules, seats, seed, keep_highest)
    log = tmp_path / "half.jsonl"
    child = spawn(_play_args(rules, ["Anna", "bot:timid"], seed, log))
    out = answer_menus(child, _keep_highest, END)
    _finish(child)
    assert re.search(r"keep the \d, reroll the other cargo die", out)
    assert re.search(r"Anna keeps a \d and rerolls the other cargo die\.", out)
    assert replay(MatchLog.load(log)) == offline.state


def _last_assignment(screen: str, n: int) -> str:
    return str(n) if "which dice do you set aside?" in screen.splitlines()[-1] else "1"


def test_wild_captain_assignment_choice(tmp_path: Path) -> None:
    rules = find_rules("classic").replace(wild_captain=True)
    seats: list[str | None] = [None, "timid"]

    def last(acts: tuple) -> int:  # type: ignore[type-arg]
        return len(acts) - 1 if isinstance(acts[0], Take) else 0

    def assigned(g) -> bool:  # type: ignore[no-untyped-def]
        return any(
            isinstance(a, Take) and s.contest.seat == 0
            for s, a in g.history
            if s.turn is not None and s.turn.phase is TurnPhase.ASSIGN
        )

    seed = find_seed(rules, seats, assigned, human=last)
    offline = play_offline(rules, seats, seed, last)
    log = tmp_path / "wild.jsonl"
    child = spawn(_play_args(rules, ["Anna", "bot:timid"], seed, log))
    out = answer_menus(child, _last_assignment, END)
    _finish(child)
    assert "choose which dice to set aside" in out
    assert "which dice do you set aside?" in out
    assert re.search(r"Anna sets aside [\d ]+ as (ship|captain|crew)", out)
    assert replay(MatchLog.load(log)) == offline.state


def test_captain_hands_out_the_sips(tmp_path: Path) -> None:
    rules = find_rules("classic").replace(drinking="captain_hands_out")
    seats: list[str | None] = [None, None, "timid"]

    def human_hands_out(g) -> bool:  # type: ignore[no-untyped-def]
        return any(isinstance(a, HandOut) and s.round_winner in (0, 1) for s, a in g.history)

    seed = find_seed(rules, seats, human_hands_out)
    offline = play_offline(rules, seats, seed)
    log = tmp_path / "sips.jsonl"
    child = spawn(_play_args(rules, ["Anna", "Bo", "bot:timid"], seed, log))
    out = answer_menus(child, lambda screen, n: "1", END)
    _finish(child)
    assert re.search(r"Captain \w+ rolls (\d) and hands out (\1 sips|one sip)\.", out)
    assert re.search(r"\w+, who drinks sip 1 of \d\?", out)
    assert re.search(r"\w+ gives a sip to \w+", out)
    assert replay(MatchLog.load(log)) == offline.state
    assert sum(offline.state.sips) >= 1


@pytest.mark.parametrize(
    ("how", "words"),
    [
        (
            ("--lang", "de"),
            [
                "Schiff, Kapitän und Crew",
                "Auswürfeln",
                "Würfe übrig",
                "stehen bleiben oder die Ladung neu werfen?",
                "Endstand",
            ],
        ),
        (
            ("LANG", "nb_NO.UTF-8"),
            [
                "Skip, kaptein og mannskap",
                "Utkast",
                "kast igjen",
                "stå eller kaste lasten på nytt?",
                "Sluttstilling",
            ],
        ),
    ],
)
def test_each_language(tmp_path: Path, how: tuple[str, str], words: list[str]) -> None:
    rules = find_rules("classic")
    seats: list[str | None] = [None, "timid"]
    seed = find_seed(rules, seats, lambda g: len(human_decisions(g, seats)) >= 1)
    args = _play_args(rules, ["Anna", "bot:timid"], seed, tmp_path / "l.jsonl")
    if how[0] == "LANG":
        child = spawn(args, lang=how[1])
    else:
        child = spawn([*args, *how])
    end = {"de": "Nachspielen mit: scc replay", "nb": "Spill den av igjen med: scc replay"}
    lang = "de" if "de" in how else "nb"
    out = answer_menus(child, lambda screen, n: "1", end[lang])
    _finish(child)
    for w in words:
        assert w in out, w
    assert "Roll-off" not in out and "rolls left" not in out


def test_set_up_dialogue_asks_for_what_the_flags_leave_out(tmp_path: Path) -> None:
    log = tmp_path / "dialogue.jsonl"
    child = spawn(["play", "--seed", "4", "--fast", "--log", str(log)])
    child.expect(r"How many players\? \[2-8, Enter = 3\] ")
    child.sendline("lots")
    child.expect("Please type a whole number from 2 to 8.")
    child.sendline("12")
    child.expect("12 is out of range: type a number from 2 to 8.")
    child.sendline("2")
    child.expect(r"Name of player 1 .*: ")
    child.sendline("Anna")
    child.expect(r"Name of player 2 .*: ")
    child.sendline("anna")
    child.expect("'anna' is already at the table")
    child.sendline("bot:grandmaster")
    child.expect("unknown bot 'grandmaster'")
    child.sendline("Robo=bot:medium")
    child.expect(r"Preset \[1-4, Enter = 1\] ")
    child.sendline("")
    child.expect(r"Match format \[1-4, Enter = 1\] ")  # two players: no tournament
    child.sendline("3")  # rounds:N
    child.expect(r"How many rounds\? \[1-1000, Enter = 3\] ")
    child.sendline("three")
    child.expect("Please type a whole number from 1 to 1000.")
    child.sendline("3")
    child.expect(r"Stakes \[1-3, Enter = 1\] ")
    child.sendline("3")  # pot: ante and starting chips are asked
    child.expect(r"Chips each player antes per round\? \[1-1000, Enter = 1\] ")
    child.sendline("0")
    child.expect("0 is out of range: type a number from 1 to 1000.")
    child.sendline("2")
    child.expect(r"Chips each player starts with\? \[2-1000000, Enter = 10\] ")
    child.sendline("1")
    child.expect("1 is out of range")
    child.sendline("")
    child.expect(r"Drinking \[1-5, Enter = 1\] ")
    child.sendline("3")  # all_but_winner
    child.expect(r"Tie-break \[1-3, Enter = 1\] ")
    child.sendline("")
    child.expect(r"Who starts \[1-3, Enter = 1\] ")
    child.sendline("")
    child.expect("More options as KEY=VALUE")
    child.sendline("half_cargo=maybe")
    child.expect("half_cargo must be true or false, got 'maybe'")
    child.sendline("cargo_rerolls=1")
    child.expect(
        r"Rules: classic\(cargo_rerolls=1,stakes=pot,ante=2,drinking=all_but_winner,"
        r"format=rounds:3\)"
    )
    child.expect("More options as KEY=VALUE")
    child.sendline("")
    out = answer_menus(child, lambda screen, n: "1", END)
    _finish(child)
    assert "Robo (medium)" in out and "Round 3:" in out and "sips" in out and "chips" in out
    m = MatchLog.load(log)
    assert m.players == ["Anna", "Robo"] and m.kinds == ["human", "bot:medium"]
    assert replay(m).is_over


def test_bad_flags_fail_with_one_line(tmp_path: Path) -> None:
    for args, message in [
        (["play", "-p", "Anna", "-p", "bot:nobody"], "unknown bot 'nobody'"),
        (["play", "-p", "Anna", "-p", "Bo", "--format", "forever"], "unknown match format"),
        (["play", "-p", "Anna", "-p", "Anna"], "two players are called 'anna'"),
        (["play", "-p", "Anna", "-p", "Bo", "--lang", "fr"], "unknown language 'fr'"),
        (
            ["play", "-p", "Anna", "-p", "Bo", "--rules", "classic", "--starter", "9"],
            "--starter 9: give a seat number 1-2",
        ),
    ]:
        child = spawn([*args, "--log", str(tmp_path / "x.jsonl")])
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 2, args
        assert message in child.before, (args, child.before)
        assert "Traceback" not in child.before


def test_solo_practice_shows_the_score_to_reach(tmp_path: Path) -> None:
    log = tmp_path / "solo.jsonl"
    child = spawn([*_play_args(find_rules("classic"), ["Solo"], 3, log), "--target", "7"])
    child.expect("To reach: 7")
    out = answer_menus(child, lambda screen, n: "1", END)
    _finish(child)
    assert "Solo scores" in out or "no full crew" in out
    assert MatchLog.load(log).players == ["Solo"]
    bad = spawn([*_play_args(find_rules("classic"), ["Solo"], 3, log), "--target", "15"])
    bad.expect(pexpect.EOF)
    bad.close()
    assert bad.exitstatus == 2 and "target must be 2..12, got 15" in bad.before


def test_bots_say_why_in_the_games_words(tmp_path: Path) -> None:
    # Solver bots quote the solver's numbers for their choice and the best other one; no
    # engine notation (take:154, reroll:keep6) reaches the screen, in any language.
    for lang, expects, wins in [
        ("en_GB.UTF-8", "expects", "of the time"),
        ("de_DE.UTF-8", "erwartet", "der Fälle"),
    ]:
        child = spawn(
            [
                "play",
                "-p",
                "Eva=bot:hard",
                "-p",
                "Opti=bot:perfect",
                "-p",
                "Tim=bot:easy",
                "--rules",
                "classic",
                "--set",
                "format=rounds:3",
                "--set",
                "half_cargo=true",
                "--seed",
                "12",
                "--fast",
                "--log",
                str(tmp_path / "bots.jsonl"),
            ],
            lang=lang,
        )
        child.expect(pexpect.EOF)
        out = child.before
        child.close()
        assert child.exitstatus == 0 and "Traceback" not in out
        reasons = [line for line in out.splitlines() if " - " in line]
        assert any(line.startswith("Eva:") and expects in line for line in reasons), out
        assert any(line.startswith("Opti:") and wins in line for line in reasons), out
        assert not re.search(r"take:\d|reroll:keep|seat \d", out)
