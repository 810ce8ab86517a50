"""The authoritative match service: rooms in memory, every event in the database first.

:class:`MatchService` (in :mod:`.facade`) is what the routers use; its parts live in the
modules beside it, one job each.
"""

from __future__ import annotations

from ..connections.transport import Connection, RateLimiter, Sender
from .facade import MatchService
from .room import Ahead, LiveRoom
from .seats import SeatInfo, hash_token

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
