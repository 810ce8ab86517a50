"""Decisions by table lookup: what the ``optimal``, ``ev``, ``never`` and ``threshold`` players do.

Two kinds of lookup, both answered from the compiled turn graph (:func:`.graph.turn_graph`):

* **fixed policies** (``ev``, ``never``, ``threshold:T``): one choice per turn state, whatever
  the table says -- :func:`policy_choices` (a list over graph nodes) or :func:`policy_action`;
* **the win-maximising policy**: the choice depends on the contest too -- the number of
  players in it, the highest score posted so far, how many are tied at it, and how many play
  after.  :func:`optimal_choices` returns the list over graph nodes for one such table and
  :func:`optimal_action` the action for one turn state.

A choice list holds, per graph node, the position of the chosen child in ``graph.kids[node]``
(equivalently of the action in ``graph.actions[node]``), and ``-1`` where there is nothing to
choose; map a :class:`~shipcaptaincrew.state.TurnState` to its node with ``graph.node(state)``.
"""

from __future__ import annotations

from ..actions import Action
from ..rules import Rules
from ..state import TurnState
from .graph import TurnGraph, turn_graph
from .policies import Policy, fixed_choices, parse_policy
from .rounds import SolverError, equilibrium

__all__ = [
    "NoChoiceError",
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


def table_position(
    players: int, posted_max: int, tied: int, players_after: int
) -> tuple[int, int, int]:
    """Check a contest table and return ``(position, posted_max, tied)`` (position 0-based).

    ``tied`` counts the players at ``posted_max``; with ``posted_max = 0`` that is everyone
    who has played (they all failed).
    """
    if not 1 <= players <= 8:
        raise SolverError(f"a contest has 1..8 players, got {players}")
    if not 0 <= players_after <= players - 1:
        raise SolverError(f"players after must be 0..{players - 1} in a {players}-player contest")
    position = players - 1 - players_after
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
    return position, posted_max, tied


def win_rewards(
    rules: Rules,
    players: int,
    posted_max: int,
    tied: int,
    players_after: int,
    *,
    sub: bool = False,
    target: int | None = None,
) -> list[float]:
    """P(win | final score) for each score of ``turn_graph(rules).scores`` at this table.

    With ``target`` (solo practice) a score reaching the target wins.
    """
    graph = turn_graph(rules)
    if target is not None:
        return [1.0 if x >= target else 0.0 for x in graph.scores]
    position, m, t = table_position(players, posted_max, tied, players_after)
    if m not in graph.scores:
        raise SolverError(f"a posted score of {m} is impossible under {rules}")
    return equilibrium(rules, players, "optimal", sub=sub).g(position, m, t)


_OPTIMAL: dict[tuple[Rules, int, int, int, int, bool, int | None], list[int]] = {}


def optimal_choices(
    rules: Rules,
    players: int,
    posted_max: int,
    tied: int,
    players_after: int,
    *,
    sub: bool = False,
    target: int | None = None,
) -> list[int]:
    """The win-maximising choice at every node for this table (see the module docstring).

    Choices that win equally often go to the higher expected score.
    """
    key = (rules, players, posted_max, tied, players_after, sub, target)
    hit = _OPTIMAL.get(key)
    if hit is None:
        g = win_rewards(rules, players, posted_max, tied, players_after, sub=sub, target=target)
        _, _, hit = turn_graph(rules).evaluate_lex(g)
        if len(_OPTIMAL) > 4096:
            _OPTIMAL.clear()
        _OPTIMAL[key] = hit
    return hit


def _pick(graph: TurnGraph, choices: list[int], turn: TurnState) -> Action:
    node = graph.node(turn)
    if choices[node] < 0:
        raise NoChoiceError(f"nothing to decide in phase {turn.phase.value}")
    return graph.actions[node][choices[node]]


def optimal_action(
    rules: Rules,
    players: int,
    posted_max: int,
    tied: int,
    players_after: int,
    turn: TurnState,
    *,
    sub: bool = False,
    target: int | None = None,
) -> Action:
    """The win-maximising action (stand / reroll / keep, or a Take) in ``turn`` at this table."""
    choices = optimal_choices(
        rules, players, posted_max, tied, players_after, sub=sub, target=target
    )
    return _pick(turn_graph(rules), choices, turn)


def policy_choices(rules: Rules, policy: str | Policy) -> list[int]:
    """The choice of ``ev``, ``never`` or ``threshold:T`` at every node."""
    return fixed_choices(rules, parse_policy(policy))


def policy_action(rules: Rules, policy: str | Policy, turn: TurnState) -> Action:
    """The action of ``ev``, ``never`` or ``threshold:T`` in ``turn``."""
    return _pick(turn_graph(rules), policy_choices(rules, policy), turn)


def ev_action(rules: Rules, turn: TurnState) -> Action:
    """The expected-score-maximising action in ``turn``."""
    return policy_action(rules, "ev", turn)
