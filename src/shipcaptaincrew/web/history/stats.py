"""Each player's line for the statistics, counted from the engine's own states, and how the
match ended (a match "won" because everyone else left counts apart)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ...actions import Leave, Stay
from ...engine import apply, initial_state, is_terminal, opening_chips, seat_to_act
from ...notation import replay_events
from ...state import MatchState, Phase
from ..display.podium import ending
from ..storage.models import MatchEnd, Result
from ..table.room import LiveRoom


def results(
    room: LiveRoom, events: list[dict[str, Any]], final: MatchState
) -> tuple[list[Result], MatchEnd]:
    """Every seat's result row for a finished match (``events``: all of them, the last
    included), and how it ended (:func:`ending`): a walkover's win is marked as one
    (``walkover``, not ``won``), a removal's counts as nobody's.

    A crew is a turn that ends with ship, captain and crew all held (the turn's own state after
    its last step, as the engine has it); chips won are the final stack less the one the seat
    opened with (:func:`~shipcaptaincrew.engine.opening_chips`), so they come out right whatever stakes and stacks
    the rules set, and add up to nothing once the pot is empty.
    """
    opening = initial_state(room.rules, len(room.seats), starter=room.first_seat())
    stacks = opening_chips(room.rules, len(room.seats))
    crews = [0] * len(room.seats)
    before = opening
    for after, action in replay_events(opening, events):
        table_step = isinstance(action, Leave | Stay)
        if before.phase is Phase.TURN and before.turn is not None and not table_step:
            turn = apply(before.turn, action)  # the turn's own step, straight from the engine
            seat = seat_to_act(before)
            if is_terminal(turn) and turn.complete and seat is not None:
                crews[seat] += 1
        before = after
    finished = datetime.now(UTC)
    ended = ending(events, final)
    return [
        Result(
            room_id=room.id,
            position=i,
            name=s.name,
            kind=s.label,
            won=final.winner == i and ended is MatchEnd.PLAYED,
            walkover=final.winner == i and ended is MatchEnd.WALKOVER,
            rounds=sum(1 for r in final.results if i in r.seats),
            points=final.totals[i],
            crews=crews[i],
            chips_won=final.chips[i] - stacks[i],
            sips=final.sips[i],
            finished_at=finished,
        )
        for i, s in enumerate(room.seats)
    ], ended
