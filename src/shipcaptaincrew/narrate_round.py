"""What the end of a round and a tie-break say: who won, with which score, the pot, and a
tie-break that decides a round, a place in the final or the match (and counts to no total).

Kept apart from :mod:`shipcaptaincrew.narrate`, which tells each step of a turn and a table,
because a round's end has readings of its own (a round won in a tie-break scores the round's
score, not the tie-break's; a tie at the top with no tie-break has no winner) and those
sentences are the ones a tie-break rule changes.
"""

from __future__ import annotations

from collections.abc import Sequence

from .messages import N_, NP_, Message, Plural
from .state import MatchState, Method, Purpose

__all__ = ["POT", "contest_messages", "counted", "names_of", "round_result"]


def names_of(names: Sequence[str], seats: Sequence[int]) -> str:
    """The names of ``seats``, in seat order, as one list."""
    return ", ".join(names[s] for s in seats)


def counted(ids: Plural, count: str, **params: object) -> Message:
    """A plural pair counted by the parameter ``count`` (gettext's ``ngettext``)."""
    return Message(ids[0], dict(params), plural=ids[1], count=count)


#: Who takes a pot, counted in chips.
POT = NP_("{name} takes the pot of one chip.", "{name} takes the pot of {chips} chips.")


def round_result(
    n: int,
    winner: int | None,
    scores: Sequence[int | None],
    pot_won: int,
    all_failed: bool,
    names: Sequence[str],
    tie_breaks: int = 0,
) -> list[Message]:
    """A round's winner and pot, or why it has none.  A round won in a tie-break names the
    score that counts, the round's, not the tie-break's (which counts to nothing)."""
    if winner is not None:
        msgid = (
            N_("Round {n}: {name} wins the tie-break; the round's score of {score} counts.")
            if tie_breaks
            else N_("Round {n}: {name} wins with {score}.")
        )
        out = [Message(msgid, {"n": n, "name": names[winner], "score": scores[winner]})]
        if pot_won:
            out.append(counted(POT, "chips", name=names[winner], chips=pot_won))
        return out
    if all_failed:
        return [Message(N_("Round {n}: nobody completed a crew; the pot stays."), {"n": n})]
    played = [s for s, v in enumerate(scores) if v is not None]
    top = max((scores[s] or 0 for s in played), default=0)
    tied = [s for s in played if scores[s] == top]
    if len(tied) > 1:
        return [
            Message(
                N_("Round {n}: {names} tie at the top, so nobody wins the round."),
                {"n": n, "names": names_of(names, tied)},
            )
        ]
    return [Message(N_("Round {n}: no winner."), {"n": n})]


def contest_messages(before: MatchState, after: MatchState, names: Sequence[str]) -> list[Message]:
    """A tie-break contest that has just begun: who tied, at what, and that its turn or roll
    decides the tie only (it counts to no total: a round won in it scores the round's score)."""
    bc, ac = before.contest, after.contest
    if ac is None or ac is bc or ac.purpose is Purpose.ROUND or ac.scores:
        return []
    method = {
        Method.TURN: N_("turn"),
        Method.CARGO: N_("cargo dice") if after.rules.cargo_dice > 1 else N_("cargo die"),
        Method.DIE: N_("one die"),
    }[ac.method]
    params: dict[str, object] = {"names": names_of(names, ac.seats), "method": (method,)}
    if ac.purpose is Purpose.STARTER:
        return [Message(N_("Tie for the start between {names}: they roll again."), params)]
    if ac.depth:
        msgid = N_("{names} tie again: another tie-break by {method}, which counts to no total.")
        return [Message(msgid, params)]
    first = ac.seats[0]
    if ac.purpose is Purpose.ROUND_TIE:
        params["score"] = after.round_scores[first]
        msgid = N_(
            "Tie between {names} at {score}: a tie-break by {method} decides the round, and "
            "counts to no total."
        )
    elif len({after.totals[s] for s in ac.seats}) > 1:  # a table out of chips: the richest
        msgid = N_(
            "Tie for the match between {names}: a tie-break by {method} decides it, and "
            "counts to no total."
        )
    else:
        params["total"] = after.totals[first]
        msgid = (
            N_(
                "Tie for a place in the final between {names} at {total} each: a tie-break by "
                "{method} decides it, and counts to no total."
            )
            if ac.purpose is Purpose.FINAL_PLACES
            else N_(
                "Tie for the match between {names} at {total} each: a tie-break by {method} "
                "decides it, and counts to no total."
            )
        )
    return [Message(msgid, params)]
