"""The authoritative match service: rooms in memory, every event in the database first.

:class:`MatchService` (in :mod:`.facade`) is what the routers use; its parts live in the
modules beside it, one job each.
"""

from __future__ import annotations

from ..connections.transport import Connection, RateLimiter, Sender
from ..table.room import Ahead, LiveRoom
from ..table.seats import SeatInfo, hash_token
from .facade import MatchService

__all__ = [
    "Ahead",
    "Connection",
    "LiveRoom",
    "MatchService",
    "RateLimiter",
    "SeatInfo",
    "Sender",
    "hash_token",
]
