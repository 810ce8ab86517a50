"""The turn samplers of the step tables: each bot's exact score distribution, drawn by lookup.

A turn node (:mod:`.nodes`) names the sampler its turn is drawn from.  A sampler is one bot's
turn table in one contest (:func:`~shipcaptaincrew.sim.match.table_for`, the solver's exact
distribution of where the turn ends), made once per distinct (bot, contest) and drawn from by
inverse transform (:class:`~..inverse.InverseCdf`), so every match meeting that contest draws
from the same arrays.  The match-optimal bot's round turns read the match's totals, which a
node does not hold: they are drawn by match position (:mod:`.match_turns`) instead.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...rules import Rules
from ...solver import contest_view
from ...state import MatchState, evolve
from ..inverse import InverseCdf
from ..match import table_for
from ..policy import MatchPolicy, make_policy
from .match_turns import MatchTurns, plays, round_turn

__all__ = ["BY_MATCH", "TurnSamplers"]

#: A turn's outcomes: their chances, scores and crews completed (1/0).
Outcomes = tuple[np.ndarray, np.ndarray, np.ndarray]

#: What :meth:`TurnSamplers.for_turn` answers for the match-optimal bot's round turn: no
#: sampler, the turn is drawn by match position.
BY_MATCH = -1


class TurnSamplers:
    """The turn samplers of one rule set and line-up, made as the nodes meet new contests."""

    def __init__(self, rules: Rules, bots: list[str]) -> None:
        self.rules = rules
        self.bots = list(bots)
        self.players = p = len(bots)
        self.policies = {b: make_policy(b, rules, p) for b in set(bots)}
        #: The match-optimal bot's round turns (:mod:`.match_turns`), if a seat plays it.
        self.match_turns = (
            MatchTurns(rules, p)
            if any(plays(pol, rules, p) for pol in self.policies.values())
            else None
        )
        self._ids: dict[tuple[str, object], int] = {}
        #: Per sampler: its turn's outcomes' cumulative distribution, drawn by lookup, and the
        #: score and crew (1/0) of each outcome.
        self.draw: list[InverseCdf] = []
        self.turn_score: list[np.ndarray] = []
        self.turn_crew: list[np.ndarray] = []

    def for_turn(self, seat: int, rep: MatchState) -> int:
        """The sampler of the turn due to ``seat`` at node state ``rep`` (:data:`BY_MATCH`:
        the match-optimal bot's round turn, drawn by match position)."""
        policy = self.policies[self.bots[seat]]
        if isinstance(policy, MatchPolicy):
            if round_turn(rep):
                return BY_MATCH

            def tie_break() -> Outcomes:
                # A tie-break of the match-optimal bot: the estimate plays it from the contest
                # alone (the sub-round's equilibrium), not from the totals or the round's scores.
                blank = evolve(rep, results=(), round_scores=(0,) * self.players)
                scores = np.asarray(policy.scores)
                return np.diff(policy.cdf(blank), prepend=0.0), scores, scores > 0

            return self._sampler((policy.name, contest_view(rep)), tie_break)
        ctx = contest_view(rep) if policy.contextual else None

        def turn() -> Outcomes:
            table = table_for(self.rules, policy, self.players, ctx)
            ends = sorted(table.ends().items())
            return (
                np.array([float(q) for _, q in ends]),
                np.array([int(table.score[e]) for e, _ in ends]),
                np.array([int(table.complete[e]) for e, _ in ends]),
            )

        return self._sampler((policy.name, ctx), turn)

    def _sampler(self, key: tuple[str, object], build: Callable[[], Outcomes]) -> int:
        """The sampler of ``key``, built (its outcomes' chances, scores and crews) the first
        time the key is met."""
        k = self._ids.get(key)
        if k is None:
            probs, scores, crews = build()
            cdf = np.cumsum(probs) / probs.sum()
            cdf[-1] = 1.0
            self.draw.append(InverseCdf(cdf))
            self.turn_score.append(scores.astype(np.int64))
            self.turn_crew.append(crews.astype(np.int64))
            k = self._ids[key] = len(self.draw) - 1
        return k
