"""What the player at the table sees of a match, in the play order of the round.

:class:`MatchView` is the input of every match-level answer (advice, the ``optimal`` bot, the
simulator's draws), read off a :class:`~shipcaptaincrew.state.MatchState` by
:func:`match_view` or given by hand (``scc advise --format --round --totals``): the format, the
rounds of the match's own played, every player's total and round wins in this round's play
order (the starter first), the contest being played and the scores posted in it so far.
:func:`locate` turns a view into the solver's coordinates: a position code of
:mod:`.model`, the node of its tree of posted scores, and the seat's place in the round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np

from ...formats import FormatKind, MatchFormat
from ...messages import N_, NP_
from ...state import MatchState, Method, Purpose
from ..rounds import SolverError
from .model import MatchModel

__all__ = ["ContestKind", "MatchView", "locate", "match_view", "node_of"]


class ContestKind(Enum):
    """Which contest a turn belongs to, as the match sees it."""

    ROUND = "round"  #: a round of the match
    ROUND_TIE = "round_tie"  #: a tie for the round, broken with turns
    MATCH_TIE = "match_tie"  #: a tie for the match (or in the tournament's final), with turns
    FINAL = "final"  #: the tournament's final
    FINAL_PLACES = "final_places"  #: a tie for a place in the tournament's final, with turns
    OTHER = "other"  #: a round among the tied (tie_break=round)


@dataclass(frozen=True)
class MatchView:
    """A match as the player at the table sees it (lists in this round's play order)."""

    format: MatchFormat
    players: int
    #: Rounds of the match's own played before this one (a round among the tied not counted).
    played: int
    totals: tuple[int, ...]
    wins: tuple[int, ...]
    #: Scores posted before this turn in the contest being played (0 = failed).
    posted: tuple[int, ...]
    contest: ContestKind = ContestKind.ROUND
    #: The seats of the contest, as places in this round's play order (a tie: the tied).
    seats: tuple[int, ...] = ()
    #: This round's scores, by place, while a tie for the round or a final place is broken.
    round_scores: tuple[int, ...] = ()
    #: The seat that starts this round (which of the seats' policies plays first).
    starter: int = 0
    #: A contest for the final's places: the places already through, and the places fought for.
    selected: tuple[int, ...] = ()
    slots: int = 1

    @property
    def place(self) -> int:
        """The place in this round's play order of the player at the table."""
        seats = self.seats or tuple(range(self.players))
        return seats[len(self.posted)]

    @classmethod
    def of_round(
        cls,
        fmt: MatchFormat,
        totals: Sequence[int],
        posted: Sequence[int],
        *,
        played: int = 0,
        wins: Sequence[int] | None = None,
    ) -> MatchView:
        """A turn of a round, as ``scc advise`` describes it: totals in play order, the scores
        posted before this player, rounds already played."""
        n = len(totals)
        if len(posted) >= n:
            raise SolverError(
                N_("{k} scores posted leave nobody to play of {n}"), k=len(posted), n=n
            )
        w = tuple(wins) if wins is not None else (0,) * n
        return cls(fmt, n, played, tuple(totals), w, tuple(posted))


def match_view(state: MatchState) -> MatchView:
    """The match as the player whose turn it is sees it (a turn must be being played)."""
    c = state.contest
    if state.turn is None or c is None or c.method is not Method.TURN:
        raise SolverError("no turn is being played in this match state")
    n, s = state.players, state.starter

    def order(values: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(values[(s + j) % n] for j in range(n))

    played = sum(1 for r in state.results if not r.tie_round)
    places = tuple((seat - s) % n for seat in c.seats)
    if state.finalists:  # the final decides the match: a tie in it is a tie for the match
        kind = ContestKind.FINAL if c.purpose is Purpose.ROUND else ContestKind.MATCH_TIE
    else:
        kind = {
            Purpose.ROUND: ContestKind.OTHER if state.tie_round else ContestKind.ROUND,
            Purpose.ROUND_TIE: ContestKind.ROUND_TIE,
            Purpose.MATCH_TIE: ContestKind.MATCH_TIE,
            Purpose.FINAL_PLACES: ContestKind.FINAL_PLACES,
        }.get(c.purpose, ContestKind.OTHER)
    scores = tuple(state.round_scores[(s + j) % n] or 0 for j in range(n))
    tied = kind in (ContestKind.ROUND_TIE, ContestKind.FINAL_PLACES)
    return MatchView(
        state.rules.format,
        n,
        played,
        order(state.totals),
        order(state.wins),
        tuple(c.scores),
        kind,
        places if kind is not ContestKind.ROUND else (),
        scores if tied else (),
        s,
        tuple((seat - s) % n for seat in c.selected),
        c.slots,
    )


def node_of(scores: Sequence[int], turn_scores: Sequence[int]) -> int:
    """The node of a tree of posted scores reached by ``scores`` (first score most significant)."""
    node = 0
    for x in scores:
        if x not in turn_scores:
            raise SolverError(
                N_("a posted score of {score} is impossible under these rules"), score=x
            )
        node = node * len(turn_scores) + list(turn_scores).index(x)
    return node


def locate(model: MatchModel, view: MatchView) -> int:
    """The position code of a round's view (its start, before anyone posted).

    Raises :class:`~..rounds.SolverError` for a position the format cannot reach.
    """
    if view.players != model.n or view.format != model.rules.format:
        raise SolverError(
            f"a view of {view.players} players in {view.format} is not a position of "
            f"{model.n} players in {model.rules.format}"
        )
    fields = np.asarray(view.wins if model.kind is FormatKind.WINS else view.totals)
    if model.kind is FormatKind.SINGLE:
        fields = np.zeros(model.n, dtype=np.int64)
    if (fields < 0).any() or (
        model.kind is not FormatKind.ROUNDS and (fields >= model.codes.radix).any()
    ):
        raise SolverError(
            N_("{totals} is not a position of {format} (already over)"),
            totals=",".join(map(str, fields.tolist())),
            format=str(model.rules.format),
        )
    if model.kind is FormatKind.ROUNDS:
        if not 0 <= view.played < model.target:
            raise SolverError(
                N_("{format} has no round {n}"), format=str(model.rules.format), n=view.played + 1
            )
        spread = int(fields.max() - fields.min())
        if spread > view.played * int(model.scores.max()):
            raise SolverError(
                NP_(
                    "totals {totals} cannot be reached in {n} round",
                    "totals {totals} cannot be reached in {n} rounds",
                ),
                totals=",".join(map(str, fields.tolist())),
                n=view.played,
            )
    code = model.codes.encode(
        np.array([view.starter % model.period]),
        fields[None].astype(np.int64),
        np.array([view.played if model.kind is FormatKind.ROUNDS else 0]),
    )
    return int(code[0])
