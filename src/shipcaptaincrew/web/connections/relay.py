"""Redis pub/sub between server processes: one worker's committed move reaches every other at once.

The database stays the only source of truth.  A message on the channel carries no state, only
"room CODE now has VERSION events, committed by worker ORIGIN"; a worker that holds that room
reads the new events from the database, replays them with the engine and broadcasts to its own
connections.  A lost message therefore loses nothing: the next message, the next action or the
catch-up after a reconnection reads the same events.  The other kinds of :class:`Note` are
likewise pointers to the database (the room's host or rematch changed: read them) or
fleeting by nature (who is connected where; an emoji reaction, which nobody stores).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

CHANNEL = "scc:rooms"
log = logging.getLogger("shipcaptaincrew.web.connections.relay")


class NoteKind(StrEnum):
    """What a message on the channel says of a room."""

    MOVE = "move"  #: events were committed: read them
    PRESENCE = "presence"  #: these seats, spectators and screens are connected to the origin worker
    META = "meta"  #: the room's host or rematch changed: read them
    REACTION = "reaction"  #: someone at the table sent an emoji (passed on, never stored)


@dataclass(frozen=True)
class Note:
    """One message on the channel (``data``: the presence or the reaction it carries)."""

    code: str
    version: int
    origin: str
    kind: NoteKind = NoteKind.MOVE
    data: dict[str, Any] | None = None


Handler = Callable[[Note], Awaitable[None]]
#: Seconds between two presence reports of a worker at most, while it has connections; a
#: report older than ``Settings.presence_ttl`` is no longer believed, so a dead worker's
#: players fade out.
PRESENCE_EVERY = 10.0
Reconnected = Callable[[], Awaitable[None]]


class Relay:
    """A Redis connection that publishes room changes and listens for other workers' ones."""

    def __init__(self, url: str, on_message: Handler, on_reconnect: Reconnected) -> None:
        import redis.asyncio as aioredis

        self.url = url
        #: This process's name on the channel (its own messages are ignored on the way back).
        self.origin = secrets.token_hex(6)
        self.client = aioredis.Redis.from_url(
            url, socket_connect_timeout=1.0, socket_timeout=2.0, health_check_interval=5
        )
        self.on_message, self.on_reconnect = on_message, on_reconnect
        self.up = False
        #: Rooms whose change could not be announced (Redis was away): announced on recovery.
        self._pending: dict[str, int] = {}
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self, wait: float = 5.0) -> None:
        """Start listening; waits (briefly) until subscribed so the first moves are relayed."""
        self._task = asyncio.get_running_loop().create_task(self._listen())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._ready.wait(), wait)

    async def stop(self) -> None:
        """Stop listening and close the connection pool."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        with contextlib.suppress(Exception):
            await self.client.aclose()

    async def ping(self) -> bool:
        """Whether Redis answers now (for readiness)."""
        try:
            return bool(await asyncio.wait_for(self.client.ping(), 1.0))
        except Exception:
            return False

    async def publish_note(
        self, code: str, version: int, kind: NoteKind, data: dict[str, Any] | None = None
    ) -> None:
        """Tell the other workers something other than a move (best effort: a lost presence
        report is repeated, a lost meta change is read at the next catch-up, a lost reaction
        is only a lost reaction)."""
        payload = json.dumps(
            {"code": code, "version": version, "origin": self.origin, "kind": kind, "data": data}
        )
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.client.publish(CHANNEL, payload), 1.0)

    async def publish_presence(self, code: str, version: int, presence: dict[str, Any]) -> None:
        """Tell the other workers who is connected to this room here (best effort)."""
        await self.publish_note(code, version, NoteKind.PRESENCE, presence)

    async def publish(self, code: str, version: int) -> None:
        """Tell the other workers that a room changed (after the change is committed)."""
        payload = json.dumps({"code": code, "version": version, "origin": self.origin})
        try:
            await asyncio.wait_for(self.client.publish(CHANNEL, payload), 2.0)
        except Exception as e:
            # Committed already: announced again once Redis answers (see _listen), and the
            # other workers also catch up by themselves on their next move or reconnection.
            self.up = False
            self._pending[code] = version
            log.warning("relay publish failed", extra={"room": code, "error": repr(e)})

    async def _flush(self) -> None:
        """Announce what could not be announced; the relay is usable again once this works."""
        while self._pending:
            code, version = next(iter(self._pending.items()))
            payload = json.dumps({"code": code, "version": version, "origin": self.origin})
            await asyncio.wait_for(self.client.publish(CHANNEL, payload), 2.0)
            if self._pending.get(code) == version:
                del self._pending[code]
        self.up = True

    async def _listen(self) -> None:
        first = True
        while True:
            pubsub = self.client.pubsub()
            try:
                await pubsub.subscribe(CHANNEL)
                await self._flush()
                self._ready.set()
                if not first:
                    log.info("relay reconnected")
                    await self.on_reconnect()  # whatever was missed meanwhile
                first = False
                while True:
                    msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if msg is None:
                        await pubsub.ping()  # notices a dead connection within a second or so
                        if not self.up:  # a publish failed but Redis answers again
                            await self._flush()
                        continue
                    await self._dispatch(msg)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if self.up:
                    log.warning("relay lost", extra={"error": repr(e)})
                self.up = False
                first = False
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    # (redis-py leaves PubSub.aclose unannotated; it returns None.)
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _dispatch(self, msg: dict[str, Any]) -> None:
        if msg.get("type") != "message":  # the answers to our keep-alive pings
            return
        try:
            note = _note(json.loads(msg["data"]))
        except (ValueError, KeyError, TypeError):
            log.warning("relay: unreadable message ignored")
            return
        if note.origin == self.origin:
            return
        code = note.code
        try:
            await self.on_message(note)
        except Exception as e:  # one room's trouble must not stop the relay
            log.warning("relay: catching up failed", extra={"room": code, "error": repr(e)})


def _note(data: dict[str, Any]) -> Note:
    """A message read off the channel, its data checked for the shape its kind has."""
    kind = NoteKind(data.get("kind", NoteKind.MOVE))
    raw: dict[str, Any] = data.get("data") or {}
    extra: dict[str, Any] | None = None
    if kind is NoteKind.PRESENCE:

        def texts(key: str) -> list[str]:
            value = raw.get(key)
            return [str(x)[:80] for x in value[:64]] if isinstance(value, list) else []

        extra = {
            "seats": [int(x) for x in raw["seats"]],
            "spectators": int(raw["spectators"]),
            # The paired table screens (their ids), the newcomers with a seat at the next
            # match (their tokens' hashes) and the screens waiting to be paired ("CODE:ID"):
            # a worker of an older release tells none of them.
            "screens": texts("screens"),
            "newcomers": texts("newcomers"),
            "pairing": texts("pairing"),
        }
    elif kind is NoteKind.REACTION:
        seat = raw["seat"]
        extra = {"seat": None if seat is None else int(seat), "emoji": str(raw["emoji"])}
    return Note(str(data["code"]), int(data["version"]), str(data["origin"]), kind, extra)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message and any ``extra`` fields."""

    SKIP = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
        "message",
        "asctime",
        "color_message",
    }

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for k, v in vars(record).items():
            if k not in self.SKIP and not k.startswith("_"):
                out[k] = v if isinstance(v, str | int | float | bool | None) else repr(v)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out)


def log_config(json_logs: bool, level: str = "info", access: bool = False) -> dict[str, Any]:
    """A ``logging.config`` dict for the server and uvicorn: JSON lines or plain text on stderr.

    ``access``: uvicorn's line for every request and WebSocket is kept (off by default)."""
    import time

    JsonFormatter.converter = time.gmtime
    fmt: dict[str, Any] = (
        {"()": "shipcaptaincrew.web.connections.relay.JsonFormatter"}
        if json_logs
        else {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    handler = {
        "class": "logging.StreamHandler",
        "formatter": "default",
        "stream": "ext://sys.stderr",
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"default": fmt},
        "handlers": {"default": handler},
        "loggers": {
            "shipcaptaincrew": {
                "handlers": ["default"],
                "level": level.upper(),
                "propagate": False,
            },
            "uvicorn": {"handlers": ["default"], "level": "WARNING", "propagate": False},
            # Start-up and shutdown lines: kept in JSON logs, quiet on a terminal as before.
            "uvicorn.error": {
                "handlers": ["default"],
                "level": level.upper() if json_logs else "WARNING",
                "propagate": False,
            },
            "uvicorn.access": {
                "handlers": ["default"],
                "level": "INFO" if access else "WARNING",
                "propagate": False,
            },
        },
    }
