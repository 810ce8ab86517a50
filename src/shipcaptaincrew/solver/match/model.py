"""The match over rounds: a model of how the engine ends a round and decides the match.

What this is
------------
Like :mod:`..rounds` for a round, this mirrors the engine's own match rules
(``match._resolve_round``, ``_finish_round``, ``after_round``, ``decide_by_totals``,
``rotation.rotate``) over arrays, so that every position of a match is solved at once (walking
the engine costs about 40 microseconds per posted score: half a minute for the two-player
``first_to:50`` match alone).  It mirrors them for the rules it declares (:data:`MODELLED`),
refuses any other rule set naming the option, and is checked against the engine's own
matches, walked exactly (``tests/test_solver_match_exact.py``, ``test_solver_match.py``).

Positions
---------
A position is the start of a round, described in *play order*: position 0 is the round's first
player.  It holds what the format reads -- the totals (``first_to:N``), the rounds played and
the totals less the lowest total (``rounds:N``: only differences decide it), the round wins
(``wins:N``), nothing (``single``) -- and the *offset*, which of the seats' policies plays
first (needed only when the seats play differently).  Every position gets a code, an index
into the solver's value table (:mod:`.codes`); its ``levels`` lists them in an order where
every round leads only to positions solved before, or to positions of the same level (a round
everyone fails, a round left without a winner), which the solver treats as unknowns.

A round's lines
---------------
Every line of scores ``X`` (one per seat, in play order) ends the round one way, whatever the
position: everyone failed (replayed, or carried with no winner, by ``all_fail``), one seat
on top (the winner), or a shared top -- broken by the tie-break contest (``replay``: a contest
of turns among the tied, :func:`.play.tie_shares`; ``cargo_rolloff``: a fair lottery) or
left without a winner (``no_winner``).  Then the totals grow by ``X``, the winner's wins by
one, and the format decides: ``rounds:N`` after N rounds and ``first_to:N`` once a total
reaches N by the highest total among those who count (a tie for it: a contest among the tied,
in play order, with the rules' tie method), ``wins:N`` when the winner reaches N, ``single``
when the round has a winner; else the next round starts ``rotation`` seats on (the first
of the lowest scores under ``rotation=loser``).

Where it stops
--------------
Stakes other than points (chips decide who can ante), ``tie_break=round`` (rounds among the
tied, which count towards the totals) and any option or value outside :data:`MODELLED` are
refused with a :class:`~..rounds.SolverError` naming the option.  A session's positions are
those of ``rounds:N``, with the caller's stop (:mod:`.session`); the tournament's
preliminaries are positions of ``rounds:2`` whose last round ends in the selection and the
final (:mod:`.tournament`, a subclass that overrides :meth:`MatchModel._ended`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...formats import FormatKind
from ...messages import N_, Grouped
from ...rules import AllFail, Rotation, Rules, Stakes, TieBreak
from ..graph import turn_graph
from ..modelled import MATCH, MODEL_FORMATS
from ..policies import Policy
from ..rounds import NotModelledError, SolverError
from .codes import PositionCodes
from .play import score_lines, tie_shares

__all__ = ["MAX_WORK", "MODELLED", "BeyondExact", "Branch", "MatchModel", "Resolution", "period_of"]

#: The most (positions x lines of scores) the exact solver takes on: every line of every
#: position is resolved once per policy round, and a bot solves on its first decision.  Three
#: players of ``first_to:11`` (1,331 x 1,728 = 2.3 million) take about 8 s on this machine
#: under load; ``rounds:3`` (9.7 million) half a minute, too long to make a table wait.  The
#: bound leaves room for a mixed table of three in ``rounds:2`` (one seat optimal, two fixed:
#: every seat's turn to open counts, 3 x 1,752,192 = 5.3 million), which the findings solve.
MAX_WORK = 6_000_000

#: What the match model states itself (see :mod:`..modelled`).
MODELLED = MATCH


class BeyondExact(SolverError):
    """A table the exact match solver will not take on (see :data:`MAX_WORK`): the format and
    rules are fine, the table is too large -- :mod:`.estimate` plays it instead."""


def period_of(policies: tuple[Policy, ...]) -> int:
    """The smallest rotation that maps the seats' policies onto themselves (1: all alike)."""
    n = len(policies)
    return next(p for p in range(1, n + 1) if policies[p:] + policies[:p] == policies)


@dataclass(frozen=True)
class Branch:
    """Where some lines of a batch of positions lead: a position, the seats' shift, weights.

    The values found there count with ``w_match`` towards the match chances and with
    ``w_round`` towards the round chances (a round left without a winner is won in the next).
    """

    code: np.ndarray  #: (B, L) position codes (anything where both weights are 0)
    shift: np.ndarray  #: (B, L) how many seats on the next round starts
    w_match: np.ndarray  #: (B, L)
    w_round: np.ndarray  #: (B, L)


@dataclass(frozen=True)
class Resolution:
    """How every line of a batch of positions ends: what is decided, and where it leads."""

    #: (B, L, 2n): match chances decided by the line (match over), then round chances.
    term: np.ndarray
    branches: tuple[Branch, ...]
    #: A session: the match chances (B, L, n) if the next round's first player stops after
    #: the line instead of going on by the first branch, and that player's place (B, L) where
    #: it weighs the two (-1: it goes on, a fixed policy or no next round).
    stop: np.ndarray | None = None
    caller: np.ndarray | None = None


class MatchModel:
    """The positions of one format for ``len(policies)`` seats and how each round ends."""

    #: The formats this class describes (a subclass describes its own).
    formats: tuple[FormatKind, ...] = MODEL_FORMATS

    def __init__(self, rules: Rules, policies: tuple[Policy, ...]) -> None:
        fmt = rules.format
        if fmt.kind not in self.formats:
            raise SolverError(
                N_("format {format} has no positions in the match model"), format=str(fmt)
            )
        if rules.stakes is not Stakes.POINTS:
            raise SolverError(
                N_(
                    "stakes={stakes} in a match of format {format}: the chips decide who can "
                    "ante, which the match model does not follow"
                ),
                stakes=rules.stakes.value,
                format=str(fmt),
            )
        if rules.tie_break is TieBreak.ROUND:
            raise SolverError(
                N_(
                    "tie_break=round: the rounds among the tied count towards the totals, which "
                    "the match model does not follow"
                )
            )
        MODELLED.check(rules, NotModelledError)

        self.rules = rules
        self.policies = policies
        self.n = n = len(policies)
        self.kind, self.target = self._positions()
        self.period = period_of(policies)
        graph = turn_graph(rules)
        self.scores = np.asarray(graph.scores, dtype=np.int64)
        #: The positions' codes (:mod:`.codes`).
        self.codes = PositionCodes(self.kind, self.target, n, self.period, self.scores)
        self.size = self.codes.size
        lines = len(self.scores) ** n
        if self.size * lines > MAX_WORK:
            raise BeyondExact(
                N_(
                    "{n} players of {format}: {positions} positions x {lines} lines of scores "
                    "is beyond the exact match solver (at most {most})"
                ),
                n=n,
                format=str(fmt),
                positions=Grouped(self.size),
                lines=Grouped(lines),
                most=Grouped(MAX_WORK),
            )
        self.lines = score_lines(len(self.scores), n)
        x = self.scores[self.lines]  # (L, n)
        self.x = x
        best = x.max(axis=1)
        top = (x == best[:, None]) & (best[:, None] > 0)
        self.all_failed = best == 0
        self.unique = top.sum(axis=1) == 1
        self.top_mask = (top * (1 << np.arange(n))).sum(axis=1)
        self.first_low = (x == x.min(axis=1)[:, None]).argmax(axis=1)
        self.winner_pos = top.argmax(axis=1)  # the top seat of a line with one on top
        self._bits = 1 << np.arange(n)
        self._round_ties = self._share_table(round_tie=True)
        self._match_ties = self._share_table(round_tie=False)

    def _positions(self) -> tuple[FormatKind, int]:
        """The kind of positions and its number N (a subclass maps its format onto one)."""
        return self.rules.format.kind, self.rules.format.n

    # -- tie-break contests -----------------------------------------------------------------
    def _share_table(self, *, round_tie: bool) -> np.ndarray:
        """(period, 2**n, n): the winner of a contest among the seats of a mask, per offset.

        A tie for the round is a lottery under cargo_rolloff and a contest of turns under
        replay; a tie for the match is broken with cargo dice under cargo_rolloff and with
        turns under every other tie-break (``match._tie_method``).
        """
        n = self.n
        out = np.zeros((self.period, 2**n, n))
        lottery = self.rules.tie_break is TieBreak.CARGO_ROLLOFF
        if round_tie and self.rules.tie_break is not TieBreak.REPLAY and not lottery:
            return out  # no_winner: a tie for the round has no winner
        for o in range(self.period):
            for mask in range(1, 2**n):
                seats = [j for j in range(n) if mask >> j & 1]
                if lottery:
                    out[o, mask, seats] = 1.0 / len(seats)
                else:
                    pols = tuple(self.policies[(o + j) % n] for j in seats)
                    out[o, mask, seats] = tie_shares(self.rules, pols)
        return out

    # -- a round's lines ----------------------------------------------------------------------
    def _shift(self, batch: int) -> np.ndarray:
        """(B, L): how many seats on the next round starts after each line."""
        rotation = self.rules.rotation
        if rotation is Rotation.LOSER:
            q = self.first_low
        else:
            q = np.full(len(self.x), {Rotation.NEXT: 1, Rotation.PREVIOUS: -1}.get(rotation, 0))
        return np.broadcast_to(q % self.n, (batch, len(self.x)))

    def _rotate(self, fields: np.ndarray, shift: np.ndarray) -> np.ndarray:
        """Per-seat fields in the play order of a round that starts ``shift`` seats on."""
        idx = (np.arange(self.n) + shift[..., None]) % self.n
        return np.take_along_axis(fields, idx, axis=-1)

    def _decided(self, offset: np.ndarray, totals: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """(B, L, n) match chances where the totals decide: the highest of those who count,
        a contest among those who share it."""
        ranked = np.where(counts, totals, -1)
        best = ranked.max(axis=-1, keepdims=True)
        top = (ranked == best) & counts
        mask = (top * self._bits).sum(axis=-1)
        out: np.ndarray = self._match_ties[offset[:, None], mask]
        return out

    def _ended(
        self, offset: np.ndarray, totals: np.ndarray, counts: np.ndarray, shift: np.ndarray
    ) -> np.ndarray:
        """(B, L, n) match chances of lines that end the match's counted rounds (``shift``:
        where the next round would start); here the totals decide."""
        return self._decided(offset, totals, counts)

    def resolve(self, codes: np.ndarray, winner_place: int | None = None) -> Resolution:
        """How every line of scores ends the round at each of these positions.

        ``winner_place`` fixes the round's winner on every line that has one (the advice
        during a tie for the round asks what each tied player's win would be worth).
        """
        offset, fields, played = self.codes.decode(codes)
        b, lines, n = len(codes), len(self.x), self.n
        winner = np.zeros((b, lines, n))
        unique = np.flatnonzero(self.unique)
        winner[:, unique, self.winner_pos[unique]] = 1.0
        ties = ~self.unique & ~self.all_failed
        winner[:, ties] = self._round_ties[offset[:, None], self.top_mask[None, ties]]
        if winner_place is not None:
            won = winner.sum(axis=-1, keepdims=True)
            winner = won * (np.arange(n) == winner_place)
        replayed = self.all_failed & (self.rules.all_fail is AllFail.REPLAY)
        live = np.broadcast_to(~replayed, (b, lines))
        unwon = (1.0 - winner.sum(axis=-1)) * live
        winner = winner * live[..., None]
        shift = self._shift(b)
        after = (offset[:, None] + shift) % self.period
        term, branches = self._round_end(offset, fields, played, winner, unwon, live, shift, after)
        again = replayed.astype(np.float64)[None].repeat(b, axis=0)
        branches.append(
            Branch(np.broadcast_to(codes[:, None], (b, lines)), 0 * shift, again, again)
        )
        return Resolution(np.concatenate([term, winner], axis=-1), tuple(branches))

    def _round_end(
        self,
        offset: np.ndarray,
        fields: np.ndarray,
        played: np.ndarray,
        winner: np.ndarray,
        unwon: np.ndarray,
        live: np.ndarray,
        shift: np.ndarray,
        after: np.ndarray,
    ) -> tuple[np.ndarray, list[Branch]]:
        """The format's verdict once a round has ended: match chances decided, and branches."""
        b, lines, n = winner.shape
        zero = np.zeros((b, lines), dtype=np.int64)
        if self.kind is FormatKind.SINGLE:
            code = self.codes.encode(after, np.zeros((b, lines, n), np.int64), zero)
            return winner.copy(), [Branch(code, shift, unwon, unwon)]
        if self.kind is FormatKind.WINS:
            term = np.zeros((b, lines, n))
            branches = []
            for p in range(n):
                wins = fields[:, None, :] + (np.arange(n) == p)
                done = wins[..., p] >= self.target
                term[..., p] += np.where(done, winner[..., p], 0.0)
                go = np.where(done, 0.0, winner[..., p])
                safe = np.where(done[..., None], 0, wins)
                branches.append(
                    Branch(
                        self.codes.encode(after, self._rotate(safe, shift), zero), shift, go, 0 * go
                    )
                )
            same = self.codes.encode(
                after, self._rotate(np.broadcast_to(fields[:, None, :], (b, lines, n)), shift), zero
            )
            branches.append(Branch(same, shift, unwon, unwon))
            return term, branches
        totals = fields[:, None, :] + self.x[None]
        if self.kind is FormatKind.ROUNDS:
            ended = np.broadcast_to((played + 1 >= self.target)[:, None], (b, lines)) & live
            counts = np.ones_like(totals, dtype=bool)
            nxt = played[:, None] + 1 + zero
        else:
            counts = totals >= self.target
            ended = counts.any(axis=-1) & live
            nxt = zero
        term = np.where(ended[..., None], self._ended(offset, totals, counts, shift), 0.0)
        go = (live & ~ended).astype(np.float64)
        safe = np.where((go > 0)[..., None], totals, 0)
        code = self.codes.encode(after, self._rotate(safe, shift), np.where(go > 0, nxt, 0))
        return term, [Branch(code, shift, go, go * unwon)]
