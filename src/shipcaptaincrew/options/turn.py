"""The options of the turn: variants of how ship, captain, crew and cargo are collected."""

from __future__ import annotations

from ..facts import house_rule
from ..messages import N_, NP_
from .spec import Group, Option, OptionType

__all__ = ["TURN_OPTIONS"]


def _flag(name: str, label: str, help: str, sources: tuple[str, ...], title: str, off: str,
          rule: str) -> Option:  # fmt: skip
    return Option(name, OptionType.FLAG, Group.TURN, False, label, help, sources, title=title,
                  title_other=off, rule=rule)  # fmt: skip


#: The rolls a turn may have: the sheets' three, or a house rule's two to five.
ROLLS_BOUNDS = (2, 5)
#: The dice in the cup: the sheets' five, or a house rule's four or six (a cargo of one or three).
DICE_BOUNDS = (4, 6)

TURN_OPTIONS: tuple[Option, ...] = (
    # Every sheet plays five dice, two of them the cargo once ship, captain and crew are held; a
    # table may agree on one die fewer or one more (a cargo of one or three dice) before play,
    # as 001.21 asks of every house rule.  The turn's text says the number.
    Option(
        "dice",
        OptionType.NUMBER,
        Group.TURN,
        5,
        N_("Dice in the cup"),
        N_(
            "the dice in the cup; what is left once the roles are held is the cargo (the sheets: five)"
        ),
        (
            "000.1",
            "001.1",
            "002.5",
            "003.1",
            house_rule(
                N_("tables that agree on one die fewer or one more in the cup before play (001.21)")
            ),
        ),
        bounds=DICE_BOUNDS,
        title=NP_("{n} die in the cup", "{n} dice in the cup"),
    ),
    # Every sheet gives three rolls; a table may agree on fewer or more before play, as 001.21
    # asks of every house rule.  The turn's text says the number, so no variant sentence.
    Option(
        "rolls",
        OptionType.NUMBER,
        Group.TURN,
        3,
        N_("Rolls per turn"),
        N_("the most rolls in one turn (the sheets: three)"),
        (
            "000.1",
            "001.4",
            "002.8",
            "003.1",
            house_rule(N_("tables that agree on a quicker or a longer turn before play (001.21)")),
        ),
        bounds=ROLLS_BOUNDS,
        title=NP_("{n} roll per turn", "{n} rolls per turn"),
    ),
    # 000.25 leaves one of the two cargo dice lying; with a cargo of three (dice=6) one die
    # lies and the other two are rolled, and a cargo of one has no other die (Rules refuses).
    Option(
        "half_cargo",
        OptionType.FLAG,
        Group.TURN,
        False,
        N_("Half cargo"),
        N_("a cargo reroll may leave one cargo die lying and roll only the others"),
        ("000.25", "003.25"),
        title=N_("half cargo"),
        title_other=N_("no half cargo"),
        rule=NP_(
            "- **Shifting cargo** (000.25/003.25): a cargo reroll may leave one of the cargo "
            "dice lying and roll just the other.",
            "- **Shifting cargo** (000.25/003.25): a cargo reroll may leave one of the cargo "
            "dice lying and roll just the other {rerolled}.",
        ),
        counted_by="rerolled",
    ),
    _flag(
        "bow_to_stern",
        N_("Bow to stern"),
        N_("the roles need 1, 2 and 3 rather than 6, 5 and 4"),
        ("000.26", "003.26"),
        N_("bow to stern"),
        N_("6-5-4 order"),
        N_("- **Bow to stern** (000.26/003.26): the ship is a 1, the captain a 2, the crew a 3."),
    ),
    _flag(
        "wild_captain",
        N_("Wild captain"),
        N_("a rolled wild face may fill any missing role, still in order"),
        ("002.32", "002.33"),
        N_("wild captain"),
        N_("no wild captain"),
        N_(
            "- **Wild captain** (002): a rolled {wild} may stand for any missing role, still in "
            "order. When a roll can be set aside in several ways, you choose which."
        ),
    ),
    Option(
        "wild_face",
        OptionType.NUMBER,
        Group.TURN,
        1,
        N_("Wild face"),
        N_("the face that is wild under wild captain (not a face the roles need)"),
        ("002.32",),
        bounds=(1, 6),
        title=N_("wild {n}"),
        range_error=N_("{name} must be a face 1..6, got {value}"),
        requires=("wild_captain", "true"),
    ),
    Option(
        "cargo_rerolls",
        OptionType.NUMBER,
        Group.TURN,
        None,
        N_("Cargo rerolls"),
        N_("the most cargo rerolls in one turn (none: as many as rolls remain)"),
        ("001.20",),
        bounds=(0, ROLLS_BOUNDS[1] - 1),
        unlimited=True,
        title=NP_("cargo rerolled at most once", "cargo rerolled at most {n} times"),
        title_other=N_("free cargo rerolls"),
    ),
    Option(
        "same_roll_bonus",
        OptionType.NUMBER,
        Group.TURN,
        0,
        N_("Same-roll bonus"),
        N_("extra points when ship, captain and crew come from one roll (0: off)"),
        ("001.20",),
        bounds=(0, 100),
        title=N_("same-roll bonus {n}"),
        rule=N_(
            "- **Same-roll bonus** (001): ship, captain and crew all set aside from one roll "
            "earn {bonus} extra points."
        ),
    ),
)
