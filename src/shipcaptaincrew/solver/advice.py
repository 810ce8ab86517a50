"""Advice: every legal choice of a position with its win probability and expected score.

The win probability is the chance of winning the contest being played (round, tie-break
replay, or solo target) when this choice is made and the player then plays on to maximise it,
everyone after playing the same way (:mod:`.rounds`).  The expected score is the mean final
score of that same line of play (so the two numbers describe one plan, not two).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..actions import Action, Roll
from ..dice import InvalidDiceError, check_faces
from ..engine import apply, dice_to_roll
from ..rules import Rules
from ..state import ROLE_NAMES, MatchState, TurnPhase, TurnState
from .decisions import ContestView, contest_view, optimal_choices, win_rewards
from .graph import CHANCE_NODE, turn_graph
from .rounds import SolverError

__all__ = ["Choice", "advise", "position_after_roll"]


@dataclass(frozen=True)
class Choice:
    """One legal action with the numbers behind it."""

    action: Action
    win_probability: float
    expected_score: float

    def to_json(self) -> dict[str, object]:
        """``{"action": "reroll", "win_probability": ..., "expected_score": ...}``."""
        return {
            "action": str(self.action),
            "win_probability": self.win_probability,
            "expected_score": self.expected_score,
        }


def advise(
    state: MatchState | TurnState,
    *,
    posted: Sequence[int] | None = None,
    players_after: int | None = None,
) -> list[Choice]:
    """Every legal choice, best first (win probability, then expected score).

    A :class:`MatchState` supplies the contest itself (posted scores, players after, contest
    size); for a standalone :class:`TurnState` give ``posted`` (scores before you, 0 for a
    failed ship) and ``players_after``.  With nobody else at the table a lone player "wins" by
    completing the crew.  A position with nothing to decide (dice are due, or the turn is over)
    returns an empty list.
    """
    if isinstance(state, MatchState):
        if posted is not None or players_after is not None:
            raise SolverError("a match state has its own posted scores and players after")
        view = contest_view(state)
        turn = state.turn
        assert turn is not None
    else:
        turn = state
        view = ContestView.of_posted(tuple(posted or ()), players_after or 0)
    rules = turn.rules
    graph = turn_graph(rules)
    bad = [x for x in (posted or ()) if x not in graph.scores]
    if bad:
        raise SolverError(f"a posted score of {bad[0]} is impossible under {rules}")
    node = graph.node(turn)
    if graph.kind[node] == CHANCE_NODE or not graph.kids[node]:
        return []
    values, scores = _node_values(rules, view)
    # Float sums of probabilities can overshoot 1 (or 0) in the last bit; a probability shown
    # to a user as 1.0000000000000002 is wrong, so clamp to [0, 1].
    out = [
        (Choice(a, min(1.0, max(0.0, values[c])), scores[c]), j)
        for j, (a, c) in enumerate(zip(graph.actions[node], graph.kids[node]))
    ]
    out.sort(key=lambda cj: (-round(cj[0].win_probability, 12), -cj[0].expected_score, cj[1]))
    return [c for c, _ in out]


@lru_cache(maxsize=256)
def _node_values(rules: Rules, view: ContestView) -> tuple[list[float], list[float]]:
    """Win probability and expected score of every node under the win-maximising plan.

    Cached per table: a bot asks this at every decision of a game, and under wild captain a
    fresh pass over the graph costs milliseconds.  Callers must not mutate the lists.
    """
    graph = turn_graph(rules)
    if view.players == 1 and view.target is None:
        g = [1.0 if x > 0 else 0.0 for x in graph.scores]
        _, _, choice = graph.evaluate_lex(g)
    else:
        choice = optimal_choices(rules, view)
        g = win_rewards(rules, view)
    values, _ = graph.evaluate(g, choice)
    scores, _ = graph.evaluate([float(x) for x in graph.scores], choice)
    return values, scores


def position_after_roll(
    rules: Rules, held_roles: int, faces: Sequence[int], rolls_used: int
) -> TurnState:
    """The turn state after rolling ``faces`` with ``held_roles`` roles held before the roll.

    ``rolls_used`` counts this roll.  The position is found among the states play can reach
    (so an impossible one -- a held role before the first roll, a fourth roll -- is refused
    with a clear error), and the roll is applied by the engine.
    """
    if not 0 <= held_roles <= 3:
        raise SolverError(f"0..3 roles can be held, got {held_roles}")
    if not 1 <= rolls_used <= 3:
        raise SolverError(f"rolls used must be 1..3 (this roll included), got {rolls_used}")
    graph = turn_graph(rules)
    candidates = [
        s
        for s in graph.states
        if s.phase is TurnPhase.ROLL
        and len(s.held) == held_roles
        and s.rolls_used == rolls_used - 1
        and s.keep is None
    ]
    if not candidates:
        held = ", ".join(ROLE_NAMES[:held_roles]) or "nothing"
        raise SolverError(
            f"no play holds {held} before roll {rolls_used}"
            + (
                " (nothing can be held before the first roll)"
                if rolls_used == 1
                else " (the cargo is rerolled only while rolls remain and the cargo_rerolls "
                f"limit allows: cargo_rerolls={rules.cargo_rerolls})"
                if held_roles == 3
                else ""
            )
        )
    need = dice_to_roll(candidates[0])
    try:
        check_faces(tuple(faces), need)
    except InvalidDiceError as e:
        what = "the cargo dice" if held_roles == 3 else "the free dice"
        raise InvalidDiceError(f"{e} ({what})") from None
    # Candidates differ only in what the past left behind (which faces fill the roles, the
    # old cargo); the engine's answer for the roll is taken from the first, and any of them
    # leads to positions with the same future.
    best = min(candidates, key=lambda s: (s.cargo_rerolls, s.bonus, s.held, s.cargo))
    return apply(best, Roll(tuple(faces)))
