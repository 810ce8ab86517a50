"""Advice: every legal choice of a position with its chances and expected score.

Each choice carries the chance to win the **match** and the chance to win the **round** (the
contest being played: the round, a tie-break, or the solo target), and the expected score of
the same plan (so the numbers describe one plan, not three).  The plan is chosen by the
objective: :attr:`Objective.MATCH` (the ``optimal`` bot: match chance, then round chance, then
expected score, then stand -- :mod:`.match.advice`) or :attr:`Objective.ROUND` (the
round-maximiser ``optimal:round``: round chance, then expected score, then stand --
:mod:`.rounds`).  ``win_probability`` is the match chance whenever the format has more than
one round and the round chance otherwise.  Where the match model has no positions (the
chips, ``tie_break=round``) the match chance is ``None`` and the round
plan is advised.  In a pot game each choice also carries the expected chips it brings from the
pot; a sip hand-out changes nobody's chance, and says so (:data:`HAND_OUT_NOTE`) instead of
showing a number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from ..actions import Action, Roll
from ..dice import InvalidDiceError, check_faces
from ..engine import apply, dice_to_roll, legal_actions
from ..messages import N_, Message
from ..rules import PotTo, Rules, Stakes
from ..state import ROLE_NAMES, MatchState, Phase, TurnPhase, TurnState
from .decisions import ContestView, contest_view, optimal_choices, win_rewards
from .graph import CHANCE_NODE, turn_graph
from .match.advice import Estimate, has_match, match_rates, match_solution, turn_rewards
from .match.view import MatchView, match_view
from .rounds import SolverError

__all__ = [
    "HAND_OUT_NOTE",
    "Choice",
    "Objective",
    "advise",
    "position_after_roll",
    "win_chances",
]

#: What a sip hand-out changes: nobody's chance (sips never enter the match's verdict).
HAND_OUT_NOTE = Message(N_("Sips change nobody's chance to win: hand them out as you like."))


class Objective(Enum):
    """What the advised plan maximises first."""

    MATCH = "match"  #: the chance to win the match (``optimal``)
    ROUND = "round"  #: the chance to win the round being played (``optimal:round``)


@dataclass(frozen=True)
class Choice:
    """One legal action with the numbers behind it (``None``: no such number here)."""

    action: Action
    win_probability: float | None
    expected_score: float | None
    match_win_probability: float | None = None
    round_win_probability: float | None = None
    #: Pot games: the chips this choice is expected to bring from the pot.
    expected_chips: float | None = None
    #: Why there are no numbers (a sip hand-out).
    note: Message | None = None
    #: The match chance is an estimate (a table too large for the exact solver: the
    #: ``optimal`` bot's own advice only, see :mod:`.match.estimate`).
    match_estimated: bool = False

    def to_json(self) -> dict[str, object]:
        """``{"action": "reroll", "win_probability": ..., "match_win_probability": ...}``."""
        out: dict[str, object] = {
            "action": str(self.action),
            "win_probability": self.win_probability,
            "match_win_probability": self.match_win_probability,
            "round_win_probability": self.round_win_probability,
            "expected_score": self.expected_score,
        }
        if self.expected_chips is not None:
            out["expected_chips"] = self.expected_chips
        if self.note is not None:
            out["note"] = self.note.render()
        if self.match_estimated:
            out["match_estimated"] = True
        return out

    @property
    def numbers(self) -> tuple[float, float]:
        """(win probability, expected score) of a turn's choice (a hand-out has none)."""
        if self.win_probability is None or self.expected_score is None:
            raise SolverError("a sip hand-out has no chance or score to compare")
        return self.win_probability, self.expected_score


def _clamp(x: float) -> float:
    # Float sums of probabilities can overshoot 1 (or 0) in the last bit; a probability shown
    # to a user as 1.0000000000000002 is wrong, so clamp to [0, 1].
    return min(1.0, max(0.0, x))


def advise(
    state: MatchState | TurnState,
    *,
    posted: Sequence[int] | None = None,
    players_after: int | None = None,
    match: MatchView | None = None,
    objective: Objective = Objective.MATCH,
    estimate: Estimate = Estimate.NEVER,
) -> list[Choice]:
    """Every legal choice, best first by the objective's order.

    ``estimate``: whether match chances may come from :mod:`.match.estimate` (marked
    ``match_estimated``): advice for people keeps to exact numbers (the default); the
    ``optimal`` bot plays by the estimate where the table is too large to solve.

    A :class:`MatchState` supplies the contest and the match itself; for a standalone
    :class:`TurnState` give ``posted`` (scores before you, 0 for a failed ship) and
    ``players_after``, or the whole ``match`` view (``scc advise --format --round --totals``).
    With nobody else at the table a lone player "wins" by completing the crew.  A position
    with nothing to decide (dice are due, or the turn is over) returns an empty list.
    """
    if isinstance(state, MatchState):
        if posted is not None or players_after is not None or match is not None:
            raise SolverError("a match state has its own posted scores and players after")
        if state.phase is Phase.HAND_OUT:
            return [Choice(a, None, None, note=HAND_OUT_NOTE) for a in legal_actions(state)]
        if state.leaving or state.departed:
            # The solver's models seat every player for the whole match.
            raise SolverError("the solver does not model a match that a player leaves")
        view = contest_view(state)
        turn = state.turn
        assert turn is not None
        mview = match_view(state) if has_match(state.rules) else None
    elif match is not None:
        turn, mview = state, match
        view = ContestView.of_posted(match.posted, match.players - len(match.posted) - 1)
    else:
        turn, mview = state, None
        view = ContestView.of_posted(tuple(posted or ()), players_after or 0)
    rules = turn.rules
    graph = turn_graph(rules)
    given = match.posted if match is not None else (posted or ())
    bad = [x for x in given if x not in graph.scores]
    if bad:
        raise SolverError(
            N_("a posted score of {score} is impossible under {rules}"),
            score=bad[0],
            rules=str(rules),
        )
    node = graph.node(turn)
    if graph.kind[node] == CHANCE_NODE or not graph.kids[node]:
        return []
    kids = graph.kids[node]
    rates = match_rates(rules, mview, estimate=estimate) if mview is not None else None
    m: list[float] | None
    if rates is not None and objective is Objective.MATCH:
        m, r, e = rates.match, rates.round, rates.score
    else:
        r, e = _node_values(rules, view)
        m = _along(rules, mview, view) if rates is not None and not rates.estimated else None
    chips = _pot(state, rules)
    out = []
    for j, (a, c) in enumerate(zip(graph.actions[node], kids)):
        mc = _clamp(m[c]) if m is not None else None
        rc = _clamp(r[c])
        win = mc if mc is not None and has_match(rules) else rc
        pot_share = mc if rules.pot_to is PotTo.MATCH else rc
        gain = chips * pot_share if chips is not None and pot_share is not None else None
        estimated = mc is not None and rates is not None and rates.estimated
        out.append((Choice(a, win, e[c], mc, rc, gain, match_estimated=estimated), j))
    out.sort(key=lambda cj: _order(cj[0], cj[1], objective))
    return [c for c, _ in out]


def win_chances(state: MatchState) -> list[float] | None:
    """The chance to win the match at every node of the turn being played, for the player
    whose turn it is, everyone playing the advised (``optimal``) plan from there on: the very
    numbers :func:`advise` gives each choice as ``win_probability`` (a choice's is its child's),
    and at a node where dice are due the average over the roll's outcomes.  Indexed by
    :meth:`.graph.TurnGraph.node` of ``turn_graph(state.rules)``.

    None where there is no exact match chance: the format has several rounds and the match
    solver does not reach the table (too large, or an option it refuses), a player is leaving,
    or no turn is being played.  (:func:`advise` then falls back to the round's chance, a
    different number; whoever sums chances over a match must not mix the two.)
    """
    if state.phase is not Phase.TURN or state.turn is None or state.leaving or state.departed:
        return None
    try:
        view = contest_view(state)
    except SolverError:
        return None
    rules = state.rules
    if not has_match(rules):
        return [_clamp(x) for x in _node_values(rules, view)[0]]
    rates = match_rates(rules, match_view(state))
    if rates is None or rates.estimated:
        return None
    return [_clamp(x) for x in rates.match]


def _order(c: Choice, j: int, objective: Objective) -> tuple[float, ...]:
    rc = c.round_win_probability or 0.0
    e = c.expected_score or 0.0
    if objective is Objective.MATCH and c.match_win_probability is not None:
        return (-round(c.match_win_probability, 12), -round(rc, 12), -e, j)
    return (-round(rc, 12), -e, j)


def _pot(state: MatchState | TurnState, rules: Rules) -> float | None:
    """The chips in the pot a win takes (pot games at a match state only)."""
    if rules.stakes is not Stakes.POT or not isinstance(state, MatchState):
        return None
    return float(state.pot)


def _along(rules: Rules, mview: MatchView | None, view: ContestView) -> list[float] | None:
    """The match chance of every node when this turn follows the round plan (``optimal:round``)
    and the match's best play follows it."""
    if mview is None:
        return None
    g, _ = turn_rewards(match_solution(rules, mview.players), mview)
    graph = turn_graph(rules)
    choice = _round_plan(rules, view)
    values, _ = graph.evaluate([float(x) for x in g], choice)
    return values


def _round_plan(rules: Rules, view: ContestView) -> list[int]:
    graph = turn_graph(rules)
    if view.players == 1 and view.target is None:
        g = [1.0 if x > 0 else 0.0 for x in graph.scores]
        _, _, choice = graph.evaluate_lex(g)
        return choice
    return optimal_choices(rules, view)


@lru_cache(maxsize=256)
def _node_values(rules: Rules, view: ContestView) -> tuple[list[float], list[float]]:
    """Win probability and expected score of every node under the win-maximising plan.

    Cached per table: a bot asks this at every decision of a game, and under wild captain a
    fresh pass over the graph costs milliseconds.  Callers must not mutate the lists.
    """
    graph = turn_graph(rules)
    choice = _round_plan(rules, view)
    if view.players == 1 and view.target is None:
        g = [1.0 if x > 0 else 0.0 for x in graph.scores]
    else:
        g = win_rewards(rules, view)
    values, _ = graph.evaluate(g, choice)
    scores, _ = graph.evaluate([float(x) for x in graph.scores], choice)
    return values, scores


def position_after_roll(
    rules: Rules, held_roles: int, faces: Sequence[int], rolls_used: int
) -> TurnState:
    """The turn state after rolling ``faces`` with ``held_roles`` roles held before the roll.

    ``rolls_used`` counts this roll.  The position is found among the states play can reach
    (so an impossible one -- a held role before the first roll, a roll past the rule set's
    last -- is refused with a clear error), and the roll is applied by the engine.
    """
    roles = len(ROLE_NAMES)
    if not 0 <= held_roles <= roles:
        raise SolverError(N_("0..{most} roles can be held, got {n}"), most=roles, n=held_roles)
    if not 1 <= rolls_used <= rules.rolls:
        raise SolverError(
            N_("rolls used must be 1..{most} (this roll included), got {n}"),
            most=rules.rolls,
            n=rolls_used,
        )
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
        held = ROLE_NAMES[:held_roles]
        if rolls_used == 1:
            raise SolverError(
                N_(
                    "no play holds {held} before roll {n} (nothing can be held before the first roll)"
                ),
                held=held,
                n=rolls_used,
            )
        if held_roles == roles:
            raise SolverError(
                N_(
                    "no play holds {held} before roll {n} (the cargo is rerolled only while "
                    "rolls remain and the cargo_rerolls limit allows: cargo_rerolls={limit})"
                ),
                held=held,
                n=rolls_used,
                limit="none" if rules.cargo_rerolls is None else rules.cargo_rerolls,
            )
        raise SolverError(N_("no play holds {held} before roll {n}"), held=held, n=rolls_used)
    need = dice_to_roll(candidates[0])
    try:
        check_faces(tuple(faces), need)
    except InvalidDiceError as e:
        what = N_("the cargo dice") if held_roles == roles else N_("the free dice")
        raise InvalidDiceError(N_("{reason} ({what})"), reason=e, what=(what,)) from None
    # Candidates differ only in what the past left behind (which faces fill the roles, the
    # old cargo); the engine's answer for the roll is taken from the first, and any of them
    # leads to positions with the same future.
    best = min(candidates, key=lambda s: (s.cargo_rerolls, s.bonus, s.held, s.cargo))
    return apply(best, Roll(tuple(faces)))
