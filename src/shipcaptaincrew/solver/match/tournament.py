"""The tournament (002.29, 002.30): two preliminary rounds, then the two best totals play a final.

The preliminaries
-----------------
Before the final nothing but the order of the totals matters, so the preliminaries are the
positions of ``rounds:2`` (:class:`TournamentModel` is a :class:`~.model.MatchModel`
whose positions are those of ``rounds:2``); only the value of a line that ends the second
round differs: instead of the highest total winning, the engine (``match.after_round``) picks
the finalists with ``_select(seats, totals, 2)`` -- the engine's own function, called here per
order of the totals -- and the final decides.  The lines are grouped by the *order* of their
totals (who is above, level with or below whom), so each (policy offset, next starter, order)
is worked out once and looked up.

The selection
-------------
Two seats through: the final.  A tied group straddling the last place fights for it in a
contest of turns (or the cargo lottery under ``tie_break=cargo_rolloff``: fair) in the second
round's play order, *before* the start moves on.  For one place each straddler's prize is a
constant (its chance in the final if chosen), so it plays the all-or-nothing tie contest
(:func:`.play.tie_contest`).  For two places among three or more, a straddler's prize
depends on who else is chosen: that contest is played seat by seat with value vectors
(:func:`.play.play_contest`) whose leaves are the engine's ``_select`` again: a pair
through, one through and a one-place contest among the next group, a smaller group of three or
more (a smaller contest of the same kind), or the whole group again -- the contest's own
start, an unknown found by policy iteration as in ``tie_contest``.  Value vectors there are
``2n`` long: each place's chance to win the match, then its chance to reach the final (what a
player secures first among equal match chances).

The final
---------
The finalists play in the play order of the starter the rotation over *all* seats gives
(``rotation.rotate``, ``match.in_play_order``).  A final without a winner (everyone fails under
``all_fail=carry_pot``; a tie under ``tie_break=no_winner``) is played again after another
turn of that rotation -- under ``rotation=loser`` the final's first player starts again --
everyone failing under ``all_fail=replay`` replays it in the same order, a tie goes to a tie
contest of turns (``replay``) or a fair lottery (``cargo_rolloff``).  So the final of a pair is
a small fixed point over the n possible starters, solved by policy iteration (play, then the
linear equations of that play) like the levels of :mod:`.solve`.

The same structures answer the turns of the final and of a contest for a place
(:func:`contest_rewards`, :func:`contest_distribution`), so the ``optimal`` bot plays those
exactly too.  ``tests/test_solver_tournament.py`` walks the engine's own tournaments against it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import combinations, product

import numpy as np

from ...engine import rotation_step
from ...formats import FormatKind
from ...match import _select as select_through  # the engine's own selection of finalists
from ...rules import AllFail, Rotation, Rules, TieBreak
from ..graph import turn_graph
from ..policies import Policy
from ..rounds import SolverError
from .model import MatchModel
from .play import (
    MAX_POLICY_ITERATIONS,
    Tree,
    leaf_mass,
    play_contest,
    score_lines,
    seat_for,
    settle_contest,
    tie_contest,
    tie_shares,
)
from .session import SessionModel
from .view import ContestKind, MatchView, node_of

__all__ = [
    "PRELIMINARIES",
    "Final",
    "TournamentModel",
    "contest_distribution",
    "contest_rewards",
    "model_for",
]

#: Preliminary rounds before the final (``match.after_round``: ``played >= 2``).
PRELIMINARIES = 2


def model_for(rules: Rules, policies: tuple[Policy, ...]) -> MatchModel:
    """The match model of a format: the tournament's or the session's own, or the general one."""
    if rules.format.kind is FormatKind.TOURNAMENT:
        return TournamentModel(rules, policies)
    if rules.format.kind is FormatKind.SESSION:
        return SessionModel(rules, policies)
    return MatchModel(rules, policies)


@dataclass(frozen=True)
class Final:
    """The final between two seats, from each of the n possible starters."""

    pair: tuple[int, int]  #: the finalists (seats as the first round's places), lower first
    values: np.ndarray  #: (n, 2): each finalist's chance to win, per starter
    trees: tuple[Tree, ...]  #: per starter: the final played out (values in pair order)


class TournamentModel(MatchModel):
    """The tournament's preliminaries as positions of ``rounds:2``; the final at their end."""

    formats = (FormatKind.TOURNAMENT,)

    def __init__(self, rules: Rules, policies: tuple[Policy, ...]) -> None:
        super().__init__(rules, policies)
        self._finals: dict[tuple[int, int], Final] = {}
        self._places: dict[tuple[int, int, tuple[int, ...]], Tree] = {}

    def _positions(self) -> tuple[FormatKind, int]:
        return FormatKind.ROUNDS, PRELIMINARIES

    def _ended(
        self, offset: np.ndarray, totals: np.ndarray, counts: np.ndarray, shift: np.ndarray
    ) -> np.ndarray:
        """The selection and the final, looked up by the order of the totals."""
        n = self.n
        ranks = (totals[..., None, :] > totals[..., :, None]).sum(axis=-1)
        code = (ranks * n ** np.arange(n)).sum(axis=-1)
        out: np.ndarray = self._after[offset[:, None], shift, code]
        return out

    @cached_property
    def _after(self) -> np.ndarray:
        """(period, n, n**n, n): the match chances once the preliminaries end, per policy
        offset, next starter and order of the totals (per place: how many totals stand above it)."""
        n = self.n
        out = np.zeros((self.period, n, n**n, n))
        orders = {_ranks(t) for t in product(range(n), repeat=n)}
        for o, q, ranks in product(range(self.period), range(n), orders):
            code = sum(r * n**j for j, r in enumerate(ranks))
            out[o, q, code] = self.selected(o, q, ranks)[:n]
        return out

    # -- the selection ----------------------------------------------------------------------
    def _seat(self, o: int, place: int) -> int:
        """The seat (a place of a round starting at policy offset 0) of a place at offset o."""
        return (o + place) % self.n

    def selected(self, o: int, q: int, ranks: tuple[int, ...]) -> np.ndarray:
        """(2n): match chances and chances to reach the final, by place of the second round,
        when its totals stand in the order ``ranks`` and place ``q`` starts the next round."""
        n = self.n
        through, straddle, free = select_through(tuple(range(n)), tuple(-r for r in ranks), 2)
        if not straddle:
            return self.prize(o, q, through)
        if free == 1:
            return self.one_place(o, q, through[0], straddle)
        return self.two_places(o, q, straddle)

    def prize(self, o: int, q: int, pair: tuple[int, ...]) -> np.ndarray:
        """(2n): the final between two places, place q starting."""
        n = self.n
        i, j = pair
        a, b = self._seat(o, i), self._seat(o, j)
        fin = self.final(min(a, b), max(a, b))
        v = fin.values[self._seat(o, q)]
        out = np.zeros(2 * n)
        out[i], out[j] = (v[0], v[1]) if a < b else (v[1], v[0])
        out[n + i] = out[n + j] = 1.0
        return out

    def _lottery(self) -> bool:
        return self.rules.tie_break is TieBreak.CARGO_ROLLOFF

    def one_place(self, o: int, q: int, through: int, group: tuple[int, ...]) -> np.ndarray:
        """(2n): one place through, the group (play order) contesting the other."""
        if self._lottery():
            shares: tuple[float, ...] = (1.0 / len(group),) * len(group)
        else:
            shares = tie_shares(self.rules, self.policies_of(o, group))
        out: np.ndarray = np.asarray(shares) @ np.stack(
            [self.prize(o, q, (through, g)) for g in group]
        )
        return out

    def policies_of(self, o: int, places: tuple[int, ...]) -> tuple[Policy, ...]:
        """The policies of places of a round at policy offset ``o``."""
        return tuple(self.policies[self._seat(o, p)] for p in places)

    def two_places(self, o: int, q: int, group: tuple[int, ...]) -> np.ndarray:
        """(2n): three or more level at the top contesting both places."""
        if self._lottery():  # iid cargo numbers: every pair alike
            pairs = np.stack([self.prize(o, q, p) for p in combinations(group, 2)])
            out: np.ndarray = pairs.mean(axis=0)
        else:
            out = self.places_tree(o, q, group).root[0]
        return out

    def places_tree(self, o: int, q: int, group: tuple[int, ...]) -> Tree:
        """The contest of turns of ``group`` (play order) for both places, played out."""
        key = (o, q, group)
        hit = self._places.get(key)
        if hit is None:
            hit = self._places[key] = self._two_places(o, q, group)
        return hit

    def _two_places(self, o: int, q: int, group: tuple[int, ...]) -> Tree:
        n, k, rules = self.n, len(group), self.rules
        scores = np.asarray(turn_graph(rules).scores)
        lines = scores[score_lines(len(scores), k)]
        term = np.zeros((len(lines), 2 * n))
        again = np.zeros(len(lines), dtype=bool)
        known: dict[tuple[int, ...], np.ndarray] = {}
        for row, line in enumerate(lines):
            numbers = tuple(int(x) for x in line)
            hit = known.get(numbers)
            if hit is None:
                through, straddle, free = select_through(group, numbers, 2)
                if straddle == group:
                    again[row] = True
                    continue
                if not straddle:
                    hit = self.prize(o, q, through)
                elif free == 1:
                    hit = self.one_place(o, q, through[0], straddle)
                else:
                    hit = self.two_places(o, q, straddle)
                known[numbers] = hit
            term[row] = hit
        pols = self.policies_of(o, group)
        seats = [
            seat_for(rules, pol, k, p, group[p], n + group[p], True) for p, pol in enumerate(pols)
        ]
        u = np.zeros(2 * n)
        u[list(group)] = 1.0 / k
        u[[n + g for g in group]] = 2.0 / k
        return settle_contest(rules, seats, term, again, u, "the contest for the final's places")

    # -- the final --------------------------------------------------------------------------
    def final(self, a: int, b: int) -> Final:
        """The final between seats ``a < b`` (solved once per pair)."""
        hit = self._finals.get((a, b))
        if hit is None:
            hit = self._finals[(a, b)] = _final(self.rules, self.policies, (a, b))
        return hit

    def final_starter(self, scores: tuple[int, ...]) -> int:
        """The place that starts the final after a second round of ``scores`` (by place)."""
        if self.rules.rotation is Rotation.LOSER:
            return scores.index(min(scores))
        return rotation_step(self.rules) % self.n


def _ranks(totals: tuple[int, ...]) -> tuple[int, ...]:
    """Per place, how many totals stand above it (the order that decides the selection)."""
    return tuple(sum(1 for u in totals if u > t) for t in totals)


def _final(rules: Rules, policies: tuple[Policy, ...], pair: tuple[int, int]) -> Final:
    """The final of ``pair`` from every starter: a fixed point over the starters."""
    n = len(policies)
    scores = np.asarray(turn_graph(rules).scores)
    x = scores[score_lines(len(scores), 2)]  # (L, 2) in the final's play order
    first, second = x[:, 0], x[:, 1]
    orders = [tuple(sorted(pair, key=lambda seat: (seat - s) % n)) for s in range(n)]
    if rules.rotation is Rotation.LOSER:
        # ``rotation._loser``: a final without a winner has its two scores level, so the first
        # of the lowest is the final's first player, who starts the next one.
        nxt = [orders[s][0] for s in range(n)]
    else:
        nxt = [(s + rotation_step(rules)) % n for s in range(n)]
    failed = (first == 0) & (second == 0)
    tie = (first == second) & ~failed
    same = failed & (rules.all_fail is AllFail.REPLAY)
    on = (failed & ~same) | (tie & (rules.tie_break is TieBreak.NO_WINNER))
    terms = []
    for s in range(n):
        won = np.zeros((len(x), 2))
        won[first > second, 0] = won[second > first, 1] = 1.0
        if rules.tie_break is TieBreak.CARGO_ROLLOFF:
            won[tie] = 0.5
        elif rules.tie_break is TieBreak.REPLAY:
            won[tie] = tie_shares(rules, tuple(policies[seat] for seat in orders[s]))
        terms.append(won if orders[s][0] == pair[0] else won[:, ::-1])
    term = np.stack(terms)  # (n, L, 2) in pair order
    seats = [
        [
            seat_for(rules, policies[seat], 2, p, pair.index(seat), -1, False)
            for p, seat in enumerate(orders[s])
        ]
        for s in range(n)
    ]
    u = np.full((n, 2), 0.5)
    before: list[tuple[np.ndarray, ...]] | None = None
    for _ in range(MAX_POLICY_ITERATIONS):
        leaves = term + same[None, :, None] * u[:, None, :] + on[None, :, None] * u[nxt][:, None]
        trees = [play_contest(rules, seats[s], leaves[s : s + 1]) for s in range(n)]
        dists = [t.dists for t in trees]
        if before is not None and all(
            np.array_equal(a, b) for da, db in zip(dists, before) for a, b in zip(da, db)
        ):
            return Final(pair, u, tuple(trees))
        before = dists
        mass = np.stack([leaf_mass(t)[0] for t in trees])  # (n, L)
        back = np.zeros((n, n))
        back[np.arange(n), np.arange(n)] += mass @ same
        np.add.at(back, (np.arange(n), np.asarray(nxt)), mass @ on)
        root = np.stack([t.root[0] for t in trees])
        try:
            u = np.linalg.solve(np.eye(n) - back, root - back @ u)
        except np.linalg.LinAlgError:
            raise SolverError(f"the final under {rules} never ends: nobody ever wins it") from None
    raise SolverError(f"the final under {rules} did not settle in {MAX_POLICY_ITERATIONS} rounds")


# -- turns of the final and of a contest for a place --------------------------------------------


def _contest(model: TournamentModel, view: MatchView) -> tuple[Tree, int, int, float]:
    """The contest of a view played out: tree, the entries of the player at the table (match,
    second) and the prize a win of a one-place contest is worth in the match."""
    n, me = model.n, view.place
    if view.contest is ContestKind.FINAL:
        a, b = sorted((view.starter + p) % n for p in view.seats)
        fin = model.final(a, b)
        k = (a, b).index((view.starter + me) % n)
        return fin.trees[view.starter], k, k, 1.0
    if view.contest is not ContestKind.FINAL_PLACES:
        raise SolverError(f"a {view.contest.value} contest is not the tournament's")
    o = view.starter % model.period
    q = model.final_starter(view.round_scores)
    if view.slots == 2:
        return model.places_tree(o, q, view.seats), me, n + me, 1.0
    k = view.seats.index(me)
    worth = float(model.prize(o, q, (view.selected[0], me))[me])
    return tie_contest(model.rules, model.policies_of(o, view.seats)), k, k, worth


def contest_rewards(model: TournamentModel, view: MatchView) -> tuple[np.ndarray, np.ndarray]:
    """(match, second) reward per final score of a turn of the final or of a places contest
    (second: the chance to win the final, or to win a place in it)."""
    tree, own, second, worth = _contest(model, view)
    s = len(model.scores)
    node = node_of(view.posted, tuple(int(x) for x in model.scores))
    leaves = tree.values[len(view.posted) + 1][0, node * s : (node + 1) * s]
    return leaves[:, own] * worth, leaves[:, second]


def contest_distribution(model: TournamentModel, view: MatchView) -> np.ndarray:
    """The score distribution the solved play has at a turn of the final or a places contest."""
    tree = _contest(model, view)[0]
    node = node_of(view.posted, tuple(int(x) for x in model.scores))
    out: np.ndarray = tree.dists[len(view.posted)][0, node]
    return out
