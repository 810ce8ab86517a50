"""``scc rules``: the rules text follows the options, in three languages, with the solver's notes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from typer.testing import CliRunner

from shipcaptaincrew.cli.app import app
from shipcaptaincrew.cli.commands.rules import solver_notes
from shipcaptaincrew.i18n import translator
from shipcaptaincrew.i18n.rules_text import SolverNotes, rules_text, rules_title
from shipcaptaincrew.rules import PRESET_DESCRIPTIONS, PRESET_TITLES, PRESETS, Rules, find_rules
from tests.strategies import rule_sets

runner = CliRunner()


def test_preset_descriptions_are_in_the_catalogues() -> None:
    # The titles of the sheets' presets are their own names in every language; "classic" is ours.
    for desc in [*PRESET_DESCRIPTIONS.values(), PRESET_TITLES["classic"]]:
        assert translator("de")(desc) != desc
        assert translator("nb")(desc) != desc


def test_classic_rules_name_every_part_of_the_game() -> None:
    text = rules_text(find_rules("classic"))
    for part in (
        "a ship (6), a captain (5) and a crew (4)",
        "up to 3 rolls",
        "Without a full crew after 3 rolls you score 0",
        "cargo. Your score is their sum, from 2 to 12.",
        "With 1 roll left you could gamble on the cargo.",
        "cargo",
        "score 0",
        "only the tied players play new full turns",
        "the round is played again",
        "points only",
        "One round",
        "the next player in play order",
        "everyone rolls one die",
    ):
        assert part in text, part
    assert "Variants in play" not in text


@pytest.mark.parametrize(
    ("changes", "present", "absent"),
    [
        (
            {"bow_to_stern": True},
            ["a ship (1), a captain (2) and a crew (3)", "Bow to stern", "cargo is 4 + 6 = 10"],
            ["a ship (6)"],
        ),
        ({"wild_captain": True}, ["Wild captain", "a rolled 1 may stand"], []),
        ({"wild_captain": True, "wild_face": 2}, ["a rolled 2 may stand"], []),
        ({"half_cargo": True}, ["Shifting cargo"], []),
        ({"same_roll_bonus": 3}, ["earn 3 extra points"], []),
        ({"cargo_rerolls": 1}, ["at most once per turn"], []),
        ({"cargo_rerolls": 0}, ["may not be rerolled"], ["reroll both cargo dice"]),
        (
            {"tie_break": "cargo_rolloff"},
            ["rolls their 2 cargo dice once more; the higher sum"],
            ["new full turns"],
        ),
        # The cup's dice: every count in the text is the rule set's (dice=4: a cargo of one).
        (
            {"dice": 4, "tie_break": "cargo_rolloff"},
            [
                "4 ordinary dice",
                "the other die of that roll is the cargo. Your score is its face, from 1 to 6",
                "reroll the cargo die;",
                "Example: you roll 6 5 3 3 and keep the 6 and the 5. Your second roll, with 2 "
                "dice, shows 4 2: the 4 completes the crew and the cargo is 2.",
                "rolls their cargo die once more; the higher face wins",
            ],
            ["2 + 6", "from 2 to 12", "cargo dice", "Five", "both"],
        ),
        (
            {"dice": 6, "half_cargo": True, "tie_break": "cargo_rolloff"},
            [
                "6 ordinary dice",
                "the other 3 dice of that roll are the cargo. Your score is their sum, from 3 "
                "to 18",
                "reroll the 3 cargo dice;",
                "Your second roll, with 4 dice, shows 4 2 6 1: the 4 completes the crew and the "
                "cargo is 2 + 6 + 1 = 9.",
                "leave one of the cargo dice lying and roll just the other 2.",
                "rolls their 3 cargo dice once more",
            ],
            ["from 2 to 12", "Five", "both", "the other die"],
        ),
        ({"all_fail": "carry_pot"}, ["the pot stays"], ["played again"]),
        ({"starter": "chosen"}, ["the table chooses"], ["everyone rolls one die"]),
        ({"rotation": "right"}, ["right-hand neighbour"], []),
        ({"rotation": "none"}, ["The same player starts every round"], []),
        (
            {"stakes": "pot", "ante": 2, "starting_chips": 20},
            ["starts with 20 chips and antes 2"],
            ["points only"],
        ),
        ({"drinking": "all_but_winner"}, ["Everyone except the round's winner"], []),
        (
            {"drinking": "last_drinks", "failed_double": True},
            ["Only the lowest score drinks", "drinks double"],
            [],
        ),
        ({"drinking": "captain_hands_out"}, ["The captain hands out"], []),
        ({"format": "rounds:5"}, ["5 rounds"], ["One round"]),
        ({"format": "first_to:50"}, ["reaches 50"], []),
        ({"format": "tournament"}, ["two preliminary rounds"], []),
        ({"tie_break": "round"}, ["play a new round among themselves"], ["new full turns"]),
        ({"tie_break": "no_winner"}, ["One tie, all tie", "not in the sheets"], []),
        ({"rotation": "previous"}, ["right-hand neighbour"], []),
        ({"rotation": "loser"}, ["lowest score of a round starts the next one"], []),
        ({"stakes": "pot"}, ["The round's winner takes the pot"], ["whole match"]),
        (
            {"stakes": "pot", "pot_to": "match"},
            ["the match winner takes all of it (002.28)"],
            ["The round's winner takes the pot"],
        ),
        (
            {"drinking": "captain_hands_out", "hand_out": "up_to"},
            ["they may stop early"],
            ["every sip the die shows"],
        ),
        ({"drinking": "captain_hands_out"}, ["every sip the die shows"], ["stop early"]),
        ({"format": "wins:2"}, ["The first player to win 2 rounds wins the match"], []),
        ({"format": "wins:1"}, ["The first player to win a round wins the match"], []),
        ({"format": "session"}, ["calls another round or stops"], ["One round"]),
    ],
)
def test_each_option_changes_the_text(
    changes: dict[str, object], present: list[str], absent: list[str]
) -> None:
    text = rules_text(find_rules("classic").replace(**changes))
    for p in present:
        assert p in text, p
    for a in absent:
        assert a not in text, a


def test_the_stakes_sentence_follows_pot_to_and_the_format_002_22_002_28_002_30() -> None:
    """The pot is said to go one way only: to the round's winner (002.22), to the match
    winner (002.28), or in the tournament to the final's winner (002.30)."""
    base = find_rules("ship-captain-crew")
    tournament = rules_text(base.replace(format="tournament"))
    assert "the final's winner takes all of it" in tournament
    assert "The round's winner takes the pot" not in tournament
    for pot_to in ("round", "match"):
        text = rules_text(base.replace(format="tournament", pot_to=pot_to))
        assert text.count("takes all of it") == 1 and "winner takes all." not in text
    assert "pot" not in rules_text(find_rules("classic")).split("## Stakes")[1].split("##")[0]


def test_every_preset_reads_in_every_language() -> None:
    for rules in PRESETS.values():
        en = rules_text(rules, translator("en"))
        de = rules_text(rules, translator("de"))
        nb = rules_text(rules, translator("nb"))
        assert de.startswith("# " + rules_title(rules, translator("de"))) and "Ladung" in de
        assert nb.startswith("# " + rules_title(rules, translator("nb"))) and "last" in nb
        assert len({en, de, nb}) == 3
        assert en.count("\n") == de.count("\n") == nb.count("\n")


def test_the_solver_notes_come_from_the_solver() -> None:
    # Best expected score: with one roll left a cargo below the mean of two dice (7) is worth
    # rerolling; with two left the option value lifts the bar to 7 (E = 7 + 35/36 > 7).
    notes = solver_notes(find_rules("classic"))
    assert notes == SolverNotes(((1, 6), (2, 7)))
    text = rules_text(find_rules("classic"), None, notes)
    assert "The solver disagrees in part" in text
    assert "with 1 roll left it rerolls a cargo of 6 or less; with 2 rolls left it" in text
    agree = rules_text(find_rules("classic"), None, SolverNotes(((1, 6), (2, 6))))
    assert "The solver agrees: for the best average score it rerolls a cargo of 6" in agree


@pytest.mark.parametrize(
    ("notes", "expected"),
    [
        (SolverNotes(((1, None), (2, None))), "it never rerolls the cargo under these rules"),
        (
            SolverNotes(((1, None), (2, 8))),
            "with 1 roll left it never rerolls the cargo; with 2 rolls left it rerolls a "
            "cargo of 8 or less.",
        ),
        (
            SolverNotes(((1, 9), (2, None))),
            "with 1 roll left it rerolls a cargo of 9 or less; with 2 rolls left it never "
            "rerolls the cargo.",
        ),
    ],
)
def test_a_solver_that_never_rerolls_is_said_in_whole_sentences(
    notes: SolverNotes, expected: str
) -> None:
    # Once "never" was slotted into "{n} or less", printing "of never or less".
    for lang in ("en", "de", "nb"):
        text = rules_text(find_rules("classic"), translator(lang), notes)
        assert "never or less" not in text and "{" not in text
    assert expected in rules_text(find_rules("classic"), None, notes)


def test_same_roll_bonus_positions_still_get_the_solvers_verdict() -> None:
    # The two-rolls-left position always carries the same-roll bonus; skipping such positions
    # made the note claim the solver never rerolls with two rolls left.
    notes = solver_notes(find_rules("classic").with_settings(["same_roll_bonus=2"]))
    assert notes is not None and [left for left, _ in notes.reroll_up_to] == [1, 2]
    assert all(cargo is not None for _, cargo in notes.reroll_up_to)


def test_without_cargo_rerolls_the_reroll_tips_do_not_apply() -> None:
    rules = find_rules("classic").with_settings(["cargo_rerolls=0"])
    text = rules_text(rules, None, solver_notes(rules))
    assert text.count("the cargo is never rerolled, so this tip does not apply") == 2
    assert "The solver disagrees" not in text


def test_scc_rules_command() -> None:
    result = runner.invoke(
        app, ["rules", "skip", "--set", "half_cargo=true", "--lang", "nb", "--plain"]
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith("# Skip, kaptein og mannskap · halv last")
    assert "Halv last" in result.output and "50" in result.output
    bad = runner.invoke(app, ["rules", "yahtzee"])
    assert bad.exit_code == 2 and "unknown preset 'yahtzee'" in bad.output
    bad = runner.invoke(app, ["rules", "--lang", "tlh"])
    assert bad.exit_code == 2 and "unknown language 'tlh'" in bad.output


def test_the_rendered_rules_text_has_no_padding() -> None:
    """What a person copies or pipes: the words, every line ending where its text ends (Rich
    padded each line with blanks to the terminal's width)."""
    result = runner.invoke(
        app, ["rules", "ship-captain-crew", "--lang", "de"], env={"COLUMNS": "90"}
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "Schiff" in result.output and len(lines) > 40
    assert [line for line in lines if line != line.rstrip()] == []


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    """``scc rules --lang`` switches the process's language; later tests expect English."""
    from shipcaptaincrew.i18n import use

    yield None
    use("en")


@pytest.mark.parametrize(
    ("lang", "four", "six"),
    [
        (
            "de",
            ["ist der übrige Würfel dieses Wurfs die Ladung", "wirfst den Ladungswürfel erneut"],
            ["sind die übrigen 3 Würfel dieses Wurfs die Ladung", "von 3 bis 18"],
        ),
        (
            "nb",
            ["er den siste terningen i det kastet lasten", "kaste lastterningen igjen"],
            ["er de 3 andre terningene i det kastet lasten", "fra 3 til 18"],
        ),
    ],
)
def test_the_cup_is_counted_in_each_language(lang: str, four: list[str], six: list[str]) -> None:
    """One cargo die is said in the singular, three in the plural, from the catalogue."""
    tr = translator(lang)
    text4 = rules_text(find_rules("classic").replace(dice=4), tr)
    text6 = rules_text(find_rules("classic").replace(dice=6), tr)
    for words in four:
        assert words in text4, words
    for words in six:
        assert words in text6, words
    assert "{" not in text4 + text6


def test_the_rendered_rules_are_not_padded() -> None:
    """The rendered text (not --plain) ends each line at its last word, not at the width."""
    result = runner.invoke(app, ["rules", "--set", "dice=6", "--lang", "de"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any("Würfel" in line for line in lines)
    assert [line for line in lines if line != line.rstrip()] == []


@settings(max_examples=60, deadline=None)
@given(rules=rule_sets())
def test_every_rule_set_has_its_text_in_every_language(rules: Rules) -> None:
    """Whatever the options (a wild face among the example's dice, a cup of four or six), the
    text is whole in each language and its worked example is played by the engine."""
    for lang in ("en", "de", "nb"):
        text = rules_text(rules, translator(lang))
        assert "{" not in text and "}" not in text.replace("`", "")
