"""A crew's finished match, recorded: each seat's line and each judged choice.

Read off the engine's replay of the match's events (every count is the engine's, never a
rule restated here) and the podium the table showed (:mod:`..podium`: the places, equal ones
sharing).  The decision quality is the solver's (:mod:`shipcaptaincrew.solver.quality`),
which can take seconds for a match the match solver must solve first: the recording runs off
the event loop, after the last move was committed and shown, and is idempotent (a match is
recorded once, whichever worker gets there first; see :func:`write`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ...actions import Action, Leave
from ...dice import FACES
from ...engine import apply, initial_state, is_terminal, seat_to_act
from ...notation import replay_events
from ...rules import Rules
from ...solver.quality import Judged, match_quality
from ...state import MatchState, Phase
from ..display.podium import ending
from ..storage.models import MatchEnd, Room
from .models import CrewDecision, CrewLine, CrewRoom, CrewSeat
from .store import bump


@dataclass(frozen=True)
class Finished:
    """What recording a match needs, copied from the room once its match is over."""

    room: int
    code: str
    rules: Rules
    #: Per seat: (name, kind label, token hash).
    seats: tuple[tuple[str, str, str | None], ...]
    starter: int | None
    events: tuple[dict[str, Any], ...]
    #: Per seat: the place on the podium.
    places: tuple[int, ...]


@dataclass
class Line:
    """One seat's counts over a match (see :class:`.models.CrewLine`)."""

    twelves: int = 0
    crews: int = 0
    behind: int = 0
    scores: Counter[int] = field(default_factory=Counter)


def steps_of(f: Finished) -> list[tuple[MatchState, Action, MatchState]]:
    """The match as (before, action, after) steps, replayed by the engine."""
    before = initial_state(f.rules, len(f.seats), starter=f.starter)
    out = []
    for after, action in replay_events(before, f.events):
        out.append((before, action, after))
        before = after
    return out


def lines_of(f: Finished, steps: list[tuple[MatchState, Action, MatchState]]) -> list[Line]:
    """Each seat's turns: the best cargo (every cargo die a six: 12 with two), crews
    completed, every turn's score, and how far behind the leader it ended a round."""
    lines = [Line() for _ in f.seats]
    best_cargo = f.rules.cargo_dice * max(FACES)
    for before, action, after in steps:
        if before.phase is Phase.TURN and before.turn is not None and not isinstance(action, Leave):
            turn = apply(before.turn, action)  # the turn's own step, as the engine has it
            seat = seat_to_act(before)
            if is_terminal(turn) and seat is not None:
                line = lines[seat]
                line.scores[turn.score] += 1
                line.crews += turn.complete
                line.twelves += turn.complete and sum(turn.cargo) == best_cargo
        if len(after.results) > len(before.results) and not after.is_over:
            lead = max(after.totals)
            for seat, line in enumerate(lines):
                line.behind = max(line.behind, lead - after.totals[seat])
    return lines


def analyse(f: Finished) -> tuple[list[CrewLine], list[CrewDecision]]:
    """Every seat's line and every judged choice of a finished match (no member yet)."""
    steps = steps_of(f)
    final = steps[-1][2] if steps else initial_state(f.rules, len(f.seats), starter=f.starter)
    quality = match_quality(steps, len(f.seats))
    counts = lines_of(f, steps)
    sips_out = [0] * len(f.seats)
    pots = [0] * len(f.seats)
    for r in final.results:
        if r.winner is not None:
            sips_out[r.winner] += sum(s for i, s in enumerate(r.sips) if i != r.winner)
            pots[r.winner] = max(pots[r.winner], r.pot_won)
    lines = []
    decisions: list[Judged] = []
    # A match "won" because everyone else left is no win of the season (a walkover counts
    # apart, a removal as nobody's: see display.podium.ending).
    played = ending(list(f.events), final) is MatchEnd.PLAYED
    for i, ((name, kind, _), q, c) in enumerate(zip(f.seats, quality, counts, strict=True)):
        lines.append(
            CrewLine(
                room_id=f.room,
                position=i,
                name=name,
                kind=kind,
                place=f.places[i],
                won=final.winner == i and played,
                points=final.totals[i],
                twelves=c.twelves,
                crews=c.crews,
                sips=final.sips[i],
                sips_out=sips_out[i],
                pot=pots[i],
                behind=c.behind,
                skill=q.skill,
                luck=q.luck,
                judged=q.judged,
                unjudged=q.unjudged,
                lowest=q.lowest,
                scores={str(k): v for k, v in sorted(c.scores.items())},
            )
        )
        decisions += q.decisions
    judged = [
        CrewDecision(
            room_id=f.room,
            position=d.seat,
            seq=d.index,
            action=d.action,
            best=d.best,
            chance=d.chance,
            best_chance=d.best_chance,
        )
        for d in decisions
    ]
    return lines, judged


def write(
    db: Session, f: Finished, lines: list[CrewLine], decisions: list[CrewDecision], now: datetime
) -> bool:
    """Store a match's lines for its crew (in ``db``'s transaction); False if it was
    recorded already (by another worker) or is no crew's."""
    crew_row = db.scalar(
        select(CrewRoom.crew_id).where(CrewRoom.room_id == f.room, CrewRoom.recorded_at.is_(None))
    )
    if crew_row is None:
        return False
    bump(db, crew_row)  # (locks the crew: a member joining now waits for these lines)
    done = db.execute(
        update(CrewRoom)
        .where(CrewRoom.room_id == f.room, CrewRoom.recorded_at.is_(None))
        .values(
            recorded_at=now,
            played_at=select(Room.finished_at).where(Room.id == f.room).scalar_subquery(),
        )
    )
    if not done.rowcount:  # type: ignore[attr-defined]
        return False
    members = dict(
        db.execute(
            select(CrewSeat.token_hash, CrewSeat.member_id).where(CrewSeat.room_id == f.room)
        ).all()
    )
    for line, (_, _, token) in zip(lines, f.seats, strict=True):
        line.member_id = members.get(token) if token is not None else None
        db.add(line)
    db.add_all(decisions)
    return True
