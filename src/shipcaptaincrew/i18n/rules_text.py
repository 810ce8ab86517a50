"""The complete rules of a rule set, in our own words, in any catalogue language.

:func:`rules_text` builds Markdown from the parts of the game every rule set shares and, for
each option, the sentence the option table (:mod:`shipcaptaincrew.options`) gives for its
value.  Every sentence is an English message id translated through the ``scc`` catalogue, and
every number in it comes from the :class:`~shipcaptaincrew.rules.Rules` value, so the text
cannot drift from the options the engine plays by.  The sheets' tips close the text, each with the
solver's verdict when the caller passes it (:class:`SolverNotes`), computed by the solver and
never assumed here.

>>> from shipcaptaincrew.rules import find_rules
>>> text = rules_text(find_rules("schiff").replace(format="rounds:3"), translator("de"))
>>> text.splitlines()[0]
'# Schiff, Kapitän & Crew · 3 Runden'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..facts import FACES
from ..formats import FORMAT_KINDS
from ..messages import NP_, Message, Plural
from ..options import OPTIONS, Group, Option, OptionType, PotTo, options_in
from ..rules import PRESET_DESCRIPTIONS, PRESET_TITLES, PRESETS, Rules, name_parts
from . import translator
from .rules_example import counted, worked_example

__all__ = ["SolverNotes", "rules_text", "rules_title"]


def rules_title(rules: Rules, translate: Callable[[str], str] | None = None) -> str:
    """A rule set's human name in the language of ``translate`` (see :func:`~.rules.name_parts`).

    >>> from shipcaptaincrew.rules import find_rules
    >>> rules_title(find_rules("skip").replace(format="rounds:1"), translator("de"))
    'Skip, kaptein og mannskap · 1 Runde'
    """
    tr = translate or translator(None)
    return " · ".join(m.render(tr) for m in name_parts(rules))


@dataclass(frozen=True)
class SolverNotes:
    """What the solver's best-expected-score policy does with the cargo.

    ``reroll_up_to``: per number of rolls left (ascending), the highest cargo it rerolls
    right after completing the crew, or None where it never rerolls.
    """

    reroll_up_to: tuple[tuple[int, int | None], ...]


#: The cargo the sheet 000 tip rerolls at most (000.28).
_TIP_CARGO = 6


def _sheet_tip_note(notes: SolverNotes, tr: Callable[[str], str]) -> str:
    """The solver's verdict on the sheets' reroll tips, one whole sentence per case.

    Whole sentences (rather than "never" slotted into "{n} or less") keep every case
    grammatical in each language; a verdict that differs by rolls left says it per number
    of rolls left, each part a whole clause of its own.
    """
    highest = [cargo for _, cargo in notes.reroll_up_to]
    if highest and all(c == _TIP_CARGO for c in highest):
        return tr(
            "The solver agrees: for the best average score it rerolls a cargo of {cargo} or "
            "less, however many rolls are left."
        ).format(cargo=_TIP_CARGO)
    if all(c is None for c in highest):
        return tr(
            "The solver disagrees: for the best average score it never rerolls the "
            "cargo under these rules."
        )
    parts = [
        Message.of(
            NP_(
                "with {n} roll left it never rerolls the cargo",
                "with {n} rolls left it never rerolls the cargo",
            )
            if cargo is None
            else NP_(
                "with {n} roll left it rerolls a cargo of {cargo} or less",
                "with {n} rolls left it rerolls a cargo of {cargo} or less",
            ),
            n=left,
            cargo=cargo,
        ).render(tr)
        for left, cargo in notes.reroll_up_to
    ]
    return tr("The solver disagrees in part: for the best average score, {parts}.").format(
        parts="; ".join(parts)
    )


def _params(rules: Rules) -> dict[str, Any]:
    """The numbers the rules sentences of the option table may name (and count by): every
    number option's value by its own name (``{same_roll_bonus}``; a new option's sentence can
    name its value without a change here), and the turn's shape and a few values by short
    names."""
    ship, captain, crew = rules.required_faces
    by_name = {
        o.name: getattr(rules, o.name) for o in OPTIONS.values() if o.kind is OptionType.NUMBER
    }
    return by_name | {
        "ship": ship,
        "captain": captain,
        "crew": crew,
        "dice": rules.dice,
        "cargo": rules.cargo_dice,
        "rerolled": rules.cargo_dice - 1,  # the dice a half-cargo reroll rolls
        "rolls": rules.rolls,
        "low": rules.cargo_dice * min(FACES),
        "high": rules.cargo_dice * max(FACES),
        "wild": rules.wild_face,
        "bonus": rules.same_roll_bonus,
        "chips": rules.starting_chips,
        "ante": rules.ante,
        "n": rules.format.n,
    }


def _rule(option: Option, rules: Rules) -> str | Plural:
    """The rules text's sentence for an option at its value in ``rules`` ("" when it has none)."""
    value = getattr(rules, option.name)
    if not rules.says(option.name):
        return ""
    pot_rule = FORMAT_KINDS[rules.format.kind].pot_rule
    if option.enum is PotTo and pot_rule:
        return pot_rule  # the format pays its pot one way only (the tournament, 002.30)
    if option.kind is OptionType.FLAG:
        return option.rule if value else ""
    if option.kind is OptionType.NUMBER:
        return option.rule if value else ""
    if option.kind is OptionType.FORMAT:
        return FORMAT_KINDS[value.kind].rule
    return option.choice(value).rule


def _sentences(
    group: Group, rules: Rules, tr: Callable[[str], str], skip: tuple[str, ...] = ()
) -> list[str]:
    """Every rules sentence the options of ``group`` call for, in the table's order."""
    out = []
    for option in options_in(group):
        ids = _rule(option, rules) if option.name not in skip else ""
        if ids:
            out.append(_sentence(option, ids, rules, tr))
    return out


def _sentence(option: Option, ids: str | Plural, rules: Rules, tr: Callable[[str], str]) -> str:
    """One option's rules sentence, its plural form picked by the option's ``counted_by``."""
    params = _params(rules)
    if isinstance(ids, tuple):
        return Message(ids[0], params, plural=ids[1], count=option.counted_by).render(tr)
    return Message(ids, params).render(tr)


def _header(rules: Rules, tr: Callable[[str], str]) -> list[str]:
    """The human name, the canonical text, and what the rule set is."""
    out = [tr("# {title}").format(title=rules_title(rules, tr)), ""]
    out += [tr("Rule set: `{rules}`").format(rules=str(rules)), ""]
    if rules == PRESETS[rules.name]:
        out += [tr(PRESET_DESCRIPTIONS[rules.name]), ""]
    else:
        # The preset's own summary would contradict the options changed from it.
        out += [
            tr("Based on {preset}, with these changes: {changes}.").format(
                preset=tr(PRESET_TITLES[rules.name]),
                changes=", ".join(m.render(tr) for m in name_parts(rules)[1:]),
            ),
            "",
        ]
    return out


def _turn(rules: Rules, tr: Callable[[str], str]) -> list[str]:
    faces = _params(rules)
    out = [tr("## Your turn"), ""]
    out += [
        Message.of(
            NP_(
                "You have one roll. Your aim is a ship ({ship}), a captain ({captain}) and a "
                "crew ({crew}), collected in exactly this order.",
                "You have up to {n} rolls. Your aim is a ship ({ship}), a captain ({captain}) "
                "and a crew ({crew}), collected in exactly this order.",
            ),
            n=rules.rolls,
            ship=faces["ship"],
            captain=faces["captain"],
            crew=faces["crew"],
        ).render(tr),
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
        counted(
            NP_(
                "- Once ship, captain and crew are held, the other die of that roll is the "
                "cargo. Your score is its face, from {low} to {high}.",
                "- Once ship, captain and crew are held, the other {n} dice of that roll are "
                "the cargo. Your score is their sum, from {low} to {high}.",
            ),
            rules.cargo_dice,
            tr,
            faces,
        ),
        Message.of(
            NP_(
                "- Without a full crew after your roll you score 0.",
                "- Without a full crew after {n} rolls you score 0.",
            ),
            n=rules.rolls,
        ).render(tr),
    ]
    if rules.cargo_rerolls == 0:
        out += [tr("- The cargo may not be rerolled: the first cargo is final (house rule)."), ""]
    else:
        out += [counted(_REROLL, rules.cargo_dice, tr)]
        if rules.cargo_rerolls is not None:
            out += [
                Message.of(
                    NP_(
                        "- House rule (001.20): the cargo may be rerolled at most once per turn.",
                        "- House rule (001.20): the cargo may be rerolled at most {n} times per "
                        "turn.",
                    ),
                    n=rules.cargo_rerolls,
                ).render(tr)
            ]
        out += [""]
    out += [worked_example(rules, tr), ""]

    variants = _sentences(Group.TURN, rules, tr)
    if variants:
        out += [tr("## Variants in play"), "", *variants, ""]
    return out


#: Standing or rerolling the cargo, counted by the cargo's dice.
_REROLL = NP_(
    "- With rolls left you may stand or reroll the cargo die; the new cargo counts even when "
    "it is worse.",
    "- With rolls left you may stand or reroll the {n} cargo dice; the new cargo counts even "
    "when it is worse.",
)


def _round(rules: Rules, tr: Callable[[str], str]) -> list[str]:

    out = [tr("## The round"), ""]
    first = _sentences(Group.ROUND, rules, tr, skip=("tie_break", "all_fail"))
    out += first
    out += [
        tr("- Later players see the scores posted before them. The highest score wins the round.")
    ]
    rest = [o for o in options_in(Group.ROUND) if o.name in ("tie_break", "all_fail")]
    out += [_sentence(o, _rule(o, rules), rules, tr) for o in rest]
    return [*out, ""]


def _tips(rules: Rules, tr: Callable[[str], str], notes: SolverNotes | None) -> list[str]:
    out = [tr("## Tips from the sheets"), ""]
    if rules.cargo_rerolls == 0:
        verdict = tr("Under these rules the cargo is never rerolled, so this tip does not apply.")
    elif notes is not None:
        verdict = _sheet_tip_note(notes, tr)
    else:
        verdict = ""
    out += [tr("- 000/003 (000.28): a cargo reroll usually pays only at 6 points or less.")]
    if verdict:
        out += ["  " + verdict]
    out += [
        tr("- 002 (002.37, 002.38): reroll a cargo below 7; at exactly 7 it makes no difference.")
    ]
    if verdict:
        out += ["  " + verdict]
    out += [
        tr(
            "- 002 (002.41, 002.43): mind the scores already posted; the more players, the more you need."
        ),
        "  "
        + tr(
            "The solver agrees: the best choice depends on the scores posted and the "
            "players still to come. Type ? at a decision in scc play to see it."
        ),
    ]
    return [*out, ""]


def rules_text(
    rules: Rules, translate: Callable[[str], str] | None = None, notes: SolverNotes | None = None
) -> str:
    """The rules of ``rules`` as Markdown in the language of ``translate``.

    Every sentence that depends on an option is that option's own sentence in the option
    table (:mod:`shipcaptaincrew.options`), so a new option or choice brings its text along.
    """
    tr = translate or translator(None)
    out = _header(rules, tr)
    out += [tr("## What you need"), ""]
    out += [
        counted(
            NP_(
                "One ordinary die, a cup, and two to eight players. Everybody plays one turn "
                "per round, one after the other.",
                "{n} ordinary dice, a cup, and two to eight players. Everybody plays one turn "
                "per round, one after the other.",
            ),
            rules.dice,
            tr,
        ),
        "",
    ]
    out += _turn(rules, tr)
    out += _round(rules, tr)
    out += [tr("## Stakes"), "", *_sentences(Group.STAKES, rules, tr), ""]
    out += [tr("## The match"), "", *_sentences(Group.MATCH, rules, tr), ""]
    out += _tips(rules, tr, notes)
    return "\n".join(out)
