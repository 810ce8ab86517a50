"""Playing a move: the engine applies it, the database commits it, then everyone is told.

Every change to a match goes through :meth:`Play.step` under the room's lock, in that order
(commit before broadcast), so a broadcast never shows a move the database could lose.  Right
after each broadcast the next move is played out ahead (:meth:`Play.look_ahead`), so that when
the player sends it only the commit and the sends are left.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import DBAPIError, IntegrityError

from ...actions import Action, Leave, RerollCargo
from ...engine import apply, is_chance, legal_actions, sample_chance, seat_to_act
from ...errors import GameError, InvalidDiceError
from ...notation import event_for
from ...state import MatchState
from ..display.absence import By
from ..display.moments import explained
from ..history import stats
from ..settings import Settings
from ..storage.models import MatchEnd, Result, RoomStatus
from ..table.broadcast import broadcast_room, room_text
from ..table.cluster import Cluster
from ..table.room import Ahead, LiveRoom, askers_of, narration, turn_goes_on
from ..table.store import Store
from ..words import refusals as E
from ..words.refusals import ErrorCode, RoomError, unavailable
from ..words.render import Line, Reason

log = logging.getLogger("shipcaptaincrew.web")


class Play:
    """Moves: one step at a time, committed before it is broadcast, the next one worked out."""

    #: At most this many choices are played out ahead (a decision has two to four).
    AHEAD_CHOICES = 6

    def __init__(
        self,
        settings: Settings,
        store: Store,
        cluster: Cluster,
        schedule: Callable[[LiveRoom], None],
    ) -> None:
        self.settings, self.store, self.cluster = settings, store, cluster
        #: Sets the room's next automatic move going (see :class:`.autoplay.AutoPlay`).
        self.schedule = schedule
        #: Told of a match this process ended, once it is committed and shown (a crew
        #: records it: see ``crews.service``).
        self.finished: Callable[[LiveRoom], None] | None = None

    async def step(
        self,
        room: LiveRoom,
        action: Action | None,
        by: By | None = None,
        reason: Reason | None = None,
        *,
        extra: dict[str, Any] | None = None,
    ) -> None:
        """Apply one roll (``None``: roll the dice due) or choice; commit, then broadcast.

        ``by``: a bot plays it for a person, and why (the stored event, the narration and the
        moment say so).  ``reason``: a bot's choice, and why the bot made it (on the moment,
        see :func:`..display.moments.explained`).  A reroll of the cargo at a table of fair dice
        rolls at once: the rerolled dice arrive with the choice, one picture for both.  The
        caller holds the room's lock.
        """
        before = room.state
        assert before is not None
        if not self.cluster.up:
            # Committing now would leave the other workers' players blind: refuse instead.
            raise unavailable(E.RELAY)
        played = await self._play(room, action, by, reason, extra)
        messages, moment, ahead = played
        if (
            isinstance(action, RerollCargo)
            and room.dice is not None
            and room.state is not None
            and is_chance(room.state)
            and seat_to_act(room.state) == seat_to_act(before)
        ):
            # One tap: the dice the reroll calls for are rolled with it (a failure here
            # leaves the roll due, to be asked for like any other).
            with contextlib.suppress(RoomError):
                more, moment, _ = await self._play(room, None, by, None)
                messages, ahead = messages + more, None
                if reason is not None:
                    assert action is not None
                    moment = explained(moment, before, action, reason)
        self.schedule(room)
        await self.cluster.publish(room)
        texts = None
        if (
            ahead is not None
            and ahead.texts is not None
            and reason is None
            and by is None
            and room.deadline is None
            and room.status is RoomStatus.PLAYING
            and room.presence() == ahead.presence
        ):
            texts = ahead.texts  # drawn for this very moment
        await broadcast_room(room, messages, texts, moment, by is not None)
        if room.status is RoomStatus.OVER and self.finished is not None:
            self.finished(room)
        self.look_ahead_soon(room)

    async def leave(
        self, room: LiveRoom, seat: int, extra: dict[str, Any], said: list[Line]
    ) -> None:
        """The table's leave of ``seat`` after this round, its event carrying ``extra`` (who
        asked, whether the person was away: see :mod:`.standin`) and its broadcast the lines
        ``said`` first.  The caller holds the room's lock."""
        if not self.cluster.up:
            raise unavailable(E.RELAY)
        messages, moment, _ = await self._play(room, Leave(seat), None, None, extra)
        self.schedule(room)
        await self.cluster.publish(room)
        await broadcast_room(room, said + messages, None, moment)
        self.look_ahead_soon(room)

    async def _play(
        self,
        room: LiveRoom,
        action: Action | None,
        by: By | None,
        reason: Reason | None,
        extra: dict[str, Any] | None = None,
    ) -> tuple[list[Line], dict[str, Any] | None, Ahead | None]:
        """Apply, narrate and commit one event (not yet broadcast): its lines, its moment and
        the look-ahead it came from, if any (``extra``: keys the stored event carries besides
        the engine's, which the engine and the log's readers ignore)."""
        before, dice = room.state, room.dice
        assert before is not None
        count = dice.count if dice is not None else 0

        def undo() -> None:
            """Nothing was played: the same fair dice are due again."""
            if dice is not None:
                dice.count = count

        if action is None:
            assert dice is not None, "a table with real dice is given the faces"
            action = sample_chance(before, dice)
        ahead = room.ahead.get(action)
        if ahead is not None and not (ahead.before is before and ahead.names == room.names):
            ahead = None
        if ahead is not None and (by is not None or extra):
            ahead = None  # (its event, narration and moment are the player's own)
        messages: list[Line] | None = None
        if ahead is not None:
            after, event, messages = ahead.after, ahead.event, ahead.messages
            story, moment = ahead.story, ahead.moment
        else:
            try:
                after = apply(before, action)
            except InvalidDiceError as e:  # faces typed at a table with real dice
                undo()
                raise RoomError(ErrorCode.BAD_DICE, E.BAD_FACES, 400, problem=e) from None
            except GameError as e:
                undo()
                raise RoomError(ErrorCode.ILLEGAL, E.ILLEGAL, 400, reason=e) from None
            event = event_for(before, action)
            if by is not None:
                event = {**event, "by": by.value}
                seat = seat_to_act(before)
                askers = () if seat is None else room.absence.askers(seat, by)
                if askers:
                    event["asked_by"] = list(askers)
            if extra:
                event = {**event, **extra}
            story, moment = room.story.step(before, action, after, room.names, by)
        if reason is not None:
            moment = explained(moment, before, action, reason)
        first = not turn_goes_on(room.events, event)
        try:
            await self._commit(room, event, after, ahead)
        except IntegrityError:
            # Another worker committed this event number first: ours is not played.  Catch up
            # with what it did, so the player sees the table as it now is.
            undo()
            log.info(
                "move lost a race to another worker",
                extra={"room": room.code, "version": room.version},
            )
            await self.cluster.sync(room)
            raise RoomError(ErrorCode.STALE, E.STALE, 409) from None
        except DBAPIError as e:
            undo()  # nothing committed (one transaction)
            log.warning(
                "database unavailable", extra={"room": room.code, "error": str(e.orig or e)[:200]}
            )
            raise unavailable(E.DATABASE) from None
        except Exception:
            undo()
            raise
        room.state, room.ahead, room.story = after, {}, story
        room.events.append(event)
        room.acted_at = time.monotonic()
        if messages is None:
            answered = event.get("answered_by")
            messages = narration(
                before, action, after, room.names, by, first, askers_of(event), answered
            )
        room.recent.append(messages)
        if after.is_over:
            room.finish()
        return messages, moment, ahead

    async def _commit(
        self, room: LiveRoom, event: dict[str, Any], after: MatchState, ahead: Ahead | None
    ) -> None:
        """Commit the event (with the results if it ends the match); raises SQLAlchemy's errors."""
        results: tuple[list[Result], MatchEnd] | None = None
        if after.is_over:  # replays the whole match: off the event loop
            results = await asyncio.to_thread(stats.results, room, [*room.events, event], after)
        await self.store.commit(room, event, after, results, ahead.ready if ahead else None)

    def look_ahead_soon(self, room: LiveRoom) -> None:
        """Play the room's next move out once the event loop has sent what is queued."""
        asyncio.get_running_loop().call_soon(self.look_ahead, room)

    def look_ahead(self, room: LiveRoom) -> None:
        """Work out the room's next move while the player thinks: the dice due, or each choice.

        Runs after a broadcast.  The dice due next are a function of the committed seed and the
        die counter alone, and a decision has a handful of legal choices, so the engine can
        play the next move out now (the state after, its event and narration) and draw the room
        picture everyone will get; when the player sends it, the move only commits and sends.
        That work moves from between a player's tap and everyone's update to the moment after
        the last move, while the server's caches are still warm from it (measured on the
        reference machine: the same move's work takes ~0.2 ms back to back and ~0.9 ms after
        10 ms idle).  :meth:`step` still rolls the dice itself and takes a result only for the
        very state and action it was made for, and the picture only if nothing it shows has
        changed since (who is online, no turn timer, the match goes on), so a stale look-ahead
        is merely unused.  Nothing leaves this process early: the dice and the pictures stay
        here like the seed they come from.
        """
        state, dice = room.state, room.dice
        if state is None or state.is_over or room.status is not RoomStatus.PLAYING:
            return
        try:
            if is_chance(state):
                if dice is None:  # real dice: nobody knows the faces before they are typed
                    return
                dice.prepare()
                count = dice.count
                try:
                    actions: list[Action] = [sample_chance(state, dice)]
                finally:
                    dice.count = count
            else:
                if dice is not None:
                    dice.prepare()
                actions = list(legal_actions(state))[: self.AHEAD_CHOICES]
            room.ahead = {a: self._play_ahead(room, state, a) for a in actions}
        except Exception:  # a look-ahead must never cost a move: step works it out itself
            log.exception("look-ahead failed", extra={"room": room.code})

    def _play_ahead(self, room: LiveRoom, state: MatchState, action: Action) -> Ahead:
        """One move played out by the engine, with its picture drawn if it can be."""
        after = apply(state, action)
        messages = narration(state, action, after, room.names)
        story, moment = room.story.step(state, action, after, room.names)
        texts, presence = None, None
        if not after.is_over and room.turn_timer is None and not self.settings.scaled:
            # (A turn timer or the other workers' presence make the picture time-dependent.)
            presence = room.presence()
            picture = room.public(after, presence, story, moment)
            texts = {
                lang: room_text(picture, messages, lang) for lang in {c.lang for c in room.conns}
            }
        event = event_for(state, action)
        ready = None
        if self.store.appender is not None:
            ready = {"payload": self.store.appender.stored("payload", event)}
        return Ahead(
            state, room.names, action, after, event, messages, story, moment, texts, presence, ready
        )
