"""Asking a person for a decision: a turn's choice, the captain's sips, another round.

Every question is a numbered menu of the engine's legal actions, and every action's canonical
text (``stand``, ``reroll:keep6``, ``sip:2``, ``next_round``, ...) is an answer too, so a
player who knows the notation -- or a script -- can type it.  The captain may also hand out
several sips in one answer, typed like ``Bo 2, Cy 1`` (names, or seat numbers from 1 as the
scoreboard shows them); it becomes the engine's split action, and the engine decides whether
it is allowed.  Nothing here knows a rule: who may take a sip is the engine's list of legal
single sips, and everything else is checked by :func:`~shipcaptaincrew.engine.apply`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.markup import escape

from ...actions import Action, HandOut, HandOutSplit, NextRound, StopHandOut, StopMatch
from ...actions import parse_action as parse_canonical
from ...engine import apply
from ...errors import GameError
from ...i18n import _
from ...messages import NP_
from ...rules import HandOutAmount
from ...state import MatchState, TurnPhase
from ..common import error_text, plural
from .prompt import Prompter, yes_no_words
from .view import describe_action

__all__ = ["action_words", "ask_another_round", "ask_hand_out", "ask_turn", "parse_split"]

#: One share of a split: a name or seat number, then (after a space, ``:`` or ``=``) the sips.
_SHARE = re.compile(r"(.+?)(?:\s*[:=]\s*|\s+)(\d+)")

_ONLY_LEFT = NP_("Only one sip is left to hand out.", "Only {n} sips are left to hand out.")
_MAY_HAND_OUT = NP_(
    "{name}, who drinks? You may hand out one more sip.",
    "{name}, who drinks? You may hand out up to {n} more sips.",
)


def action_words(acts: Sequence[Action]) -> dict[str, int]:
    """Each action's canonical text, as an answer choosing it."""
    return {str(a): i for i, a in enumerate(acts)}


def ask_turn(
    prompt: Prompter, state: MatchState, acts: Sequence[Action], names: Sequence[str]
) -> int:
    """A turn's choice (stand or reroll, which dice to set aside); ``ADVICE`` for ``?``."""
    assert state.turn is not None
    name = names[state.contest.seat] if state.contest and state.contest.seat is not None else ""
    if state.turn.phase is TurnPhase.ASSIGN:
        question = _("{name}, which dice do you set aside?").format(name=name)
    else:
        question = _("{name}, stand or reroll the cargo?").format(name=name)
    options = [describe_action(a, state, names) for a in acts]
    return prompt.choose(question, options, advice=True, words=action_words(acts))


def ask_another_round(
    prompt: Prompter, state: MatchState, acts: Sequence[Action], name: str, names: Sequence[str]
) -> Action:
    """Under ``format=session``: another round or stop; yes and no (any language) answer too."""
    go = next(i for i, a in enumerate(acts) if isinstance(a, NextRound))
    stop = next(i for i, a in enumerate(acts) if isinstance(a, StopMatch))
    words = yes_no_words(go, stop) | action_words(acts)
    options = [describe_action(a, state, names) for a in acts]
    question = _("{name}, another round?").format(name=name)
    return acts[prompt.choose(question, options, words=words)]


def parse_split(
    text: str, state: MatchState, acts: Sequence[Action], names: Sequence[str]
) -> HandOutSplit:
    """``Bo 2, Cy 1`` (or ``2 2, 3 1``, seat numbers from 1; ``Bo`` alone is one sip).

    Raises ``ValueError`` with a complaint in the player's language for a name or seat that
    is not at the table or may not take a sip (the engine's legal single sips say who may).
    """
    lowered = [n.lower() for n in names]
    shares: list[tuple[int, int]] = []
    for part in re.split(r"[,;]", text):
        part = part.strip()
        if not part:
            continue
        m = _SHARE.fullmatch(part)
        who, n = (m.group(1).strip(), int(m.group(2))) if m else (part, 1)
        if who.lower() in lowered:
            seat = lowered.index(who.lower())
        elif who.isdigit() and 1 <= int(who) <= len(names):
            seat = int(who) - 1
        else:
            raise ValueError(
                _(
                    "'{who}' is not at this table: type a name or a seat number from 1 to {n}."
                ).format(who=who, n=len(names))
            )
        if HandOut(seat) not in acts:
            raise ValueError(
                _("{name} cannot take a sip: hand them to another player of this round.").format(
                    name=names[seat]
                )
            )
        shares.append((seat, n))
    split = HandOutSplit(tuple(shares)) if shares else None
    if split is not None and split.total > state.hand_out_left:
        # The engine refuses it too; this says it in the table's words, not in notation.
        raise ValueError(plural(_ONLY_LEFT, state.hand_out_left))
    if split is None:
        raise ValueError(
            _("Type who drinks, e.g. {example}.").format(example=_example(acts, names))
        )
    return split


def _example(acts: Sequence[Action], names: Sequence[str]) -> str:
    """A split of the players who may drink: ``Bo 2, Cy 1``."""
    seats = [a.to for a in acts if isinstance(a, HandOut)][:2]
    return ", ".join(f"{names[s]} {2 - i}" for i, s in enumerate(seats))


def ask_hand_out(
    prompt: Prompter, state: MatchState, acts: Sequence[Action], names: Sequence[str], total: int
) -> Action:
    """The captain's sips: one at a time from the menu, or several at once as a split.

    ``total`` is what the captain's die showed; under ``hand_out=exact`` the question counts
    the sips ("sip 2 of 4"), under ``up_to`` it says how many more may go and the menu has a
    stop.
    """
    assert state.round_winner is not None
    name = names[state.round_winner]
    left = state.hand_out_left
    if state.rules.hand_out is HandOutAmount.UP_TO:
        question = plural(_MAY_HAND_OUT, left, name=name)
    else:
        question = _("{name}, who drinks sip {k} of {n}?").format(
            name=name, k=total - left + 1, n=total
        )
    if left == total:  # the hand-out's first question says how to give several at once
        hint = _("Several at once: names (or seat numbers) and sips, e.g. {example}.")
        prompt.console.print(f"[dim]{escape(hint.format(example=_example(acts, names)))}[/]")
    words = action_words(acts)
    for i, a in enumerate(acts):
        if isinstance(a, StopHandOut):
            words.setdefault("stop", i)

    def other(text: str) -> Action:
        try:
            action: Action = parse_canonical(text)
        except GameError:
            action = parse_split(text, state, acts, names)
        try:
            apply(state, action)
        except GameError as e:
            raise ValueError(error_text(e)) from None
        return action

    options = [describe_action(a, state, names) for a in acts]
    k = prompt.choose_or(question, options, other, words=words)
    return acts[k] if isinstance(k, int) else k
