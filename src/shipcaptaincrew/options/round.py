"""The options of the round: who starts, who starts next, ties, and a round nobody completes."""

from __future__ import annotations

from ..facts import house_rule
from ..messages import N_, NP_
from .spec import Choice, Group, Option, OptionType
from .values import AllFail, Rotation, Starter, TieBreak

__all__ = ["ROUND_OPTIONS"]

ROUND_OPTIONS: tuple[Option, ...] = (
    Option(
        "tie_break",
        OptionType.CHOICE,
        Group.ROUND,
        TieBreak.REPLAY,
        N_("Tie-break"),
        N_("how a tie for the top score is broken"),
        ("000.15", "001.17", "002.21", "003.15"),
        enum=TieBreak,
        counted_by="cargo",
        choices=(
            Choice(
                "replay",
                N_("the tied players play a new turn"),
                N_("ties replayed"),
                N_(
                    "- A tie at the top: only the tied players play new full turns until one "
                    "is ahead (000/001/003)."
                ),
                ("000.15", "001.17", "003.15"),
            ),
            Choice(
                "cargo_rolloff",
                N_("the tied players roll their cargo dice"),
                N_("cargo roll-off for ties"),
                NP_(
                    "- A tie at the top: each tied player rolls their cargo die once more; the "
                    "higher face wins, and they roll again while tied (002.21).",
                    "- A tie at the top: each tied player rolls their {cargo} cargo dice once "
                    "more; the higher sum wins, and they roll again while tied (002.21).",
                ),
                ("002.21",),
            ),
            # 001.17 read as a real round: see docs/rules.md, "tie-break turns or a real
            # round".
            Choice(
                "round",
                N_("the tied players play a real round among themselves"),
                N_("ties play a new round"),
                N_(
                    "- A tie at the top: nobody wins that round; the tied players play a new "
                    "round among themselves, antes, drinks and scores included, until one wins "
                    "(001.17)."
                ),
                ("001.17",),
            ),
            Choice(
                "no_winner",
                N_("one tie, all tie: nobody wins the round"),
                N_("one tie, all tie"),
                N_(
                    "- One tie, all tie: a tie at the top means nobody wins the round, and the "
                    "pot rides on to the next round (not in the sheets)."
                ),
                (house_rule(N_("pub tables that call 'one tie, all tie' and let the pot ride")),),
            ),
        ),
    ),
    Option(
        "all_fail",
        OptionType.CHOICE,
        Group.ROUND,
        AllFail.REPLAY,
        N_("Nobody completes a crew"),
        N_("what happens when every player of a round scores 0"),
        ("002.20",),
        enum=AllFail,
        choices=(
            Choice(
                "replay",
                N_("the round is played again"),
                N_("a failed round is replayed"),
                N_("- If nobody completes a crew, the round is played again."),
                ("002.20",),
            ),
            Choice(
                "carry_pot",
                N_("nobody wins; the pot stays for the next round"),
                N_("a failed round carries the pot"),
                N_(
                    "- If nobody completes a crew, nobody wins the round and the pot stays for "
                    "the next one (002)."
                ),
                ("002.20",),
            ),
        ),
    ),
    Option(
        "starter",
        OptionType.CHOICE,
        Group.ROUND,
        Starter.ROLLOFF,
        N_("Who starts"),
        N_("who starts the first round"),
        ("000.6", "002.7", "003.6"),
        enum=Starter,
        choices=(
            Choice(
                "rolloff",
                N_("everyone rolls one die, the highest starts"),
                N_("roll-off to start"),
                N_(
                    "- Who starts the first round: everyone rolls one die, the highest starts; "
                    "tied players roll again."
                ),
                ("000.6", "002.7", "003.6"),
            ),
            Choice(
                "chosen",
                N_("the table chooses (for example the youngest)"),
                N_("chosen starter"),
                N_(
                    "- Who starts the first round: the table chooses (002: for example the youngest)."
                ),
                ("002.7",),
            ),
        ),
    ),
    Option(
        "rotation",
        OptionType.CHOICE,
        Group.ROUND,
        Rotation.NEXT,
        N_("Next round's starter"),
        N_(
            "who starts each new round; seats are numbered in play order, and the cup passes "
            "to the next seat"
        ),
        ("000.17", "003.17"),
        enum=Rotation,
        choices=(
            Choice(
                "next",
                N_("the next player in play order: the start moves on with the cup"),
                N_("start passes on"),
                N_(
                    "- Each new round is started by the next player in play order after the "
                    "previous starter: the start moves on with the cup."
                ),
                (
                    house_rule(
                        N_(
                            "tables that pass the start on with the cup, where 001 and 002 are silent"
                        )
                    ),
                ),
                aliases=("left",),
            ),
            Choice(
                "previous",
                N_("the previous player in play order (000/003: the right-hand neighbour)"),
                N_("start passes back"),
                N_(
                    "- Each new round is started by the player before the previous starter in "
                    "play order, the right-hand neighbour when the cup passes to the left "
                    "(000.17/003.17)."
                ),
                ("000.17", "003.17"),
                aliases=("right",),
            ),
            Choice(
                "none",
                N_("the same player starts every round"),
                N_("same starter"),
                N_("- The same player starts every round."),
                (
                    house_rule(
                        N_("tables that keep one player, often the host, starting every round")
                    ),
                ),
            ),
            Choice(
                "loser",
                N_("the round's loser (the lowest score) starts the next round"),
                N_("the loser starts"),
                N_(
                    "- The lowest score of a round starts the next one; of several tied for "
                    "lowest, the one who played first in that round (not in the sheets)."
                ),
                (house_rule(N_("pub tables where the round's loser picks up the cup first")),),
            ),
        ),
    ),
)
