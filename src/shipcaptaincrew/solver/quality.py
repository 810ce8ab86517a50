"""Decision quality: how much a player's own choices, and their own dice, moved their chance.

Why this exists: a group that plays every week wants to know who played well and who was
lucky, and this project can say it exactly where the solver reaches.  At every node of a turn
the solver knows the player's chance to win the match if everyone plays its advised plan from
there on (:func:`.advice.win_chances`, the numbers :func:`.advice.advise` shows).  Walking a
finished match through the engine, each step of a player's own turn moves that chance:

* a **choice** (stand, reroll the cargo, take): its *skill* is the chance after the choice
  taken less the chance after the best choice (the advice's first), so never above zero, and
  zero for a choice as good as the best;
* a **roll**: its *luck* is the chance after the dice landed less the chance before (the
  average over everything the roll could have brought), above zero for good dice.

Over one turn the two add up to the whole change: chance at the turn's end (its score posted)
less chance at its start = the turn's skill + its luck.  Summed over a match, an evening or a
season they say how much a player gave away by their choices and how much the dice gave or
took.  Nothing else counts: another player's turn, a roll-off, sips handed out (they decide
nobody's win), the choice to play another round of a session.

Where the solver has no exact chance (a format of several rounds at a table too large for the
match solver, an option it refuses, someone leaving the match) the decision is *unjudged* and
counted as such, never given a made-up number.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..actions import Action, Leave, Roll
from ..engine import apply, seat_to_act
from ..state import MatchState, Phase
from .advice import advise, win_chances
from .graph import turn_graph
from .rounds import SolverError

__all__ = ["Judged", "SeatQuality", "match_quality"]


@dataclass(frozen=True)
class Judged:
    """One choice a player made, beside the best one the solver knew."""

    seat: int
    #: The event's number in the match (0: the first event).
    index: int
    action: str
    best: str
    #: The chance to win the match after the choice taken, and after the best one.
    chance: float
    best_chance: float

    @property
    def skill(self) -> float:
        """The chance the choice gave away (0 for a best choice, else below 0)."""
        return self.chance - self.best_chance


@dataclass
class SeatQuality:
    """One seat's sums over a match (see the module docstring)."""

    skill: float = 0.0
    luck: float = 0.0
    #: Choices judged, and choices in positions the solver does not reach.
    judged: int = 0
    unjudged: int = 0
    #: The lowest chance the seat had at any node of its own turns (None: none judged): how
    #: far a winner came back from.
    lowest: float | None = None
    decisions: list[Judged] = field(default_factory=list)

    def _low(self, *chances: float) -> None:
        self.lowest = min((self.lowest, *chances) if self.lowest is not None else chances)


def match_quality(
    steps: Iterable[tuple[MatchState, Action, MatchState]], players: int
) -> list[SeatQuality]:
    """Every seat's skill, luck and judged choices over a match's ``(before, action, after)``
    steps (as :func:`~shipcaptaincrew.notation.replay_events` plays them, paired with the
    state before each)."""
    out = [SeatQuality() for _ in range(players)]
    chances: tuple[object, list[float] | None] | None = None  # (the turn's key, its chances)
    for index, (before, action, _after) in enumerate(steps):
        turn = before.turn
        seat = seat_to_act(before)
        if before.phase is not Phase.TURN or turn is None or seat is None:
            continue
        if isinstance(action, Leave):
            continue
        key = (before.contest, before.round_no, before.totals, before.chips, before.wins)
        if chances is None or chances[0] != key:
            chances = (key, win_chances(before))
        values = chances[1]
        mine = out[seat]
        if values is None:
            if not isinstance(action, Roll):
                mine.unjudged += 1
            continue
        graph = turn_graph(before.rules)
        was = values[graph.node(turn)]
        now = values[graph.node(apply(turn, action))]
        mine._low(was, now)
        if isinstance(action, Roll):
            mine.luck += now - was
            continue
        judged = _judge(before, action, seat, index)
        if judged is None:
            mine.unjudged += 1
            continue
        mine.judged += 1
        mine.skill += judged.skill
        mine.decisions.append(judged)
    return out


def _judge(state: MatchState, action: Action, seat: int, index: int) -> Judged | None:
    """The choice beside the advice's best (None: the advice has no exact number for it)."""
    try:
        choices = advise(state)
    except SolverError:
        return None
    taken = next((c for c in choices if c.action == action), None)
    if not choices or taken is None:
        return None
    best = choices[0]
    if taken.win_probability is None or best.win_probability is None:
        return None
    return Judged(
        seat, index, str(action), str(best.action), taken.win_probability, best.win_probability
    )
