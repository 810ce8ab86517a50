"""Exact odds, the win-maximising strategy, and the round equilibrium.

The turn comes from the engine: :func:`.graph.turn_graph` walks the engine's
``legal_actions`` / ``chance_outcomes`` / ``apply`` once per rule set and compiles the turn into
an indexed DAG; every question about a turn is then a linear pass over it with a reward per
final score.  The round is different: :mod:`.rounds` is an analytic model of how the engine
resolves a round (the highest score wins, ties go to the tie-break, everyone failing replays
the round or carries the pot), asking the engine who starts after a round without a winner
and checked against the engine's own matches by an exact enumeration
(``tests/test_solver_rounds_exact.py``); its docstring says where it stops.

Turn odds
    :func:`turn_odds` (``never``, ``ev``, ``threshold:T``): completion by roll, score
    distribution, expected score, exact as :class:`~fractions.Fraction` with ``exact=True``.

    >>> from shipcaptaincrew.rules import find_rules
    >>> turn_odds(find_rules("classic"), "never", exact=True).p_complete
    Fraction(42314697971, 78364164096)

The round (see :mod:`.rounds` for the full model)
    n seats play in order; the player in position i sees m (the highest posted score) and t
    (how many are tied at it) and knows k players come after; each maximises their own chance
    of winning the round, everyone after playing the same way (backward induction from the
    last seat).  Ties go through the rules' tie-break (``cargo_rolloff``: a fair lottery;
    ``replay``: a smaller round of the same game), an all-fail round is replayed or carries the
    pot to the next, rotated round; the fixed points are iterated to 1e-12.
    :func:`equilibrium` gives ``seat_win_probability`` (position 1 first) and
    ``p_all_fail_per_round`` for ``optimal``, ``ev`` or ``threshold:T``.

The match (see :mod:`.match.solve`)
    :func:`.match.solve.solve_match` solves every position of a match (``single``,
    ``rounds:N``, ``first_to:N``, ``wins:N``, the tournament: :mod:`.match.tournament`) for
    one policy per seat, exactly: the chance to win the match and the round at every
    position, subgame perfect.

Advice
    :func:`advise` lists every legal choice with ``match_win_probability``,
    ``round_win_probability``, ``win_probability`` and ``expected_score``;
    :class:`ContestView` is what a player sees of the contest (:func:`contest_view` reads it
    off a match state), the input of every table lookup below.

Table lookup (for vectorised simulators)
    ``graph = turn_graph(rules)`` numbers every turn state (``graph.node(state)``); a *choice
    list* holds per node the position of the chosen action in ``graph.actions[node]`` (and of
    the child in ``graph.kids[node]``), ``-1`` where nothing is chosen.

    * ``policy_choices(rules, "ev" | "never" | "threshold:T")`` -- one list for the policy;
    * ``optimal_choices(rules, ContestView(players, posted_max, tied, players_after))`` -- the
      win-maximising list for a contest of ``players`` seats where the highest posted score is
      ``posted_max`` with ``tied`` players at it (with ``posted_max = 0``: the number who
      played, all failed) and ``players_after`` still to play; ``sub=True`` for a tie-break
      replay;
    * ``optimal_action(rules, view, turn)`` / ``policy_action(rules, policy, turn)`` /
      ``ev_action(rules, turn)`` -- the action for one turn state (stand,
      ``RerollCargo(keep=...)`` or a ``Take``).
"""

from __future__ import annotations

from .advice import HAND_OUT_NOTE, Choice, Objective, advise, position_after_roll
from .decisions import (
    ContestView,
    NoChoiceError,
    contest_view,
    ev_action,
    optimal_action,
    optimal_choices,
    policy_action,
    policy_choices,
    table_position,
    win_rewards,
)
from .graph import PositionNotReachableError, TurnGraph, compile_turn, turn_graph
from .odds import TurnOdds, turn_odds
from .policies import Policy, PolicyKind, UnknownPolicyError, best_take, parse_policy
from .rounds import Equilibrium, SolverError, cache_dir, clear_memory_cache, equilibrium

__all__ = [
    "HAND_OUT_NOTE",
    "Choice",
    "ContestView",
    "Equilibrium",
    "NoChoiceError",
    "Objective",
    "Policy",
    "PolicyKind",
    "PositionNotReachableError",
    "SolverError",
    "TurnGraph",
    "TurnOdds",
    "UnknownPolicyError",
    "advise",
    "best_take",
    "cache_dir",
    "clear_memory_cache",
    "compile_turn",
    "contest_view",
    "equilibrium",
    "ev_action",
    "optimal_action",
    "optimal_choices",
    "parse_policy",
    "policy_action",
    "policy_choices",
    "position_after_roll",
    "table_position",
    "turn_graph",
    "turn_odds",
    "win_rewards",
]
