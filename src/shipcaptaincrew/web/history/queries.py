"""Read-only questions about finished matches: history, replays, fairness and statistics."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from ...fair import verify_fair_rolls
from ...i18n import translator
from ...narrate import narrate
from ...notation import replay_states
from ..display.state_view import state_view
from ..storage.models import Result, Room, RoomStatus
from ..table.room import LiveRoom
from ..words.server_texts import PHYSICAL_VERIFY


def history(db: Session, limit: int = 50, everything: bool = False) -> list[dict[str, Any]]:
    """Finished matches that chose to publish their result (``everything``: all of them),
    newest first."""
    query = select(Room).where(Room.status == RoomStatus.OVER.value)
    if not everything:
        query = query.where(Room.published.is_(True))
    rows = db.scalars(query.order_by(Room.finished_at.desc()).limit(limit)).all()
    return [
        {
            "code": r.code,
            "rules": r.rules,
            "players": [s.name for s in r.seats],
            "winner": None if r.winner is None else r.seats[r.winner].name,
            # How it ended: a walkover's "winner" won because everyone else left (counted
            # apart), a removal's won nothing (see models.MatchEnd; None: before it was kept).
            "ended": r.ended,
            "finished_at": r.finished_at.isoformat() if r.finished_at else None,
        }
        for r in rows
    ]


def replay_view(room: LiveRoom, translate: Callable[[str], str]) -> dict[str, Any]:
    """Every step of a finished match: the words for the event and the table after it."""
    states = replay_states(room.log())
    steps: list[dict[str, Any]] = [{"lines": [], "match": state_view(states[0][0]), "event": None}]
    for (before, _), (after, action) in zip(states, states[1:]):
        assert action is not None
        steps.append(
            {
                "event": str(action),
                "lines": [m.render(translate) for m in narrate(before, action, after, room.names)],
                "match": state_view(after),
            }
        )
    return {"code": room.code, "rules": str(room.rules), "players": room.names, "steps": steps}


def verify_view(room: LiveRoom, lang: str) -> dict[str, Any]:
    """Recompute every die of a finished match from its revealed seed.

    A match played with real dice has no seed: the answer says so (``verifiable`` false, and
    ``detail`` in ``lang``) and lists the faces typed in."""
    log = room.log()
    rolls = log.rolls()
    if not room.fair:
        return {
            "code": room.code,
            "dice_source": room.dice_source.value,
            "verifiable": False,
            "detail": translator(lang, "web")(PHYSICAL_VERIFY),
            "rolls": rolls,
            "dice": sum(len(r) for r in rolls),
        }
    problems = verify_fair_rolls(
        room.server_seed, room.commitment, room.client_seeds, rolls, room.seed_format
    )
    return {
        "code": room.code,
        "dice_source": room.dice_source.value,
        "verifiable": True,
        "commitment": room.commitment,
        "server_seed": room.server_seed,
        "client_seeds": room.client_seeds,
        "client_seed_format": room.seed_format.value,
        "rolls": rolls,
        "dice": sum(len(r) for r in rolls),
        "problems": problems,
        "ok": not problems,
    }


def leaderboard(db: Session, limit: int = 100, everything: bool = False) -> list[dict[str, Any]]:
    """Per-player statistics over the finished matches that published their result
    (``everything``: all of them), most wins first; a match "won" because everyone else
    left counts apart (``walkovers``), never as a win."""
    q = select(
        Result.name,
        Result.kind,
        func.count().label("matches"),
        func.sum(case((Result.won, 1), else_=0)).label("wins"),
        func.sum(case((Result.walkover, 1), else_=0)).label("walkovers"),
        func.sum(Result.points).label("points"),
        func.sum(Result.rounds).label("rounds"),
        func.sum(Result.crews).label("crews"),
        func.sum(Result.chips_won).label("chips"),
        func.sum(Result.sips).label("sips"),
    )
    if not everything:
        q = q.join(Room, Room.id == Result.room_id).where(Room.published.is_(True))
    q = q.group_by(Result.name, Result.kind)
    out = []
    for row in db.execute(q):
        rounds = int(row.rounds or 0)
        out.append(
            {
                "name": row.name,
                "kind": row.kind,
                "matches": int(row.matches),
                "wins": int(row.wins or 0),
                # Matches "won" because everyone else left, while away: not wins.
                "walkovers": int(row.walkovers or 0),
                "win_rate": int(row.wins or 0) / int(row.matches),
                "average_score": (int(row.points or 0) / rounds) if rounds else 0.0,
                "crews": int(row.crews or 0),
                "chips_won": int(row.chips or 0),
                "sips": int(row.sips or 0),
            }
        )
    out.sort(key=lambda r: (-r["wins"], -r["win_rate"], -r["average_score"], r["name"]))
    return out[:limit]
