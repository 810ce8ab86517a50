"""``scc play`` driven through a pseudo-terminal with scripted keys and seeded dice.

Each test first plays the same match through the engine (tests/tui_driver.py) to find a seed
that produces the situation under test, then plays it at the terminal and checks both what the
screen said and that the event log replays to the very state the engine reached offline.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from shipcaptaincrew.actions import HandOut, RerollCargo, Take
from shipcaptaincrew.cli.terminal.option_words import option_line
from shipcaptaincrew.engine import check_players
from shipcaptaincrew.errors import GameError
from shipcaptaincrew.facts import MAX_PLAYERS, MIN_PLAYERS
from shipcaptaincrew.formats import FORMAT_KINDS, FormatKind, MatchFormat
from shipcaptaincrew.i18n import translator
from shipcaptaincrew.i18n.rules_text import rules_title
from shipcaptaincrew.notation import MatchLog, replay
from shipcaptaincrew.options import OPTIONS, Option, OptionType
from shipcaptaincrew.rules import Rules, find_rules
from shipcaptaincrew.state import TurnPhase

from .tui_driver import (
    OPTIONS_MENU,
    PRESET_HINT,
    answer,
    answer_menus,
    find_seed,
    finish,
    format_hint,
    human_decisions,
    menu_number,
    number_hint,
    options_hint,
    play_offline,
    set_option,
    spawn,
)

END = "Replay it with: scc replay"


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
    finish(child)
    assert "Roll-off: the highest die starts" in out
    assert re.search(r"Tie between \w+, \w+ at \d+: a tie-break by turn decides the round", out)
    assert re.search(r"\w+ (scores \d+|has no full crew) in the tie-break", out)
    assert re.search(r"Round \d: \w+ wins the tie-break; the round's score of \d+ counts", out)
    assert "tie-break turn" in out
    for n in (1, 2, 3):
        assert f"Round {n}:" in out
    assert "Bot 3 (tip)" in out
    assert "Final standings" in out and "wins the match!" in out
    assert "[6]" in out and "rolls left:" in out  # the dice are on screen
    for n in (1, 2, 3):  # each round's opener is said once (by the engine's narration)
        assert out.count(f"starts round {n}.") == 1, n
    # The board is drawn when it changes -- once a round and once a tie-break -- not before
    # every turn, and its legend says what the markers mean.
    boards = out.count("▶ plays now")
    assert 3 <= boards <= 3 + sum(r.tie_breaks for r in offline.state.results), boards
    assert boards < out.count("'s turn") + out.count("'s tie-break turn")
    assert "★ started the round" in out
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
    # The menu takes the actions' notation too, so the complaint names it.
    child.expect(
        "'stand please' is not an answer here: type a number from 1 to 2 or stand, reroll."
    )
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
    finish(child)
    assert "Traceback" not in child.before
    m = MatchLog.load(log)
    assert m.events and not replay(m).is_over  # the log so far, and it replays
    assert m.kinds == ["human", "bot:easy"]


def test_a_decision_takes_the_actions_notation_too(tmp_path: Path) -> None:
    rules = find_rules("classic")
    seats: list[str | None] = [None, "timid"]
    seed = find_seed(rules, seats, lambda g: len(human_decisions(g, seats)) >= 1)
    child = spawn(_play_args(rules, ["Anna", "bot:timid"], seed, tmp_path / "n.jsonl"))
    child.expect(r"stand or reroll the cargo\? \[1-2, \?\] ")
    child.sendline("reroll:keep6")  # no half cargo: not among the choices
    child.expect(
        "'reroll:keep6' is not an answer here: type a number from 1 to 2 or stand, reroll."
    )
    child.sendline("reroll")
    child.expect("Anna rerolls both cargo dice.")
    child.sendline("q")
    child.expect("Match ended early")
    finish(child)


def test_a_person_rolls_with_enter(tmp_path: Path) -> None:
    # Without --fast nothing rolls on its own: each roll waits for Enter.
    log = tmp_path / "enter.jsonl"
    args = ["play", "-p", "Anna", "-p", "Bo", "--rules", "classic", "--seed", "1"]
    child = spawn([*args, "--log", str(log)])
    child.expect(r"Anna: press Enter to roll the die\. ")
    child.sendline("x")
    child.expect(r"Press Enter to roll \(q ends the match\)\.")
    child.expect(r"Anna: press Enter to roll the die\. ")
    assert "rolls" not in child.before.split("Press Enter")[0]  # nothing rolled yet
    child.sendline("")
    child.expect(r"Anna rolls \d to decide who starts\.")
    child.expect(r"Bo: press Enter to roll the die\. ")
    child.sendline("")
    child.expect(r"Bo rolls \d to decide who starts\.")
    child.expect(r"(Anna|Bo): press Enter to roll (the die|5 dice)\. ")
    child.sendline("q")
    child.expect("Match ended early")
    finish(child)
    assert [e["type"] for e in MatchLog.load(log).events] == ["roll", "roll"]


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
            r"│ (stand \(score \d+\)|reroll both cargo dice)\s*│\s+(\d+\.\d)\s%"
            r"\s*│\s+(\d+\.\d\d)",
            child.before,
        )
        assert sorted(r[0][:5] for r in rows) == ["rerol", "stand"], child.before
        assert float(rows[0][1]) >= float(rows[1][1])
    child.sendline("q")
    child.expect("Match ended early")
    finish(child)


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
    finish(child)
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
    finish(child)
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
    finish(child)
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
                "Kast om start",
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
    finish(child)
    for w in words:
        assert w in out, w
    assert "Roll-off" not in out and "rolls left" not in out


def test_set_up_dialogue_asks_for_what_the_flags_leave_out(tmp_path: Path) -> None:
    log = tmp_path / "dialogue.jsonl"
    child = spawn(["play", "--seed", "4", "--fast", "--log", str(log)])
    lo, hi = MIN_PLAYERS, MAX_PLAYERS
    child.expect(rf"How many players\? \[{lo}-{hi}, Enter = 3\] ")
    child.sendline("lots")
    child.expect(f"Please type a whole number from {lo} to {hi}.")
    child.sendline(str(hi + 4))
    child.expect(f"{hi + 4} is out of range: type a number from {lo} to {hi}.")
    child.sendline("2")
    child.expect(r"Name of player 1 .*: ")
    child.sendline("Anna")
    child.expect(r"Name of player 2 .*: ")
    child.sendline("anna")
    child.expect("'anna' is already at the table")
    child.sendline("bot:grandmaster")
    child.expect("unknown bot 'grandmaster'")
    child.sendline("Robo=bot:medium")
    child.expect(r"Preset " + PRESET_HINT)
    child.sendline("")
    child.expect("Rules: Classic 6-5-4")
    child.expect(OPTIONS_MENU)
    child.sendline(menu_number(child.before, "Match format:"))
    child.expect(r"Match format " + format_hint(1))
    child.sendline(menu_number(child.before, "tournament: "))  # two players: refused
    child.expect("the tournament \\(002.29\\) needs at least 3 players for a final of two")
    child.expect(r"Match format " + format_hint(1))
    child.sendline(menu_number(child.before, "a number of rounds"))
    rounds = FORMAT_KINDS[FormatKind.ROUNDS].bounds
    assert rounds is not None
    child.expect(
        rf"a number of rounds, highest total wins: N \[{rounds[0]}-{rounds[1]}, Enter = 3\] "
    )
    child.sendline("three")
    child.expect(f"Please type a whole number from {rounds[0]} to {rounds[1]}.")
    child.sendline("3")
    child.expect("Rules: Classic 6-5-4 · 3 rounds")
    set_option(child, OPTIONS["stakes"], "pot")
    child.expect(OPTIONS_MENU)
    child.sendline(menu_number(child.before, "Ante:"))
    ante = OPTIONS["ante"]
    child.expect(r"Ante " + number_hint(ante, "1"))
    child.sendline(str(ante.bounds[0] - 1))
    child.expect(
        f"{ante.bounds[0] - 1} is out of range: type a number from {ante.bounds[0]} to "
        f"{ante.bounds[1]}."
    )
    child.sendline("2")
    child.expect(OPTIONS_MENU)
    child.sendline(menu_number(child.before, "Starting chips:"))
    chips = number_hint(OPTIONS["starting_chips"], "10")
    child.expect(r"Starting chips " + chips)
    child.sendline("1")  # fewer chips than the ante: the rule set refuses, the question stays
    child.expect("starting_chips=1 is less than ante=2: nobody could ante the first round")
    child.expect(r"Starting chips " + chips)
    child.sendline("")
    set_option(child, OPTIONS["drinking"], "all_but_winner")
    child.expect(OPTIONS_MENU)
    child.sendline(menu_number(child.before, "Cargo rerolls:"))
    rerolls = OPTIONS["cargo_rerolls"]
    child.expect(r"Cargo rerolls " + number_hint(rerolls, "no limit"))
    child.sendline("maybe")
    child.expect(f"Please type a whole number from {rerolls.bounds[0]} to {rerolls.bounds[1]}.")
    child.sendline("1")
    child.expect(
        "Rules: Classic 6-5-4 · 3 rounds · pot · ante 2 · all but the winner sip · "
        "cargo rerolled at most once"
    )
    child.expect(OPTIONS_MENU)
    child.sendline("")
    out = answer_menus(child, lambda screen, n: "1", END)
    finish(child)
    assert "Robo (medium)" in out and "Round 3:" in out and "sips" in out and "chips" in out
    m = MatchLog.load(log)
    assert m.players == ["Anna", "Robo"] and m.kinds == ["human", "bot:medium"]
    assert m.rules == (
        "classic(cargo_rerolls=1,stakes=pot,ante=2,drinking=all_but_winner,format=rounds:3)"
    )
    assert replay(m).is_over


#: Option -> the value another option needs of it (``pot_to`` needs ``stakes=pot``), tried first.
_NEEDED = {o.requires[0]: o.requires[1] for o in OPTIONS.values() if o.requires is not None}


def _candidates(option: Option, current: Any) -> list[Any]:
    """Values other than ``current`` to try for an option, as a player might pick them."""
    if option.kind is OptionType.FLAG:
        return [not current]
    if option.kind is OptionType.CHOICE:
        values = [c.value for c in option.choices if c.value != option.text(current)]
        return sorted(values, key=lambda v: v != _NEEDED.get(option.name))
    if option.kind is OptionType.NUMBER:
        lo, hi = option.bounds
        values: list[Any] = [hi, *range(lo, min(hi, lo + 10) + 1)]
        if option.unlimited:
            values.append(None)
        return [v for v in values if v != current]
    return [
        MatchFormat(kind, spec.default_n if spec.bounds else 0)
        for kind, spec in FORMAT_KINDS.items()
        if kind is not current.kind
    ]


Step = tuple[Option, Any, list[tuple[Option, Any]]]


def _a_change_for_every_option(players: int) -> tuple[Rules, list[Step]]:
    """A value for each option of the table that the rule set accepts after the ones before,
    with the answers to the options a change brings into play and asks at once.

    An option refused at first (wild captain on a required face) is tried again once the
    others are set, and with a value for each option it brings into play (the wild face).
    """
    rules, steps, pending = find_rules("classic"), [], list(OPTIONS.values())
    for _pass in range(2):
        later = []
        for option in pending:
            step = _a_change(rules, option, players)
            if step is None:
                later.append(option)
                continue
            rules = step[0]
            steps.append(step[1])
        pending = [o for o in later if o.name not in {d.name for _, _, f in steps for d, _ in f}]
    assert not pending, pending
    return rules, steps


def _a_change(rules: Rules, option: Option, players: int) -> tuple[Rules, Step] | None:
    for value in _candidates(option, getattr(rules, option.name)):
        brought = [o for o in OPTIONS.values() if o.requires == (option.name, option.text(value))]
        tries: list[list[tuple[Option, Any]]] = [[]]
        tries += [[(o, v)] for o in brought for v in _candidates(o, getattr(rules, o.name))]
        for follow in tries:
            try:
                changed = rules.replace(**{option.name: value}, **{o.name: v for o, v in follow})
                check_players(changed, players)
            except GameError:
                continue
            return changed, (option, value, follow)
    return None


def test_the_dialogue_reaches_every_option_of_the_table(tmp_path: Path) -> None:
    expected, steps = _a_change_for_every_option(2)
    assert {o.name for o, _value, _then in steps} | {
        d.name for _, _, then in steps for d, _ in then
    } == set(OPTIONS)
    log = tmp_path / "every.jsonl"
    child = spawn(["play", "-p", "Anna", "-p", "Bo", "--seed", "1", "--fast", "--log", str(log)])
    child.expect(r"Preset " + PRESET_HINT)
    child.sendline("1")
    for option, value, then in steps:
        set_option(child, option, value, then)
    child.expect("Rules: " + re.escape(rules_title(expected, translator("en"))))
    child.expect(OPTIONS_MENU)
    for option in OPTIONS.values():  # each line shows the new value in words
        line = option_line(option, getattr(expected, option.name), translator("en"))
        assert line in child.before, (line, child.before)
    child.sendline("")
    child.expect(r"Who starts \(002: for example the youngest\)\? \[1-2\] ")
    child.sendline("2")
    child.expect("Bo starts round 1.")
    child.expect(r"\[1-\d+(, \?)?\] ")
    child.sendline("q")
    child.expect("Match ended early")
    finish(child)
    assert MatchLog.load(log).rules == str(expected)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_refused_combination_is_said_in_the_language_and_asked_again(
    tmp_path: Path, lang: str
) -> None:
    tr = translator(lang)
    with pytest.raises(GameError) as refused:
        find_rules("classic").replace(bow_to_stern=True, wild_captain=True)
    child = spawn(
        ["play", "-p", "Anna", "-p", "Bo", "--lang", lang, "--log", str(tmp_path / "r.jsonl")]
    )
    child.expect(re.escape(tr("Preset")) + " " + PRESET_HINT)
    child.sendline("")
    wild = OPTIONS["wild_captain"]
    question = re.escape(tr(wild.label)) + r" \[1-2, Enter = 2\] "
    for option in (OPTIONS["bow_to_stern"], wild):
        child.expect(options_hint(find_rules("classic"), tr("start")))
        child.sendline(menu_number(child.before, tr(option.label) + ":"))
        child.expect(re.escape(tr(option.label)) + r" \[1-2, Enter = 2\] ")
        child.sendline(menu_number(child.before, tr("yes"), whole=True))
    # A wild captain brings the wild face into play: it is asked at once, and the face it
    # keeps (1) is one of the roles' under bow to stern.
    face = OPTIONS["wild_face"]
    child.expect(re.escape(tr(face.label)) + r" \[[^\]]+, " + re.escape(tr("Enter = {n}")[:-3]))
    child.sendline("")
    child.expect_exact(refused.value.render(tr))
    child.expect(question)  # the same question again; Enter keeps it off
    child.sendline("")
    child.expect(re.escape(tr("Rules: {rules}").format(rules="")))
    child.expect(options_hint(find_rules("classic"), tr("start")))
    assert tr("Wild captain") + ": " + tr("no") in child.before
    assert tr(face.label) + ":" not in child.before  # no wild face without a wild captain
    child.sendline(menu_number(child.before, tr(wild.label) + ":"))
    child.expect(question)
    child.sendline(menu_number(child.before, tr("yes"), whole=True))
    child.expect(re.escape(tr(face.label)) + r" \[")
    child.sendline("4")  # together with a face no role needs: accepted
    both = find_rules("classic").replace(bow_to_stern=True, wild_captain=True, wild_face=4)
    child.expect(options_hint(both, tr("start")))
    assert tr(face.label) + ": 4" in child.before
    child.sendline("q")
    finish(child)


def test_bad_flags_fail_with_one_line(tmp_path: Path) -> None:
    for args, message in [
        (["play", "-p", "Anna", "-p", "bot:nobody"], "unknown bot 'nobody'"),
        (["play", "-p", "Anna", "-p", "Bo", "--format", "forever"], "unknown match format"),
        (["play", "-p", "Anna", "-p", "Anna"], "two players are called 'Anna'"),
        (["play", "-p", "Anna", "-p", "Bo", "--lang", "fr"], "unknown language 'fr'"),
        (
            ["play", "-p", "Anna", "-p", "Bo", "--rules", "classic", "--starter", "9"],
            "--starter 9: give a seat number 1-2",
        ),
        # A bad --starter is refused before the dialogue asks anything.
        (["play", "-p", "Anna", "-p", "Bo", "--starter", "Cy"], "--starter Cy: give a seat"),
        (["play", "--starter", "9"], "--starter 9: give a seat number 1-8"),
        (["play", "-p", "Anna", "-p", "Bo", "--format", "tournament"], "needs at least 3 players"),
        (["play", "--lang", "de", "-p", "Anna", "-p", "bot:nobody"], "unbekannter Bot „nobody“"),
    ]:
        out = finish(spawn([*args, "--log", str(tmp_path / "x.jsonl")]), 2)
        assert message in out, (args, out)
        assert "?" not in out, out  # no question was asked


def test_solo_practice_shows_the_score_to_reach(tmp_path: Path) -> None:
    log = tmp_path / "solo.jsonl"
    child = spawn([*_play_args(find_rules("classic"), ["Solo"], 3, log), "--target", "7"])
    child.expect("To reach: 7")
    out = answer_menus(child, lambda screen, n: "1", END)
    finish(child)
    assert "Solo scores" in out or "no full crew" in out
    assert MatchLog.load(log).players == ["Solo"]
    bad = spawn([*_play_args(find_rules("classic"), ["Solo"], 3, log), "--target", "15"])
    assert "target must be 2..12, got 15" in finish(bad, 2)


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
        out = finish(child)
        reasons = [line for line in out.splitlines() if " - " in line]
        assert any(line.startswith("Eva:") and expects in line for line in reasons), out
        assert any(line.startswith("Opti:") and wins in line for line in reasons), out
        assert not re.search(r"take:\d|reroll:keep|seat \d", out)


def test_the_tip_bot_gives_the_reason_it_acts_on(tmp_path: Path) -> None:
    # With a same-roll bonus the score can reach 7 while the cargo is below it: the tip bot
    # rerolls (it compares the cargo) and must not say "good enough" (which compared the score).
    rules = find_rules("classic").replace(same_roll_bonus=5)
    seats: list[str | None] = ["tip", "timid"]

    def low_cargo_high_score(g) -> bool:  # type: ignore[no-untyped-def]
        return any(
            s.turn is not None
            and s.contest.seat == 0
            and s.turn.phase is TurnPhase.DECIDE
            and s.turn.bonus
            and sum(s.turn.cargo) < 7 <= s.turn.score
            for s, _a in g.history
        )

    seed = find_seed(rules, seats, low_cargo_high_score)
    child = spawn([*_play_args(rules, ["bot:tip", "bot:timid"], seed, tmp_path / "t.jsonl")])
    out = finish(child)
    reasons = re.findall(r"^Bot 1: reroll both cargo dice - (.*)$", out, re.M)
    assert any(
        re.fullmatch(r"cargo [2-6] is below 7: worth another try\.\s*", r) for r in reasons
    ), out
    assert not re.search(r"Bot 1: reroll both cargo dice - .*good enough", out)


def test_the_dialogue_lists_only_the_options_that_apply(tmp_path: Path) -> None:
    """Playing for points, the ante and the starting chips are not asked; without a wild
    captain, the wild face is not; once a pot is chosen its ante and chips are."""
    child = spawn(["play", "-p", "Anna", "-p", "Bo", "--log", str(tmp_path / "o.jsonl")])
    child.expect(r"Preset " + PRESET_HINT)
    child.sendline("")
    child.expect(OPTIONS_MENU)
    listed = child.before
    for label in ("Ante:", "Starting chips:", "Wild face:", "Who takes the pot:"):
        assert label not in listed, (label, listed)
    for label in ("Dice in the cup: 5", "Stakes:", "Wild captain:", "Half cargo:"):
        assert label in listed, (label, listed)
    stakes = OPTIONS["stakes"]
    child.sendline(menu_number(listed, f"{stakes.label}:"))
    answer(child, stakes, "pot")
    child.expect(OPTIONS_MENU)
    for label in ("Ante: 1", "Starting chips: 10", "Who takes the pot:"):
        assert label in child.before, (label, child.before)
    child.sendline("q")
    finish(child)
