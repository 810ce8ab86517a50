"""Moves nobody sends: a bot's after its pause, and a person's whole turn played by a bot when
the person is away or silent past the turn timer (see :mod:`..display.absence`), or at a slow
table when the hours to act ran out (see :mod:`.slow`).

Scaled out, the worker that committed the last move plays the next automatic one; the others
wait a grace period longer and play it only if that worker has gone (the failover).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable

from ...actions import Action, StopMatch
from ...bots import make_bot
from ...engine import is_chance, seat_to_act
from ...state import MatchState, Phase
from ..connections.relay import PRESENCE_EVERY
from ..display.absence import STAND_IN, By, persons
from ..settings import Settings
from ..storage.models import RoomStatus, SeatKind
from ..table.broadcast import broadcast_room
from ..table.cluster import Cluster, tell
from ..table.room import LiveRoom
from ..words.refusals import ErrorCode, RoomError
from ..words.render import Reason
from .slow import LATE_BY, SKIPPER, SlowClock

log = logging.getLogger("shipcaptaincrew.web")

#: Plays one move in a room whose lock the caller holds (``None``: roll the dice due); ``By``
#: says why a bot made a person's move, the reason is the bot's.
Step = Callable[[LiveRoom, Action | None, By | None, Reason | None], Awaitable[None]]


def bot_move(spec: str, state: MatchState, rng: random.Random) -> tuple[Action, Reason]:
    """A bot's choice and why it makes it (``Bot.explain``, for the table to read)."""
    bot = make_bot(spec)
    return bot.choose(state, rng), Reason(bot.explain(state))


class AutoPlay:
    """Bots and stand-ins: one pending automatic move per room, as :attr:`LiveRoom.task`."""

    def __init__(self, settings: Settings, cluster: Cluster, step: Step, slow: SlowClock) -> None:
        self.settings, self.cluster, self.step = settings, cluster, step
        #: The deadlines of slow tables.
        self.slow = slow

    def schedule(self, room: LiveRoom, failover: bool = False) -> None:
        """Set the next automatic move going: a bot's after its pause, a stand-in's, or the
        clock of a person's turn (the turn timer, or the grace of someone offline).

        Replaces the move pending, if any; the caller holds the room's lock (or nothing can
        be moving: see :meth:`replan`).  ``failover``: this worker learnt of the last move
        from another one, which plays the next automatic move itself; this one waits longer
        and plays it only if that worker died.
        """
        current = asyncio.current_task()
        if room.task is not None and room.task is not current and not room.task.done():
            room.task.cancel()
        room.task, room.deadline = None, None
        state = room.state
        if state is None or state.is_over or room.status is not RoomStatus.PLAYING:
            room.absence.turn = None
            return
        seat = seat_to_act(state)
        assert seat is not None
        if room.absence.turn is not None and room.absence.turn[0] != seat:
            room.absence.turn = None  # the turn a bot played for someone is over
            room.absence.silenced.clear()
        if is_chance(state) and not room.fair:
            return  # real dice: somebody at the table rolls them and types the faces
        wait = self._wait(room, state, seat)
        if wait is None:
            return
        delay, by = wait
        if failover and self.settings.scaled:
            delay += self.settings.failover_grace
        room.task = asyncio.get_running_loop().create_task(
            self._auto(room, room.version, delay, by)
        )

    def _wait(self, room: LiveRoom, state: MatchState, seat: int) -> tuple[float, By | None] | None:
        """How long until the automatic move of ``seat`` and why a bot makes it for a person
        (None: nothing automatic, the person plays)."""
        pause = self.settings.bot_delay
        if not room.conns and not room.remote:
            pause = 0.0  # nobody is watching: play on at once, so the match ends cleanly
        quick = state.phase is Phase.ROLL_OFF  # a die for the start: no choice to watch
        if room.seats[seat].kind is SeatKind.BOT:
            if state.phase is Phase.ANOTHER_ROUND and self._anyone(room):
                # Another round is the people's to call (any of them may answer: see
                # ..play.protocol); the bot goes on only if nobody has after a while.
                return max(pause, self.settings.silent_grace), None
            return (0.0 if quick else pause), None
        if quick and room.quick_start:
            return 0.0, None  # a rematch: "play again" was everyone's tap to begin
        absence = room.absence
        if absence.turn is not None and absence.turn[0] == seat:
            return pause, absence.turn[1]
        if seat in absence.asked:
            return pause, By.ASKED
        if room.pace is not None:
            return self._late(room)
        timer = float(room.turn_timer) if room.turn_timer else None
        if seat not in room.presence()[0] and self._heard_everyone(room):
            absence.since.setdefault(seat, time.monotonic())
            left = max(0.0, room.absent_grace - (absence.away_for(seat) or 0.0))
            if left <= 0:
                return pause, By.AWAY
            if timer is None or left <= timer:
                room.deadline = time.time() + left
                return left, By.AWAY
        if timer is not None:  # one timeout, and a bot plays the whole turn
            # The same turn's clock goes on when the table looks again (someone came or went):
            # nobody restarts another player's timeout by reloading a page.
            clock = absence.clock
            if clock is None or clock[:3] != (room.version, seat, timer):
                clock = absence.clock = (room.version, seat, timer, time.monotonic() + timer)
            left = max(0.0, clock[3] - time.monotonic())
            room.deadline = time.time() + left
            return left, By.TIMER
        return None

    def _late(self, room: LiveRoom) -> tuple[float, By | None] | None:
        """A slow table's person to act: their hours (looked at every ``slow_tick`` seconds,
        on the server's clock), then the host's rule."""
        left = self.slow.left(room)
        if left is None or room.pace is None:
            return None
        room.deadline = time.time() + left
        return min(left, self.settings.slow_tick), LATE_BY[room.pace.late]

    def _heard_everyone(self, room: LiveRoom) -> bool:
        """Whether this worker can tell an absent person from one connected elsewhere: alone,
        always; scaled out, once every other worker had its chance to announce who is connected
        through it (a worker that just loaded the room would otherwise start an absent
        person's clock, and show it on every page, for someone playing through another)."""
        return not self.settings.scaled or time.monotonic() - room.loaded_at >= PRESENCE_EVERY

    def replan(self, room: LiveRoom) -> None:
        """Who is online changed: a person back takes their turns again, and the clock of a
        person's turn starts or stops (under the room's lock, once it is free)."""
        room.absence.seen(persons(room), room.presence()[0])
        if room.status is RoomStatus.PLAYING:
            asyncio.get_running_loop().create_task(self._replan(room))

    async def _replan(self, room: LiveRoom) -> None:
        async with room.lock:
            state = room.state
            if state is None or state.is_over:
                return
            seat = seat_to_act(state)
            if seat is None or room.seats[seat].kind is not SeatKind.PERSON:
                return
            before = room.deadline
            self.schedule(room)
            after = room.deadline
            moved = (before is None) != (after is None)
            if moved or (before is not None and after is not None and abs(after - before) > 0.5):
                await broadcast_room(room)  # the pages' countdown follows the clock

    async def stop(self, rooms: list[LiveRoom]) -> None:
        """Cancel every pending automatic move (the database holds the match)."""
        for room in rooms:
            if room.task is not None:
                room.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await room.task

    async def _auto(self, room: LiveRoom, version: int, delay: float, by: By | None) -> None:
        await asyncio.sleep(delay)
        async with room.lock:
            try:
                await self._auto_move(room, version, by)
            except RoomError as err:
                # The database or Redis is away, or another worker moved first: try again soon
                # (a table must never hang on a bot).
                log.info("automatic move postponed", extra={"room": room.code, "why": err.code})
                if (
                    err.code is ErrorCode.UNAVAILABLE
                    and room.state is not None
                    and not room.state.is_over
                ):
                    room.task = asyncio.get_running_loop().create_task(
                        self._auto(room, room.version, max(1.0, self.settings.bot_delay), by)
                    )

    async def _auto_move(self, room: LiveRoom, version: int, by: By | None) -> None:
        """The automatic move itself (the caller holds the lock)."""
        if self.settings.scaled:
            changed, told = await self.cluster.refresh(room)
            if changed:  # another worker moved meanwhile: it plays on, this one follows
                self.schedule(room, failover=True)
                await tell(room, told)
                return
        state = room.state
        if state is None or room.version != version or state.is_over:
            return
        seat = seat_to_act(state)
        assert seat is not None
        if room.pace is not None and by in (By.TIMER, By.SKIPPED) and room.absence.turn is None:
            if (self.slow.left(room) or 0.0) > 0:
                self.schedule(room)  # a slow table's hours are not over yet: look again later
                return
        if by is not None:
            room.absence.turn = (seat, by)
        spec = SKIPPER if by is By.SKIPPED else room.seats[seat].bot or STAND_IN
        reason = None
        if is_chance(state):
            action: Action | None = None
        elif state.phase is Phase.ANOTHER_ROUND and room.pace is None and not self._anyone(room):
            action = StopMatch()  # a session whose people have all gone ends here
        else:
            action, reason = await asyncio.to_thread(bot_move, spec, state, room.rng)
        await self.step(room, action, by, reason)

    @staticmethod
    def _anyone(room: LiveRoom) -> bool:
        """Whether any person of the table is online."""
        online = room.presence()[0]
        return any(seat in online for seat in persons(room))
