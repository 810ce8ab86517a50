"""Views of a state for learners: the raw tensor, a seat-relative one, a one-hot one, and keys.

:func:`~.encoding.observation` is the table in plain integers and absolute seats.  A learner
often wants more: the same numbers counted from its own seat, so one policy serves every seat
(:attr:`View.RELATIVE`), or the categories spelt out one-hot, ready for a network
(:attr:`View.ONEHOT`).  Every view is a list of named fields (:func:`view_fields`), so the
OpenSpiel observer, the Gymnasium ``Dict`` and the PettingZoo vector are cut from one list.

:func:`position_key` is the position as one line of text: everything the rest of the match
depends on, and nothing of the way there (the faces of the last roll as they fell, the
rounds' records; the engine keeps held, cargo and pending dice sorted already).  Two
histories that reach the same position -- a first roll of ``66321`` or of ``63211`` both
hold the ship and nothing else -- get one key, so tabular methods share what they learn
there.

>>> from shipcaptaincrew import Roll, apply, find_rules, initial_state
>>> s = initial_state(find_rules("classic").replace(starter="chosen"), 2, starter=0)
>>> a, b = apply(s, Roll((6, 6, 3, 2, 1))), apply(s, Roll((6, 3, 2, 1, 1)))
>>> a.turn.last_roll == b.turn.last_roll, position_key(a) == position_key(b)
(False, True)
>>> [name for name, _ in view_fields(View.ONEHOT, 2, find_rules("classic"))][:4]
['to_act', 'phase', 'contest', 'held']
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import numpy as np

from ..rules import Rotation, Rules
from ..state import MatchState
from .encoding import flat_bounds, flat_observation, observation, observation_bounds
from .finite import winnerless_run

__all__ = [
    "PER_SEAT",
    "FastObserver",
    "VIEWS",
    "View",
    "check_view",
    "position_key",
    "view_bounds",
    "view_fields",
    "view_observation",
    "view_pieces",
    "view_vector",
]


class View(StrEnum):
    """How an observation is laid out."""

    RAW = "raw"  #: plain integers, absolute seats (:func:`~.encoding.flat_observation`)
    RELATIVE = "relative"  #: plain integers, seats counted from the viewer (the viewer is 0)
    ONEHOT = "onehot"  #: seats counted from the viewer, categories one-hot, counters as numbers


#: The view names.
VIEWS = tuple(v.value for v in View)
#: Fields with one entry per seat: rotated in the seat-relative views.
PER_SEAT = ("posted", "totals", "chips", "sips", "wins")
#: Fields that are a number, not a category: kept as they are in the one-hot view.
_COUNTERS = ("totals", "chips", "sips", "pot", "round_no", "wins", "format_n")
#: Fields of dice, one-hot per die in the one-hot view (0: no die).
_DICE = ("held", "cargo", "pending")


def _relative(raw: dict[str, Any], seat: int, players: int) -> dict[str, Any]:
    out = dict(raw)
    out["seat"] = 0
    if raw["to_act"] < players:
        out["to_act"] = (raw["to_act"] - seat) % players
    for name in PER_SEAT:
        out[name] = raw[name][seat:] + raw[name][:seat]
    return out


def view_fields(view: View, players: int, rules: Rules) -> list[tuple[str, tuple[int, ...]]]:
    """The fields of ``view`` in order, each with its shape."""
    bounds = observation_bounds(players)
    if view is not View.ONEHOT:
        return [(name, (size,)) for name, (size, _, _) in bounds.items()]
    fields: list[tuple[str, tuple[int, ...]]] = []
    for name, (size, low, high) in bounds.items():
        if name == "seat":
            continue  # always the viewer, seat 0
        if name in _COUNTERS:
            fields.append((name, (size,)))
        elif name == "bonus":
            fields.append((name, (1,)))  # earned or not: its size is the rules' bonus
        elif name == "posted":
            fields.append((name, (players, rules.max_score + 2)))  # none, 0 .. max_score
        elif name in _DICE:
            fields.append((name, (size, high - low + 1)))
        else:
            fields.append((name, (high - low + 1,)))
    return fields


def check_view(view: View | str) -> View:
    """``view`` as a :class:`View`, or a clear refusal naming the views."""
    if view not in VIEWS:
        raise ValueError(f"view must be one of {', '.join(VIEWS)}, got {view!r}")
    return View(view)


def view_observation(state: MatchState, seat: int, view: View) -> dict[str, Any]:
    """:func:`~.encoding.observation` in a view of plain integers: as it is, or seat-relative."""
    raw = observation(state, seat)
    if view is View.RAW:
        return raw
    if view is View.ONEHOT:
        raise ValueError("the one-hot view is no dict of integers: use view_vector")
    return _relative(raw, seat, state.players)


def view_vector(state: MatchState, seat: int, view: View) -> list[float]:
    """The state from ``seat`` in ``view``, flat, fields in :func:`view_fields` order."""
    if view is View.RAW:
        return list(map(float, flat_observation(state, seat)))
    raw = _relative(observation(state, seat), seat, state.players)
    out: list[float] = []
    bounds = observation_bounds(state.players)
    if view is View.RELATIVE:
        for name in bounds:
            value = raw[name]
            out.extend(value if isinstance(value, list) else [value])
        return out
    for name, shape in view_fields(view, state.players, state.rules):
        value = raw[name]
        if name in _COUNTERS:
            out.extend(value if isinstance(value, list) else [value])
        elif name == "bonus":
            out.append(1.0 if value else 0.0)
        else:
            low = bounds[name][1]
            width = shape[-1]
            for v in value if isinstance(value, list) else [value]:
                row = [0.0] * width
                row[v - low] = 1.0
                out.extend(row)
    return out


def view_pieces(
    vector: np.ndarray, fields: list[tuple[str, tuple[int, ...]]]
) -> dict[str, np.ndarray]:
    """A flat view cut into its named fields (arrays that share ``vector``'s memory)."""
    pieces: dict[str, np.ndarray] = {}
    start = 0
    for name, shape in fields:
        size = int(np.prod(shape))
        pieces[name] = vector[start : start + size].reshape(shape)
        start += size
    return pieces


def view_bounds(view: View, players: int, rules: Rules) -> tuple[list[float], list[float]]:
    """The lowest and highest value of each entry of :func:`view_vector`."""
    if view is not View.ONEHOT:
        low_, high_ = flat_bounds(players)  # the seat-relative numbers keep their ranges
        return list(map(float, low_)), list(map(float, high_))
    bounds = observation_bounds(players)
    low: list[float] = []
    high: list[float] = []
    for name, shape in view_fields(view, players, rules):
        size = 1
        for n in shape:
            size *= n
        if name in _COUNTERS:
            _, lo, hi = bounds[name]
        else:
            lo, hi = 0, 1
        low.extend([lo] * size)
        high.extend([hi] * size)
    return low, high


def position_key(state: MatchState) -> str:
    """The position as one line: equal for two states with the same future, whatever the path.

    Left out is what only records the way there: the last roll's faces as they fell, and the
    rounds' records, kept as the counts the match goes by (rounds played, rounds that count
    towards the format, the trailing run without a winner; under ``rotation=loser`` the
    scores of the last round that counts), not the sips, chips and tie-breaks they record.
    """
    turn = state.turn
    contest = state.contest

    def seats(values: tuple[Any, ...]) -> str:
        return ",".join("-" if v is None else str(v) for v in values) or "-"

    parts = [
        f"phase={state.phase.value}",
        f"round={state.round_no}",
        f"starter={state.starter}",
        f"seats={seats(state.round_seats)}",
        f"scores={seats(state.round_scores)}",
    ]
    if contest is not None:
        parts.append(
            f"contest={contest.purpose.value}/{contest.method.value}:{seats(contest.seats)}"
            f":{seats(contest.scores)}:{contest.slots}:{seats(contest.selected)}:{contest.depth}"
        )
    if turn is not None:
        parts.append(
            f"turn={turn.phase.value}:{''.join(map(str, turn.held)) or '-'}"
            f":{''.join(map(str, turn.cargo)) or '-'}:{turn.rolls_used}"
            f":{turn.cargo_rerolls}:{turn.keep or '-'}:{''.join(map(str, turn.pending)) or '-'}"
            f":{turn.bonus}"
        )
    counted = [r for r in state.results if not r.tie_round]
    if state.rules.rotation is Rotation.LOSER and counted:
        # The loser of the last round of the match's own starts the next (after a round
        # among tied players too), so that round's scores are still part of the position.
        parts.append(f"last={seats(counted[-1].scores)}")
    played = len(counted)
    parts += [
        f"totals={seats(state.totals)}",
        f"chips={seats(state.chips)}",
        f"sips={seats(state.sips)}",
        f"wins={seats(state.wins)}",
        f"pot={state.pot}",
        f"replays={state.replays}",
        f"hand_out={state.round_winner if state.round_winner is not None else '-'}"
        f":{state.hand_out_left}",
        f"finalists={seats(state.finalists)}",
        f"tied={seats(state.tied)}:{int(state.tie_round)}",
        f"rounds={len(state.results)}:{played}:{winnerless_run(state)}",
        f"winner={'-' if state.winner is None else state.winner}",
    ]
    return " ".join(parts)


class FastObserver:
    """The observation of one seat in an integer view (raw or relative), built from one flat
    list (:func:`~.encoding.flat_observation`) and cut into named NumPy pieces: what a
    single-table environment makes at every step, without a dict of lists per field.

    ``pieces`` names each field with ``True`` where the field is one scalar (a Gymnasium
    ``Discrete``: a NumPy scalar) and ``False`` where it is a vector.
    """

    def __init__(self, players: int, seat: int, view: View, scalar: dict[str, bool]) -> None:
        if view is View.ONEHOT:
            raise ValueError("the one-hot view is built by view_vector")
        self.players, self.seat, self.view = players, seat, view
        bounds = observation_bounds(players)
        self.slices: list[tuple[str, int, int, bool]] = []
        start = 0
        for name, (size, _, _) in bounds.items():
            self.slices.append((name, start, start + size, scalar[name]))
            start += size
        at = {name: (lo, hi) for name, lo, hi, _ in self.slices}
        #: The relative view as a gather of the raw one: each per-seat field from the seat on.
        order = list(range(start))
        for name in PER_SEAT:
            lo, hi = at[name]
            rotated = list(range(lo, hi))
            order[lo:hi] = rotated[seat:] + rotated[:seat]
        self._order = np.array(order)
        self._to_act = at["to_act"][0]
        self._seat = at["seat"][0]
        #: Where the turn's fields lie: the phase, and held up to the bonus.
        self._phase = at["phase"][0]
        self._turn = (at["held"][0], at["bonus"][1])

    def with_turn(self, flat: list[int], turn_row: list[int]) -> list[int]:
        """A flat observation with the turn's fields replaced by a compiled turn's row
        (:attr:`~.batched.CompiledTurn.features`: the phase, then held up to the bonus)."""
        lo, hi = self._turn
        out = flat[:lo] + turn_row[1:] + flat[hi:]
        out[self._phase] = turn_row[0]
        return out

    def vector(self, flat: list[int]) -> np.ndarray:
        """The view's flat int64 vector of a raw flat observation."""
        raw = np.array(flat, dtype=np.int64)
        if self.view is View.RAW:
            return raw
        out: np.ndarray = raw[self._order]
        out[self._seat] = 0
        if out[self._to_act] < self.players:
            out[self._to_act] = (out[self._to_act] - self.seat) % self.players
        return out

    def pieces(self, vector: np.ndarray) -> dict[str, object]:
        """The named fields of a flat vector (scalars as NumPy scalars, others as views)."""
        return {
            name: vector[lo] if scalar else vector[lo:hi] for name, lo, hi, scalar in self.slices
        }
