"""One test per rule of the turn, each citing its sheet sentence (``docs/rules.md``).

000 German, 001 Norwegian, 002 English, 003 English translation of 000 (``docs/sources.md``).
Sentences are cited by number and never quoted.  Dice are scripted
with :class:`Roll` (chance outcomes), so every test is deterministic.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from shipcaptaincrew.actions import Action, HandOut, RerollCargo, Roll, Stand, Take
from shipcaptaincrew.dice import InvalidDiceError
from shipcaptaincrew.engine import (
    CHANCE,
    TERMINAL,
    IllegalActionError,
    apply,
    chance_outcomes,
    current_player,
    dice_to_roll,
    initial_turn,
    is_chance,
    is_terminal,
    legal_actions,
)
from shipcaptaincrew.rules import Rules
from shipcaptaincrew.state import TurnPhase, TurnState

CLASSIC = Rules()


def play(rules: Rules, *steps: tuple[int, ...] | Action) -> TurnState:
    """Apply rolls (tuples of faces) and choices in order from a fresh turn."""
    t = initial_turn(rules)
    for step in steps:
        t = apply(t, Roll(step) if isinstance(step, tuple) else step)
    return t


# -- the sheets' worked examples ------------------------------------------------------------


def test_example_000_003_six_five_then_four_cargo_eight_one_roll_left() -> None:
    """000.18-000.21 (= 003.18-003.21): 6 5 3 3 1 keeps ship and captain; 4 2 6 completes the
    crew, cargo 2 + 6 = 8, and the third roll is still there for a cargo reroll."""
    t = play(CLASSIC, (6, 5, 3, 3, 1))
    assert t.held == (6, 5) and t.held_roles == ("ship", "captain")
    assert dice_to_roll(t) == 3
    t = apply(t, Roll((4, 2, 6)))
    assert t.held == (6, 5, 4) and t.cargo == (2, 6) and t.score == 8
    assert t.rolls_left == 1 and t.phase is TurnPhase.DECIDE
    assert legal_actions(t) == (Stand(), RerollCargo())


def test_example_001_keeps_six_and_five_three_dice_roll_on() -> None:
    """001.9: 6-5-3-2-2 first keeps the six and the five; three dice are rolled next."""
    t = play(CLASSIC, (6, 5, 3, 2, 2))
    assert t.held == (6, 5)
    assert dice_to_roll(t) == 3 and t.phase is TurnPhase.ROLL


def test_example_002_six_five_four_set_aside_at_once() -> None:
    """002.16: a first roll 6-5-4-3-2 holds 6, 5 and 4 at once, cargo 2 + 3; the next roll is
    the two cargo dice."""
    t = play(CLASSIC, (6, 5, 4, 3, 2))
    assert t.held == (6, 5, 4) and t.cargo == (2, 3) and t.score == 5
    assert t.rolls_used == 1 and t.phase is TurnPhase.DECIDE
    t = apply(t, RerollCargo())
    assert dice_to_roll(t) == 2


# -- setting aside in strict order ----------------------------------------------------------


def test_strict_order_five_or_four_before_ship_not_kept_002_common_mistakes() -> None:
    """002.15, 002.46, 002.51: no 5 or 4 is held before a 6, so 5 4 5 4 3 holds nothing and
    all five dice roll again."""
    t = play(CLASSIC, (5, 4, 5, 4, 3))
    assert t.held == () and dice_to_roll(t) == 5 and t.rolls_used == 1


def test_strict_order_four_without_captain_helps_nothing_001() -> None:
    """001.10, 000.8: with the ship held but no captain, a 4 is not held."""
    t = play(CLASSIC, (6, 4, 4, 2, 1))
    assert t.held == (6,) and dice_to_roll(t) == 4
    t = apply(t, Roll((4, 4, 3, 3)))
    assert t.held == (6,) and dice_to_roll(t) == 4


def test_several_set_aside_from_one_roll_whatever_their_position_000() -> None:
    """000.9/003.9: every qualifying die of one roll goes aside together, so 4 5 6 1 1
    completes at once."""
    t = play(CLASSIC, (4, 5, 6, 1, 1))
    assert t.held == (6, 5, 4) and t.cargo == (1, 1) and t.score == 2
    assert t.last_roll == (4, 5, 6, 1, 1)
    # The order of the faces in a roll does not matter to the rules.
    assert t == play(CLASSIC, (1, 6, 1, 4, 5))


def test_captain_and_crew_after_ship_in_one_later_roll_001() -> None:
    """001.6-001.7: captain and crew may come together in a roll after the ship is held."""
    t = play(CLASSIC, (6, 3, 3, 2, 2), (4, 5, 1, 1))
    assert t.held == (6, 5, 4) and t.cargo == (1, 1) and t.rolls_used == 2


def test_one_die_per_role_extra_sixes_fives_fours_are_cargo_002() -> None:
    """One die per role (002.10-002.12): spare 6s, 5s and 4s stay ordinary dice and can be
    cargo."""
    t = play(CLASSIC, (6, 6, 5, 5, 4))
    assert t.held == (6, 5, 4) and t.cargo == (5, 6) and t.score == 11
    t = play(CLASSIC, (6, 5, 4, 4, 4))
    assert t.cargo == (4, 4)


def test_extra_ships_are_rolled_again_not_held_002() -> None:
    """002.56: a second 6 is not a second ship; it is rolled again with the free dice."""
    t = play(CLASSIC, (6, 6, 6, 2, 3))
    assert t.held == (6,) and dice_to_roll(t) == 4
    t = apply(t, Roll((6, 6, 5, 4)))
    assert t.held == (6, 5, 4) and t.cargo == (6, 6) and t.score == 12


def test_held_dice_are_never_rerolled_002_common_mistakes() -> None:
    """002.56-002.57, 001.8: a held die is never rolled again, so each roll uses exactly the
    free dice (5, then 5 - held), and the cargo reroll two."""
    t = initial_turn(CLASSIC)
    assert dice_to_roll(t) == 5
    t = apply(t, Roll((6, 1, 1, 2, 2)))
    assert dice_to_roll(t) == 4 and len(chance_outcomes(t)) == 126  # C(4+5, 5) multisets
    with pytest.raises(InvalidDiceError, match="this roll needs 4 dice, got 5"):
        apply(t, Roll((6, 5, 4, 3, 2)))
    t = apply(t, Roll((5, 1, 1, 2)))
    assert dice_to_roll(t) == 3 and len(chance_outcomes(t)) == 56
    with pytest.raises(InvalidDiceError, match="this roll needs 3 dice, got 4"):
        apply(t, Roll((4, 3, 2, 1)))
    t = apply(t, Roll((4, 1, 2)))
    assert t.free_dice == 2 and dice_to_roll(t) == 0  # third roll: the turn is over
    t = play(CLASSIC, (6, 5, 4, 1, 2))
    assert dice_to_roll(t) == 0  # a decision now, not a roll
    t = apply(t, RerollCargo())
    assert dice_to_roll(t) == 2 and len(chance_outcomes(t)) == 21
    with pytest.raises(InvalidDiceError, match="this roll needs 2 dice, got 3"):
        apply(t, Roll((6, 6, 6)))


def test_cargo_is_the_two_other_dice_of_the_completing_roll_000() -> None:
    """000.3: the cargo is the rest of the roll that completed the crew, not of an earlier
    roll."""
    t = play(CLASSIC, (6, 5, 6, 6, 6), (4, 1, 3))
    assert t.cargo == (1, 3) and t.score == 4


# -- stand or reroll the cargo ----------------------------------------------------------------


def test_stand_ends_the_turn_with_the_cargo_score_003() -> None:
    """003.11-003.12: standing on a full crew scores the two cargo dice (here 6 + 6 = 12)."""
    t = play(CLASSIC, (6, 5, 4, 6, 6), Stand())
    assert t.phase is TurnPhase.DONE and t.score == 12 and is_terminal(t)
    assert current_player(t) == TERMINAL and legal_actions(t) == ()


def test_rerolled_cargo_stands_even_when_lower_000_001() -> None:
    """000.14, 001.13: a cargo reroll replaces the cargo even when it is lower (12, then 2)."""
    t = play(CLASSIC, (6, 5, 4, 6, 6), RerollCargo(), (1, 1))
    assert t.cargo == (1, 1) and t.score == 2
    assert t.cargo_rerolls == 1 and t.rolls_used == 2 and t.phase is TurnPhase.DECIDE
    t = apply(t, RerollCargo())
    t = apply(t, Roll((2, 1)))
    assert t.score == 3 and t.phase is TurnPhase.DONE and t.rolls_used == 3


def test_crew_on_the_third_roll_leaves_no_cargo_reroll_003() -> None:
    """003.14, 002.49: cargo rerolls use the rolls left after the crew is complete, so a crew
    completed on the third roll leaves none."""
    t = play(CLASSIC, (1, 1, 1, 2, 2), (6, 1, 1, 2, 2), (5, 4, 3, 3))
    assert t.phase is TurnPhase.DONE and t.score == 6 and t.rolls_used == 3
    with pytest.raises(IllegalActionError, match="the turn is over"):
        apply(t, RerollCargo())


def test_no_full_crew_after_three_rolls_scores_zero_000() -> None:
    """000.13, 001.14: no full crew after three rolls scores 0, and there is no fourth roll."""
    t = play(CLASSIC, (1, 1, 1, 2, 2), (6, 3, 3, 2, 2), (5, 3, 3, 3))
    assert t.phase is TurnPhase.DONE and t.held == (6, 5) and not t.complete
    assert t.score == 0 and t.cargo == ()
    with pytest.raises(IllegalActionError, match="no dice are to be rolled now: the turn is over"):
        apply(t, Roll((4, 1)))  # a fourth roll


# -- variants ---------------------------------------------------------------------------------


def test_half_cargo_keeps_one_die_and_rerolls_the_other_000() -> None:
    """000.25 (half cargo): one cargo die may be kept while the other is rerolled; the player
    picks which die to keep (or rerolls both)."""
    rules = Rules(half_cargo=True)
    t = play(rules, (6, 5, 4, 2, 6))
    assert legal_actions(t) == (Stand(), RerollCargo(), RerollCargo(keep=2), RerollCargo(keep=6))
    kept = apply(t, RerollCargo(keep=6))
    assert dice_to_roll(kept) == 1 and kept.keep == 6
    assert sum(p for _, p in chance_outcomes(kept)) == 1 and len(chance_outcomes(kept)) == 6
    after = apply(kept, Roll((3,)))
    assert after.cargo == (3, 6) and after.score == 9 and after.keep is None
    # Keeping the other die instead is a different choice with a different result.
    assert apply(apply(t, RerollCargo(keep=2)), Roll((3,))).cargo == (2, 3)


def test_half_cargo_offers_one_keep_per_distinct_face_000() -> None:
    t = play(Rules(half_cargo=True), (6, 5, 4, 3, 3))
    assert legal_actions(t) == (Stand(), RerollCargo(), RerollCargo(keep=3))


def test_half_cargo_keep_must_be_a_cargo_face_and_needs_the_option_000() -> None:
    t = play(Rules(half_cargo=True), (6, 5, 4, 2, 6))
    with pytest.raises(IllegalActionError, match=r"cannot keep a 5: the cargo is \(2, 6\)"):
        apply(t, RerollCargo(keep=5))
    t = play(CLASSIC, (6, 5, 4, 2, 6))
    with pytest.raises(IllegalActionError, match="keeping one cargo die needs half_cargo"):
        apply(t, RerollCargo(keep=6))


def test_bow_to_stern_collects_one_two_three_in_order_000() -> None:
    """000.26/003.26 (from behind, bow to stern): ship, captain and crew are 1, 2, 3."""
    rules = Rules(bow_to_stern=True)
    assert play(rules, (6, 5, 4, 3, 2)).held == ()  # 6-5-4 means nothing here
    t = play(rules, (3, 2, 1, 6, 6))
    assert t.held == (1, 2, 3) and t.cargo == (6, 6) and t.score == 12
    t = play(rules, (2, 3, 5, 5, 5))
    assert t.held == ()  # still in order: no 2 or 3 before the 1
    t = play(rules, (1, 3, 3, 5, 5))
    assert t.held == (1,)


def test_wild_captain_one_fills_a_missing_role_in_order_002() -> None:
    """002.32 (wild captain): a rolled 1 fills the next missing role, still in order."""
    rules = Rules(wild_captain=True)
    t = play(rules, (1, 3, 3, 2, 2))
    assert t.held == (1,) and t.held_roles == ("ship",) and t.phase is TurnPhase.ROLL
    t = play(rules, (5, 4, 1, 2, 2))  # the 1 is the ship, then the real captain and crew
    assert t.held == (1, 5, 4) and t.cargo == (2, 2)


def test_wild_captain_lists_every_assignment_and_the_player_chooses_002() -> None:
    """When a roll can be set aside in several ways (a real 4 and a 1 while only the crew is
    missing), the player chooses; the legal actions list every distinct choice."""
    rules = Rules(wild_captain=True)
    t = play(rules, (6, 5, 3, 3, 3), (1, 2, 4))
    assert t.phase is TurnPhase.ASSIGN and t.pending == (1, 2, 4)
    assert current_player(t) == 0 and not is_chance(t)
    assert legal_actions(t) == (Take((1,)), Take((4,)))
    wild = apply(t, Take((1,)))
    assert wild.held == (6, 5, 1) and wild.cargo == (2, 4) and wild.score == 6
    real = apply(t, Take((4,)))
    assert real.held == (6, 5, 4) and real.cargo == (1, 2) and real.score == 3


def test_wild_captain_several_roles_from_one_roll_002() -> None:
    t = play(Rules(wild_captain=True), (1, 4, 5, 6, 6))
    assert legal_actions(t) == (
        Take((1, 5, 4)),
        Take((6, 1, 4)),
        Take((6, 5, 1)),
        Take((6, 5, 4)),
    )
    assert apply(t, Take((1, 5, 4))).cargo == (6, 6)
    assert apply(t, Take((6, 5, 4))).cargo == (1, 6)


def test_wild_captain_refuses_a_take_that_is_not_listed_002() -> None:
    t = play(Rules(wild_captain=True), (6, 5, 3, 3, 3), (1, 2, 4))
    with pytest.raises(IllegalActionError, match=r"take:2 is not a way to set aside \(1, 2, 4\)"):
        apply(t, Take((2,)))
    with pytest.raises(IllegalActionError, match="choose which dice to set aside"):
        apply(t, Stand())
    with pytest.raises(IllegalActionError, match=r"no dice are to be rolled now \(assign\)"):
        apply(t, Roll((1, 2)))


def test_wild_face_is_an_option_002() -> None:
    t = play(Rules(wild_captain=True, wild_face=2), (2, 2, 3, 3, 3))
    assert t.held == (2, 2)  # ship and captain both wild
    t = play(Rules(bow_to_stern=True, wild_captain=True, wild_face=6), (6, 2, 3, 4, 4))
    assert t.held == (6, 2, 3) and t.cargo == (4, 4)


def test_cargo_rerolls_limited_to_once_001_house_rule() -> None:
    """001.20, first house rule: the cargo may be rerolled only once."""
    rules = Rules(cargo_rerolls=1)
    t = play(rules, (6, 5, 4, 1, 1), RerollCargo(), (1, 2))
    assert t.phase is TurnPhase.DONE and t.rolls_used == 2 and t.score == 3
    with pytest.raises(IllegalActionError, match="the turn is over"):
        apply(t, RerollCargo())


def test_cargo_rerolls_zero_means_the_cargo_stands_001() -> None:
    t = play(Rules(cargo_rerolls=0), (6, 5, 4, 1, 1))
    assert t.phase is TurnPhase.DONE and t.score == 2


def test_cargo_rerolls_two_allows_both_remaining_rolls_001() -> None:
    t = play(Rules(cargo_rerolls=2), (6, 5, 4, 1, 1), RerollCargo(), (1, 2), RerollCargo(), (3, 3))
    assert t.phase is TurnPhase.DONE and t.cargo_rerolls == 2 and t.score == 6


def test_same_roll_bonus_when_all_three_come_from_one_roll_001() -> None:
    """001.20, second house rule: a bonus when ship, captain and crew come from one roll."""
    rules = Rules(same_roll_bonus=3)
    t = play(rules, (6, 5, 4, 2, 2))
    assert t.bonus == 3 and t.score == 7
    t = play(rules, (1, 1, 1, 2, 2), (4, 6, 5, 2, 2))  # one roll, even if not the first
    assert t.bonus == 3 and t.score == 7


def test_same_roll_bonus_not_earned_over_several_rolls_001() -> None:
    rules = Rules(same_roll_bonus=3)
    t = play(rules, (6, 1, 1, 2, 2), (5, 4, 2, 2))
    assert t.bonus == 0 and t.score == 4


def test_same_roll_bonus_still_counts_after_a_cargo_reroll_001() -> None:
    rules = Rules(same_roll_bonus=3)
    t = play(rules, (6, 5, 4, 2, 2), RerollCargo(), (6, 5))
    assert t.bonus == 3 and t.score == 14
    t = apply(t, Stand())
    assert t.score == 14 and t.score <= rules.max_score


def test_same_roll_bonus_not_for_a_failed_turn_001() -> None:
    t = play(Rules(same_roll_bonus=3), (1, 1, 1, 2, 2), (1, 1, 1, 2, 2), (1, 1, 1, 2, 2))
    assert t.score == 0 and t.bonus == 0


# -- chance and decisions ---------------------------------------------------------------------


def test_a_fresh_turn_is_a_chance_node_with_exact_probabilities() -> None:
    t = initial_turn(CLASSIC)
    assert current_player(t) == CHANCE and is_chance(t) and legal_actions(t) == ()
    outcomes = chance_outcomes(t)
    assert len(outcomes) == 252
    assert sum(p for _, p in outcomes) == 1
    assert dict(outcomes)[Roll((6, 6, 6, 6, 6))] == Fraction(1, 6**5)
    assert dict(outcomes)[Roll((2, 3, 4, 5, 6))] == Fraction(120, 6**5)
    assert all(r.faces == r.sorted_faces for r, _ in outcomes)


def test_last_roll_is_display_only() -> None:
    """Equal states may differ in how the dice fell; the rules only see the multiset."""
    a = play(CLASSIC, (6, 5, 3, 3, 1))
    b = play(CLASSIC, (1, 3, 3, 5, 6))
    assert a == b and hash(a) == hash(b) and a.last_roll != b.last_roll


# -- illegal actions and bad dice -------------------------------------------------------------


@pytest.mark.parametrize(
    ("steps", "action", "error", "message"),
    [
        ((), Stand(), IllegalActionError, "stand is not allowed now: the dice must be rolled"),
        ((), RerollCargo(), IllegalActionError, "the dice must be rolled"),
        ((), Take((6,)), IllegalActionError, "the dice must be rolled"),
        ((), Roll((7, 1, 1, 1, 1)), InvalidDiceError, "face 7 is not a die face"),
        ((), Roll((0, 1, 1, 1, 1)), InvalidDiceError, "face 0 is not a die face"),
        ((), Roll((1, 1, 1, 1)), InvalidDiceError, "this roll needs 5 dice, got 4"),
        ((), Roll((1, 1, 1, 1, 1, 1)), InvalidDiceError, "this roll needs 5 dice, got 6"),
        (((6, 5, 4, 1, 1),), Roll((1, 1)), IllegalActionError, r"no dice .* now \(decide\)"),
        (((6, 5, 4, 1, 1),), Take((6,)), IllegalActionError, "there is no assignment"),
        (((6, 5, 4, 1, 1),), HandOut(1), IllegalActionError, "sip:1 is not a turn action"),
        (((6, 5, 4, 1, 1), Stand()), Stand(), IllegalActionError, "the turn is over"),
        (((6, 5, 4, 1, 1), RerollCargo()), Roll((3,)), InvalidDiceError, "needs 2 dice, got 1"),
        (((6, 5, 4, 1, 1), RerollCargo()), Stand(), IllegalActionError, "dice must be rolled"),
    ],
)
def test_illegal_actions_and_bad_dice_give_clear_errors_and_leave_the_state(
    steps: tuple[tuple[int, ...] | Action, ...],
    action: Action,
    error: type[Exception],
    message: str,
) -> None:
    """A refused action raises a ValueError subclass naming the problem; the state is intact."""
    t = play(CLASSIC, *steps)
    before = (t, hash(t), t.last_roll, t.phase)
    with pytest.raises(error, match=message):
        apply(t, action)
    assert (t, hash(t), t.last_roll, t.phase) == before
    assert issubclass(error, ValueError)
    assert play(CLASSIC, *steps) == t  # the same steps still give the same state


def test_wild_captain_several_wild_faces_fill_several_roles_002() -> None:
    """002.32: each rolled 1 is a wild die, so three 1s fill all three roles."""
    t = play(Rules(wild_captain=True), (1, 1, 1, 2, 3))
    assert t.held == (1, 1, 1) and t.cargo == (2, 3) and t.score == 5


def test_wild_captain_must_fill_the_most_roles_002() -> None:
    """Setting aside is compulsory (002.9): no assignment that leaves a role empty to keep a
    die for the cargo is offered."""
    t = play(Rules(wild_captain=True), (6, 5, 3, 3, 3), (1, 4, 6))
    assert legal_actions(t) == (Take((1,)), Take((4,)))
    assert all(len(a.faces) == 1 for a in legal_actions(t) if isinstance(a, Take))


def test_sample_chance_needs_a_chance_node_and_uses_any_dice_source() -> None:
    """Dice come from a source (seeded PRNG, provably fair, typed at a table); never at a decision."""
    from shipcaptaincrew.engine import sample_chance

    class TableDice:
        """Faces typed in at a real table, in order."""

        def __init__(self, faces: list[int]) -> None:
            self.faces = faces

        def roll(self, n: int) -> tuple[int, ...]:
            out, self.faces = tuple(self.faces[:n]), self.faces[n:]
            return out

    source = TableDice([6, 5, 3, 3, 1, 4, 2, 6])
    t = initial_turn(CLASSIC)
    t = apply(t, sample_chance(t, source))
    t = apply(t, sample_chance(t, source))
    assert t.cargo == (2, 6) and t.phase is TurnPhase.DECIDE
    with pytest.raises(IllegalActionError, match="no dice are due: this is not a chance node"):
        sample_chance(t, source)
