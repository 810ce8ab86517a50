"""The podium at a match's end: every seat's place and one sentence saying why the winner won.

Read off the engine's facts: the final state (totals, chips, wins, sips, the results of every
round), the match format the rules name, and the tie-break contests the engine opened
(:class:`Tie`, remembered by :class:`~.moments.Story`).  What ended the match is told by
what the engine left behind: a tie-break contest for the match, a format that did not run its
course (the table could no longer ante: a match of chips), a format whose last round decides
(one round; the tournament's final), else the totals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ...formats import FormatKind
from ...rules import Rules, Stakes
from ...state import Contest, MatchState, Method, Stage
from ..storage.models import MatchEnd
from ..words import server_texts as T
from ..words.render import Words


class DecidedBy(StrEnum):
    """What decided the match."""

    TOTALS = "totals"  #: the highest total of points
    TIE_BREAK = "tie_break"  #: a tie for the match, broken by a contest
    CHIPS = "chips"  #: the others could no longer ante
    ROUND = "round"  #: the one round, or the tournament's final
    LEFT = "left"  #: everyone else left the match (``actions.Leave``)


#: How a tie-break was played, in the core's words (``scc`` catalogue, as the narration says it).
_METHOD_WORDS = {Method.TURN: "turn", Method.CARGO: "cargo dice", Method.DIE: "one die"}


def method_word(method: Method) -> Words:
    """A tie-break method as the narration names it ("cargo dice")."""
    return Words(_METHOD_WORDS[method], domain="scc")


@dataclass(frozen=True)
class Tie:
    """A tie-break contest as it opened: who tied, how it is broken, what they tied with."""

    seats: tuple[int, ...]
    method: Method
    totals: int
    chips: int

    @classmethod
    def of(cls, contest: Contest, state: MatchState) -> Tie:
        """The tie ``contest`` opens in ``state``."""
        first = contest.seats[0]
        return cls(contest.seats, contest.method, state.totals[first], state.chips[first])


def ran_its_course(final: MatchState) -> bool:
    """Whether the match ended where its format ends it (else the table ran out of chips)."""
    fmt = final.rules.format
    last = final.results[-1] if final.results else None
    if fmt.kind is FormatKind.SINGLE:
        return last is not None and last.winner == final.winner
    if fmt.kind is FormatKind.TOURNAMENT:
        return last is not None and last.stage is Stage.FINAL and last.winner == final.winner
    if fmt.kind is FormatKind.ROUNDS:
        return len(final.results) >= fmt.n
    if fmt.kind is FormatKind.FIRST_TO:
        return max(final.totals) >= fmt.n
    return True


def decided_by(final: MatchState, match_tie: Tie | None) -> DecidedBy:
    """What decided a finished match (see the module docstring)."""
    if final.departed and len(final.staying) <= 1 and final.winner in final.staying:
        return DecidedBy.LEFT
    if match_tie is not None:
        return DecidedBy.TIE_BREAK
    if not ran_its_course(final):
        return DecidedBy.CHIPS
    if final.rules.format.kind in (FormatKind.SINGLE, FormatKind.TOURNAMENT):
        return DecidedBy.ROUND
    return DecidedBy.TOTALS


def _ranking(final: MatchState, by: DecidedBy) -> list[dict[str, Any]]:
    """Every seat, the winner first, then by what decided the match; equal ones share a place."""

    def key(s: int) -> tuple[int, ...]:
        stayed = s not in final.departed  # those who left come after those who stayed
        if by is DecidedBy.CHIPS:
            return (stayed, final.chips[s], final.totals[s])
        return (stayed, s in final.finalists, final.totals[s])

    order = sorted(range(final.players), key=lambda s: (s != final.winner, [-k for k in key(s)]))
    out: list[dict[str, Any]] = []
    for i, s in enumerate(order):
        prev = order[i - 1] if i else None
        if prev is not None and prev != final.winner and key(s) == key(prev):
            place = out[-1]["place"]
        else:
            place = i + 1
        out.append(
            {
                "seat": s,
                "place": place,
                "total": final.totals[s],
                "wins": final.wins[s],
                "chips": final.chips[s],
                "sips": final.sips[s],
                "left": s in final.departed,
            }
        )
    return out


def _why(final: MatchState, by: DecidedBy, tie: Tie | None, names: Sequence[str]) -> Words:
    w = final.winner
    if w is None:
        return Words(T.WHY_NO_WINNER)
    name = names[w]
    if by is DecidedBy.LEFT:
        return Words(T.WHY_OTHERS_LEFT, {"name": name})
    if by is DecidedBy.TIE_BREAK:
        assert tie is not None
        tied = {"names": tuple(names[s] for s in tie.seats), "name": name}
        method = method_word(tie.method)
        if ran_its_course(final):
            return Words(T.WHY_TIE_TOTALS, {**tied, "n": tie.totals, "method": method})
        return Words(T.WHY_TIE_CHIPS, {**tied, "n": tie.chips, "method": method})
    if by is DecidedBy.CHIPS:
        if final.chips[w] >= final.rules.ante:
            return Words(T.WHY_LAST_WITH_CHIPS, {"name": name})
        return Words(T.WHY_MOST_CHIPS, {"name": name, "chips": final.chips[w]})
    if by is DecidedBy.ROUND:
        final_round = final.rules.format.kind is FormatKind.TOURNAMENT
        return Words(T.WHY_FINAL if final_round else T.WHY_ROUND, {"name": name})
    richest = max(final.chips)
    alone_richest = final.chips[w] == richest and final.chips.count(richest) == 1
    if final.rules.stakes is Stakes.POT and not alone_richest:  # say it: chips look decisive
        return Words(T.WHY_TOTALS_NOT_CHIPS, {"name": name, "total": final.totals[w]})
    return Words(T.WHY_TOTALS, {"name": name, "total": final.totals[w]})


def podium(
    final: MatchState,
    match_tie: Tie | None,
    names: Sequence[str],
    round_tie: Words | None = None,
) -> dict[str, Any]:
    """The podium of a finished match: ``winner``, ``ranking``, ``why``, ``decided_by`` and
    ``tie_break``: how the tie of the last round went, where that round decided the match
    (``round_tie``, its result card's sentence) and the reason does not say it already."""
    by = decided_by(final, match_tie)
    return {
        "winner": final.winner,
        "ranking": _ranking(final, by),
        "why": _why(final, by, match_tie, names),
        "decided_by": by.value if final.winner is not None else None,
        "tie_break": round_tie if by is DecidedBy.ROUND else None,
    }


def deciding(rules: Rules) -> dict[str, Any]:
    """What decides a match under ``rules``, for the table to show from the first round:
    ``by`` (``totals``, ``wins`` or ``round``: the number the cards put first) and the
    sentence; under a pot over points, a ``note`` that the chips are only the stake."""
    fmt = rules.format
    kind = fmt.kind
    if kind is FormatKind.SINGLE:
        by, text = DecidedBy.ROUND.value, Words(T.DECIDES_ROUND)
    elif kind is FormatKind.WINS:
        by, text = "wins", Words(T.DECIDES_WINS, {"n": fmt.n})
    else:
        by = DecidedBy.TOTALS.value
        text = {
            FormatKind.ROUNDS: Words(T.DECIDES_ROUNDS, {"n": fmt.n}),
            FormatKind.FIRST_TO: Words(T.DECIDES_FIRST_TO, {"n": fmt.n}),
            FormatKind.TOURNAMENT: Words(T.DECIDES_TOURNAMENT),
        }.get(kind, Words(T.DECIDES_SESSION))
    pot = rules.stakes is Stakes.POT and by == DecidedBy.TOTALS.value
    return {"by": by, "text": text, "note": Words(T.POINTS_NOT_CHIPS) if pot else None}


def ending(events: list[dict[str, Any]], final: MatchState) -> MatchEnd:
    """How a finished match ended: at the table, or because everyone else left it.

    A match the engine ends because fewer than two players are left in it was won by leaving,
    not by play.  It counts as a walkover only if everyone who left was away for real: the
    table's leave of someone away stands only while they stay away (coming back before the
    round is over undoes it, see ``service.standin``), so what is left to tell is a host who
    removed someone while they were at the table (the leave event's ``"away"`` is false):
    then nobody won it (:attr:`MatchEnd.REMOVED`).
    """
    staying = [s for s in range(final.players) if s not in final.departed]
    if not final.departed or len(staying) >= 2:
        return MatchEnd.PLAYED
    last: dict[int, dict[str, Any]] = {}
    for event in events:
        if event.get("type") == "leave":
            last[event["seat"]] = event
    if any(last.get(s, {}).get("away") is False for s in final.departed):
        return MatchEnd.REMOVED
    return MatchEnd.WALKOVER


def counted(podium: dict[str, Any], ended: MatchEnd, names: Sequence[str]) -> dict[str, Any]:
    """The podium of a match that ended by leaving, saying how it counts: a walkover apart
    from wins, a removal as nobody's win (``ended``: :func:`ending`'s)."""
    winner = podium.get("winner")
    if ended is MatchEnd.WALKOVER and winner is not None:
        return {**podium, "why": Words(T.WHY_WALKOVER, {"name": names[winner]}), "ended": ended}
    if ended is MatchEnd.REMOVED:
        return {**podium, "why": Words(T.WHY_REMOVED), "ended": ended, "winner": None}
    return {**podium, "ended": ended}
