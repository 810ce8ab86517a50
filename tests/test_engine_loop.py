"""The engine's fast turn loop gives what the plain rules give: the same dice from a seed, the
same refusals of wrong dice, the same states.

The loop draws a seeded ``random.Random``'s dice without ``randint``, remembers each roll it
has checked per rule set, and makes states without the dataclass's ``__init__``
(``benchmarks/bench_engine.py`` times it).  Each of those short cuts could change a number a
person sees -- a seed's dice in a transcript, a refusal of a ``True`` for a die, a state that
compares or pickles differently -- so each is checked here against the slow, plain answer.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import fields

import pytest

from shipcaptaincrew.actions import RerollCargo, Roll, Stand
from shipcaptaincrew.dice import InvalidDiceError
from shipcaptaincrew.engine import (
    CHANCE,
    TERMINAL,
    apply,
    current_player,
    initial_state,
    initial_turn,
    legal_actions,
    sample_chance,
)
from shipcaptaincrew.rules import Rules, find_rules
from shipcaptaincrew.state import TurnState


@pytest.mark.parametrize("dice", [4, 5, 6])
def test_a_seed_rolls_the_dice_randint_rolls(dice: int) -> None:
    """Every roll of a turn, drawn from a seeded ``random.Random``, has the faces that
    ``randint(1, 6)`` per die gives from the same seed: seeded transcripts stay as they are."""
    rules = Rules(dice=dice)
    drawn, plain = random.Random(2026), random.Random(2026)
    rolls = 0
    for _ in range(300):
        t = initial_turn(rules)
        while current_player(t) != TERMINAL:
            if current_player(t) == CHANCE:
                roll = sample_chance(t, drawn)
                assert roll.faces == tuple(plain.randint(1, 6) for _ in roll.faces)
                rolls += 1
                t = apply(t, roll)
            else:
                t = apply(t, legal_actions(t)[-1])  # reroll while allowed: more rolls
    assert rolls > 600


def test_a_random_subclass_draws_its_own_way() -> None:
    """A ``random.Random`` subclass that draws its own numbers is asked for each die."""

    class Loaded(random.Random):
        def random(self) -> float:
            return 0.7  # ``_randbelow`` then draws from this, not from ``getrandbits``

    own = tuple(Loaded(1).randint(1, 6) for _ in range(5))
    assert sample_chance(initial_turn(Rules()), Loaded(1)).faces == own == (5,) * 5


@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ((True, 5, 4, 1, 1), "face True is not a die face"),
        ((6.0, 5, 4, 1, 1), "face 6.0 is not a die face"),
        ((6, 5, 4, 1), "this roll needs 5 dice, got 4"),
        ((6, 5, 4, 1, 1, 1), "this roll needs 5 dice, got 6"),
        (([1], 5, 4, 1, 1), r"face \[1\] is not a die face"),
    ],
)
def test_a_roll_like_one_seen_before_is_still_refused(faces: tuple[int, ...], message: str) -> None:
    """``True`` and ``6.0`` equal the faces 1 and 6 as keys; a roll already played with real
    faces must not let them through, nor a roll of the wrong size."""
    t = initial_turn(Rules())
    apply(t, Roll((6, 5, 4, 1, 1)))
    apply(t, Roll((1, 5, 4, 1, 1)))
    with pytest.raises(InvalidDiceError, match=message):
        apply(t, Roll(faces))


def test_a_drawn_roll_s_faces_with_a_true_are_refused() -> None:
    """The engine hands a drawn roll out again and trusts the very faces it checked once; an
    equal roll typed with ``True`` for each 1 is another tuple and is refused, after every
    roll a seed drew was played."""
    t = initial_turn(Rules())
    rng = random.Random(5)
    drawn = {sample_chance(t, rng) for _ in range(2000)}
    for roll in drawn:
        apply(t, roll)
        assert sample_chance(t, random.Random(5)) in drawn
    ones = [r for r in drawn if 1 in r.faces]
    assert len(ones) > 500
    for roll in ones:
        with pytest.raises(InvalidDiceError, match="face True is not a die face"):
            apply(t, Roll(tuple(True if f == 1 else f for f in roll.faces)))


def test_a_cargo_roll_of_the_other_size_is_refused_after_half_cargo() -> None:
    """Under half cargo one die is rolled while one lies; a roll of one die seen there is no
    answer when the whole cargo is due."""
    rules = Rules(half_cargo=True)
    t = apply(initial_turn(rules), Roll((6, 5, 4, 2, 3)))
    kept = apply(apply(t, RerollCargo(keep=3)), Roll((5,)))
    assert kept.cargo == (3, 5) and kept.score == 8
    with pytest.raises(InvalidDiceError, match="this roll needs 2 dice, got 1"):
        apply(apply(t, RerollCargo()), Roll((5,)))


def test_faces_given_as_a_list_play_as_before() -> None:
    t = apply(initial_turn(Rules()), Roll([4, 6, 5, 1, 2]))  # type: ignore[arg-type]
    assert t.cargo == (1, 2) and t.score == 3 and list(t.last_roll) == [4, 6, 5, 1, 2]


def test_states_of_the_loop_equal_the_dataclass_s_own() -> None:
    """A state the loop makes compares, hashes, prints and pickles as the one its fields give
    to ``TurnState(...)``, and a match through the loop is the same match."""
    rng = random.Random(7)
    for rules in (Rules(), Rules(half_cargo=True, same_roll_bonus=2), Rules(wild_captain=True)):
        for _ in range(50):
            t = initial_turn(rules)
            while current_player(t) != TERMINAL:
                made = TurnState(**{f.name: getattr(t, f.name) for f in fields(t)})
                assert (t, hash(t), repr(t), vars(t)) == (made, hash(made), repr(made), vars(made))
                assert pickle.loads(pickle.dumps(t)) == t
                acts = legal_actions(t)
                t = apply(t, sample_chance(t, rng) if not acts else rng.choice(acts))
    match = initial_state(find_rules("classic").replace(starter="chosen"), 2)
    match = apply(match, Roll((6, 5, 4, 3, 3)))
    match = apply(match, Stand())
    assert match.posted_scores == {0: 6}
