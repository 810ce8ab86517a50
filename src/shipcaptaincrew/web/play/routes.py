"""/ws/rooms/{code}: the live table.

The first message must be a ``hello`` (with the seat token, or without one to watch); then
``act``, ``roll``, ``advice``, ``react``, ``rematch``, ``seat_next`` and ``ping``.  Refusals go
back to the sender only.  A frame the table cannot read at all -- binary, or longer than
``max_frame_bytes`` -- is answered with a ``bad_message`` error in the connection's language
(and the oversized one then closed with 1009), never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from ...facts import DEFAULT_LANG
from ..connections.limits import Visit, network
from ..connections.transport import dumps, small_buffers
from ..service import MatchService
from ..settings import Settings
from ..table.room import LiveRoom
from ..table.schemas import CLIENT_MESSAGE, Hello
from ..words import refusals as E
from ..words.invalid import invalid
from ..words.refusals import ErrorCode, RoomError

router = APIRouter(tags=["live"])

#: Seconds a new connection has to say hello.
HELLO_TIMEOUT = 10.0


async def _error(ws: WebSocket, err: RoomError, lang: str) -> None:
    await ws.send_text(dumps(err.message(lang)))


class Unreadable(Exception):
    """A frame the table cannot read: its refusal, and whether the socket must be closed."""

    def __init__(self, err: RoomError, close: bool) -> None:
        super().__init__(err.msgid)
        self.err, self.close = err, close


async def _frame(ws: WebSocket, limit: int) -> str:
    """The next text frame; raises :class:`Unreadable` for a binary or an oversized one."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise Unreadable(RoomError(ErrorCode.BAD_MESSAGE, E.BINARY_FRAME, 400), close=False)
    size = len(text.encode("utf-8", "replace"))
    if size > limit:
        err = RoomError(ErrorCode.BAD_MESSAGE, E.FRAME_TOO_BIG, 413, size=size, limit=limit)
        raise Unreadable(err, close=True)
    return str(text)


async def _unreadable(ws: WebSocket, bad: Unreadable, lang: str) -> bool:
    """Answer an unreadable frame; whether the connection goes on."""
    await _error(ws, bad.err, lang)
    if bad.close:
        with contextlib.suppress(Exception):
            await ws.close(code=1009)
    return not bad.close


def origin_allowed(origin: str | None, host: str | None, settings: Settings) -> bool:
    """Whether a page from ``origin`` may open the live table (see ``Settings.allowed_origins``).

    A browser always sends ``Origin``; a program need not, and no page is then involved.  The
    server's own pages name the host they connect to (behind a TLS proxy the scheme differs,
    the host does not), or the public address the server is reached at.
    """
    if origin is None:
        return True
    allowed = settings.allowed_origins
    if "*" in allowed:
        return True
    own = [o for o in (settings.public_url,) if o]
    wanted = {_origin(o) for o in [*allowed, *own]}
    if _origin(origin) in wanted:
        return True
    return host is not None and urlsplit(origin).netloc.lower() == host.lower()


def _origin(url: str) -> str:
    """``scheme://host[:port]`` of a URL or origin, in lower case."""
    parts = urlsplit(url.strip().rstrip("/"))
    return f"{parts.scheme}://{parts.netloc}".lower()


#: WebSocket close code of a refusal, by its HTTP status (4000-4999: the application's own).
CLOSE_CODES = {403: 4403, 429: 4429}


@router.websocket("/ws/rooms/{code}")
async def table(ws: WebSocket, code: str) -> None:
    """One player's or spectator's connection to a table.

    Each client network may have ``max_connections_per_address`` sockets waiting to say hello
    and as many spectators connected (see :mod:`..connections.limits`); past that a socket is refused at
    once, and a hello in the language it names.  Seats and table screens are let in past it.
    """
    service: MatchService = ws.app.state.service
    await ws.accept()
    small_buffers(ws, service.settings.send_buffer_bytes)
    address = ws.client.host if ws.client else None
    try:
        service.refuse_guesses(address)
        room = service.room(code)
    except RoomError as err:
        if err.code is ErrorCode.NOT_FOUND:
            await service.missed(address)
        await _error(ws, err, DEFAULT_LANG)
        await ws.close(code=4429 if err.status == 429 else 4404)
        return
    origin = ws.headers.get("origin")
    if not origin_allowed(origin, ws.headers.get("host"), service.settings):
        bad = RoomError(ErrorCode.BAD_ORIGIN, E.BAD_ORIGIN, 403, origin=(origin or "")[:200])
        await _error(ws, bad, room.lang)
        await ws.close(code=4403)
        return
    most = service.settings.max_connections_per_address
    visit = service.doorman.knock(network(address))
    if visit is None:  # no hello yet: the table's language
        crowded = RoomError(ErrorCode.CROWDED, E.TOO_MANY_CONNECTIONS, 429, n=most)
        await _error(ws, crowded, room.lang)
        await ws.close(code=4429)
        return
    try:
        await _visit(ws, service, room, visit)
    finally:
        visit.leave()


async def _visit(ws: WebSocket, service: MatchService, room: LiveRoom, visit: Visit) -> None:
    """The socket's hello, then its messages until it goes."""
    limit = service.settings.max_frame_bytes
    # Until a hello names its language the table's own is used; a refused hello that names
    # one (a wrong token, a full table) is answered in it.
    lang = room.lang
    try:
        async with asyncio.timeout(HELLO_TIMEOUT):  # one deadline, whatever comes meanwhile
            while True:
                try:
                    raw = await _frame(ws, limit)
                    break
                except Unreadable as bad:
                    if not await _unreadable(ws, bad, room.lang):
                        return
        if len(raw) > service.settings.max_message_bytes:
            raise RoomError(ErrorCode.TOO_BIG, E.TOO_BIG, 413)
        hello = CLIENT_MESSAGE.validate_json(raw)
        if not isinstance(hello, Hello):
            raise RoomError(ErrorCode.HELLO_FIRST, E.HELLO_FIRST, 400)
        lang = hello.lang
        # Seats are let in past the network's count; a table screen is counted like any
        # connection (a screen is paired by a seated player: see service.screens).
        exempt = room.seat_of(hello.token) is not None
        if not visit.hello(exempt):
            most = service.settings.max_connections_per_address
            raise RoomError(ErrorCode.CROWDED, E.TOO_MANY_CONNECTIONS, 429, n=most)
        conn = await service.connect(room, ws, hello, visit.key)
    except (TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await ws.close()
        return
    except ValidationError as e:
        # Before a hello there is no chosen language yet: the table's own.
        await _error(ws, invalid(e.errors(), tagged=True), room.lang)
        await ws.close(code=4400)
        return
    except RoomError as err:
        await _error(ws, err, lang)
        await ws.close(code=CLOSE_CODES.get(err.status, 4400))
        return
    try:
        while True:
            try:
                raw = await _frame(ws, limit)
            except Unreadable as bad:
                await conn.send(bad.err.message(conn.lang))
                if not bad.close:
                    continue
                closing = conn.close(1009, flush=True)  # the refusal first, then the close
                if closing is not None:
                    await closing
                break
            await service.receive(room, conn, raw)
    except WebSocketDisconnect:
        pass
    finally:
        # Shielded: when the handler is cancelled (the server closing the socket's task),
        # everyone else must still see this player go (presence, the host's clock, play again).
        await asyncio.shield(service.disconnect(room, conn))


#: Echo groups for the benchmark floor: group name -> open sockets.
_ECHO_GROUPS: dict[str, set[WebSocket]] = {}


@router.websocket("/ws/echo")
async def echo(ws: WebSocket, group: str = "") -> None:
    """A bare echo, the floor the load benchmark compares the table against.

    With ``?group=NAME`` every message goes to every socket of the group (a broadcast without
    a game, a database or a lock), the like-for-like floor for a table's broadcast.
    """
    if not ws.app.state.settings.echo_endpoint:
        await ws.close(code=4404)
        return
    await ws.accept()
    members = _ECHO_GROUPS.setdefault(group[:32], set()) if group else {ws}
    members.add(ws)
    try:
        while True:
            text = await ws.receive_text()
            for peer in list(members):
                await peer.send_text(text)
    except WebSocketDisconnect:
        pass
    finally:
        members.discard(ws)
        if group and not members:
            _ECHO_GROUPS.pop(group[:32], None)
