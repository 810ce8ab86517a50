"""A worker takes in moves another worker committed (``LiveRoom.advance``): several at once when
it fell behind, and the table is shown one moment for all of them.  A bot's choice followed at
once by its roll must still say why the bot chose it (seen under load: a spectator on the
second worker never read a reason)."""

from __future__ import annotations

from typing import Any

from shipcaptaincrew.actions import Action, RerollCargo, Roll, Stand
from shipcaptaincrew.engine import apply, initial_state
from shipcaptaincrew.notation import event_for
from shipcaptaincrew.rules import Rules
from shipcaptaincrew.web.storage.models import DiceSource, RoomStatus, SeatKind
from shipcaptaincrew.web.table.room import LiveRoom
from shipcaptaincrew.web.table.seats import SeatInfo

RULES = Rules.from_str("classic(starter=chosen,format=rounds:3)")
#: Anna stands on 6; the bot (``hard``: the best expected score) rerolls a cargo of 3.
MOVES: list[Action] = [
    Roll((6, 5, 4, 3, 3)),
    Stand(),
    Roll((6, 5, 4, 2, 1)),
    RerollCargo(),
    Roll((6, 6)),
]


def _room() -> LiveRoom:
    room = LiveRoom(
        id=1,
        code="ADVNCE",
        rules=RULES,
        lang="en",
        hints=True,
        turn_timer=None,
        starter=0,
        status=RoomStatus.PLAYING,
        commitment="",
        client_seeds=[],
        seats=[SeatInfo("Anna", SeatKind.PERSON, "h"), SeatInfo("Bot", SeatKind.BOT, None, "hard")],
        server_seed="00" * 32,
        dice_source=DiceSource.PHYSICAL,
    )
    room.begin()
    return room


def _events() -> list[dict[str, Any]]:
    state, out = initial_state(RULES, 2, starter=0), []
    for action in MOVES:
        out.append(event_for(state, action))
        state = apply(state, action)
    return out


def test_moves_taken_in_together_keep_the_bot_s_reason() -> None:
    room = _room()
    told = room.advance(_events())
    assert told.moment is not None
    why = told.moment["reason"]
    assert (why["seat"], why["action"]) == (1, "reroll")
    assert why["text"].render("en").startswith("expects ")
    assert why["text"].render("nb").startswith("venter ")


def test_one_move_at_a_time_explains_only_the_bot_s_choice() -> None:
    room = _room()
    reasons = []
    for event in _events():
        told = room.advance([event])
        reasons.append((told.moment or {}).get("reason"))
    assert [r is not None for r in reasons] == [False, False, False, True, False]
