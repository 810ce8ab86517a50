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

Stepping from the start replays the match (a few hundred events at most, some milliseconds
under the table's lock), so it is done once per version of a table in memory and kept with it
(:data:`_STEPPED`): every phone that opens the table behind, or one that opens it again and
again, is answered from what was stepped, until the next move.  At most :data:`MOST` moments
go, the newest.  A live table sends none: its phones are open, and a reconnection's first
picture has the story's last lines.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

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
    return [moment for no, moment in _moments(room) if no >= seen][-MOST:]


#: Per table in memory: the version and names its moments were stepped at, and each moment
#: with its event's number.  A table rebuilt from the database is another object (stepped
#: anew); one dropped from memory takes its moments with it.
_STEPPED: WeakKeyDictionary[
    LiveRoom, tuple[tuple[int, tuple[str, ...]], list[tuple[int, dict[str, Any]]]]
] = WeakKeyDictionary()


def _moments(room: LiveRoom) -> list[tuple[int, dict[str, Any]]]:
    """Every moment of the match so far with its event's number, stepped once per version."""
    key = (room.version, tuple(room.names))
    kept = _STEPPED.get(room)
    if kept is not None and kept[0] == key:
        return kept[1]
    states = replay_states(room.log())
    story, out = Story(), []
    for no, ((before, _), (after, action), event) in enumerate(
        zip(states[:-1], states[1:], room.events, strict=True)
    ):
        assert action is not None  # (only the first state has no event)
        story, moment = story.step(before, action, after, room.names, by_of(event))
        if moment is not None:
            out.append((no, moment))
    _STEPPED[room] = (key, out)
    return out
