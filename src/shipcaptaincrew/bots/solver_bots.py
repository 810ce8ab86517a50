"""Bots backed by the exact solver: ``ev`` (best expected score) and ``optimal`` (best win odds).

The ``optimal`` bot reads the contest -- the scores posted, how many are tied at the top, how
many play after it, and the contest size -- and plays the subgame-perfect win-maximising policy
of :mod:`shipcaptaincrew.solver.rounds`.  In a standalone turn (no table) it plays to complete
the crew, then for the best expected score.
"""

from __future__ import annotations

import random

from ..actions import Action, Take
from ..engine import legal_actions
from ..solver import Choice, advise, policy_action, turn_graph
from ..state import MatchState, TurnState
from .base import NoDecisionError, _choices, _explain_hand_out, _is_hand_out, _turn, hand_out_target

__all__ = ["EVBot", "OptimalBot"]


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


class EVBot:
    """Maximises the expected score of its own turn (difficulty ``hard``)."""

    name = "ev"

    def choose(self, state: MatchState | TurnState, rng: random.Random) -> Action:
        """The expected-score-maximising action (exact; ties stand)."""
        _choices(state)
        if _is_hand_out(state):
            assert isinstance(state, MatchState)
            return hand_out_target(state)
        t = _turn(state)
        return policy_action(t.rules, "ev", t)

    def _values(self, t: TurnState) -> list[tuple[Action, float]]:
        graph = turn_graph(t.rules)
        from ..solver import policy_choices

        choice = policy_choices(t.rules, "ev")
        e, _ = graph.evaluate([float(x) for x in graph.scores], choice)
        node = graph.node(t)
        return [(a, e[c]) for a, c in zip(graph.actions[node], graph.kids[node])]

    def explain(self, state: MatchState | TurnState) -> str:
        """One sentence with the expected score of each choice."""
        if not legal_actions(state):
            return "There is no decision to make here."
        if _is_hand_out(state):
            assert isinstance(state, MatchState)
            return _explain_hand_out(state)
        t = _turn(state)
        best = self.choose(state, random.Random(0))
        vals = self._values(t)
        others = "; ".join(f"{a} {v:.3f}" for a, v in vals if a != best)
        mine = dict(vals)[best]
        return f"I {best}: expected score {mine:.3f}, against {others}."


class OptimalBot:
    """Maximises its chance of winning the contest being played (difficulty ``perfect``)."""

    name = "optimal"

    def advice(self, state: MatchState | TurnState) -> list[Choice]:
        """Every legal choice with win probability and expected score, best first."""
        return advise(state)

    def choose(self, state: MatchState | TurnState, rng: random.Random) -> Action:
        """The first choice of :meth:`advice` (sips go to the match leader)."""
        _choices(state)
        if _is_hand_out(state):
            assert isinstance(state, MatchState)
            return hand_out_target(state)
        _turn(state)
        ranked = self.advice(state)
        if not ranked:
            raise NoDecisionError("there is no decision to make in this state")
        return ranked[0].action

    def explain(self, state: MatchState | TurnState) -> str:
        """One sentence citing the win probabilities of the best choice and the runner-up."""
        if not legal_actions(state):
            return "There is no decision to make here."
        if _is_hand_out(state):
            assert isinstance(state, MatchState)
            return _explain_hand_out(state)
        t = _turn(state)
        ranked = self.advice(state)
        best = ranked[0]
        what = (
            f"set aside {best.action} from {t.pending}"
            if isinstance(best.action, Take)
            else f"{best.action} with cargo {sum(t.cargo)} and {t.rolls_left} roll"
            f"{'s' if t.rolls_left != 1 else ''} left"
        )
        alone = (
            " (playing alone, a full crew counts as a win)" if isinstance(state, TurnState) else ""
        )
        if len(ranked) == 1:
            return f"I {what}: I win {_pct(best.win_probability)} of the time{alone}."
        alt = ranked[1]
        return (
            f"I {what}: that wins {_pct(best.win_probability)} of the time "
            f"(expected score {best.expected_score:.2f}), against "
            f"{_pct(alt.win_probability)} for {alt.action}{alone}."
        )
