"""Watchers' messages written a few dozen at a time, so that nobody else waits behind a crowd.

Each connection's messages are written by a task of its own (see :mod:`.transport`).  A room
picture told to a thousand watchers wakes a thousand writers at once, and the event loop runs
every task that is ready before it looks at the network again: a ping at another table, or a
move at this one, arriving meanwhile waited for all thousand writes (about 50 us a send under
cProfile on this machine, some 50 ms in all).  A watcher's writer therefore takes a turn
from the loop's :class:`Pacer` before each write: at most :data:`PER_TICK` watchers' writes
run in one pass of the loop, the others wait for the next pass, and between two passes the
loop reads the network and runs whatever arrived.  The players and the table screens are never paced: their
pictures go out first.  Nothing is dropped or reordered: a writer that waits for its turn
still writes its own queue in order.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import deque

#: Watchers' writes in one pass of the event loop at most (about 1.5 ms of sending).
PER_TICK = 32


class Pacer:
    """Hands out at most ``per_tick`` turns a pass of the event loop, in the order asked."""

    def __init__(self, loop: asyncio.AbstractEventLoop, per_tick: int = PER_TICK) -> None:
        self.loop, self.per_tick = loop, per_tick
        #: Turns taken in this pass, and the writers waiting for one.
        self.used = 0
        self.waiting: deque[asyncio.Future[None]] = deque()
        self._ticking = False

    async def turn(self) -> None:
        """Return once it is this writer's turn (at once, if this pass has turns left)."""
        if self.used < self.per_tick and not self.waiting:
            self.used += 1
            self._tick_soon()
            return
        future = self.loop.create_future()
        self.waiting.append(future)
        self._tick_soon()
        await future

    def _tick_soon(self) -> None:
        if not self._ticking:
            self._ticking = True
            self.loop.call_soon(self._tick)

    def _tick(self) -> None:
        """A new pass: its turns go to the writers that waited longest."""
        self._ticking = False
        self.used = 0
        while self.waiting and self.used < self.per_tick:
            future = self.waiting.popleft()
            if not future.done():  # (a writer cancelled while it waited: no turn)
                future.set_result(None)
                self.used += 1
        if self.waiting or self.used:
            self._tick_soon()


_PACERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Pacer] = weakref.WeakKeyDictionary()


def pacer() -> Pacer:
    """The running event loop's pacer."""
    loop = asyncio.get_running_loop()
    found = _PACERS.get(loop)
    if found is None:
        found = _PACERS[loop] = Pacer(loop)
    return found
