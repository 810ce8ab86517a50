"""Rule options, presets, aliases, the canonical text form and every refusal.

Sheets are cited by number: 000 German, 001 Norwegian, 002 English, 003 the English
translation of 000 (``docs/sources.md``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings

from shipcaptaincrew.facts import HOUSE_RULE
from shipcaptaincrew.formats import FORMAT_KINDS
from shipcaptaincrew.options import OPTIONS
from shipcaptaincrew.rules import (
    ALIASES,
    OPTION_DOCS,
    PRESETS,
    AllFail,
    Drinking,
    InvalidRulesError,
    MatchFormat,
    PotTo,
    Rotation,
    Rules,
    Stakes,
    Starter,
    TieBreak,
    find_rules,
    option_names,
    parse_assignment,
)
from tests.strategies import rule_sets

# -- presets and aliases --------------------------------------------------------------------


def test_classic_is_the_core_all_sheets_share() -> None:
    """000/001/002/003 agree on: 6-5-4 in order, free cargo rerolls, one round for points."""
    r = find_rules("classic")
    assert r == Rules()
    assert r.required_faces == (6, 5, 4)
    assert (r.half_cargo, r.bow_to_stern, r.wild_captain) == (False, False, False)
    assert r.cargo_rerolls is None and r.max_cargo_rerolls == 2
    assert r.same_roll_bonus == 0 and r.max_score == 12
    assert r.stakes is Stakes.POINTS and r.drinking is Drinking.NONE
    assert r.format == MatchFormat("single")
    assert r.tie_break is TieBreak.REPLAY


def test_schiff_kapitaen_crew_preset_000_003() -> None:
    """000/003: all but the winner sip; the right neighbour of the last starter starts next
    (the previous seat in play order, 000.17), and the rounds run on as a session (000.17)."""
    r = find_rules("schiff-kapitaen-crew")
    assert r.name == "schiff-kapitaen-crew"
    assert r.drinking is Drinking.ALL_BUT_WINNER
    assert r.rotation is Rotation.PREVIOUS
    assert r.format == MatchFormat("session")
    assert r.starter is Starter.ROLLOFF  # 000.6: a roll decides who begins
    assert r.tie_break is TieBreak.REPLAY  # 000.15: only the tied players play again


def test_skip_kaptein_mannskap_preset_001() -> None:
    """001.2, 001.18: points written down, first to 50; the chips version is one option away
    (001.16); ties replayed (001.17)."""
    r = find_rules("skip-kaptein-mannskap")
    assert r.stakes is Stakes.POINTS
    assert r.format == MatchFormat("first_to", 50)
    assert r.tie_break is TieBreak.REPLAY
    chips = r.replace(stakes="pot")
    assert str(chips) == "skip-kaptein-mannskap(stakes=pot)"
    assert chips.pot_to is PotTo.ROUND and chips.format == r.format


def test_ship_captain_crew_preset_002() -> None:
    """002: antes into a pot, a cargo roll-off for ties, an all-fail round carries the pot."""
    r = find_rules("ship-captain-crew")
    assert r.stakes is Stakes.POT and r.ante == 1
    assert r.tie_break is TieBreak.CARGO_ROLLOFF
    assert r.all_fail is AllFail.CARRY_POT


@pytest.mark.parametrize(
    ("alias", "preset"),
    [
        ("classic", "classic"),
        ("6-5-4", "classic"),  # 000.29, 001.19, 002.1
        ("destroyer", "classic"),  # 000.29/003.29
        ("clickety-clack", "classic"),  # 000.29/003.29
        ("Clickety Clack", "classic"),
        ("schiff-kapitaen-crew", "schiff-kapitaen-crew"),
        ("schiff-kapitän-crew", "schiff-kapitaen-crew"),
        ("skip-kaptein-mannskap", "skip-kaptein-mannskap"),
        ("ship-captain-crew", "ship-captain-crew"),
        ("ship-of-fools", "ship-captain-crew"),  # 002.1
        ("Ship of Fools", "ship-captain-crew"),
        ("captain-cook", "ship-captain-crew"),  # 002.1
        ("CAPTAIN_COOK", "ship-captain-crew"),
    ],
)
def test_presets_found_by_name_and_alias(alias: str, preset: str) -> None:
    """Aliases from the sheets find their preset, ignoring case, spaces and underscores."""
    assert find_rules(alias) is PRESETS[preset]
    assert find_rules(alias).name == preset


def test_every_alias_points_at_a_preset() -> None:
    assert set(ALIASES.values()) == set(PRESETS)
    for name in PRESETS:
        assert find_rules(name).name == name
        assert str(PRESETS[name]) == name  # a preset prints as its bare name


def test_unknown_preset_is_refused_naming_it_and_the_known_ones() -> None:
    with pytest.raises(InvalidRulesError, match=r"unknown preset 'yahtzee'; known: classic"):
        find_rules("yahtzee")
    with pytest.raises(InvalidRulesError, match="unknown preset 'foo'"):
        Rules(name="foo")


#: A sheet sentence as the sources cite it (``000.25``: sheet 000, sentence 25).
SHEET_SENTENCE = re.compile(r"00[0-3]\.[1-9]\d*")


def _cited(sources: tuple[str, ...]) -> bool:
    """Sources are sheet sentences, or a house rule that says where tables play it."""
    return bool(sources) and all(
        SHEET_SENTENCE.fullmatch(s) or (s.startswith(HOUSE_RULE) and len(s) > len(HOUSE_RULE) + 10)
        for s in sources
    )


def test_every_option_choice_and_format_cites_a_sheet_or_where_tables_play_it() -> None:
    """CONTRIBUTING's rule: every option, every choice and every match format kind cites the
    sheet sentences it comes from, or, a house rule no sheet has, says where tables play it."""
    assert set(OPTION_DOCS) == set(option_names())
    uncited = [o.name for o in OPTIONS.values() if not _cited(o.sources)]
    uncited += [
        f"{o.name}={c.value}" for o in OPTIONS.values() for c in o.choices if not _cited(c.sources)
    ]
    uncited += [f"format={k.value}" for k, spec in FORMAT_KINDS.items() if not _cited(spec.sources)]
    assert uncited == []
    # The sheets are the source of truth: a rule that cites no sheet at all must say so.
    assert not _cited(()) and not _cited(("house rule: ",)) and not _cited(("002",))


# -- options ----------------------------------------------------------------------------------


def test_bow_to_stern_collects_one_two_three() -> None:
    """000.26/003.26 (from behind, bow to stern): the roles are 1, 2 and 3 rather than 6, 5, 4."""
    assert Rules(bow_to_stern=True).required_faces == (1, 2, 3)


def test_cargo_rerolls_limit_and_max_score() -> None:
    """001 house rule: the cargo may be rerolled only once; the bonus raises the top score."""
    assert Rules(cargo_rerolls=1).max_cargo_rerolls == 1
    assert Rules(cargo_rerolls=0).max_cargo_rerolls == 0
    assert Rules(same_roll_bonus=3).max_score == 15


def test_enum_options_accept_their_text() -> None:
    text: dict[str, Any] = {  # text is accepted at run time (--set, JSON bodies)
        "tie_break": "cargo_rolloff",
        "all_fail": "carry_pot",
        "starter": "chosen",
        "rotation": "none",
        "stakes": "pot",
        "drinking": "last_drinks",
        "format": "rounds:5",
    }
    r = Rules(**text)
    assert r.tie_break is TieBreak.CARGO_ROLLOFF
    assert r.all_fail is AllFail.CARRY_POT
    assert r.starter is Starter.CHOSEN
    assert r.rotation is Rotation.NONE
    assert r.stakes is Stakes.POT
    assert r.drinking is Drinking.LAST_DRINKS
    assert r.format == MatchFormat("rounds", 5)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("half_cargo=yes", "half_cargo", True),
        ("half-cargo=off", "half_cargo", False),
        ("cargo_rerolls=none", "cargo_rerolls", None),
        ("cargo_rerolls=unlimited", "cargo_rerolls", None),
        ("cargo_rerolls=1", "cargo_rerolls", 1),
        ("same_roll_bonus=5", "same_roll_bonus", 5),
        ("format=first_to:50", "format", MatchFormat("first_to", 50)),
        ("tie_break = replay", "tie_break", "replay"),
    ],
)
def test_parse_assignment(text: str, key: str, value: object) -> None:
    assert parse_assignment(text) == (key, value)


def test_with_settings_applies_several_options_at_once() -> None:
    """Options combine freely: settings are validated together, not one at a time."""
    r = Rules().with_settings(["stakes=pot", "ante=5", "starting_chips=20"])
    assert (r.stakes, r.ante, r.starting_chips) == (Stakes.POT, 5, 20)
    # In one go this is fine, although ante=50 alone would be above the default stack.
    r = Rules().with_settings(["ante=50", "starting_chips=100", "stakes=pot"])
    assert r.ante == 50


def test_replace_keeps_the_preset_name_and_validates() -> None:
    r = find_rules("ship-captain-crew").replace(wild_captain=True, cargo_rerolls=1)
    assert r.name == "ship-captain-crew"
    assert str(r) == "ship-captain-crew(wild_captain=true,cargo_rerolls=1)"
    with pytest.raises(InvalidRulesError, match="unknown option 'colour'"):
        r.replace(colour="red")


# -- the canonical text form --------------------------------------------------------------------


def test_canonical_text_lists_only_changes_from_the_preset() -> None:
    r = find_rules("skip-kaptein-mannskap").replace(format="rounds:3", half_cargo=True)
    assert str(r) == "skip-kaptein-mannskap(half_cargo=true,format=rounds:3)"
    assert r.changed_options() == {"half_cargo": True, "format": "rounds:3"}
    assert Rules(cargo_rerolls=0).changed_options() == {"cargo_rerolls": 0}
    assert str(find_rules("classic").replace(stakes="pot")) == "classic(stakes=pot)"
    assert str(find_rules("ship-captain-crew").replace(stakes="points")) == (
        "ship-captain-crew(stakes=points)"
    )


def test_options_lists_every_option_as_text() -> None:
    opts = find_rules("ship-captain-crew").options()
    assert list(opts) == list(option_names())
    assert opts["tie_break"] == "cargo_rolloff" and opts["format"] == "single"
    assert opts["cargo_rerolls"] is None


def test_from_str_accepts_aliases_and_spaces() -> None:
    assert Rules.from_str(" classic ") == Rules()
    assert Rules.from_str("classic()") == Rules()
    assert Rules.from_str("6-5-4(wild_captain=true)") == Rules(wild_captain=True)
    assert find_rules("classic(half_cargo=true)") == Rules(half_cargo=True)


@settings(max_examples=300, deadline=None)
@given(rule_sets())
def test_canonical_text_round_trips_for_random_rule_sets(rules: Rules) -> None:
    """Any valid rule set prints to a text that reads back to an equal, equally hashed value."""
    text = str(rules)
    back = Rules.from_str(text)
    assert back == rules
    assert hash(back) == hash(rules)
    assert str(back) == text
    assert find_rules(text) == rules


@settings(max_examples=100, deadline=None)
@given(rule_sets())
def test_rules_are_frozen_and_hashable(rules: Rules) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.half_cargo = not rules.half_cargo  # type: ignore[misc]
    assert {rules: 1}[Rules.from_str(str(rules))] == 1


# -- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings_", "message"),
    [
        # unknown option / malformed
        (["colour=red"], r"unknown option 'colour'; known: dice, rolls, half_cargo, "),
        (
            ["dice=4", "half_cargo=true"],
            r"half_cargo needs two cargo dice or more: dice=4 leaves a cargo of one die",
        ),
        (["dice=7"], r"dice must be 4..6, got 7"),
        (["name=classic"], r"unknown option 'name'"),
        (["half_cargo"], r"option 'half_cargo' must look like KEY=VALUE"),
        # bad values
        (["half_cargo=maybe"], r"half_cargo must be true or false, got 'maybe'"),
        (["cargo_rerolls=5"], r"cargo_rerolls must be 0, 1, 2, 3, 4 or none, got 5"),
        (["cargo_rerolls=-1"], r"cargo_rerolls must be 0, 1, 2, 3, 4 or none, got -1"),
        (["rolls=1"], r"rolls must be 2..5, got 1"),
        (["rolls=6"], r"rolls must be 2..5, got 6"),
        (
            ["cargo_rerolls=3"],
            r"cargo_rerolls=3 is more than a turn of 3 rolls allows \(at most 2\)",
        ),
        (["rolls=2", "cargo_rerolls=2"], r"a turn of 2 rolls allows \(at most 1\)"),
        (["cargo_rerolls=x"], r"cargo_rerolls must be an integer, got 'x'"),
        (["wild_face=7"], r"wild_face must be a face 1..6, got 7"),
        (["wild_face=0"], r"wild_face must be a face 1..6, got 0"),
        (["same_roll_bonus=-1"], r"same_roll_bonus must be 0..100, got -1"),
        (["same_roll_bonus=101"], r"same_roll_bonus must be 0..100, got 101"),
        (["ante=0"], r"ante must be 1..1000, got 0"),
        (["ante=1.5"], r"ante must be an integer, got '1.5'"),
        (["starting_chips=-1"], r"starting_chips must be 0..1000000, got -1"),
        (["format=rounds:0"], r"rounds:N needs 1 <= N <= 1000, got 0"),
        (["format=rounds:1001"], r"rounds:N needs 1 <= N <= 1000, got 1001"),
        (["format=first_to:10001"], r"first_to:N needs 1 <= N <= 10000, got 10001"),
        (["format=first_to:x"], r"unknown match format 'first_to:x'"),
        (["format=league"], r"unknown match format 'league': use single, rounds:N"),
        (
            ["tie_break=coin"],
            r"tie_break='coin' is not one of: replay, cargo_rolloff, round, no_winner",
        ),
        (["all_fail=cry"], r"all_fail='cry' is not one of: replay, carry_pot"),
        (["starter=oldest"], r"starter='oldest' is not one of: rolloff, chosen"),
        (["rotation=up"], r"rotation='up' is not one of: next, previous, none, loser"),
        (["pot_to=match"], r"pot_to=match needs stakes=pot"),
        (["hand_out=up_to"], r"hand_out=up_to needs drinking=captain_hands_out"),
        (["format=wins:0"], r"wins:N needs 1 <= N <= 1000, got 0"),
        (["format=session:3"], r"the format session takes no number|unknown match format"),
        (["stakes=beer"], r"stakes='beer' is not one of: points, pot"),
        (["drinking=wine"], r"drinking='wine' is not one of: none, all_but_winner"),
        # conflicting combinations
        (
            ["wild_captain=true", "wild_face=5"],
            r"wild_face=5 is also a required face in the classic order \(6, 5, 4\)",
        ),
        (
            ["bow_to_stern=true", "wild_captain=true"],
            r"wild_face=1 is also a required face under bow_to_stern \(1, 2, 3\)",
        ),
        (
            ["stakes=pot", "starting_chips=0"],
            r"starting_chips=0 is less than ante=1: nobody could ante the first round",
        ),
        (["stakes=pot", "ante=20"], r"starting_chips=10 is less than ante=20"),
        (["failed_double=true"], r"failed_double needs a drinking mode"),
    ],
)
def test_every_refusal_names_the_problem(settings_: list[str], message: str) -> None:
    """Bad --set values are refused with an InvalidRulesError (a ValueError) naming the option."""
    with pytest.raises(InvalidRulesError, match=message):
        Rules().with_settings(settings_)
    text = "classic(" + ",".join(settings_) + ")"
    with pytest.raises(InvalidRulesError, match=message):
        Rules.from_str(text)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"half_cargo": 1}, "half_cargo must be true or false"),
        ({"failed_double": "yes"}, "failed_double must be true or false"),
        ({"cargo_rerolls": True}, "cargo_rerolls must be 0, 1, 2, 3, 4 or none, got True"),
        ({"wild_face": "1"}, "wild_face must be an integer, got '1'"),
        ({"same_roll_bonus": True}, "same_roll_bonus must be an integer, got True"),
        ({"starting_chips": None}, "starting_chips must be an integer, got None"),
        ({"tie_break": "coin"}, "tie_break='coin' is not one of"),
        ({"format": "x"}, "unknown match format 'x'"),
    ],
)
def test_direct_construction_refuses_bad_values(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidRulesError, match=message):
        Rules(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs",
    [
        lambda: {"format": MatchFormat("rounds", 0)},
        lambda: {"format": MatchFormat("league")},
        lambda: {"format": 5},
        lambda: {"tie_break": 3},
    ],
    ids=["rounds-0", "unknown-kind", "int-format", "int-enum"],
)
def test_direct_construction_refuses_bad_format_and_enum_objects(
    kwargs: Callable[[], dict[str, object]],
) -> None:
    """A bad format object is refused when it is built (before it can reach a rule set)."""
    with pytest.raises(InvalidRulesError):
        Rules(**kwargs())  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    ["classic(", "classic(half_cargo=true", "Ship of Fools(x)", ""],
)
def test_unreadable_rule_text_is_refused(text: str) -> None:
    with pytest.raises(InvalidRulesError, match="cannot read rules"):
        Rules.from_str(text)


def test_refusals_are_value_errors() -> None:
    """Callers (CLI, web) can catch ValueError for any bad rule input."""
    assert issubclass(InvalidRulesError, ValueError)


def test_rules_pickled_into_another_process_hash_like_a_fresh_value() -> None:
    """Simulator workers receive rule sets by pickle; string hashes differ between processes, so
    a cached hash must not travel (a stale one breaks dict and cache look-ups)."""
    import os
    import pickle
    import subprocess
    import sys

    rules = find_rules("ship-captain-crew").replace(half_cargo=True, format="rounds:3")
    code = (
        "import pickle, sys\n"
        "from shipcaptaincrew.rules import Rules\n"
        "r = pickle.loads(sys.stdin.buffer.read())\n"
        "q = Rules.from_str(str(r))\n"
        "print(r == q, hash(r) == hash(q), {q: 1}.get(r))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        input=pickle.dumps(rules),
        capture_output=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "12345"},
    )
    assert out.stdout.decode().split() == ["True", "True", "1"]
