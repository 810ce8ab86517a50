"""What the narration says about the rules in play, and in which order.

Each test names the rule (by sheet sentence number, or "not in the sheets") whose telling it
checks: who opens a round, the same-roll bonus after a cargo reroll, who takes a pot, the
round's result before the captain's hand-out, and plural forms in every language.
"""

from __future__ import annotations

from shipcaptaincrew.actions import Action, HandOut, HandOutSplit, RerollCargo, Roll, Stand
from shipcaptaincrew.engine import apply, initial_state
from shipcaptaincrew.i18n import translator
from shipcaptaincrew.messages import Message
from shipcaptaincrew.narrate import narrate, narrate_parts
from shipcaptaincrew.rules import Rules
from shipcaptaincrew.state import MatchState
from tests.test_match import play_round, turn

CHOSEN = Rules().replace(starter="chosen")
NAMES = ["Anna", "Bo", "Cy", "Di"]


def told(before: MatchState, action: Action) -> tuple[MatchState, list[str]]:
    after = apply(before, action)
    return after, [str(m) for m in narrate(before, action, after, NAMES)]


def last_turn(s: MatchState, score: int) -> tuple[MatchState, list[Message], list[Message]]:
    """Play the current seat's turn to ``score`` with a roll and a stand; the stand's parts."""
    s = apply(s, Roll((6, 5, 4, max(1, score - 6), score - max(1, score - 6))))
    after = apply(s, Stand())
    own, table = narrate_parts(s, Stand(), after, NAMES)
    return after, own, table


def test_the_round_opener_is_the_seat_that_plays_first_in_a_tournament_final_002_29() -> None:
    """002.29: the rotation's seat may be no finalist; the final is opened by the first
    finalist in play order, and that is who the narration names."""
    rules = CHOSEN.replace(format="tournament", rotation="next")
    s = play_round(initial_state(rules, 4), [9, 8, 2, 3])
    s = turn(turn(turn(s, 8), 2), 3)  # seats 1, 2, 3 of round 2; seat 0 plays last
    s, _, table = last_turn(s, 9)  # totals 18, 16, 4, 6: Anna and Bo play the final
    assert s.starter == 2 and s.round_seats == (0, 1)
    said = [str(m) for m in table]
    assert "Anna starts round 3." in said and "Cy starts round 3." not in said


def test_the_round_opener_skips_a_seat_that_cannot_ante_001_16() -> None:
    """001.16: a player without chips for the ante sits out; the next round is announced as
    opened by the first seat that plays, not by the rotation's seat."""
    rules = CHOSEN.replace(stakes="pot", starting_chips=2, rotation="none", format="rounds:3")
    s = play_round(initial_state(rules, 3, starter=1), {1: 2, 2: 3, 0: 9})  # chips 4, 1, 1
    s = turn(turn(s, 2), 9)  # Bo and Cy of round 2; Anna plays last
    s, _, table = last_turn(s, 3)  # Cy wins: chips 3, 0, 3
    assert s.starter == 1 and s.round_seats == (2, 0)
    said = [str(m) for m in table]
    assert "Cy starts round 3." in said and "Bo starts round 3." not in said


def test_the_cargo_reroll_shows_the_same_roll_bonus_001_20() -> None:
    """001.20: the bonus stays through a cargo reroll, and the narration adds it up."""
    s = initial_state(CHOSEN.replace(same_roll_bonus=2), 2)
    s = apply(apply(s, Roll((6, 5, 4, 1, 1))), RerollCargo())
    _, lines = told(s, Roll((6, 6)))
    assert lines[0] == "Anna rerolls the cargo: 6 6; cargo 6 + 6 + bonus 2 = 14."
    plain = apply(apply(initial_state(CHOSEN, 2), Roll((6, 5, 4, 1, 1))), RerollCargo())
    assert told(plain, Roll((6, 6)))[1][0] == "Anna rerolls the cargo: 6 6; cargo 6 + 6 = 12."


def test_the_tournament_winner_takes_all_is_told_002_30() -> None:
    """002.30: the final's winner takes the pot, and the narration says so."""
    rules = CHOSEN.replace(format="tournament", stakes="pot", rotation="none")
    s = play_round(play_round(initial_state(rules, 3), [9, 5, 2]), [9, 5, 2])
    s = turn(s, 8)
    s, own, table = last_turn(s, 4)
    said = [str(m) for m in own + table]
    assert "Anna takes the pot of 8 chips." in said
    assert said.index("Anna takes the pot of 8 chips.") < said.index("Anna wins the match!")


def test_the_match_pot_is_told_when_the_match_ends_002_28() -> None:
    rules = CHOSEN.replace(stakes="pot", pot_to="match", format="rounds:2")
    s = play_round(initial_state(rules, 2), [9, 5])
    s = turn(s, 3)  # Bo opens round 2
    s, own, table = last_turn(s, 8)
    said = [str(m) for m in own + table]
    assert said[-3:] == [
        "Round 2: Anna wins with 8.",
        "Anna takes the pot of 4 chips.",
        "Anna wins the match!",
    ]
    assert s.results[1].pot_won == 0 and s.match_pot_won == 4


def test_the_rounds_result_comes_before_the_captains_hand_out_000_24() -> None:
    """000.24: the round's winner is told when the round is decided, before the captain's die
    and sips; the drinks follow the hand-out.  A turn's outcome belongs to the table part, so
    a front end shows it after the turn's last board."""
    s = initial_state(CHOSEN.replace(drinking="captain_hands_out"), 2)
    s = turn(s, 9)
    s, own, table = last_turn(s, 4)
    assert [str(m) for m in own] == ["Bo stands."]
    assert [str(m) for m in table] == ["Bo scores 4.", "Round 1: Anna wins with 9."]
    s, lines = told(s, Roll((2,)))
    assert lines == ["Captain Anna rolls 2 and hands out 2 sips."]
    s, lines = told(s, HandOutSplit(((1, 2),)))
    assert lines == ["Anna gives 2 sips to Bo.", "Bo drinks 2 sips.", "Anna wins the match!"]


def test_counts_use_plural_forms_in_every_language_000_24() -> None:
    """000.24: one sip and one chip read as singulars in en, de and nb."""
    s = initial_state(CHOSEN.replace(drinking="captain_hands_out", stakes="pot"), 2)
    s = turn(s, 9)
    s, _, table = last_turn(s, 4)
    roll = apply(s, Roll((1,)))
    captain = narrate(s, Roll((1,)), roll, NAMES)
    done = apply(roll, HandOut(1))
    sips = narrate(roll, HandOut(1), done, NAMES)
    messages = table + captain + sips
    for lang in ("en", "de", "nb"):
        tr = translator(lang)
        text = " ".join(m.render(tr) for m in messages)
        for wrong in ("1 sips", "1 chips", "1 Schlucke", "1 Chips", "1 slurker", "1 sjetonger"):
            assert wrong not in text, (lang, text)
    assert "Anna takes the pot of 2 chips." in [str(m) for m in table]
    assert [str(m) for m in captain] == ["Captain Anna rolls 1 and hands out one sip."]
    assert [str(m) for m in sips][:2] == ["Anna gives a sip to Bo.", "Bo drinks a sip."]


def _story(rules: Rules, actions: list[Action], lang: str = "en") -> list[str]:
    """Every line the story tells for ``actions`` from a new match (two seats, Anna first)."""
    s = initial_state(rules, 2)
    lines = []
    for a in actions:
        after = apply(s, a)
        lines += [m.render(translator(lang)) for m in narrate(s, a, after, NAMES)]
        s = after
    return lines


def test_the_story_names_the_cups_cargo_dice() -> None:
    """dice=6: three cargo dice, said as their sum, rerolled and kept as counted; dice=4: one,
    which is its own score (once 'Cargo 1 + 2 = 6' and a crash on a cargo of one)."""
    six = CHOSEN.replace(dice=6, half_cargo=True)
    lines = _story(six, [Roll((6, 5, 4, 1, 2, 6)), RerollCargo(keep=6), Roll((3, 3))])
    assert "Full crew! Cargo 1 + 2 + 6 = 9." in lines
    assert "Anna keeps a 6 and rerolls the other 2 cargo dice." in lines
    assert "Anna rerolls the cargo: 3 3; cargo 3 + 3 + 6 = 12." in lines
    assert "Anna rerolls all 3 cargo dice." in _story(
        six, [Roll((6, 5, 4, 1, 2, 6)), RerollCargo()]
    )
    four = CHOSEN.replace(dice=4)
    lines = _story(four, [Roll((6, 5, 4, 3)), RerollCargo(), Roll((5,))])
    assert lines[1:] == [
        "Full crew! Cargo 3.",
        "Anna rerolls the cargo die.",
        "Anna rerolls the cargo: 5; cargo 5.",
    ]
    de = _story(six, [Roll((6, 5, 4, 1, 2, 6)), RerollCargo(keep=6)], "de")
    assert "Volle Crew! Ladung 1 + 2 + 6 = 9." in de
    assert "Anna behält eine 6 und wirft die anderen 2 Ladungswürfel neu." in de
    nb = _story(four, [Roll((6, 5, 4, 3)), RerollCargo()], "nb")
    assert nb[1:] == ["Fullt mannskap! Last 3.", "Anna kaster lastterningen på nytt."]


def test_a_tie_break_says_it_decides_the_tie_only_000_15() -> None:
    """000.15: the tie-break turn decides the round, its score counts to no total; the round
    is then won with the round's score, and a tie of the totals is told with them."""
    rules = CHOSEN.replace(format="rounds:1")
    stand = Stand()
    lines = _story(
        rules,
        [Roll((6, 5, 4, 3, 4)), stand, Roll((6, 5, 4, 3, 4)), stand]  # 7 and 7: a tie
        + [Roll((6, 5, 4, 4, 4)), stand, Roll((6, 5, 4, 2, 5)), stand],  # 8 and 7
    )
    assert (
        "Tie between Anna, Bo at 7: a tie-break by turn decides the round, and counts to no total."
        in lines
    )
    assert "Anna scores 8 in the tie-break." in lines and "Bo scores 7 in the tie-break." in lines
    assert "Round 1: Anna wins the tie-break; the round's score of 7 counts." in lines
    assert "Round 1: Anna wins with 8." not in lines
    de = _story(rules, [Roll((6, 5, 4, 3, 4)), stand, Roll((6, 5, 4, 3, 4)), stand], "de")
    assert any("zählt für keine Gesamtwertung" in line for line in de)
