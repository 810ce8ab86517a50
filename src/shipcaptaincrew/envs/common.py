"""What the Gymnasium and PettingZoo adapters share: rule sets, bots, stops and the text view.

An adapter stops for a seat at two kinds of points:

* a *decision*: :func:`~shipcaptaincrew.engine.current_player` is the seat (a wild
  assignment, stand or reroll, a sip to hand out or the end of a hand-out, or a session's
  call for another round or stop);
* a *turn start*: the seat's dice are due for the first roll of a turn.  There is nothing to
  choose there -- every action id starts the turn (the mask is all ones) -- but the stop
  means every turn is seen, so an episode always has a step even when three rolls go by
  without a crew, and a learner sees the scores to beat before its turn.

Everything else (other dice, the roll-offs, the captain's die) is chance and is rolled
inside ``step`` from the environment's seeded generator.

A session (``format=session``) goes on for as long as the table calls another round, and
bots always do, so an environment caps it: once ``session_rounds`` rounds are played
(:data:`SESSION_ROUNDS` unless the environment is told otherwise), the table stops
(:func:`close_session`) and the totals decide, so every episode ends.
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Any

import numpy as np

from ..actions import Action, StopMatch
from ..bots import SESSION_ROUNDS as BOTS_SESSION_ROUNDS
from ..bots import Bot, make_bot
from ..engine import (
    CHANCE,
    TERMINAL,
    IllegalActionError,
    apply,
    check_players,
    current_player,
    initial_state,
    legal_actions,
    sample_chance,
    seat_to_act,
)
from ..formats import FORMAT_KINDS, FormatKind, MatchFormat
from ..rules import Drinking, Rules, Stakes, Starter, find_rules
from ..state import MatchState, Phase, TurnPhase
from .encoding import NUM_ACTIONS, action_index, decision_mask, index_action

__all__ = [
    "REWARDS",
    "SESSION_ROUNDS",
    "Reward",
    "advance",
    "check_action",
    "check_reward",
    "check_session_rounds",
    "close_session",
    "is_turn_start",
    "make_rules",
    "new_match",
    "player_count",
    "render_text",
    "resolve_bot",
    "reward_of",
    "stop_mask",
    "stopped_seat",
]


class Reward(StrEnum):
    """How a finished episode is scored."""

    WIN = "win"  #: 1 for the winner, 0 for the others
    POT = "pot"  #: the chips won or lost (stakes=pot)
    SIPS = "sips"  #: minus the sips drunk (a rule set with a drinking mode)


#: The reward names the environments accept.
REWARDS = tuple(r.value for r in Reward)

#: The rounds a session lasts at most in an environment (its ``session_rounds`` default): the
#: same number every program that plays a session without people uses.
SESSION_ROUNDS = BOTS_SESSION_ROUNDS
#: A capped session is at most ``rounds:N``, so the cap takes that format's bounds.
_SESSION_BOUNDS = FORMAT_KINDS[FormatKind.ROUNDS].bounds


def make_rules(rules: Rules | str, match: bool) -> Rules:
    """A rule set from a value or its text; one round (format single) unless ``match``."""
    if isinstance(rules, str):
        rules = find_rules(rules)
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules value or its text, got {type(rules).__name__}")
    if not match and rules.format.kind is not FormatKind.SINGLE:
        rules = rules.replace(format=MatchFormat(FormatKind.SINGLE))
    return rules


def player_count(rules: Rules, players: Any) -> int:
    """``players`` as an int if a table under ``rules`` seats that many (the engine decides).

    numpy integers are welcome (a count drawn with numpy); bools and floats are not.
    """
    if isinstance(players, np.integer) and not isinstance(players, np.bool_):
        players = int(players)
    return check_players(rules, players)


def check_reward(reward: Reward | str, rules: Rules) -> Reward:
    """Validate the reward name against the rule set."""
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
    kind = Reward(reward)
    if kind is Reward.POT and rules.stakes is not Stakes.POT:
        raise ValueError("reward='pot' needs a rule set with stakes=pot")
    if kind is Reward.SIPS and rules.drinking is Drinking.NONE:
        raise ValueError("reward='sips' needs a rule set with a drinking mode")
    return kind


def check_session_rounds(rounds: Any) -> int:
    """``rounds`` as the int cap of a session, if it is within the bounds of ``rounds:N``."""
    assert _SESSION_BOUNDS is not None
    lo, hi = _SESSION_BOUNDS
    if isinstance(rounds, np.integer) and not isinstance(rounds, np.bool_):
        rounds = int(rounds)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not lo <= rounds <= hi:
        raise ValueError(f"session_rounds must be {lo}..{hi}, got {rounds!r}")
    return rounds


def close_session(state: MatchState, rounds: int) -> MatchState:
    """The match after the table stops a session that has played ``rounds`` rounds.

    Any other state is returned as it is.  Rounds count as the match records them
    (:attr:`~shipcaptaincrew.state.MatchState.results`), a round among tied players included.
    """
    if state.phase is Phase.ANOTHER_ROUND and len(state.results) >= rounds:
        return apply(state, StopMatch())
    return state


def new_match(rules: Rules, players: int, starter: int | None) -> MatchState:
    """A new match; ``starter`` names the first seat when the rules say starter=chosen."""
    if rules.starter is Starter.ROLLOFF:
        return initial_state(rules, players)
    return initial_state(rules, players, starter=starter if starter is not None else 0)


def resolve_bot(spec: Bot | str) -> Bot:
    """A bot from a :class:`~shipcaptaincrew.bots.Bot` or a spec for
    :func:`~shipcaptaincrew.bots.make_bot` (``"tip"``, ``"threshold:8"``, ``"optimal"``, ...)."""
    if isinstance(spec, str):
        return make_bot(spec)
    if not hasattr(spec, "choose"):
        raise TypeError(f"a bot needs a choose(state, rng) method, got {spec!r}")
    return spec


def is_turn_start(state: MatchState, seat: int) -> bool:
    """``seat``'s dice are due for the first roll of a turn."""
    turn = state.turn
    return (
        state.phase is Phase.TURN
        and turn is not None
        and turn.phase is TurnPhase.ROLL
        and turn.rolls_used == 0
        and seat_to_act(state) == seat
    )


def stopped_seat(state: MatchState, seats: frozenset[int] | set[int]) -> int | None:
    """The seat among ``seats`` the adapter stops for here (None: keep going)."""
    player = current_player(state)
    if player >= 0 and player in seats:
        return player
    if player == CHANCE:
        at = seat_to_act(state)
        if at is not None and at in seats and is_turn_start(state, at):
            return at
    return None


def stop_mask(state: MatchState, seat: int) -> np.ndarray:
    """The action mask at a stop for ``seat``: the legal decisions, or all ones at a turn start."""
    if current_player(state) == seat:
        return decision_mask(state)
    if is_turn_start(state, seat):
        return np.ones(NUM_ACTIONS, dtype=np.int8)
    return np.zeros(NUM_ACTIONS, dtype=np.int8)


def check_action(state: MatchState, seat: int, index: Any) -> Action | None:
    """The engine action an id means at a stop (None: start the turn); a clear error if illegal.

    The state is only read, so an illegal action leaves the match exactly as it was.
    """
    if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
        if isinstance(index, np.ndarray) and index.shape == () and index.dtype.kind in "iu":
            index = int(index)
        else:
            raise TypeError(f"an action is an integer id 0..{NUM_ACTIONS - 1}, got {index!r}")
    index = int(index)
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"action id {index} is out of range 0..{NUM_ACTIONS - 1}")
    if current_player(state) != seat:
        if is_turn_start(state, seat):
            return None
        raise RuntimeError(f"seat {seat} has nothing to do now")
    action = index_action(state, index)
    legal = legal_actions(state)
    if action is None or action not in legal:
        what = "nothing here" if action is None else str(action)
        choices = ", ".join(f"{action_index(state, a)}={a}" for a in legal)
        raise IllegalActionError(f"action id {index} ({what}) is not legal now; legal: {choices}")
    return action


def advance(
    state: MatchState,
    rng: random.Random,
    stop_for: frozenset[int],
    bots: dict[int, Bot],
    session_rounds: int,
) -> MatchState:
    """Roll the dice and let the bots play until a seat of ``stop_for`` has a stop, or the end.

    A session stops once it has played ``session_rounds`` rounds (:func:`close_session`).
    """
    while True:
        state = close_session(state, session_rounds)
        player = current_player(state)
        if player == TERMINAL:
            return state
        if stopped_seat(state, stop_for) is not None:
            return state
        if player == CHANCE:
            state = apply(state, sample_chance(state, rng))
        else:
            state = apply(state, bots[player].choose(state, rng))


def reward_of(state: MatchState, seat: int, reward: Reward, start: MatchState) -> float:
    """The episode's reward for ``seat`` once the match is over (0 before)."""
    if not state.is_over:
        return 0.0
    if reward is Reward.WIN:
        return 1.0 if state.winner == seat else 0.0
    if reward is Reward.POT:
        return float(state.chips[seat] - start.chips[seat])
    return -float(state.sips[seat] - start.sips[seat])


def render_text(state: MatchState, seat: int | None = None) -> str:
    """A few lines describing the table, for ``render_mode="ansi"``.

    Plain data under field names (seat numbers, counts, action texts), the same in every
    language, so nothing here needs a catalogue or a plural form.
    """
    rules = state.rules
    lines = [f"rules: {rules}", f"round {state.round_no}  phase: {state.phase.value}"]
    if state.contest is not None:
        c = state.contest
        lines.append(
            f"contest: {c.purpose.value} by {c.method.value}; posted "
            + (", ".join(f"seat {s}: {v}" for s, v in c.posted.items()) or "nothing yet")
        )
    for s in range(state.players):
        marks = []
        if s == seat:
            marks.append("you")
        if s == seat_to_act(state):
            marks.append("at the table")
        money = f"  chips {state.chips[s]}" if rules.stakes is Stakes.POT else ""
        drink = f"  sips {state.sips[s]}" if rules.drinking is not Drinking.NONE else ""
        won = f"  wins {state.wins[s]}" if rules.format.kind is FormatKind.WINS else ""
        lines.append(
            f"  seat {s}: total {state.totals[s]}{money}{drink}{won}"
            + (f"  ({', '.join(marks)})" if marks else "")
        )
    if rules.stakes is Stakes.POT:
        lines.append(f"pot: {state.pot}")
    turn = state.turn
    if turn is not None:
        roles = ", ".join(f"{r} {f}" for r, f in zip(turn.held_roles, turn.held)) or "nothing"
        lines.append(
            f"turn: holds {roles}; cargo {list(turn.cargo) or '-'}; rolls used "
            f"{turn.rolls_used}; last roll {list(turn.last_roll) or '-'}"
        )
        if turn.pending:
            lines.append(f"to set aside from {list(turn.pending)}")
    if state.phase is Phase.HAND_OUT:
        lines.append(f"hand-out: seat {state.round_winner}, sips left {state.hand_out_left}")
    if state.phase is Phase.ANOTHER_ROUND:
        lines.append(
            f"session: rounds played {len(state.results)}; "
            f"seat {seat_to_act(state)} calls next_round or stop"
        )
    if seat is not None and current_player(state) == seat:
        acts = ", ".join(f"{action_index(state, a)}={a}" for a in legal_actions(state))
        lines.append(f"your choices: {acts}")
    elif seat is not None and is_turn_start(state, seat):
        lines.append("your turn: any action rolls the dice")
    if state.is_over:
        lines.append(f"match over: seat {state.winner} wins")
    return "\n".join(lines) + "\n"
