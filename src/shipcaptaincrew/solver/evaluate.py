"""Exact evaluation of a line-up: one policy per seat, each seat's chance of the match and round.

One place for the question ``scc equilibrium``, ``scc evaluate`` and ``scc export`` all ask.
A line-up where every seat plays alike in a format of one round goes to the round equilibrium
(:func:`~.rounds.equilibrium`, which follows every stake and tie-break and up to eight
seats); everything else to the exact match solver (:func:`~.match.solve.solve_match`), whose
bound (:data:`~.match.model.MAX_WORK`) and refusals are raised as its
:class:`~.rounds.SolverError`: where the exact answer cannot be computed there is no answer,
never a sampled one.

A best response at a seat is ``optimal`` (for the match, subgame perfect) at that seat with
every other seat's policy fixed: its value is the highest chance that seat can have against
them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..messages import N_
from ..rules import Rules
from .match.advice import has_match
from .match.solve import solve_match
from .policies import SEAT_KINDS, Policy, PolicyKind, parse_policy
from .rounds import SolverError, equilibrium

__all__ = ["OPTIMAL", "Evaluation", "best_response", "evaluate"]

#: The best response's policy: the match, then the round, then the score.
OPTIMAL = parse_policy("optimal", allow=SEAT_KINDS)


@dataclass(frozen=True)
class Evaluation:
    """Each seat's exact chances for one line-up (play order of the first round)."""

    rules: Rules
    policies: tuple[Policy, ...]
    #: The chance of winning the match, the first round's starter first.
    seat_win_probability: tuple[float, ...]
    #: The chance of winning the first round (a round without a winner passes it on).
    round_win_probability: tuple[float, ...]
    #: The chance that everyone fails in one playing of the first round.
    p_all_fail_per_round: float
    #: Which solver answered: ``round`` (the round equilibrium) or ``match``.
    solver: str

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.policies)


def evaluate(rules: Rules, policies: tuple[Policy, ...]) -> Evaluation:
    """The exact chances of every seat when each plays its policy under ``rules``.

    Raises :class:`~.rounds.SolverError` where neither solver can answer exactly.

    >>> from shipcaptaincrew.rules import find_rules
    >>> ev = parse_policy("ev")
    >>> e = evaluate(find_rules("classic"), (ev, ev))
    >>> [round(p, 9) for p in e.seat_win_probability], e.solver
    ([0.5, 0.5], 'round')
    """
    if not policies:
        raise SolverError("a line-up needs at least one seat")
    alike = len(set(policies)) == 1
    if alike and not has_match(rules):
        kind = policies[0].kind
        name = "optimal" if kind is PolicyKind.ROUND else str(policies[0])
        eq = equilibrium(rules, len(policies), name)
        w = eq.seat_win_probability
        return Evaluation(rules, policies, w, w, eq.p_all_fail_per_round, "round")
    sol = solve_match(rules, policies)
    return Evaluation(
        rules,
        policies,
        sol.seat_win_probability,
        sol.round_win_probability,
        sol.p_all_fail_per_round,
        "match",
    )


def best_response(rules: Rules, policies: tuple[Policy, ...], seat: int) -> Evaluation:
    """The line-up with ``optimal`` at ``seat`` (0-based play order), the others as given.

    The value of the best response is ``seat_win_probability[seat]`` of the result.
    """
    if not 0 <= seat < len(policies):
        raise SolverError(
            N_("seat {seat} is not at a table of {n}"), seat=seat + 1, n=len(policies)
        )
    lineup = policies[:seat] + (OPTIMAL,) + policies[seat + 1 :]
    return evaluate(rules, lineup)
