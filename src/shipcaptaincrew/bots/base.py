"""The one interface every bot implements, and the simple heuristic bots.

A bot is anything with ``name`` and ``choose(state, rng) -> action``: the terminal game, the
web app, the simulator and the learning environments all drive bots through it.  Bots only
*choose* among :func:`~shipcaptaincrew.engine.legal_actions`; they never roll dice and never
re-implement a rule.  Every bot also has ``explain(state)``: one translatable sentence
(:mod:`.reasons`) with the numbers behind its choice.

Besides stand / reroll, the engine can ask three other things: a wild-captain assignment
(:class:`~shipcaptaincrew.actions.Take`); when the captain hands out sips, a recipient
(:class:`~shipcaptaincrew.actions.HandOut`); and in a session, whether another round is
played.  The heuristic bots take the assignment that leaves the highest dice free
(:func:`best_take`; the solver's ``never`` and ``threshold:T`` policies make the same choice,
so their exact odds are these bots' odds) and hand each sip to a random other player (seeded
transcripts rely on that draw).  The solver-backed bots (:mod:`.solver_bots`) choose
assignments exactly and hand sips to the match leader (:func:`hand_out_target`).  A bot hands
out every sip the die allows (never stops early under ``hand_out=up_to``: a sip handed out
changes nobody's chance) and is always up for another round: a session is ended by the
people at the table, or by the program that plays only bots (it caps the rounds).
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ..actions import Action, HandOut, NextRound, RerollCargo, Stand, StopMatch, Take
from ..dice import remove_faces
from ..engine import legal_actions
from ..facts import SESSION_ROUNDS
from ..messages import Message
from ..solver import best_take
from ..state import MatchState, Phase, TurnState
from . import reasons

__all__ = [
    "Bot",
    "NoDecisionError",
    "RandomBot",
    "ThresholdBot",
    "TimidBot",
    "TipBot",
    "best_take",
    "SESSION_ROUNDS",
    "between_rounds",
    "hand_out_target",
    "session_call",
]


class NoDecisionError(ValueError):
    """A bot was asked to choose where no choice exists (a chance node or a finished game)."""


@runtime_checkable
class Bot(Protocol):
    """Chooses an action for the player to act."""

    name: str

    def choose(self, state: MatchState | TurnState, rng: random.Random) -> Action:
        """One of ``legal_actions(state)``."""
        ...

    def explain(self, state: MatchState | TurnState) -> Message:
        """Why :meth:`choose` chooses what it does here, with its numbers (see :mod:`.reasons`)."""
        ...


def _choices(state: MatchState | TurnState) -> tuple[Action, ...]:
    """The legal actions a bot picks among: every one, but the early stop of a hand-out."""
    acts = legal_actions(state)
    if not acts:
        raise NoDecisionError("there is no decision to make in this state")
    if _is_hand_out(state):
        return tuple(a for a in acts if isinstance(a, HandOut))
    return acts


def between_rounds(state: MatchState | TurnState) -> Action | None:
    """What every bot says when a session asks for another round (None at any other point)."""
    if isinstance(state, MatchState) and state.phase is Phase.ANOTHER_ROUND:
        return NextRound()
    return None


def session_call(state: MatchState, rounds: int = SESSION_ROUNDS) -> Action | None:
    """The stop of a session without people once it has played ``rounds`` rounds, else None."""
    if state.phase is Phase.ANOTHER_ROUND and len(state.results) >= rounds:
        return StopMatch()
    return None


def _another_round(state: MatchState | TurnState) -> Message:
    assert isinstance(state, MatchState)  # only a match asks for another round
    return reasons.another_round(len(state.results) + 1)


def hand_out_target(state: MatchState, rng: random.Random | None = None) -> HandOut:
    """The sip goes to the opponent with the highest match total (then chips).

    Among opponents equal on both the choice is ``rng``'s, uniformly: a fixed order (the
    lowest seat) would make the seats' sips differ at a table of identical bots.  Without an
    ``rng`` (an explanation, which only names the leader's total) the first of them.  The
    generator is drawn from only when there is such a tie, so a game without one keeps its
    random numbers.
    """
    acts = [a for a in legal_actions(state) if isinstance(a, HandOut)]
    if not acts:
        raise NoDecisionError("there are no sips to hand out")
    top = max((state.totals[a.to], state.chips[a.to]) for a in acts)
    leaders = [a for a in acts if (state.totals[a.to], state.chips[a.to]) == top]
    if rng is None or len(leaders) == 1:
        return leaders[0]
    return leaders[rng.randrange(len(leaders))]


def _turn(state: MatchState | TurnState) -> TurnState:
    t = state if isinstance(state, TurnState) else state.turn
    if t is None:
        raise NoDecisionError("this bot only decides during a turn")
    return t


def _explain_hand_out(state: MatchState) -> Message:
    return reasons.hand_out_leader(state.totals[hand_out_target(state).to])


def _is_hand_out(state: MatchState | TurnState) -> bool:
    return isinstance(state, MatchState) and state.phase is Phase.HAND_OUT


class RandomBot:
    """Picks uniformly among the legal actions (the ``random`` bot)."""

    name = "random"

    def choose(self, state: MatchState | TurnState, rng: random.Random) -> Action:
        """A uniformly random legal action (another round, in a session)."""
        return between_rounds(state) or rng.choice(_choices(state))

    def explain(self, state: MatchState | TurnState) -> Message:
        """How many choices the coin picks among."""
        if not legal_actions(state):
            return reasons.no_decision()
        if between_rounds(state) is not None:
            return _another_round(state)
        return reasons.random_choice(len(_choices(state)))


class ThresholdBot:
    """Rerolls the cargo while the cargo is below ``threshold`` (``threshold:T``).

    A wild-captain assignment takes the lowest faces, leaving the highest dice free
    (:func:`best_take`, the same choice as the solver's ``threshold:T`` policy, so the exact
    odds of that policy are this bot's odds); a sip goes to a random other player.
    """

    def __init__(self, threshold: int, name: str | None = None) -> None:
        self.threshold = threshold
        self.name = name or f"threshold:{threshold}"

    @property
    def policy(self) -> str:
        """The solver's name for this bot's cargo rule."""
        return f"threshold:{self.threshold}"

    def choose(self, state: MatchState | TurnState, rng: random.Random) -> Action:
        """Stand at or above the threshold, else reroll the cargo."""
        acts = _choices(state)
        if _is_hand_out(state):
            return rng.choice(acts)  # any other player
        again = between_rounds(state)
        if again is not None:
            return again
        t = _turn(state)
        if any(isinstance(a, Take) for a in acts):
            return best_take(acts)
        if sum(t.cargo) < self.threshold and RerollCargo() in acts:
            return RerollCargo()
        return Stand()

    def explain(self, state: MatchState | TurnState) -> Message:
        """The cargo (the sum of the cargo dice, as :meth:`choose` compares it, never the
        score with a bonus) against the threshold; the assignment; or the random sip."""
        if not legal_actions(state):
            return reasons.no_decision()
        acts = _choices(state)
        if _is_hand_out(state):
            return reasons.hand_out_random(len(acts))
        if between_rounds(state) is not None:
            return _another_round(state)
        t = _turn(state)
        if any(isinstance(a, Take) for a in acts):
            a = best_take(acts)
            assert isinstance(a, Take)
            return reasons.take_reason(sorted(remove_faces(t.pending, a.faces)))
        return reasons.threshold_reason(
            cargo=sum(t.cargo), threshold=self.threshold, can_reroll=RerollCargo() in acts
        )


class TimidBot(ThresholdBot):
    """Stands on any cargo (the ``timid`` bot, difficulty ``easy``)."""

    def __init__(self) -> None:
        super().__init__(0, "timid")


class TipBot(ThresholdBot):
    """Rerolls the cargo at six or less, the sheets' tip (000/003 "bei sechs Punkten oder weniger").

    Difficulty ``medium``.
    """

    def __init__(self) -> None:
        super().__init__(7, "tip")
