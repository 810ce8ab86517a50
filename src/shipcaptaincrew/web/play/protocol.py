"""The live table's messages: hello, then rolls, choices, advice requests and pings.

Each message is checked for size and rate before it is parsed, then against the table (whose
turn, which version, which choices); a refusal goes back to that connection only, with an
:class:`~..words.refusals.ErrorCode` and a translated message.
"""

from __future__ import annotations

import asyncio
import functools
import logging

from pydantic import ValidationError

from ...actions import Action, InvalidActionError, Leave, Roll, parse_action
from ...engine import check_choice, is_chance, seat_to_act
from ...errors import GameError
from ...state import MatchState, Phase
from ..connections.transport import Connection, Picture, RateLimiter, Sender, dumps
from ..display.absence import persons, playing_for
from ..display.advice import HAND_OUT, advise
from ..rooms.nextmatch import NextMatch
from ..settings import Settings
from ..storage.models import RoomStatus, SeatKind
from ..table.cluster import Cluster
from ..table.presence import PresenceBoard
from ..table.room import LiveRoom, hash_token
from ..table.schemas import (
    CLIENT_MESSAGE,
    Act,
    Advice,
    Hello,
    Pair,
    Ping,
    PlayFor,
    React,
    RefuseNext,
    Rematch,
    RemoveAfterRound,
    RollDice,
    SeatNext,
    TakeTurn,
)
from ..words import refusals as E
from ..words import server_texts as T
from ..words.choices import choice_words
from ..words.invalid import invalid
from ..words.refusals import ErrorCode, RoomError, unavailable
from ..words.render import Words
from .missed import missed
from .moves import Play
from .screens import Screens
from .standin import StandIns

log = logging.getLogger("shipcaptaincrew.web")


class Protocol:
    """One connection's conversation with its table."""

    def __init__(
        self,
        settings: Settings,
        cluster: Cluster,
        play: Play,
        after: NextMatch,
        presence: PresenceBoard,
        standins: StandIns,
        screens: Screens,
    ) -> None:
        self.settings, self.cluster, self.play = settings, cluster, play
        #: The table's say: bots for those away or silent, leaves (see .standin).
        self.standins = standins
        #: Table screens and their pairing (see .screens).
        self.screens = screens
        #: Play again and seats for the next match.
        self.after = after
        #: Tells the table who is online, at most a few times a second.
        self.presence = presence

    async def connect(
        self, room: LiveRoom, ws: Sender, hello: Hello, network: str | None = None
    ) -> Connection:
        """Register a connection after its hello; a bad token is refused, no token = spectator.

        The welcome and the first picture (the story so far) are sent, and the connection
        joins the room's broadcasts, all under the room's lock.  Every event is appended to
        the story and broadcast under that lock too (:meth:`.moves.Play.step`,
        :meth:`..table.cluster.Cluster.sync`), so each event reaches a newcomer exactly once: in its
        first picture if it was broadcast before, in a broadcast if it comes after.  Without
        the lock a move could sit between its commit and its broadcast (awaiting the relay's
        publish) while a newcomer's first picture already told it, and its broadcast then
        told it again; and a broadcast could reach a connection before its welcome.
        """
        token_hash = hash_token(hello.token) if hello.token else None
        conn = Connection(
            ws,
            None,
            hello.lang,
            RateLimiter(self.settings.rate_per_second, self.settings.rate_burst),
            token_hash=token_hash,
            token=hello.token,
            reactions=RateLimiter(self.settings.reaction_rate, self.settings.reaction_burst),
            stall=self.settings.send_stall_seconds,
            network=network,
        )
        # Told once the current broadcast has posted to everyone (a close can come from
        # inside one): a presence picture never overtakes the move being sent.
        conn.on_close = functools.partial(self._closed, room)
        async with room.lock:
            await self.cluster.sync(room)
            conn.seat = room.seat_of_hash(token_hash)  # seats may have moved (sync, removal)
            if token_hash is not None and conn.seat is None:
                raise RoomError(ErrorCode.BAD_TOKEN, E.BAD_TOKEN, 403)
            screen_token = self.screens.admit(room, conn, hello)
            self._admit(room, conn)
            welcome = room.welcome(conn.seat)
            if screen_token is not None:
                welcome["screen"] = self.screens.welcome(conn, screen_token)
            await conn.send(welcome)
            moments = missed(room, hello.seen)
            if moments:  # before the first picture: the phone plays them, then shows it
                await conn.send({"type": "missed", "seen": hello.seen, "moments": moments})
            online, spectators = room.presence()  # as it is once this connection is in
            if conn.seat is None:
                spectators += 1
            else:
                online |= {conn.seat}
            picture = dumps(room.public(presence=(online, spectators)), conn.lang)
            conn.post(Picture(picture, room.history(conn.lang), history=True))
            room.conns.add(conn)
        # Who is online changed: the other workers and everyone here are told (a picture with
        # no narration, so it may go out outside the lock; see .presence).
        self.presence.changed(room)
        if room.next_code is not None:
            await self.after.moved(room, conn)  # back after the next match was made: on to it
        return conn

    def _closed(self, room: LiveRoom) -> None:
        """A connection of ``room`` stopped counting: who is online changed (see above)."""
        asyncio.get_running_loop().call_soon(self.presence.changed, room)

    def _admit(self, room: LiveRoom, conn: Connection) -> None:
        """Let a connection in, or refuse it (in its language) if its kind is full here.

        A seat takes up to ``max_seat_connections`` connections (a phone and a tablet, say)
        and is never refused for a crowd; a paired table screen (at most ``max_screens`` a
        table, see .screens) comes in whatever the crowd; every other watcher, a screen not
        paired among them, counts against ``max_spectators`` (through every worker).  The
        caller holds the room's lock.
        """
        if conn.seat is not None:
            most = self.settings.max_seat_connections
            if most and sum(1 for c in room.conns if c.open and c.seat == conn.seat) >= most:
                raise RoomError(ErrorCode.CROWDED, E.SEAT_CONNECTIONS, 429, n=most)
            return
        most = self.settings.max_spectators
        if not conn.screen and most and room.presence()[1] - room.screens() >= most:
            raise RoomError(ErrorCode.CROWDED, E.TOO_MANY_WATCHING, 429, n=most)

    async def disconnect(self, room: LiveRoom, conn: Connection) -> None:
        """Forget a connection (the seat stays; its token brings the player back)."""
        conn.open = False
        room.conns.discard(conn)
        self.after.release(room, conn)
        self.presence.changed(room)

    async def refuse(self, conn: Connection, err: RoomError) -> None:
        """Tell one connection (only) why its message was refused."""
        await conn.send(err.message(conn.lang))

    async def receive(self, room: LiveRoom, conn: Connection, raw: str) -> None:
        """Handle one message from a connection; refusals go to that connection only."""
        try:
            await self._receive(room, conn, raw)
        except RoomError as err:
            await self.refuse(conn, err)
        except Exception:  # a bug must cost one message, never the connection or the server
            log.exception("message failed", extra={"room": room.code})
            await self.refuse(conn, unavailable(E.SERVICE))

    async def _receive(self, room: LiveRoom, conn: Connection, raw: str) -> None:
        if len(raw.encode("utf-8", "replace")) > self.settings.max_message_bytes:
            raise RoomError(ErrorCode.TOO_BIG, E.TOO_BIG, 413)
        if not conn.limiter.allow():
            raise RoomError(ErrorCode.RATE, E.RATE, 429)
        try:
            msg = CLIENT_MESSAGE.validate_json(raw)
        except ValidationError as e:
            raise invalid(e.errors(), tagged=True) from None
        if isinstance(msg, Ping):
            await conn.send({"type": "pong"})
        elif isinstance(msg, Hello):
            conn.lang = msg.lang
        elif isinstance(msg, Advice):
            await self._advice(room, conn, msg)
        elif isinstance(msg, React):
            await self._react(room, conn, msg)
        elif isinstance(msg, Rematch):
            await self.after.confirm(room, conn, msg)
        elif isinstance(msg, SeatNext):
            await self.after.seat_next(room, conn, msg)
        elif isinstance(msg, RefuseNext):
            await self.after.refuse(room, conn, msg)
        elif isinstance(msg, PlayFor | RemoveAfterRound):
            await self.standins.ask(room, conn, msg)
        elif isinstance(msg, TakeTurn):
            await self.standins.take_turn(room, conn, msg)
        elif isinstance(msg, Pair):
            await self.screens.pair(room, conn, msg)
        else:
            await self._move(room, conn, msg)

    async def _react(self, room: LiveRoom, conn: Connection, msg: React) -> None:
        """An emoji for everyone at the table, on every worker (never stored)."""
        assert conn.reactions is not None
        if not conn.reactions.allow():
            raise RoomError(ErrorCode.RATE, E.REACTION_RATE, 429)
        await self.cluster.react(room, conn.seat, msg.emoji)

    async def _move(self, room: LiveRoom, conn: Connection, msg: Act | RollDice) -> None:
        """A roll or a choice: checked against the table, then played."""
        if conn.seat is None:
            raise RoomError(ErrorCode.SPECTATOR, E.SPECTATOR, 403)
        async with room.lock:
            await self.cluster.sync(room)
            state = room.state
            if state is None:
                raise RoomError(ErrorCode.NOT_STARTED, E.NOT_STARTED, 409)
            if room.status is not RoomStatus.PLAYING:
                raise RoomError(ErrorCode.OVER, E.MATCH_OVER, 409)
            typed = isinstance(msg, RollDice) and not room.fair
            # Real dice are typed by the player whose dice are due, or by the host for a bot
            # or for someone a bot plays for (one phone for the whole table then).
            actor = seat_to_act(state)
            allowed = {actor}
            if typed and actor is not None and self._for_host(room, actor):
                allowed.add(room.host)
            if state.phase is Phase.ANOTHER_ROUND:
                # Another round, or stop: the people at the table answer, any of them, not
                # only the next round's first player (a bot would always go on).
                allowed |= set(persons(room))
            if conn.seat not in allowed:
                raise RoomError(
                    ErrorCode.NOT_YOUR_TURN, E.NOT_YOUR_DICE if typed else E.NOT_YOUR_TURN, 409
                )
            if msg.version != room.version:
                raise RoomError(ErrorCode.STALE, E.STALE, 409)
            action = (
                self._roll(room, state, msg)
                if isinstance(msg, RollDice)
                else self._choice(state, msg, room.names)
            )
            if room.absence.turn is not None and room.absence.turn[0] == conn.seat:
                room.absence.turn = None  # the player is back at their own turn
                room.absence.silenced.pop(conn.seat, None)
            if conn.seat != actor and state.phase is Phase.ANOTHER_ROUND:
                # (The story names who answered: see ..table.room.narration.)
                await self.play.step(room, action, extra={"answered_by": conn.seat})
                return
            await self.play.step(room, action)

    @staticmethod
    def _for_host(room: LiveRoom, actor: int) -> bool:
        """Whether the host types the dice of ``actor``: a bot, or a person a bot plays for."""
        if room.seats[actor].kind is SeatKind.BOT:
            return True
        return actor in playing_for(room, room.absent_grace)

    def _roll(self, room: LiveRoom, state: MatchState, msg: RollDice) -> Roll | None:
        """The roll asked for: None (the server rolls fair dice), or the real dice typed in
        (the engine checks their count and faces when it plays them)."""
        if room.fair and msg.faces is not None:
            raise RoomError(ErrorCode.BAD_DICE, E.NO_FACES_HERE, 400)
        if not is_chance(state):
            raise RoomError(ErrorCode.ILLEGAL, E.NO_DICE_DUE, 400)
        if room.fair:
            return None
        if msg.faces is None:
            raise RoomError(ErrorCode.BAD_DICE, E.TYPE_THE_DICE, 400)
        return Roll(tuple(msg.faces))

    def _choice(self, state: MatchState, msg: Act, names: list[str]) -> Action:
        """The choice sent, if the engine lets this player make it now (a split hand-out
        included); a refusal names the choice in words."""
        try:
            action = parse_action(msg.action)
        except InvalidActionError as e:
            raise RoomError(ErrorCode.NOT_AN_ACTION, E.NOT_AN_ACTION, 400, reason=e) from None
        if isinstance(action, Roll):
            raise RoomError(ErrorCode.ILLEGAL, E.SERVER_ROLLS, 400)
        if is_chance(state):
            raise RoomError(ErrorCode.ILLEGAL, E.DICE_FIRST, 400)
        if isinstance(action, Leave):
            raise RoomError(
                ErrorCode.ILLEGAL, E.NOT_A_CHOICE, 400, what=choice_words(action, names)
            )
        try:
            check_choice(state, action)
        except GameError as e:
            if msg.action.startswith("sip:") and "x" in msg.action:
                # The rules' own reason for a split (worded without notation).
                raise RoomError(ErrorCode.ILLEGAL, E.ILLEGAL, 400, reason=e) from None
            what = choice_words(action, names)
            raise RoomError(ErrorCode.ILLEGAL, E.NOT_A_CHOICE, 400, what=what) from None
        return action

    async def _advice(self, room: LiveRoom, conn: Connection, msg: Advice) -> None:
        if not room.hints:
            raise RoomError(ErrorCode.HINTS_OFF, E.HINTS_OFF, 403)
        state = room.state
        if state is None or conn.seat is None or room.status is not RoomStatus.PLAYING:
            raise RoomError(ErrorCode.NO_ADVICE, E.NO_ADVICE, 409)
        if msg.version != room.version:
            raise RoomError(ErrorCode.STALE, E.STALE, 409)
        if seat_to_act(state) != conn.seat or is_chance(state):
            raise RoomError(ErrorCode.NO_ADVICE, E.NO_ADVICE, 409)
        choices = await asyncio.to_thread(advise, state)
        hand_out = any(c["method"] == HAND_OUT for c in choices)
        await conn.send(
            {
                "type": "advice",
                "version": msg.version,
                "choices": choices,
                # Why a hand-out's advice has no numbers, in the connection's language.
                "note": Words(T.HAND_OUT_ADVICE) if hand_out else None,
            }
        )
