"""What a slow table's player missed: the moments of the moves made since their phone last
looked, replayed in order on opening.

A slow table's phones are closed most of the day; when one opens, the table has moved on by
several turns.  Its first picture shows where the table is, but not how it got there: whose
turn scored what, who won the round.  So the phone says in its hello the version (the number of
events) of the last picture it drew of this table (``seen``), and before its first picture it
is sent the moments of the events after that, oldest first, which it plays through its strip,
fast.  The moments are the live ones: the table's story is stepped again from the first
event with :meth:`..display.moments.Story.step`, the very step that made each moment when it
happened (with who played for whom, from the events), never rebuilt here.

Stepping from the start replays the match once (a few hundred events at most) per phone that
opens a slow table behind; at most :data:`MOST` moments go, the newest.  A live table sends
none: its phones are open, and a reconnection's first picture has the story's last lines.
"""

from __future__ import annotations

from typing import Any

from ...notation import replay_states
from ..display.absence import by_of
from ..display.moments import Story
from ..table.room import LiveRoom

#: The most moments sent on opening (the newest): a day's worth of a four-player match's turns,
#: which the phone plays in well under half a minute.
MOST = 24


def missed(room: LiveRoom, seen: int | None) -> list[dict[str, Any]]:
    """The moments of the events after version ``seen``, oldest first (empty for a live table,
    a phone that saw everything, a version this match never had, or no match)."""
    if room.pace is None or room.state is None or seen is None:
        return []
    if not 0 <= seen < room.version:
        return []
    states = replay_states(room.log())
    story, out = Story(), []
    for no, ((before, _), (after, action), event) in enumerate(
        zip(states[:-1], states[1:], room.events, strict=True)
    ):
        assert action is not None  # (only the first state has no event)
        story, moment = story.step(before, action, after, room.names, by_of(event))
        if no >= seen and moment is not None:
            out.append(moment)
    return out[-MOST:]
