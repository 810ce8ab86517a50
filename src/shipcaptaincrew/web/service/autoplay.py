"""Moves nobody sends: a bot's after its pause, a safe default when a person's turn timer runs out.

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

from ...actions import Action
from ...bots import make_bot
from ...engine import is_chance, seat_to_act
from ...state import MatchState
from ..errors import ErrorCode, RoomError
from ..models import RoomStatus, SeatKind
from ..players import safe_default
from ..settings import Settings
from ..words import Reason
from .cluster import Cluster, tell
from .room import LiveRoom

log = logging.getLogger("shipcaptaincrew.web")

#: Plays one move in a room whose lock the caller holds (``None``: roll the dice due); the
#: flag says the turn timer made it for an absent person, the reason is a bot's.
Step = Callable[[LiveRoom, Action | None, bool, Reason | None], Awaitable[None]]


def bot_move(spec: str, state: MatchState, rng: random.Random) -> tuple[Action, Reason]:
    """A bot's choice and why it makes it (``Bot.explain``, for the table to read)."""
    bot = make_bot(spec)
    return bot.choose(state, rng), Reason(bot.explain(state))


class AutoPlay:
    """Bots and turn timers: one pending automatic move per room, as :attr:`LiveRoom.task`."""

    def __init__(self, settings: Settings, cluster: Cluster, step: Step) -> None:
        self.settings, self.cluster, self.step = settings, cluster, step

    def schedule(self, room: LiveRoom, failover: bool = False) -> None:
        """Set the next automatic move going: a bot after its pause, or the turn timer.

        Replaces the move pending, if any.  ``failover``: this worker learnt of the last move
        from another one, which plays the next automatic move itself; this one waits longer and
        plays it only if that worker died.
        """
        current = asyncio.current_task()
        if room.task is not None and room.task is not current and not room.task.done():
            room.task.cancel()
        room.task, room.deadline = None, None
        if room.state is None or room.state.is_over or room.status is not RoomStatus.PLAYING:
            return
        seat = seat_to_act(room.state)
        assert seat is not None
        if is_chance(room.state) and not room.fair:
            return  # real dice: somebody at the table rolls them and types the faces
        if room.seats[seat].kind is SeatKind.BOT:
            delay = self.settings.bot_delay
        elif room.turn_timer:
            delay = float(room.turn_timer)
            room.deadline = time.time() + delay
        else:
            return
        if failover and self.settings.scaled:
            delay += self.settings.failover_grace
        room.task = asyncio.get_running_loop().create_task(self._auto(room, room.version, delay))

    async def stop(self, rooms: list[LiveRoom]) -> None:
        """Cancel every pending automatic move (the database holds the match)."""
        for room in rooms:
            if room.task is not None:
                room.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await room.task

    async def _auto(self, room: LiveRoom, version: int, delay: float) -> None:
        await asyncio.sleep(delay)
        async with room.lock:
            try:
                await self._auto_move(room, version)
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
                        self._auto(room, room.version, max(1.0, self.settings.bot_delay))
                    )

    async def _auto_move(self, room: LiveRoom, version: int) -> None:
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
        bot = room.seats[seat].bot
        reason = None
        if is_chance(state):
            action: Action | None = None
        elif bot is not None:
            action, reason = await asyncio.to_thread(bot_move, bot, state, room.rng)
        else:
            action = safe_default(state, room.rng)
        # A person's move made here is the turn timer's (a bot's moves are its own).
        await self.step(room, action, bot is None, reason)
