"""What the Gymnasium and PettingZoo adapters share: rule sets, bots, stops and the text view.

An adapter stops for a seat only at a *decision*: :func:`~shipcaptaincrew.engine.current_player`
is the seat (a wild assignment, stand or reroll, a sip to hand out or the end of a hand-out,
or a session's call for another round or stop).  Everything else -- every roll of the dice,
the first of a turn included, the roll-offs, the captain's die -- is chance and is rolled
inside ``step`` from the environment's seeded generator.  A turn's start is no stop: there
is nothing to choose there, and a stop where every id means "roll" would only add a step
whose value equals the next state's and whose uniform choice inflates a policy's entropy.

So a seat may go through a turn, or a whole episode, without a stop: every roll without a
crew, or a crew on the last roll, leave nothing to decide.  PettingZoo's AEC loop handles that
as it is (an episode can end before an agent's first step).  A Gymnasium episode needs a first
observation at a decision, so its ``reset`` plays an episode the agent has nothing to decide
in to its end and deals the next, and reports those episodes (their count and rewards) so an
evaluation can count them.

A session (``format=session``) goes on for as long as the table calls another round, and
bots always do, so an environment caps it: once ``session_rounds`` rounds are played
(:data:`SESSION_ROUNDS` unless the environment is told otherwise), the table stops
(:func:`close_session`) and the totals decide, so every episode ends.
"""

from __future__ import annotations

import random
from collections.abc import Callable
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
from ..state import MatchState, Phase
from .encoding import NUM_ACTIONS, action_index, decision_mask, index_action
from .modelled import check_encoded

__all__ = [
    "ILLEGALS",
    "ILLEGAL_REWARD",
    "REWARDS",
    "UNDECIDED_LIMIT",
    "Illegal",
    "SESSION_ROUNDS",
    "Reward",
    "advance",
    "check_action",
    "check_id",
    "check_illegal",
    "check_max_steps",
    "check_reward",
    "check_session_rounds",
    "close_session",
    "deal",
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


class Illegal(StrEnum):
    """What a Gymnasium environment does with an id that is not legal now."""

    RAISE = "raise"  #: raise IllegalActionError naming the legal ids; the match is untouched
    LOSE = "lose"  #: the episode ends at once with ILLEGAL_REWARD, as PettingZoo's env() does


#: The names ``illegal=`` accepts.
ILLEGALS = tuple(i.value for i in Illegal)
#: The reward of an illegal action under ``illegal="lose"`` (PettingZoo's TerminateIllegalWrapper
#: gives the same).
ILLEGAL_REWARD = -1.0
#: Episodes in a row without a decision for the agent (Gymnasium) or for anyone (PettingZoo)
#: after which ``reset`` gives up: under any rule set that offers decisions, even 30 in a row
#: are rarer than one in a million.
UNDECIDED_LIMIT = 1000

#: The rounds a session lasts at most in an environment (its ``session_rounds`` default): the
#: same number every program that plays a session without people uses.
SESSION_ROUNDS = BOTS_SESSION_ROUNDS
#: A capped session is at most ``rounds:N``, so the cap takes that format's bounds.
_SESSION_BOUNDS = FORMAT_KINDS[FormatKind.ROUNDS].bounds


def make_rules(
    rules: Rules | str, match: bool, match_format: MatchFormat | str | None = None
) -> Rules:
    """A rule set from a value or its text, playing the match an environment was asked for.

    ``match_format`` (a :class:`~shipcaptaincrew.formats.MatchFormat` or its text,
    ``"rounds:3"``, ``"first_to:21"``, ``"tournament"``, ...) replaces the rule set's format
    and plays that whole match; without it the rule set's own format is played if ``match``,
    else one round (format single).  The rule set checks the format as it checks any option.
    """
    if isinstance(rules, str):
        rules = find_rules(rules)
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules value or its text, got {type(rules).__name__}")
    if match_format is not None:
        if isinstance(match_format, str):
            match_format = MatchFormat.parse(match_format)
        if not isinstance(match_format, MatchFormat):
            raise TypeError(
                f"format must be a MatchFormat or its text, got {type(match_format).__name__}"
            )
        return check_encoded(rules.replace(format=match_format))

    if not match and rules.format.kind is not FormatKind.SINGLE:
        rules = rules.replace(format=MatchFormat(FormatKind.SINGLE))
    return check_encoded(rules)


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


def check_illegal(illegal: Illegal | str) -> Illegal:
    """``illegal`` as an :class:`Illegal`, or a clear refusal naming the choices."""
    if illegal not in ILLEGALS:
        raise ValueError(f"illegal must be one of {', '.join(ILLEGALS)}, got {illegal!r}")
    return Illegal(illegal)


def deal(
    rules: Rules,
    players: int,
    starter: int | None,
    play: Callable[[MatchState], MatchState],
    who: str,
    start: MatchState | None = None,
) -> tuple[MatchState, MatchState, list[MatchState]]:
    """A new match played by ``play`` to its first stop: (start, state, undecided ends).

    ``start`` is the new match when the caller keeps one (a state is immutable).  A match
    ``play`` takes to its end without a stop (nobody in ``who`` had anything to
    decide) is put aside and another dealt; the ends of those are returned so their rewards
    can be reported.  :data:`UNDECIDED_LIMIT` of them in a row mean the rules give ``who``
    no decision at all, and raise.
    """
    undecided: list[MatchState] = []
    fresh = start
    while True:
        start = fresh if fresh is not None else new_match(rules, players, starter)
        state = play(start)
        if not state.is_over:
            return start, state, undecided
        undecided.append(state)
        if len(undecided) >= UNDECIDED_LIMIT:
            raise RuntimeError(
                f"{who} had nothing to decide in {len(undecided)} episodes in a row: "
                f"under {rules} there may be no decision at all"
            )


def check_max_steps(steps: Any) -> int | None:
    """``steps`` as an episode's step limit (None: no limit), if it is a count from 1."""
    if steps is None:
        return None
    if isinstance(steps, np.integer) and not isinstance(steps, np.bool_):
        steps = int(steps)
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise ValueError(f"max_steps must be None or a count from 1, got {steps!r}")
    return steps


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


def stopped_seat(state: MatchState, seats: frozenset[int] | set[int]) -> int | None:
    """The seat among ``seats`` with a decision here (None: keep going)."""
    player = current_player(state)
    return player if player >= 0 and player in seats else None


def stop_mask(state: MatchState, seat: int) -> np.ndarray:
    """The action mask for ``seat``: its legal decisions, or all zeros when it has none."""
    if current_player(state) == seat:
        return decision_mask(state)
    return np.zeros(NUM_ACTIONS, dtype=np.int8)


def check_id(index: Any) -> int:
    """``index`` as an action id: an integer (a NumPy one too) in range, else a clear error."""
    if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
        if isinstance(index, np.ndarray) and index.shape == () and index.dtype.kind in "iu":
            index = int(index)
        else:
            raise TypeError(f"an action is an integer id 0..{NUM_ACTIONS - 1}, got {index!r}")
    checked = int(index)
    if not 0 <= checked < NUM_ACTIONS:
        raise ValueError(f"action id {checked} is out of range 0..{NUM_ACTIONS - 1}")
    return checked


def check_action(state: MatchState, seat: int, index: Any) -> Action:
    """The engine action an id means at ``seat``'s decision; a clear error if illegal.

    The state is only read, so an illegal action leaves the match exactly as it was.
    """
    index = check_id(index)
    if current_player(state) != seat:
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
    """Roll the dice and let the bots play until a seat of ``stop_for`` has a decision, or the end.

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


def render_text(state: MatchState, seat: int | None = None, *, last_roll: bool = True) -> str:
    """A few lines describing the table, for ``render_mode="ansi"``.

    Plain data under field names (seat numbers, counts, action texts), the same in every
    language, so nothing here needs a catalogue or a plural form.  Without ``last_roll`` the
    faces of the last roll (the way there, not the position) are left out, so the text is
    the same for every history that reaches the position.
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
        rolled = f"; last roll {list(turn.last_roll) or '-'}" if last_roll else ""
        lines.append(
            f"turn: holds {roles}; cargo {list(turn.cargo) or '-'}; rolls used "
            f"{turn.rolls_used}{rolled}"
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
    if state.is_over:
        lines.append(f"match over: seat {state.winner} wins")
    return "\n".join(lines) + "\n"
