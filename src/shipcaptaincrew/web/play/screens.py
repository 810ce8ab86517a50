"""The table screen is the one a seated player paired, not whoever says so.

A browser that opens ``/r/CODE/screen`` says hello with ``"screen": true``; the server gives
it a screen token (kept in that browser, so a reload or the next match needs no new pairing)
and, until it is paired, a short pairing code to show.  Until then it is a spectator like any
other: counted against its network's connections and the table's spectators, and it turns
no phone compact.  A seated player confirms it from their phone ("Show this table on that
screen?", the code typed or scanned): the screen's id (its token's hash) goes into the
room's row, under the row's lock, so at most ``max_screens`` screens are ever paired with a
table across every worker (a paired screen no longer connected anywhere makes room for a new
one).  From then on the screen is the table screen: it gets in past the table's limit on
spectators, the phones show their compact view while it is there, and it follows the table
to its next match.

Scaled out the phone and the screen may be on different workers: each worker's presence
reports carry its screens' pairing codes with their ids, so the phone's worker pairs the
screen in the database itself and tells the others; the screen's worker reads it and tells
its screen (:meth:`Screens.settle`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import replace

from ..connections.transport import Connection, dumps
from ..settings import Settings
from ..table.cluster import Cluster
from ..table.presence import PresenceBoard
from ..table.room import LiveRoom
from ..table.schemas import Hello, Pair
from ..table.seats import Meta, hash_token
from ..table.store import Store
from ..words import refusals as E
from ..words.refusals import ErrorCode, RoomError

log = logging.getLogger("shipcaptaincrew.web")

#: Digits of a pairing code (a code is typed on a phone, and only a seated player may use it).
CODE_DIGITS = 4
#: Screen tokens: 32 random bytes, URL-safe (as seat tokens).
TOKEN_BYTES = 32


def pairing_code(taken: set[str]) -> str:
    """A pairing code no other screen of the table shows now."""
    while True:
        code = "".join(secrets.choice("0123456789") for _ in range(CODE_DIGITS))
        if code not in taken:
            return code


class Screens:
    """Table screens: who is one, pairing them, and telling them (see the module)."""

    def __init__(
        self, settings: Settings, store: Store, cluster: Cluster, presence: PresenceBoard
    ) -> None:
        self.settings, self.store, self.cluster = settings, store, cluster
        self.presence = presence

    def admit(self, room: LiveRoom, conn: Connection, hello: Hello) -> str | None:
        """A table screen's hello: its id, whether it is paired, and a pairing code if not;
        returns the screen token to give it (None: not a screen).  The caller holds the lock."""
        if not hello.screen or conn.seat is not None:
            return None
        token = hello.screen_token or secrets.token_urlsafe(TOKEN_BYTES)
        conn.screen_id = hash_token(token)
        conn.screen = conn.screen_id in room.paired
        if not conn.screen:
            conn.pairing = self._code_for(room, conn.screen_id)
        return token

    @staticmethod
    def _code_for(room: LiveRoom, screen_id: str) -> str:
        """The pairing code of a screen (the one it shows already, if it has one here)."""
        shown = room.pairing()
        for code, sid in shown.items():
            if sid == screen_id:
                return code
        return pairing_code(set(shown))

    @staticmethod
    def welcome(conn: Connection, token: str) -> dict[str, object]:
        """What a screen is told with its welcome: its token, and its pairing code if any."""
        return {"token": token, "paired": conn.screen, "code": conn.pairing}

    async def pair(self, room: LiveRoom, conn: Connection, msg: Pair) -> None:
        """A seated player pairs the screen that shows ``msg.code`` with the table."""
        if conn.seat is None:
            raise RoomError(ErrorCode.SPECTATOR, E.SPECTATOR, 403)
        async with room.lock:
            screen_id = room.pairing().get(msg.code)
            if screen_id is None:
                raise RoomError(ErrorCode.BAD_SEAT, E.NO_SUCH_SCREEN, 404, code=msg.code)
            most, live = self.settings.max_screens, room.screen_ids()

            def paired(meta: Meta) -> Meta:
                """The screen among the paired ones (one that is gone makes room)."""
                if screen_id in meta.screens:
                    return meta
                screens = list(meta.screens)
                for gone in [s for s in screens if s not in live]:
                    if len(screens) < most:
                        break
                    screens.remove(gone)
                if len(screens) >= most:
                    raise RoomError(ErrorCode.FULL, E.SCREENS_FULL, 409, n=most)
                return replace(meta, screens=(*screens, screen_id))

            meta = await asyncio.to_thread(self.store.change_meta, room, paired)
            room.apply(meta)
            log.info("table screen paired", extra={"room": room.code, "seat": conn.seat})
            await self.cluster.publish_meta(room)
            self.settle(room)
        await conn.send({"type": "paired", "code": msg.code})

    def settle(self, room: LiveRoom) -> None:
        """The paired screens may have changed (here or, read from the database, elsewhere):
        a screen here that is paired now becomes the table screen and is told so (one no
        longer paired goes back to watching), and everyone learns who is connected."""
        changed = False
        for conn in list(room.conns):
            if conn.screen_id is None or not conn.open:
                continue
            paired = conn.screen_id in room.paired
            if paired and not conn.screen:
                conn.screen, conn.pairing = True, None
                conn.post(dumps({"type": "paired"}, conn.lang))
                changed = True
            elif not paired and conn.screen:
                conn.screen = False
                conn.pairing = self._code_for(room, conn.screen_id)
                conn.post(dumps({"type": "unpaired", "code": conn.pairing}, conn.lang))
                changed = True
        if changed:
            self.presence.changed(room)
