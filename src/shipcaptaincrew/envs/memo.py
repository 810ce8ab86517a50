"""The engine's answers, asked once per distinct state: why a single-table step is lookups.

The engine is pure -- a state and an action (or a roll) give one next state -- and a table
meets the same states again and again (every round opens from the same few positions).  So an
adapter keeps what the engine answered: whose move it is, the legal actions, a chance node's
exact outcomes and where each leads, the state after an action.  Hashing a match state (a
frozen value of some thirty fields) costs as much as a small engine call, so the answers are
kept by the identity of the state objects: every state the memo hands out is remembered by its
identity, and a state object it has not seen is looked up once by value (two states equal by
value share their answers; each keeps its own faces of the last roll, which the engine does not
compare).  Nothing here decides a rule: every answer is the engine's, computed the
first time it is asked.

At :data:`LIMIT` states the memo starts again (a long match's states are many; the first
rounds' are met most).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from ..actions import Action
from ..engine import (
    CHANCE,
    apply,
    chance_outcomes,
    current_player,
    initial_turn,
    legal_actions,
    post_score,
    seat_to_act,
)
from ..rules import Rules
from ..state import MatchState, Phase, TurnState

__all__ = ["LIMIT", "EngineMemo", "Node"]

#: The states kept at most before the memo starts again.
LIMIT = 200_000


class Node:
    """What the engine answered about one state (filled as it is asked)."""

    __slots__ = (
        "after",
        "cdf",
        "extra",
        "legal",
        "outcomes",
        "player",
        "posted",
        "state",
        "then",
        "turn_seat",
    )

    def __init__(self, state: MatchState, fresh: TurnState) -> None:
        self.state = state
        self.player = current_player(state)
        #: The seat whose turn is due and not yet begun here (None: no such turn).
        self.turn_seat = (
            seat_to_act(state)
            if self.player == CHANCE and state.phase is Phase.TURN and state.turn == fresh
            else None
        )
        #: What an adapter keeps of this state for itself (an observation, a sampler).
        self.extra: dict[Any, Any] = {}
        #: Chance: the cumulative chances and the outcomes (rolls); the canonical state after
        #: each outcome, by its place, as it is first met (a roll of five dice has 252).
        self.cdf: list[float] | None = None
        self.outcomes: list[Any] | None = None
        self.after: dict[int, MatchState] = {}
        #: A decision: the legal actions, and the canonical state after each one taken.
        self.legal: tuple[Action, ...] | None = None
        self.then: dict[Action, MatchState] = {}
        #: A turn not yet begun: the canonical state after each score posted.
        self.posted: dict[int, MatchState] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> Node:
        # The engine's answers, not a value of the state: a copied state shares them (an
        # OpenSpiel clone is a deep copy).
        return self


class EngineMemo:
    """The engine's answers by canonical state (see the module's docstring)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> EngineMemo:
        return self  # shared by every copy of a state that holds it

    def __init__(self, rules: Rules) -> None:
        self._fresh = initial_turn(rules)
        self._by_value: dict[MatchState, Node] = {}
        #: Every state object met, by identity, with its node (the object is held, so that
        #: its identity stays its own while the entry lives).
        self._by_id: dict[int, tuple[MatchState, Node]] = {}
        self._converted: dict[int, tuple[Any, tuple[list[float], list[Any], list[float]]]] = {}

    def node(self, state: MatchState) -> Node:
        """The answers of ``state``: by its identity when this object was met before, else by
        its value (once), the object then remembered."""
        hit = self._by_id.get(id(state))
        if hit is not None and hit[0] is state:
            return hit[1]
        if len(self._by_id) >= 4 * LIMIT:
            self._by_value.clear()
            self._by_id.clear()
        found = self._by_value.get(state)
        if found is None:
            found = self._by_value[state] = Node(state, self._fresh)
        self._by_id[id(state)] = (state, found)
        return found

    def _kept(self, state: MatchState) -> MatchState:
        """``state`` itself, remembered by identity (a state equal to another by value keeps
        its own faces of the last roll, which no rule reads but a story tells)."""
        self.node(state)
        return state

    def chance(self, node: Node) -> tuple[list[float], list[Any]]:
        """A chance node's cumulative chances and outcomes (the engine's, in its order)."""
        if node.cdf is None:
            node.cdf, node.outcomes, _ = self.converted(chance_outcomes(node.state))
        assert node.outcomes is not None
        return node.cdf, node.outcomes

    def converted(self, outcomes: Any) -> tuple[list[float], list[Any], list[float]]:
        """The engine's (roll, exact chance) pairs as cumulative floats, rolls and floats.

        Most chance nodes roll the same dice (every five-dice roll has the same 252
        outcomes), and the engine hands out one object per distribution; the conversion is
        kept by that object (held here, so its identity stays its own).
        """
        found = self._converted.get(id(outcomes))
        if found is not None and found[0] is outcomes:
            return found[1]
        cdf, rolls, probs, acc = [], [], [], 0.0
        for roll, p in outcomes:
            q = float(p)
            acc += q
            cdf.append(acc)
            rolls.append(roll)
            probs.append(q)
        cdf[-1] = 1.0
        if len(self._converted) >= LIMIT:
            self._converted.clear()
        self._converted[id(outcomes)] = (outcomes, (cdf, rolls, probs))
        return cdf, rolls, probs

    def outcome(self, node: Node, place: int) -> MatchState:
        """The canonical state after the chance node's outcome at ``place``."""
        found = node.after.get(place)
        if found is None:
            _, outcomes = self.chance(node)
            found = node.after[place] = self._kept(apply(node.state, outcomes[place]))
        return found

    def roll(self, node: Node, u: float) -> MatchState:
        """The state after the outcome a uniform ``u`` picks at a chance node."""
        cdf, _ = self.chance(node)
        return self.outcome(node, min(bisect_right(cdf, u), len(cdf) - 1))

    def legal(self, node: Node) -> tuple[Action, ...]:
        """The legal actions at a decision."""
        if node.legal is None:
            node.legal = legal_actions(node.state)
        return node.legal

    def then(self, node: Node, action: Action) -> MatchState:
        """The canonical state after a legal action."""
        found = node.then.get(action)
        if found is None:
            found = node.then[action] = self._kept(apply(node.state, action))
        return found

    def post(self, node: Node, score: int) -> MatchState:
        """The canonical state after a turn not yet begun ends with ``score``."""
        found = node.posted.get(score)
        if found is None:
            found = node.posted[score] = self._kept(post_score(node.state, score))
        return found
