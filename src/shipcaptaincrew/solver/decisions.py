"""Decisions by table lookup: what the ``optimal``, ``ev``, ``never`` and ``threshold`` players do.

Two kinds of lookup, both answered from the compiled turn graph (:func:`.graph.turn_graph`):

* **fixed policies** (``ev``, ``never``, ``threshold:T``): one choice per turn state, whatever
  the table says -- :func:`policy_choices` (a list over graph nodes) or :func:`policy_action`;
* **the win-maximising policy**: the choice depends on the contest too, as one
  :class:`ContestView` -- the number of players in it, the highest score posted so far, how
  many are tied at it, and how many play after.  :func:`optimal_choices` returns the list over
  graph nodes for one view and :func:`optimal_action` the action for one turn state.

A choice list holds, per graph node, the position of the chosen child in ``graph.kids[node]``
(equivalently of the action in ``graph.actions[node]``), and ``-1`` where there is nothing to
choose; map a :class:`~shipcaptaincrew.state.TurnState` to its node with ``graph.node(state)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import Action
from ..facts import MAX_PLAYERS
from ..messages import N_
from ..rules import Rules
from ..state import MatchState, Method, Purpose, TurnState
from .graph import TurnGraph, turn_graph
from .policies import Policy, fixed_choices, parse_policy
from .rounds import SolverError, equilibrium

__all__ = [
    "ContestView",
    "NoChoiceError",
    "contest_view",
    "ev_action",
    "optimal_action",
    "optimal_choices",
    "policy_action",
    "policy_choices",
    "table_position",
    "win_rewards",
]


class NoChoiceError(ValueError):
    """The turn state has nothing to decide (dice are due, or the turn is over)."""


@dataclass(frozen=True)
class ContestView:
    """What the player about to play sees of the contest: the input of the optimal policy.

    The contest has ``players`` seats; ``posted_max`` is the best score posted so far and
    ``tied`` how many posted it (with ``posted_max = 0``: everyone who has played, all
    failed); ``players_after`` still play after this turn.  ``sub`` marks a tie-break replay
    (everyone failing replays it, whatever ``all_fail`` says); ``target`` is the score to reach
    in solo practice.  The advice (:func:`~.advice.advise`), the ``optimal`` bot and the
    simulator's tables all read a contest through this one value.
    """

    players: int
    posted_max: int
    tied: int
    players_after: int
    sub: bool = False
    target: int | None = None

    @classmethod
    def of_posted(
        cls, posted: Sequence[int], players_after: int, *, sub: bool = False
    ) -> ContestView:
        """The view of a player after the scores ``posted`` (0 = failed), ``players_after`` to go.

        >>> ContestView.of_posted([7, 0, 7], 1)
        ContestView(players=5, posted_max=7, tied=2, players_after=1, sub=False, target=None)
        """
        if players_after < 0:
            raise SolverError(N_("players after must be 0 or more, got {n}"), n=players_after)
        n = len(posted) + 1 + players_after
        if n > 8:
            raise SolverError(
                N_("a round has at most {most} players, got {n} (posted + you + after)"),
                most=MAX_PLAYERS,
                n=n,
            )
        m = max(posted, default=0)
        return cls(n, m, sum(1 for x in posted if x == m), players_after, sub)

    @property
    def position(self) -> int:
        """This player's place in the contest's play order (0 = first)."""
        return self.players - 1 - self.players_after


def contest_view(state: MatchState) -> ContestView:
    """The contest as the player whose turn it is sees it in a match."""
    c = state.contest
    if state.turn is None or c is None or c.method is not Method.TURN:
        raise SolverError("no turn is being played in this match state")
    if state.target is not None:
        return ContestView(1, 0, 0, 0, target=state.target)
    return ContestView.of_posted(c.scores, state.players_after, sub=c.purpose is not Purpose.ROUND)


def table_position(view: ContestView) -> int:
    """Check that a view is a table play can reach, and return the position (0-based).

    ``tied`` counts the players at ``posted_max``; with ``posted_max = 0`` that is everyone
    who has played (they all failed).
    """
    players, posted_max, tied = view.players, view.posted_max, view.tied
    if not 1 <= players <= MAX_PLAYERS:
        raise SolverError(f"a contest has 1..{MAX_PLAYERS} players, got {players}")
    if not 0 <= view.players_after <= players - 1:
        raise SolverError(f"players after must be 0..{players - 1} in a {players}-player contest")
    position = view.position
    if posted_max == 0:
        if tied != position:
            raise SolverError(
                f"with no score posted above 0, all {position} players before failed: "
                f"tied must be {position}, got {tied}"
            )
    elif not 1 <= tied <= position:
        raise SolverError(
            f"{position} players have posted, so 1..{position} can be tied at {posted_max}, "
            f"got {tied}"
        )
    return position


def win_rewards(rules: Rules, view: ContestView) -> list[float]:
    """P(win | final score) for each score of ``turn_graph(rules).scores`` in this contest.

    With a ``target`` (solo practice) a score reaching the target wins.
    """
    graph = turn_graph(rules)
    if view.target is not None:
        return [1.0 if x >= view.target else 0.0 for x in graph.scores]
    position = table_position(view)
    if view.posted_max not in graph.scores:
        raise SolverError(
            N_("a posted score of {score} is impossible under {rules}"),
            score=view.posted_max,
            rules=str(rules),
        )
    eq = equilibrium(rules, view.players, "optimal", sub=view.sub)
    return eq.g(position, view.posted_max, view.tied)


_OPTIMAL: dict[tuple[Rules, ContestView], list[int]] = {}


def optimal_choices(rules: Rules, view: ContestView) -> list[int]:
    """The win-maximising choice at every node in this contest (see the module docstring).

    Choices that win equally often go to the higher expected score.
    """
    key = (rules, view)
    hit = _OPTIMAL.get(key)
    if hit is None:
        _, _, hit = turn_graph(rules).evaluate_lex(win_rewards(rules, view))
        if len(_OPTIMAL) > 4096:
            _OPTIMAL.clear()
        _OPTIMAL[key] = hit
    return hit


def _pick(graph: TurnGraph, choices: list[int], turn: TurnState) -> Action:
    node = graph.node(turn)
    if choices[node] < 0:
        raise NoChoiceError(f"nothing to decide in phase {turn.phase.value}")
    return graph.actions[node][choices[node]]


def optimal_action(rules: Rules, view: ContestView, turn: TurnState) -> Action:
    """The win-maximising action (stand / reroll / keep, or a Take) in ``turn`` in this contest."""
    return _pick(turn_graph(rules), optimal_choices(rules, view), turn)


def policy_choices(rules: Rules, policy: str | Policy) -> list[int]:
    """The choice of ``ev``, ``never`` or ``threshold:T`` at every node."""
    return fixed_choices(rules, parse_policy(policy))


def policy_action(rules: Rules, policy: str | Policy, turn: TurnState) -> Action:
    """The action of ``ev``, ``never`` or ``threshold:T`` in ``turn``."""
    return _pick(turn_graph(rules), policy_choices(rules, policy), turn)


def ev_action(rules: Rules, turn: TurnState) -> Action:
    """The expected-score-maximising action in ``turn``."""
    return policy_action(rules, "ev", turn)
