"""One fixed numbering of the engine's actions and one view of a state, shared by every adapter.

The learning libraries want a fixed discrete action space and fixed-shape observations; the
engine offers a short tuple of :mod:`~shipcaptaincrew.actions` values per state.  This module
translates between the two and nothing more: which actions are legal always comes from
:func:`~shipcaptaincrew.engine.legal_actions`, never from a rule written down here.

Action ids (:data:`NUM_ACTIONS` of them):

====== ===========================================================================
id     action
====== ===========================================================================
0      ``stand``: keep the cargo
1      ``reroll``: reroll the whole cargo
2..7   ``reroll:keepF``: half cargo (000), keep one die showing F = 1..6
8..21  ``take``: a wild-captain assignment (002), as a pattern over the next missing
       roles: for each role either the real face (R) or the wild face (W), 1 to 3
       roles long -- R, W, RR, RW, WR, WW, RRR, ..., WWW
22..29 ``sip:S``: the captain hands a sip to seat S = 0..7 (000/003)
30     ``sip:stop``: the captain hands out no more sips (``hand_out=up_to``, 000.24)
31     ``next_round``: a session goes on with another round (``format=session``)
32     ``stop``: a session stops and the totals decide (``format=session``)
33     ``roll``: take up the cup and roll a turn's first dice -- no engine action (the
       dice are chance's); only the OpenSpiel game offers it, as the one legal move at
       a turn's start (its ``roll_action`` parameter), so that every seat acts
====== ===========================================================================

A take pattern names the same choice whatever the required faces and the wild face are,
so one action space serves every rule set.  Ids only ever get appended, so an id keeps its
meaning when the engine gains a decision.

A split hand-out (:class:`~shipcaptaincrew.actions.HandOutSplit`, ``sip:1x2,2x1``) has no
id: the engine accepts one but does not list it, so an agent hands out its sips one at a
time, which reaches the same sips as any split.

>>> NUM_ACTIONS
34
>>> from shipcaptaincrew import Roll, Take, apply, initial_turn, find_rules
>>> t = apply(initial_turn(find_rules("classic").replace(wild_captain=True)), Roll((6, 5, 1, 1, 2)))
>>> [str(a) for a in legal_actions_of(t)]
['take:151', 'take:611', 'take:651']
>>> [action_index(t, a) for a in legal_actions_of(t)]
[19, 17, 15]
>>> index_action(t, 15)
Take(faces=(6, 5, 1))
"""

from __future__ import annotations

from enum import IntEnum
from itertools import combinations_with_replacement, product
from typing import Any

import numpy as np

from ..actions import (
    Action,
    HandOut,
    HandOutSplit,
    NextRound,
    RerollCargo,
    Stand,
    StopHandOut,
    StopMatch,
    Take,
)
from ..engine import legal_actions, seat_to_act
from ..facts import FACES, MAX_PLAYERS, ROLES
from ..formats import FORMAT_KINDS, FormatKind
from ..options import OPTIONS
from ..rules import TURN_LIMITS, Rules
from ..state import MatchState, Phase, Purpose, TurnPhase, TurnState

__all__ = [
    "CHANCE_OUTCOMES",
    "FORMAT_CODES",
    "MAX_PLAYERS",
    "NUM_ACTIONS",
    "NUM_CHANCE_OUTCOMES",
    "OBS_PHASES",
    "ROLL_ID",
    "SINGLE_ACTIONS",
    "TAKE_PATTERNS",
    "IllegalIndexError",
    "ObsPhase",
    "action_index",
    "action_label",
    "chance_index",
    "decision_mask",
    "index_action",
    "legal_actions_of",
    "observation",
    "observation_bounds",
    "flat_bounds",
    "flat_observation",
    "turn_fields",
    "turn_of",
    "turn_phase",
]

STAND_ID = 0
REROLL_ID = 1
KEEP_BASE = 2
#: One keep id per face the kept die can show.
TAKE_BASE = KEEP_BASE + len(FACES)
#: Wild-captain patterns: ``True`` where the wild face fills the role, ``False`` for the real face.
TAKE_PATTERNS: tuple[tuple[bool, ...], ...] = tuple(
    p for k in range(1, len(ROLES) + 1) for p in product((False, True), repeat=k)
)
SIP_BASE = TAKE_BASE + len(TAKE_PATTERNS)
#: After one sip id per seat of the largest table, the decisions that are one action each,
#: in the order they were added (append new ones at the end: the ids above never move).
SINGLE_ACTIONS: tuple[Action, ...] = (StopHandOut(), NextRound(), StopMatch())
SINGLE_BASE = SIP_BASE + MAX_PLAYERS
#: A turn's opening roll as a move of its player (OpenSpiel's ``roll_action``): the engine
#: has no action for it (the dice are chance's), so :func:`index_action` names nothing here.
ROLL_ID = SINGLE_BASE + len(SINGLE_ACTIONS)
#: The size of the action space every adapter offers.
NUM_ACTIONS = ROLL_ID + 1

#: Every sorted roll of one die to the most dice in the cup (:data:`~.rules.TURN_LIMITS`), the
#: chance outcomes an OpenSpiel game can meet; by count, then in order, so a larger cup only
#: appends ids.
CHANCE_OUTCOMES: tuple[tuple[int, ...], ...] = tuple(
    c for n in range(1, TURN_LIMITS.dice + 1) for c in combinations_with_replacement(FACES, n)
)
NUM_CHANCE_OUTCOMES = len(CHANCE_OUTCOMES)
_CHANCE_INDEX = {faces: i for i, faces in enumerate(CHANCE_OUTCOMES)}
_PATTERN_INDEX = {p: i for i, p in enumerate(TAKE_PATTERNS)}
_SINGLE_INDEX = {a: SINGLE_BASE + i for i, a in enumerate(SINGLE_ACTIONS)}


class ObsPhase(IntEnum):
    """The codes of the ``phase`` observation (appended to, never renumbered)."""

    ROLL = 0  #: a turn's dice are due
    ASSIGN = 1  #: a wild assignment
    DECIDE = 2  #: stand or reroll the cargo
    HAND_OUT = 3  #: the captain hands out sips
    CHANCE = 4  #: other dice: a roll-off, the 002 cargo roll-off, the captain's die
    OVER = 5  #: the match is over
    ANOTHER_ROUND = 6  #: a session between rounds: another round, or stop


#: The names of the ``phase`` codes, in code order.
OBS_PHASES = tuple(p.name.lower() for p in ObsPhase)
_TURN_PHASES = {
    TurnPhase.ROLL: ObsPhase.ROLL,
    TurnPhase.ASSIGN: ObsPhase.ASSIGN,
    TurnPhase.DECIDE: ObsPhase.DECIDE,
}
_MATCH_PHASES = {
    Phase.HAND_OUT: ObsPhase.HAND_OUT,
    Phase.ANOTHER_ROUND: ObsPhase.ANOTHER_ROUND,
    Phase.MATCH_OVER: ObsPhase.OVER,
}
_PURPOSES = (None, *Purpose)

#: The codes of the ``format_kind`` observation: the kinds in the order the format table lists
#: them (new kinds are appended there).
FORMAT_CODES: tuple[FormatKind, ...] = tuple(FORMAT_KINDS)
#: The largest N any format kind takes (0 in ``format_n`` for the kinds that take none).
_TOP_N = max(spec.bounds[1] for spec in FORMAT_KINDS.values() if spec.bounds is not None)

# Counters (totals, chips, sips, pot) are bounded by the int32 range in the observation space.
_BIG = 2**31 - 1
#: The highest face a die shows (0 in a dice field means no die).
_TOP = max(FACES)


class IllegalIndexError(ValueError):
    """An action id that is out of range or names no legal action in this state."""


def turn_of(state: TurnState | MatchState) -> TurnState | None:
    """The turn being played (the state itself for a standalone turn)."""
    return state if isinstance(state, TurnState) else state.turn


def legal_actions_of(state: TurnState | MatchState) -> tuple[Action, ...]:
    """The engine's legal actions (a re-export so adapters import one module)."""
    return legal_actions(state)


def chance_index(faces: tuple[int, ...]) -> int:
    """The id of a sorted roll among :data:`CHANCE_OUTCOMES`.

    >>> CHANCE_OUTCOMES[chance_index((3, 6))]
    (3, 6)
    """
    return _CHANCE_INDEX[tuple(sorted(faces))]


def action_index(state: TurnState | MatchState, action: Action) -> int:
    """The id of a decision ``action`` (one of ``legal_actions(state)``)."""
    if isinstance(action, Stand):
        return STAND_ID
    if isinstance(action, RerollCargo):
        return REROLL_ID if action.keep is None else KEEP_BASE + FACES.index(action.keep)
    if isinstance(action, Take):
        rules = state.rules
        pattern = tuple(rules.wild_captain and f == rules.wild_face for f in action.faces)
        return TAKE_BASE + _PATTERN_INDEX[pattern]
    if isinstance(action, HandOut):
        return SIP_BASE + action.to
    single = _SINGLE_INDEX.get(action)
    if single is not None:
        return single
    if isinstance(action, HandOutSplit):
        raise IllegalIndexError(f"{action} has no id: hand the sips out one at a time")
    raise IllegalIndexError(f"{action} is chance's to supply, not a decision with an id")


def index_action(state: TurnState | MatchState, index: int) -> Action | None:
    """The action an id names in ``state`` (None when it names nothing here).

    The result is not yet checked for legality; compare it with ``legal_actions(state)``.
    """
    if not 0 <= index < NUM_ACTIONS:
        return None
    if index == STAND_ID:
        return Stand()
    if index == REROLL_ID:
        return RerollCargo()
    if index < TAKE_BASE:
        return RerollCargo(keep=FACES[index - KEEP_BASE])
    if index < SIP_BASE:
        turn = turn_of(state)
        if turn is None:
            return None
        return _take(state.rules, len(turn.held), TAKE_PATTERNS[index - TAKE_BASE])
    if index < SINGLE_BASE:
        return HandOut(index - SIP_BASE)
    if index == ROLL_ID:
        return None  # the dice are chance's: no engine action
    return SINGLE_ACTIONS[index - SINGLE_BASE]


def _take(rules: Rules, held: int, pattern: tuple[bool, ...]) -> Take | None:
    need = rules.required_faces[held:]
    if len(pattern) > len(need):
        return None
    return Take(tuple(rules.wild_face if wild else face for wild, face in zip(pattern, need)))


def decision_mask(state: TurnState | MatchState) -> np.ndarray:
    """A 0/1 ``int8`` vector over the action ids: 1 for each of ``legal_actions(state)``."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for action in legal_actions(state):
        mask[action_index(state, action)] = 1
    return mask


def action_label(state: TurnState | MatchState, index: int) -> str:
    """The text form of an id in this state (``"-"`` when it names nothing here)."""
    if index == ROLL_ID:
        return "roll"
    action = index_action(state, index)
    return "-" if action is None else str(action)


def _obs_phase(state: MatchState) -> ObsPhase:
    if state.phase is Phase.TURN:
        assert state.turn is not None
        return _TURN_PHASES[state.turn.phase]
    return _MATCH_PHASES.get(state.phase, ObsPhase.CHANCE)


def observation_bounds(players: int) -> dict[str, tuple[int, int, int]]:
    """Each observation field: (length, lowest, highest value)."""
    return {
        "seat": (1, 0, players - 1),
        "to_act": (1, 0, players),
        "phase": (1, 0, len(OBS_PHASES) - 1),
        "contest": (1, 0, len(_PURPOSES) - 1),
        "held": (len(ROLES), 0, _TOP),
        "cargo": (TURN_LIMITS.cargo_dice, 0, _TOP),
        "pending": (TURN_LIMITS.dice, 0, _TOP),
        "rolls_used": (1, 0, TURN_LIMITS.rolls),
        "cargo_rerolls": (1, 0, TURN_LIMITS.cargo_rerolls),
        "bonus": (1, 0, OPTIONS["same_roll_bonus"].bounds[1]),
        "players_after": (1, 0, MAX_PLAYERS - 1),
        "hand_out_left": (1, 0, _TOP),  # the captain's die says how many
        "posted": (players, -1, _BIG),
        "totals": (players, 0, _BIG),
        "chips": (players, 0, _BIG),
        "sips": (players, 0, _BIG),
        "pot": (1, 0, _BIG),
        "round_no": (1, 0, _BIG),
        "wins": (players, 0, _BIG),  # rounds won (what format=wins:N counts)
        "format_kind": (1, 0, len(FORMAT_CODES) - 1),  # the match rules: the kind ...
        "format_n": (1, 0, _TOP_N),  # ... and its N (0: the kind takes none)
    }


def _pad(values: tuple[int, ...], n: int) -> list[int]:
    return list(values) + [0] * (n - len(values))


def turn_fields(turn: TurnState | None) -> dict[str, Any]:
    """The turn's part of :func:`observation`: its dice (padded with 0) and its counters."""
    return {
        "held": _pad(turn.held if turn else (), len(ROLES)),
        "cargo": _pad(turn.cargo if turn else (), TURN_LIMITS.cargo_dice),
        "pending": _pad(turn.pending if turn else (), TURN_LIMITS.dice),
        "rolls_used": turn.rolls_used if turn else 0,
        "cargo_rerolls": turn.cargo_rerolls if turn else 0,
        "bonus": turn.bonus if turn else 0,
    }


def turn_phase(turn: TurnState) -> ObsPhase:
    """The ``phase`` code of a turn being played (roll, assign or decide; over once done)."""
    return _TURN_PHASES.get(turn.phase, ObsPhase.OVER)


def observation(state: MatchState, seat: int) -> dict[str, Any]:
    """What ``seat`` sees of a match (perfect information: the whole table), as plain ints.

    Scalars are Python ints; per-seat and dice fields are lists (0 = no die, -1 = no score
    posted).  Seats are absolute; ``seat`` says which one is the viewer.  A match is seen
    whole: the totals (and chips, sips, round wins), the round, ``players_after`` (the seats
    still to come in this round after the one at the table) and the match rules
    (``format_kind``, a code of :data:`FORMAT_CODES`, and ``format_n``, its N).
    """
    players = state.players
    turn = state.turn
    to_act = seat_to_act(state)
    contest = state.contest
    posted = [-1] * players
    for s, score in state.posted_scores.items():
        posted[s] = score
    return {
        "seat": seat,
        "to_act": players if to_act is None else to_act,
        "phase": int(_obs_phase(state)),
        "contest": _PURPOSES.index(contest.purpose) if contest is not None else 0,
        **turn_fields(turn),
        "players_after": state.players_after,
        "hand_out_left": state.hand_out_left,
        "posted": posted,
        "totals": list(state.totals),
        "chips": list(state.chips),
        "sips": list(state.sips),
        "pot": state.pot,
        "round_no": state.round_no,
        "wins": list(state.wins),
        "format_kind": FORMAT_CODES.index(state.rules.format.kind),
        "format_n": state.rules.format.n,
    }


def flat_observation(state: MatchState, seat: int, turn_row: list[int] | None = None) -> list[int]:
    """:func:`observation` as one flat list, fields in :func:`observation_bounds` order.

    Built field by field without the dict (the single-table environments build one per
    step); ``turn_row`` is the turn's part when the caller has it already (the compiled
    turn's features of the node: phase, held, cargo, pending, rolls used, cargo rerolls,
    bonus).  :func:`observation` is the reference it is tested against.
    """
    players = state.players
    to_act = seat_to_act(state)
    out = [seat, players if to_act is None else to_act]
    turn = state.turn
    if turn_row is not None:
        out += turn_row
    else:
        out.append(int(_obs_phase(state)))
    contest = state.contest
    out.append(_PURPOSES.index(contest.purpose) if contest is not None else 0)
    if turn_row is None:
        fields = turn_fields(turn)
        out += fields["held"] + fields["cargo"] + fields["pending"]
        out += [fields["rolls_used"], fields["cargo_rerolls"], fields["bonus"]]
    else:
        # The compiled turn's row starts with the phase; the contest comes after it here.
        out.insert(3, out.pop())
    out += [state.players_after, state.hand_out_left]
    posted = [-1] * players
    for s_, score in state.posted_scores.items():
        posted[s_] = score
    out += posted
    out += state.totals
    out += state.chips
    out += state.sips
    out += [state.pot, state.round_no]
    out += state.wins
    fmt = state.rules.format
    out += [FORMAT_CODES.index(fmt.kind), fmt.n or 0]
    return out


def flat_bounds(players: int) -> tuple[list[int], list[int]]:
    """Lowest and highest value of each entry of :func:`flat_observation`."""
    low: list[int] = []
    high: list[int] = []
    for size, lo, hi in observation_bounds(players).values():
        low.extend([lo] * size)
        high.extend([hi] * size)
    return low, high
