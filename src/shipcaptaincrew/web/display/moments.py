"""What an event means for the table: the moment a page holds on screen, the last round's card.

A *moment* is the part of an event worth keeping on screen for a couple of seconds while the
table moves on underneath: the roll or stand that ended a turn, a roll-off die, a round's
result, the match's end (:func:`~.podium.podium`).  Each is read off the engine's own facts --
the states before and after the event, the turn's own step (``turn.apply``, as the narration
and the statistics read it), the :class:`~shipcaptaincrew.state.RoundResult` the engine
appended and the contests it opened -- and never by playing a rule again here.

:class:`Story` is what the table remembers between events beyond the engine's state: the
round's first tie (to say why a tie-break decided it), the match's tie, the last round's
result and, at the end, the podium.  It is a value: the look-ahead steps it without touching
the room's, and a room rebuilt from its events steps it through every one of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from ...actions import Action, Leave, Roll, Stand, Stay
from ...bots import make_bot
from ...engine import seat_to_act
from ...state import MatchState, Method, Phase, Purpose, RoundResult, TurnPhase
from ...turn import apply as turn_apply
from ..words import server_texts as T
from ..words.render import Reason, Text, Words
from .podium import Tie, method_word, podium

if TYPE_CHECKING:
    from .absence import By


class TurnEnd(StrEnum):
    """Why a turn ended."""

    STAND = "stand"  #: the player stood on the cargo
    NO_CREW = "no_crew"  #: the last roll came and went without a full crew
    LAST_ROLL = "last_roll"  #: a full crew, and no roll left
    NO_REROLLS = "no_rerolls"  #: a full crew with a roll left, but no cargo reroll allowed


#: The contests whose turns break a tie: their scores decide it and count to no total.
TIE_PURPOSES = frozenset({Purpose.ROUND_TIE, Purpose.MATCH_TIE, Purpose.FINAL_PLACES})


def turn_end(
    before: MatchState, action: Action, names: Sequence[str], by: By | None = None
) -> dict[str, Any] | None:
    """The moment of an event that ends a turn (None for any other event).

    Its one-liner celebrates a score only while it leads the contest ("Anna: 9!"); a score
    level with the best posted or behind it says so, and who leads.
    """
    t = before.turn
    if before.phase is not Phase.TURN or t is None or isinstance(action, Leave | Stay):
        return None
    done = turn_apply(t, action)  # the turn's own step, straight from the engine
    if done.phase is not TurnPhase.DONE:
        return None
    seat = seat_to_act(before)
    assert seat is not None
    if isinstance(action, Stand):
        why = TurnEnd.STAND
    elif not done.complete:
        why = TurnEnd.NO_CREW
    elif done.rolls_left == 0:
        why = TurnEnd.LAST_ROLL
    else:
        why = TurnEnd.NO_REROLLS
    others = {s: n for s, n in before.posted_scores.items() if s != seat}
    best = max(others.values(), default=0)
    leads = done.complete and done.score > best
    name = names[seat]
    tie_break = before.contest is not None and before.contest.purpose in TIE_PURPOSES
    if tie_break:  # its roll decides the tie and counts to nobody's total
        text = Words(T.TURN_TIE_BREAK, {"name": name, "score": done.score if done.complete else 0})
    elif not done.complete:
        text = Words(T.TURN_NO_CREW, {"name": name})
    elif leads:
        text = Words(T.TURN_SCORED, {"name": name, "score": done.score})
    elif done.score == best:
        level = tuple(names[s] for s, n in others.items() if n == best)
        text = Words(T.TURN_LEVEL, {"name": name, "score": done.score, "names": level})
    else:
        leader = next(s for s, n in others.items() if n == best)
        text = Words(
            T.TURN_BEHIND,
            {"name": name, "score": done.score, "leader": names[leader], "best": best},
        )
    return {
        "kind": "turn_end",
        "seat": seat,
        "faces": list(done.last_roll),
        "held": list(done.held),
        "roles": list(done.held_roles),
        "cargo": list(done.cargo),
        # The dice in the cup: how many of the last roll's dice a page leaves free.
        "dice": done.rules.dice,
        "score": done.score,
        "complete": done.complete,
        "leads": leads and not tie_break,
        # A tie-break turn: its score decides the tie, and is on no card.
        "tie_break": tie_break,
        "bonus": done.bonus,
        "why": why.value,
        # Why a bot played this person's turn (None: the player did, or a bot seat).
        "by": None if by is None else by.value,
        "text": text,
    }


def tie_view(state: MatchState, names: Sequence[str]) -> dict[str, Any] | None:
    """The tie being broken now, as the table shows it: who tied, with what, and how it is
    broken (None when no tie-break is being played).  Read off the engine's contest: the
    round's scores for a round's tie, the totals (or, a table out of chips, the chips) for
    the match or a place in the final."""
    c = state.contest
    if c is None or c.purpose in (Purpose.ROUND, Purpose.STARTER):
        return None
    first = c.seats[0]
    tied = tuple(names[s] for s in c.seats)
    if c.method is Method.TURN:
        how = Words(T.TIE_BY_TURN)
    else:
        how = Words(T.TIE_BY_CARGO if state.rules.cargo_dice > 1 else T.TIE_BY_CARGO_DIE)
    if c.depth:
        text = Words(T.TIE_AGAIN, {"names": tied, "how": how})
        score = None
    elif c.purpose is Purpose.ROUND_TIE:
        score = state.round_scores[first]
        text = Words(T.TIE_ROUND, {"names": tied, "score": score, "how": how})
    elif c.purpose is Purpose.FINAL_PLACES:
        score = state.totals[first]
        text = Words(T.TIE_FINAL, {"names": tied, "n": score, "how": how})
    elif len({state.totals[s] for s in c.seats}) == 1:
        score = state.totals[first]
        text = Words(T.TIE_MATCH, {"names": tied, "n": score, "how": how})
    else:  # a table out of chips: the richest tied
        score = state.chips[first]
        text = Words(T.TIE_MATCH_CHIPS, {"names": tied, "n": score, "how": how})
    return {
        "purpose": c.purpose.value,
        "method": c.method.value,
        "seats": list(c.seats),
        "score": score,
        "text": text,
    }


def rolloff(before: MatchState, action: Action) -> dict[str, Any] | None:
    """The moment of a roll-off die (who starts) or a cargo tie-break pair (None otherwise)."""
    if not isinstance(action, Roll) or before.contest is None:
        return None
    if before.phase not in (Phase.ROLL_OFF, Phase.CARGO_ROLL_OFF):
        return None
    return {
        "kind": "rolloff",
        "seat": seat_to_act(before),
        "faces": list(action.faces),
        "purpose": "starter" if before.contest.purpose is Purpose.STARTER else "tie",
    }


def left(action: Leave | Stay, names: Sequence[str]) -> dict[str, Any]:
    """The moment of a player asked to leave the match after the round, or staying after
    all (back before the round was over)."""
    name = names[action.seat]
    if isinstance(action, Stay):
        return {"kind": "stay", "seat": action.seat, "text": Words(T.STAYS, {"name": name})}
    return {"kind": "leave", "seat": action.seat, "text": Words(T.LEAVES, {"name": name})}


def round_end(r: RoundResult, tie: Tie | None, names: Sequence[str]) -> dict[str, Any]:
    """A finished round as the result card shows it (and ``last_result`` keeps it)."""
    if r.winner is None:
        text = Words(T.ROUND_ALL_FAILED if r.all_failed else T.ROUND_NO_WINNER, {"n": r.round_no})
        why = None
    else:
        score = r.scores[r.winner]
        text = Words(T.ROUND_WON, {"n": r.round_no, "name": names[r.winner], "score": score})
        why = None
        if tie is not None:
            why = Words(
                T.ROUND_TIE_WHY,
                {
                    "names": tuple(names[s] for s in tie.seats),
                    "score": r.scores[tie.seats[0]],
                    "method": method_word(tie.method),
                    "name": names[r.winner],
                },
            )
    return {
        "kind": "round_end",
        "round_no": r.round_no,
        "stage": r.stage.value,
        "seats": list(r.seats),
        "scores": list(r.scores),
        "winner": r.winner,
        "pot_won": r.pot_won,
        "sips": list(r.sips),
        "tie_breaks": r.tie_breaks,
        "all_failed": r.all_failed,
        "tie_break": tie.method.value if tie is not None else None,
        "text": text,
        "why": why,
    }


@dataclass(frozen=True)
class Story:
    """What the table remembers beyond the engine's state (see the module docstring)."""

    #: The current round's first tie-break contest, once one opened.
    round_tie: Tie | None = None
    #: The match's first tie-break contest (for the match win), once one opened.
    match_tie: Tie | None = None
    #: The last finished round, as :func:`round_end` draws it.
    last_result: dict[str, Any] | None = None
    #: Once the match is over: :func:`~.podium.podium`.
    podium: dict[str, Any] | None = None

    def step(
        self,
        before: MatchState,
        action: Action,
        after: MatchState,
        names: Sequence[str],
        by: By | None = None,
    ) -> tuple[Story, dict[str, Any] | None]:
        """The story after one event (``after = apply(before, action)``) and its moment."""
        round_tie, match_tie = self.round_tie, self.match_tie
        c = after.contest
        if c is not None and not c.scores:
            if c.purpose is Purpose.ROUND_TIE and round_tie is None:
                round_tie = Tie.of(c, after)
            elif c.purpose is Purpose.MATCH_TIE and match_tie is None:
                match_tie = Tie.of(c, after)
        if isinstance(action, Leave | Stay):
            return Story(round_tie, match_tie, self.last_result, self.podium), left(action, names)
        part = turn_end(before, action, names, by) or rolloff(before, action)
        # The parts of one event, shown in order: the turn's end or the roll-off, the round's
        # result, the match's end.
        parts = {"turn": _kind(part, "turn_end"), "rolloff": _kind(part, "rolloff")}
        moment, ended = part, None
        last_result, final = self.last_result, self.podium
        if len(after.results) > len(before.results):
            last_result = ended = round_end(after.results[-1], round_tie, names)
            round_tie = None
            moment = {**ended, **parts}
        if after.is_over and not before.is_over:
            final = podium(after, match_tie, names, ended["why"] if ended else None)
            moment = {"kind": "match_end", **final, "round": ended, **parts}
        return Story(round_tie, match_tie, last_result, final), moment


def explained(
    moment: dict[str, Any] | None, before: MatchState, action: Action, reason: Text
) -> dict[str, Any]:
    """A bot's move's moment with the bot's reason on it: ``reason = {"seat", "action",
    "text", "turn"}`` (the text said in each viewer's language; ``turn`` the score and the
    held dice the bot chose on, for the words of its choice: by the time the page shows the
    reason, the table has moved on to the next turn, and "Stand on 0" was said of a stand on
    9).  A bot's choice that makes no other moment (a reroll in mid-turn, a wild-captain
    assignment) is a moment of its own, of kind ``choice``, so the page can still show why."""
    seat = seat_to_act(before)
    assert seat is not None
    t = before.turn
    turn = None if t is None else {"score": t.score, "held": list(t.held)}
    why = {"seat": seat, "action": str(action), "text": reason, "turn": turn}
    if moment is None:
        return {"kind": "choice", "seat": seat, "action": str(action), "reason": why}
    return {**moment, "reason": why}


def bot_explained(
    moment: dict[str, Any] | None, before: MatchState, action: Action, bot: str | None
) -> dict[str, Any] | None:
    """The moment of a move, with the reason of the bot that chose it (``bot``: its spec;
    None for a person's move, and a roll is nobody's choice)."""
    if bot is None or isinstance(action, Roll | Leave | Stay):
        return moment
    return explained(moment, before, action, Reason(make_bot(bot).explain(before)))


def _kind(part: dict[str, Any] | None, kind: str) -> dict[str, Any] | None:
    return part if part is not None and part["kind"] == kind else None
