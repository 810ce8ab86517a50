"""A session (000.17, 003.17): rounds until the next round's first player calls a stop.

The engine asks, after every round, the player who opens the next one: another round, or stop
-- and then the highest total wins (a tie is broken like a tie for the match).  People stop
when they like; programs stop a session after :data:`~shipcaptaincrew.facts.SESSION_ROUNDS`
rounds (the simulator, the environments, ``scc demo``), and so does this model.  Before that
an ``optimal`` caller weighs its two choices -- its chance to win the match if it stops now
against going on, the next round's value, solved before (later rounds come first) -- and
stops where stopping is worth more (level: it goes on, as every bot does); a fixed policy
(``ev``, ``threshold:T``, ``optimal:round``) always goes on.

So the positions are those of ``rounds:SESSION_ROUNDS`` (:class:`SessionModel` is a
:class:`~.model.MatchModel` whose positions are those), and each line that goes on to
another round carries the other choice (:attr:`~.model.Resolution.stop`): the match
chances of a stop, decided by the totals in the next round's play order (the caller first,
the tie-break among the level in that order, as ``match.decide_by_totals`` plays it after the
rotation).  :func:`.solve._leaf_values` takes the caller's better one.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

import numpy as np

from ...facts import SESSION_ROUNDS
from ...formats import FormatKind
from ...state import MatchState
from ..graph import TIE_TOLERANCE
from ..policies import PolicyKind
from .model import MatchModel, Resolution
from .view import MatchView, locate

__all__ = ["SessionModel", "Solved", "call_stops", "stop_chances"]


class Solved(Protocol):
    """A solved session as :func:`call_stops` reads it (a :class:`.solve.MatchSolution`, which
    is built from this module's model, so it is named here by what it holds)."""

    @property
    def model(self) -> MatchModel: ...
    @property
    def values(self) -> np.ndarray: ...


class SessionModel(MatchModel):
    """A session's positions: those of ``rounds:SESSION_ROUNDS``, with the caller's stop."""

    formats = (FormatKind.SESSION,)

    def _positions(self) -> tuple[FormatKind, int]:
        return FormatKind.ROUNDS, SESSION_ROUNDS

    def resolve(self, codes: np.ndarray, winner_place: int | None = None) -> Resolution:
        """The rounds' lines as ``rounds:N`` ends them, and on every line that goes on, what
        a stop would decide and whether its caller weighs it."""
        res = super().resolve(codes, winner_place)
        offset, fields, _ = self.codes.decode(codes)
        on = res.branches[0]  # the next round (the others: a round replayed)
        shift = on.shift
        totals = fields[:, None, :] + self.x[None]
        stop = stop_chances(self, offset, totals, shift)
        optimal = np.array([p.kind is PolicyKind.OPTIMAL for p in self.policies])
        chooses = optimal[(offset[:, None] + shift) % self.n] & (on.w_match > 0)
        return replace(res, stop=stop, caller=np.where(chooses, shift, -1))

    def _ended(
        self, offset: np.ndarray, totals: np.ndarray, counts: np.ndarray, shift: np.ndarray
    ) -> np.ndarray:
        """The last round a program plays: the table stops, after the rotation."""
        return stop_chances(self, offset, totals, shift)


def stop_chances(
    model: MatchModel, offset: np.ndarray, totals: np.ndarray, shift: np.ndarray
) -> np.ndarray:
    """(B, L, n) match chances, in this round's places, if the table stops with ``totals``
    and the next round would start ``shift`` places on (its tie-break in that order)."""
    n = model.n
    nxt = model._rotate(totals, shift)
    after = (offset[:, None] + shift) % model.period
    top = nxt == nxt.max(axis=-1, keepdims=True)
    mask = (top * (1 << np.arange(n))).sum(axis=-1)
    decided = model._match_ties[after, mask]  # in the next round's places
    idx = (np.arange(n) - shift[..., None]) % n
    out: np.ndarray = np.take_along_axis(decided, idx, axis=-1)
    return out


def call_stops(sol: Solved, state: MatchState) -> bool:
    """Whether the ``optimal`` caller stops the session at ``state`` (a call is due): what
    the solved session plays, so the bot and the solver agree.  Past the rounds programs play
    (people play on as long as they like) the caller stops exactly when it alone leads:
    stopping then wins for sure, and behind it would lose for sure."""
    model = sol.model
    played = sum(1 for r in state.results if not r.tie_round)
    n, s = state.players, state.starter
    if played >= SESSION_ROUNDS:
        return all(state.totals[s] > t for seat, t in enumerate(state.totals) if seat != s)
    totals = tuple(state.totals[(s + j) % n] for j in range(n))
    wins = tuple(state.wins[(s + j) % n] for j in range(n))
    view = MatchView(state.rules.format, n, played, totals, wins, (), starter=s)
    code = locate(model, view)
    going = float(sol.values[code][0])
    offset = np.array([code % model.period])
    here = np.asarray(totals, dtype=np.int64)[None, None]
    stopping = float(stop_chances(model, offset, here, np.zeros((1, 1), np.int64))[0, 0, 0])
    return stopping > going + TIE_TOLERANCE
