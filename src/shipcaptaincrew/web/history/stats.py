"""Each player's line for the statistics, counted from the engine's own states."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ...actions import Leave
from ...engine import apply, initial_state, is_terminal, opening_chips, seat_to_act
from ...notation import replay_events
from ...state import MatchState, Phase
from ..storage.models import Result
from ..table.room import LiveRoom


def results(room: LiveRoom, events: list[dict[str, Any]], final: MatchState) -> list[Result]:
    """Every seat's result row for a finished match (``events``: all of them, the last included).

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
        if before.phase is Phase.TURN and before.turn is not None and not isinstance(action, Leave):
            turn = apply(before.turn, action)  # the turn's own step, straight from the engine
            seat = seat_to_act(before)
            if is_terminal(turn) and turn.complete and seat is not None:
                crews[seat] += 1
        before = after
    finished = datetime.now(UTC)
    return [
        Result(
            room_id=room.id,
            position=i,
            name=s.name,
            kind=s.label,
            won=final.winner == i,
            rounds=sum(1 for r in final.results if i in r.seats),
            points=final.totals[i],
            crews=crews[i],
            chips_won=final.chips[i] - stacks[i],
            sips=final.sips[i],
            finished_at=finished,
        )
        for i, s in enumerate(room.seats)
    ]
