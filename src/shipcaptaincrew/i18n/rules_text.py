"""The complete rules of a rule set, in our own words, in any catalogue language.

:func:`rules_text` builds Markdown from one paragraph per rule, choosing the paragraphs the
rule set's options call for (wild captain, half cargo, stakes, drinking, the match format, ...).
Every paragraph is an English message id translated through the ``scc`` catalogue, and every
number in it comes from the :class:`~shipcaptaincrew.rules.Rules` value, so the text cannot
drift from the options the engine plays by.  The sheets' tips close the text, each with the
solver's verdict when the caller passes it (:class:`SolverNotes`), computed by the solver and
never assumed here.

>>> from shipcaptaincrew.rules import find_rules
>>> text = rules_text(find_rules("classic"), translator("de"))
>>> text.splitlines()[0]
'# Schiff, Kapitän und Crew: classic'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..rules import (
    PRESET_DESCRIPTIONS,
    AllFail,
    Drinking,
    Rotation,
    Rules,
    Stakes,
    Starter,
    TieBreak,
)
from . import N_, translator

__all__ = ["PRESET_DESCRIPTION_IDS", "SolverNotes", "rules_text"]

#: The presets' one-line descriptions (from :mod:`..rules`), spelt out here so that extraction
#: puts them in the catalogues; ``tests/test_rules_text.py`` checks they still match.
PRESET_DESCRIPTION_IDS = (
    N_(
        "The core all four sheets share: 5 dice, 3 rolls, 6-5-4 in order, cargo 2-12, free cargo rerolls, tied players replay, one round for points."
    ),
    N_(
        "Sheets 000 (German) and 003 (English): roll-off to start, tied players roll again, everyone but the winner sips, the right neighbour of the last starter starts the next round."
    ),
    N_(
        "Sheet 001 (Norwegian): 2-8 players, a pot of chips each round, ties replayed between the tied players, first to 50 points."
    ),
    N_(
        "Sheet 002 (English): everyone antes a chip, highest cargo takes the pot, tied players re-roll their two cargo dice, a round where all fail leaves the pot for the next."
    ),
)


@dataclass(frozen=True)
class SolverNotes:
    """What the solver's best-expected-score policy does with the cargo (None: never rerolls).

    ``reroll_up_to_1`` / ``reroll_up_to_2``: the highest cargo it rerolls with one / two rolls
    left.
    """

    reroll_up_to_1: int | None
    reroll_up_to_2: int | None


def _sheet_tip_note(notes: SolverNotes, tr: Callable[[str], str]) -> str:
    """The solver's verdict on the sheets' reroll tips, one whole sentence per case.

    Whole sentences (rather than "never" slotted into "{n} or less") keep every case
    grammatical in each language.
    """
    a, b = notes.reroll_up_to_1, notes.reroll_up_to_2
    if a == 6 and b == 6:
        return tr(
            "The solver agrees: for the best average score it rerolls a cargo of 6 or "
            "less, whether one or two rolls are left."
        )
    if a is None and b is None:
        return tr(
            "The solver disagrees: for the best average score it never rerolls the "
            "cargo under these rules."
        )
    if a is None:
        return tr(
            "The solver disagrees in part: for the best average score it never rerolls "
            "the cargo with one roll left, and rerolls a cargo of {two} or less with two "
            "rolls left."
        ).format(two=b)
    if b is None:
        return tr(
            "The solver disagrees in part: for the best average score it rerolls a cargo "
            "of {one} or less with one roll left, and never rerolls it with two rolls "
            "left."
        ).format(one=a)
    return tr(
        "The solver disagrees in part: for the best average score it rerolls a cargo "
        "of {one} or less with one roll left, and of {two} or less with two rolls left."
    ).format(one=a, two=b)


def rules_text(
    rules: Rules, translate: Callable[[str], str] | None = None, notes: SolverNotes | None = None
) -> str:
    """The rules of ``rules`` as Markdown in the language of ``translate``."""
    tr = translate or translator(None)
    ship, captain, crew = rules.required_faces
    faces = {"ship": ship, "captain": captain, "crew": crew}
    out: list[str] = [tr("# Ship, Captain and Crew: {name}").format(name=rules.name), ""]
    out += [tr("Rule set: `{rules}`").format(rules=str(rules)), ""]
    desc = PRESET_DESCRIPTIONS.get(rules.name)
    if desc:
        out += [tr(desc), ""]

    out += [tr("## What you need"), ""]
    out += [
        tr(
            "Five ordinary dice, a cup, and two to eight players. Everybody plays one turn "
            "per round, one after the other."
        ),
        "",
    ]

    out += [tr("## Your turn"), ""]
    out += [
        tr(
            "You have up to three rolls. Your aim is a ship ({ship}), a captain ({captain}) "
            "and a crew ({crew}), collected in exactly this order."
        ).format(**faces),
        "",
    ]
    out += [
        tr(
            "- After each roll, set aside what qualifies: the ship first; the captain only "
            "once the ship is held; the crew only once ship and captain are held. Several "
            "can qualify in one roll, and then they are all set aside at once."
        ),
        tr("- Only one die per role: a second {ship} is an ordinary die.").format(**faces),
        tr("- Dice that are set aside are never rolled again; roll only the free dice."),
        tr(
            "- Once ship, captain and crew are held, the two other dice of that roll are "
            "the cargo. Your score is their sum, from 2 to 12."
        ),
        tr("- Without a full crew after three rolls you score 0."),
    ]
    if rules.cargo_rerolls == 0:
        out += [tr("- The cargo may not be rerolled: the first cargo is final (house rule)."), ""]
    else:
        out += [
            tr(
                "- With rolls left you may stand or reroll both cargo dice; the new cargo "
                "counts even when it is worse."
            )
        ]
        if rules.cargo_rerolls is not None:
            out += [
                tr(
                    "- House rule (001): the cargo may be rerolled at most {n} time(s) per turn."
                ).format(n=rules.cargo_rerolls)
            ]
        out += [""]
    out += [
        tr(
            "Example: you roll 6 5 3 3 1 and keep the 6 and the 5. Your second roll, with "
            "three dice, shows 4 2 6: the 4 completes the crew and the cargo is 2 + 6 = 8. "
            "Your third roll could gamble on the cargo."
        )
        if not rules.bow_to_stern
        else tr(
            "Example: you roll 1 2 5 5 6 and keep the 1 and the 2. Your second roll, with "
            "three dice, shows 3 4 6: the 3 completes the crew and the cargo is 4 + 6 = 10."
        ),
        "",
    ]

    variants: list[str] = []
    if rules.bow_to_stern:
        variants.append(
            tr("- **Bow to stern** (000/003): collect 1, 2 and 3 instead of 6, 5 and 4.")
        )
    if rules.wild_captain:
        variants.append(
            tr(
                "- **Wild captain** (002): a rolled {wild} may stand for any "
                "missing role, still in order. When a roll can be set aside in "
                "several ways, you choose which."
            ).format(wild=rules.wild_face)
        )
    if rules.half_cargo:
        variants.append(
            tr(
                "- **Shifting cargo** (000/003): when you reroll the cargo, you may "
                "keep one cargo die and roll only the other."
            )
        )
    if rules.same_roll_bonus:
        variants.append(
            tr(
                "- **Same-roll bonus** (001): ship, captain and crew all set aside "
                "from one roll earn {bonus} extra points."
            ).format(bonus=rules.same_roll_bonus)
        )
    if variants:
        out += [tr("## Variants in play"), "", *variants, ""]

    out += [tr("## The round"), ""]
    if rules.starter is Starter.ROLLOFF:
        out += [
            tr(
                "- Who starts the first round: everyone rolls one die, the highest starts; "
                "tied players roll again."
            )
        ]
    else:
        out += [
            tr("- Who starts the first round: the table chooses (002: for example the youngest).")
        ]
    out += [
        {
            Rotation.RIGHT: tr(
                "- Each new round is started by the right-hand neighbour of the "
                "previous starter (000/003)."
            ),
            Rotation.LEFT: tr(
                "- Each new round is started by the left-hand neighbour of the "
                "previous starter: the start moves on with the cup."
            ),
            Rotation.NONE: tr("- The same player starts every round."),
        }[rules.rotation]
    ]
    out += [
        tr("- Later players see the scores posted before them. The highest score wins the round.")
    ]
    if rules.tie_break is TieBreak.REPLAY:
        out += [
            tr(
                "- A tie at the top: only the tied players play new full turns until one "
                "is ahead (000/001/003)."
            )
        ]
    else:
        out += [
            tr(
                "- A tie at the top: the tied players each roll their two cargo dice; the "
                "higher sum wins, and they roll again while tied (002)."
            )
        ]
    if rules.all_fail is AllFail.REPLAY:
        out += [tr("- If nobody completes a crew, the round is played again.")]
    else:
        out += [
            tr(
                "- If nobody completes a crew, nobody wins the round and the pot stays for "
                "the next one (002)."
            )
        ]
    out += [""]

    out += [tr("## Stakes"), ""]
    if rules.stakes is Stakes.POINTS:
        out += [tr("- You play for points only (003).")]
    else:
        out += [
            tr(
                "- Everyone starts with {chips} chips and antes {ante} each round; the "
                "round's winner takes the pot. A player who cannot ante sits the round "
                "out (001/002)."
            ).format(chips=rules.starting_chips, ante=rules.ante)
        ]
    drink = {
        Drinking.NONE: "",
        Drinking.ALL_BUT_WINNER: tr("- Everyone except the round's winner takes a sip (000/003)."),
        Drinking.LAST_DRINKS: tr(
            "- Only the lowest score drinks; everyone tied for lowest drinks (000/002/003)."
        ),
        Drinking.CAPTAIN_HANDS_OUT: tr(
            "- The captain hands out: the round's winner rolls one "
            "die and hands out that many sips to the others, as "
            "they like (000/003)."
        ),
    }[rules.drinking]
    if drink:
        out += [drink]
    if rules.failed_double:
        out += [tr("- A player without a full crew drinks double (002).")]
    out += [""]

    out += [tr("## The match"), ""]
    kind = rules.format.kind
    if kind == "single":
        out += [tr("- One round; its winner wins the match.")]
    elif kind == "rounds":
        out += [
            tr(
                "- {n} rounds; the highest total of all scores wins. A tie is broken like "
                "a tie in a round."
            ).format(n=rules.format.n)
        ]
    elif kind == "first_to":
        out += [
            tr(
                "- Rounds until someone's total reaches {n}; if several pass it in the same "
                "round, the highest total wins (001)."
            ).format(n=rules.format.n)
        ]
    else:
        out += [
            tr(
                "- Tournament (002): two preliminary rounds; the two highest totals play "
                "a final round, and its winner takes all."
            )
        ]
    out += [""]

    out += [tr("## Tips from the sheets"), ""]
    if rules.cargo_rerolls == 0:
        verdict = tr("Under these rules the cargo is never rerolled, so this tip does not apply.")
    elif notes is not None:
        verdict = _sheet_tip_note(notes, tr)
    else:
        verdict = ""
    out += [tr('- "Rerolling the cargo only pays off at six or less" (000/003).')]
    if verdict:
        out += ["  " + verdict]
    out += [tr('- "Re-roll below 7; at exactly 7 it is neutral" (002).')]
    if verdict:
        out += ["  " + verdict]
    out += [
        tr('- "Watch the scores already posted; with more players you need more" (002).'),
        "  "
        + tr(
            "The solver agrees: the best choice depends on the scores posted and the "
            "players still to come. Type ? at a decision in scc play to see it."
        ),
    ]
    out += [""]
    return "\n".join(out)
