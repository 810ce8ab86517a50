"""The options of the stakes: points or a pot of chips, and who drinks."""

from __future__ import annotations

from ..messages import N_, NP_
from .spec import Choice, Group, Option, OptionType
from .values import Drinking, HandOutAmount, PotTo, Stakes

__all__ = ["STAKES_OPTIONS"]

STAKES_OPTIONS: tuple[Option, ...] = (
    Option(
        "stakes",
        OptionType.CHOICE,
        Group.STAKES,
        Stakes.POINTS,
        N_("Stakes"),
        N_("what a round is played for"),
        ("000.29", "001.2", "001.16", "002.6", "003.29"),
        enum=Stakes,
        choices=(
            Choice(
                "points",
                N_("points only"),
                N_("points"),
                N_("- You play for points only (003)."),
                ("000.29", "001.2", "003.29"),
            ),
            Choice(
                "pot",
                N_("a pot of chips: everyone antes each round"),
                N_("pot"),
                N_(
                    "- Everyone starts with {chips} chips and antes {ante} each round; a "
                    "player who cannot ante sits the round out (001/002)."
                ),
                ("001.2", "001.16", "002.6", "002.22"),
            ),
        ),
    ),
    Option(
        "ante",
        OptionType.NUMBER,
        Group.STAKES,
        1,
        N_("Ante"),
        N_("chips each player puts into the pot at the start of a round"),
        ("001.16", "002.6"),
        bounds=(1, 1000),
        title=N_("ante {n}"),
        requires=("stakes", "pot"),
    ),
    Option(
        "starting_chips",
        OptionType.NUMBER,
        Group.STAKES,
        10,
        N_("Starting chips"),
        N_("each player's stack at the start of a match played for a pot"),
        ("001.2",),
        bounds=(0, 1_000_000),
        title=NP_("{n} chip each", "{n} chips each"),
        requires=("stakes", "pot"),
    ),
    Option(
        "pot_to",
        OptionType.CHOICE,
        Group.STAKES,
        PotTo.ROUND,
        N_("Who takes the pot"),
        N_("under a pot: each round's winner, or the match winner at the end"),
        ("001.16", "002.22", "002.28"),
        enum=PotTo,
        requires=("stakes", "pot"),
        choices=(
            Choice(
                "round",
                N_("each round's winner takes that round's pot"),
                N_("the round's winner takes the pot"),
                N_(
                    "- The round's winner takes the pot; a round without a winner leaves it for "
                    "the next."
                ),
                ("001.16", "002.22"),
            ),
            # 002.28 read as one growing pot: see docs/rules.md, "a pot per round, or one
            # growing pot".
            Choice(
                "match",
                N_("the antes build up all match; the match winner takes them"),
                N_("the match winner takes the pot"),
                N_(
                    "- The antes stay in the pot for the whole match, and the match winner "
                    "takes all of it (002.28)."
                ),
                ("002.28",),
            ),
        ),
    ),
    Option(
        "drinking",
        OptionType.CHOICE,
        Group.STAKES,
        Drinking.NONE,
        N_("Drinking"),
        N_("who drinks after a round"),
        ("000.16", "000.23", "000.24", "002.24"),
        enum=Drinking,
        choices=(
            Choice("none", N_("no drinking"), N_("no drinking"), "", ("000.29", "003.29")),
            Choice(
                "all_but_winner",
                N_("everyone but the round's winner sips"),
                N_("all but the winner sip"),
                N_("- Everyone except the round's winner takes a sip (000/003)."),
                ("000.4", "000.16", "003.16"),
            ),
            Choice(
                "last_drinks",
                N_("the lowest score drinks"),
                N_("the last drinks"),
                N_(
                    "- Only the lowest score drinks; everyone tied for lowest drinks (000/002/003)."
                ),
                ("000.23", "003.23", "002.24"),
            ),
            Choice(
                "captain_hands_out",
                N_("the winner rolls a die and hands out that many sips"),
                N_("the captain hands out"),
                N_(
                    "- The captain hands out: the round's winner rolls a die and shares out that "
                    "many sips among the others, as they like (000.24/003.24)."
                ),
                ("000.24", "003.24"),
            ),
        ),
    ),
    Option(
        "hand_out",
        OptionType.CHOICE,
        Group.STAKES,
        HandOutAmount.EXACT,
        N_("Captain's sips"),
        N_("whether the captain hands out exactly the die's number of sips or may stop early"),
        ("000.24", "003.24"),
        enum=HandOutAmount,
        requires=("drinking", "captain_hands_out"),
        choices=(
            Choice(
                "exact",
                N_("exactly the die's number"),
                N_("exactly the die's sips"),
                N_("- The captain hands out every sip the die shows."),
                ("000.24", "003.24"),
            ),
            # 000.24 read with its "may": see docs/rules.md, "how many sips does the
            # captain hand out".
            Choice(
                "up_to",
                N_("up to the die's number: the captain may stop early"),
                N_("up to the die's sips"),
                N_(
                    "- The die is the most the captain may hand out: they may stop early "
                    "(000.24/003.24)."
                ),
                ("000.24", "003.24"),
            ),
        ),
    ),
    Option(
        "failed_double",
        OptionType.FLAG,
        Group.STAKES,
        False,
        N_("Failed ship drinks double"),
        N_(
            "every sip of a player without a full crew counts twice, the captain's sips "
            "included (off: the captain's die is exactly what is drunk)"
        ),
        ("002.24",),
        title=N_("a failed ship drinks double"),
        title_other=N_("no double sips"),
        rule=N_("- A player without a full crew drinks double (002)."),
    ),
)
