"""The exact win chance of every seat of a simulated line-up, where the solver reaches it.

Why: a sampled win rate means little without the number it estimates.  Where every bot of a
line-up plays a policy of the solver (``timid``/``never``, ``tip``, ``threshold:T``, ``ev``,
``optimal``, ``optimal:round``, or the difficulties that name them) and the exact solvers
reach the rule set (:func:`~shipcaptaincrew.solver.evaluate.evaluate`: the round equilibrium,
or the match solver within its bound), ``scc simulate`` prints each seat's exact chance and
the sample's distance from it in standard errors.  Under ``starter=rolloff`` every seat opens
the first round equally often, so a seat's exact chance is the mean over the starters of its
chance in that round's play order.
"""

from __future__ import annotations

from ..bots import DIFFICULTIES
from ..rules import Rules, Starter
from ..solver.evaluate import evaluate
from ..solver.policies import SEAT_KINDS, UnknownPolicyError, parse_policy
from ..solver.rounds import SolverError

__all__ = ["exact_seat_chances"]


def exact_seat_chances(rules: Rules, bots: list[str]) -> tuple[float, ...] | str:
    """Each seat's exact chance to win the match, or the reason there is none."""
    try:
        policies = tuple(
            parse_policy(DIFFICULTIES.get(b.strip().lower(), b), allow=SEAT_KINDS) for b in bots
        )
    except UnknownPolicyError as error:
        return str(error)
    n = len(policies)
    starters = range(n) if rules.starter is Starter.ROLLOFF else (0,)
    chances = [0.0] * n
    try:
        for s in starters:
            # The first round is played from the starter on, seat by seat.
            lineup = policies[s:] + policies[:s]
            won = evaluate(rules, lineup).seat_win_probability
            for place, p in enumerate(won):
                chances[(s + place) % n] += p / len(starters)
    except SolverError as error:
        return str(error)
    return tuple(chances)
